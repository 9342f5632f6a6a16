"""`main.py train`: a 2-2-1 network learns XOR, reported in the shape of the lesson's tables."""

from __future__ import annotations

import argparse
import json
import math
import sys

from engine.nn import (
    ACTIVATIONS,
    DEFAULT_EPOCHS,
    DEFAULT_LR,
    DEFAULT_SEED,
    Epoch,
    predictions,
    rises,
    train_xor,
)

REPORTED_EPOCHS = (1, 100, 500, 1000, 2000, 3000)
EXIT_DIVERGED = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--epochs", type=int, default=DEFAULT_EPOCHS,
                        help=f"epochs to train (default {DEFAULT_EPOCHS})")
    parser.add_argument("--lr", type=float, default=DEFAULT_LR,
                        help=f"learning rate eta (default {DEFAULT_LR})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"seed of the initial weights (default {DEFAULT_SEED})")
    parser.add_argument("--hidden", type=int, default=2, choices=range(1, 9),
                        metavar="{1..8}", help="hidden units (default 2)")
    parser.add_argument("--activation", choices=ACTIVATIONS, default="tanh")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def training_report(epochs: list[Epoch], hidden: int, activation: str) -> dict:
    """The contract's object: every epoch's loss, the predictions, the rises."""
    losses = [e.loss for e in epochs]
    count, largest = rises([x for x in losses if math.isfinite(x)])
    last = epochs[-1]
    report = {
        "epochs": [{"epoch": e.epoch, "loss": _finite(e.loss)} for e in epochs],
        "predictions": [{"input": [int(a), int(b)], "output": _finite(out), "target": int(t)}
                        for (a, b), out, t in predictions(last.parameters, hidden, activation)],
        "rises": count,
        "largest_rise": largest,
        "final_loss": _finite(last.loss),
    }
    if last.diverged:
        report["stopped"] = {"epoch": last.epoch,
                             "reason": "the loss is no longer a finite number"}
    return report


def format_report(report: dict, args: argparse.Namespace) -> str:
    lines = [f"A 2-{args.hidden}-1 {args.activation} network learning XOR: {args.epochs:,} "
             f"epochs, learning rate {args.lr:g}, seed {args.seed}", "",
             "Epoch   Loss (sum over the 4 rows)"]
    by_epoch = {e["epoch"]: e["loss"] for e in report["epochs"]}
    last = report["epochs"][-1]["epoch"]
    shown = [e for e in REPORTED_EPOCHS if e < last] + [last]
    for epoch in shown:
        loss = by_epoch[epoch]
        lines.append(f"{epoch:<7} {'not finite' if loss is None else f'{loss:.6f}'}")
    lines += ["", "Input    Prediction   Target"]
    for p in report["predictions"]:
        out = p["output"]
        shown_out = "not finite" if out is None else f"{out:+.4f}"
        lines.append(f"({p['input'][0]}, {p['input'][1]})   {shown_out:<12} {p['target']}")
    transitions = max(0, len(report["epochs"]) - 1)
    lines += ["", f"The loss rose on {report['rises']} of {transitions:,} epoch-to-epoch "
                  f"transitions; the largest rise was {report['largest_rise']:.6f}."]
    if "stopped" in report:
        lines.append(f"Training stopped at epoch {report['stopped']['epoch']}: "
                     f"{report['stopped']['reason']} (is the learning rate too large?).")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.epochs < 1:
        print("error: --epochs must be at least 1", file=sys.stderr)
        return 2
    epochs = list(train_xor(args.epochs, args.lr, args.seed, args.hidden, args.activation))
    report = training_report(epochs, args.hidden, args.activation)
    if args.json:
        print(json.dumps(report, allow_nan=False))
    else:
        print(format_report(report, args))
    return EXIT_DIVERGED if "stopped" in report else 0
