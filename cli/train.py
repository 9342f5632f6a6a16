"""`main.py train`: a 2-2-1 network learns XOR, reported in the shape of the lesson's tables.

The run is streamed: each epoch is written (with `--json`) or summed up as it comes, so
memory stays flat whether the run is a thousand epochs or ten million.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable

from cli.common import CommandError
from engine.lesson.history import LossHistory
from engine.lesson.nn import (
    ACTIVATIONS,
    DEFAULT_ACTIVATION,
    DEFAULT_EPOCHS,
    DEFAULT_LR,
    DEFAULT_SEED,
    Epoch,
    learning_rate,
    not_learned,
    output_activation,
    predictions,
    train_xor,
)

REPORTED_EPOCHS = (1, 100, 500, 1000, 2000, 3000)
EXIT_DIVERGED = 1
BATCH = 1024  # epochs summed up (and written) together
MAX_EPOCHS = 100_000_000  # a few hours of training; more is a typo, not a run
STOPPED = "the loss is no longer a finite number"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--epochs", type=int, default=DEFAULT_EPOCHS,
                        help=f"epochs to train (default {DEFAULT_EPOCHS})")
    parser.add_argument("--lr", default=str(DEFAULT_LR), metavar="ETA",
                        help=f"learning rate eta, a positive finite number such as 0.1 or "
                             f"1e-3 (default {DEFAULT_LR})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"seed of the initial weights (default {DEFAULT_SEED}: the "
                             "lesson's run)")
    parser.add_argument("--hidden", type=int, default=2, choices=range(1, 9),
                        metavar="{1..8}", help="hidden units (default 2)")
    parser.add_argument("--activation", choices=ACTIVATIONS, default=DEFAULT_ACTIVATION,
                        help=f"the hidden units' activation (default {DEFAULT_ACTIVATION}); "
                             "the output unit uses the same, except under relu, where it is "
                             "a sigmoid")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


class Summary:
    """What the report needs from a run, gathered as the epochs pass: the rises, the
    losses at the reported epochs and the last record. Keeps no history."""

    def __init__(self):
        self.history = LossHistory(capacity=2)  # for its counters; the curve is unused
        self.reported: dict[int, float] = {}
        self.last: Epoch | None = None

    def add(self, records: list[Epoch]) -> None:
        self.history.extend([r.loss for r in records])
        for r in records:
            if r.epoch in REPORTED_EPOCHS:
                self.reported[r.epoch] = r.loss
        self.last = records[-1]


def _batches(records: Iterable[Epoch]) -> Iterable[list[Epoch]]:
    batch = []
    for record in records:
        batch.append(record)
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _tail(summary: Summary, hidden: int, activation: str) -> dict:
    """Everything of the contract's object after "epochs", in its order."""
    last = summary.last
    tail = {
        "predictions": [{"input": [int(a), int(b)], "output": _finite(out), "target": int(t)}
                        for (a, b), out, t in predictions(last.parameters, hidden, activation)],
        "rises": summary.history.rises,
        "largest_rise": summary.history.largest_rise,
        "final_loss": _finite(last.loss),
    }
    if last.diverged:
        tail["stopped"] = {"epoch": last.epoch, "reason": STOPPED}
    return tail


def _epoch_json(record: Epoch) -> str:
    loss = repr(record.loss) if math.isfinite(record.loss) else "null"  # json's own form
    return f'{{"epoch": {record.epoch}, "loss": {loss}}}'


def write_json(records: Iterable[Epoch], hidden: int, activation: str, out) -> dict:
    """Write the contract's object to `out` as the epochs come, one batch at a time, in
    exactly the form json.dumps gives; returns the object's tail (all but "epochs")."""
    summary = Summary()
    out.write('{"epochs": [')
    first = True
    for batch in _batches(records):
        summary.add(batch)
        out.write(("" if first else ", ") + ", ".join(_epoch_json(r) for r in batch))
        out.flush()
        first = False
    tail = _tail(summary, hidden, activation)
    out.write("], " + json.dumps(tail, allow_nan=False)[1:] + "\n")
    out.flush()
    return tail


def summarize(records: Iterable[Epoch], hidden: int, activation: str) -> tuple[Summary, dict]:
    """Run through `records` keeping only the summary."""
    summary = Summary()
    for batch in _batches(records):
        summary.add(batch)
    return summary, _tail(summary, hidden, activation)


def format_training_report(summary: Summary, tail: dict, args: argparse.Namespace,
                           lr: float) -> str:
    out = output_activation(args.activation)
    kind = (args.activation if out == args.activation
            else f"({args.activation} hidden units, {out} output)")
    lines = [f"A 2-{args.hidden}-1 {kind} network learning XOR: {args.epochs:,} "
             f"epochs, learning rate {lr:g}, seed {args.seed}"
             + (" (the lesson's start)" if args.seed == 0 and args.hidden == 2 else ""), "",
             "Epoch   Loss (sum over the 4 rows)"]
    last = summary.last.epoch
    shown = {e: summary.reported[e] for e in REPORTED_EPOCHS if e < last}
    shown[last] = summary.last.loss
    for epoch, loss in shown.items():
        lines.append(f"{epoch:<7} {f'{loss:.6f}' if math.isfinite(loss) else 'not finite'}")
    lines += ["", "Input    Prediction   Target"]
    for p in tail["predictions"]:
        out = p["output"]
        shown_out = "not finite" if out is None else f"{out:+.4f}"
        lines.append(f"({p['input'][0]}, {p['input'][1]})   {shown_out:<12} {p['target']}")
    transitions = max(0, last - 1)
    lines += ["", f"The loss rose on {tail['rises']} of {transitions:,} epoch-to-epoch "
                  f"transitions; the largest rise was {tail['largest_rise']:.6f}."]
    if "stopped" in tail:
        lines.append(f"Training stopped at epoch {tail['stopped']['epoch']}: "
                     f"{tail['stopped']['reason']} (is the learning rate too large?).")
    elif warning := not_learned(summary.last.parameters, args.hidden, args.activation,
                                summary.history, lr):
        lines.append(warning)
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.epochs <= MAX_EPOCHS:
        raise CommandError(f"--epochs must be 1 to {MAX_EPOCHS:,}, not {args.epochs}")
    if not 0 <= args.seed < 2**32:
        raise CommandError(f"--seed must be 0 to {2**32 - 1:,} (the seeds numpy draws from), "
                           f"not {args.seed}")
    try:
        lr = learning_rate(args.lr)
    except ValueError as e:
        raise CommandError(f"--lr: {e}") from None
    records = train_xor(args.epochs, lr, args.seed, args.hidden, args.activation)
    if args.json:
        tail = write_json(records, args.hidden, args.activation, sys.stdout)
    else:
        summary, tail = summarize(records, args.hidden, args.activation)
        print(format_training_report(summary, tail, args, lr))
    return EXIT_DIVERGED if "stopped" in tail else 0
