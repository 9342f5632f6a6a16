"""`main.py grad`: every input's gradient, optionally checked or computed with a bug."""

from __future__ import annotations

import argparse
import json
import math
import sys

from cli.common import CommandError, load_program
from engine import ExpressionError
from engine.checks.central_difference import TooMuchWork, central_differences
from engine.core.engines import CORRECT
from engine.core.pitfalls import PITFALLS, pitfall_named
from engine.core.stepping import Stepper
from engine.numbers import not_finite, number


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE|-", help="a .expr program, or - for standard input")
    parser.add_argument("--tf", action="store_true",
                        help="add TensorFlow's gradients (tf.GradientTape, float64)")
    parser.add_argument("--fd", action="store_true",
                        help="add central differences (h = 1e-6)")
    parser.add_argument("--pitfall", choices=tuple(PITFALLS),
                        help="compute the gradients with one of the classic bugs switched on")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def gradient_report(args: argparse.Namespace) -> dict:
    """The contract's object: {"output": {...}, "inputs": {name: {...}}}."""
    program = load_program(args.file)
    # the stepper's plan applies the same rules in the same order as backward(), with
    # the chosen bug if any, so one code path serves both
    engine = pitfall_named(args.pitfall) if args.pitfall else CORRECT
    Stepper(program.output, engine).run_to_end()
    inputs = {}
    for name, leaf in program.inputs.items():
        if not math.isfinite(leaf.grad):
            line, col = program.position(leaf)
            raise ExpressionError(
                f"the gradient with respect to '{name}' is too large to represent", line, col)
        inputs[name] = {"value": leaf.data, "grad": leaf.grad}
    if args.tf:
        from engine.checks import tensorflow_check

        for name, grad in tensorflow_check.gradients(program).items():
            _put(inputs[name], "tf", grad)
    if args.fd:
        try:
            differences = central_differences(program, progress=_progress)
        except TooMuchWork as e:
            raise CommandError(f"--fd: {e}") from None
        for name in inputs:
            if differences[name] is None:  # x ± h leaves the program's domain (log near 0)
                inputs[name]["fd"] = None
                inputs[name]["fd_reason"] = OUT_OF_DOMAIN
            else:
                _put(inputs[name], "fd", differences[name])
    return {"output": {"name": program.output_name, "value": program.output.data},
            "inputs": inputs}


OUT_OF_DOMAIN = "not computable: x ± h leaves the program's domain"


def _progress(done: int, total: int) -> None:
    print(f"central differences: {done:,} of {total:,} inputs…", file=sys.stderr, flush=True)


def _put(row: dict, key: str, x: float) -> None:
    """`row[key] = x`; a number that is not finite (a central difference that overflows,
    TensorFlow's nan) is null, with the reason in `row[key + "_reason"]`: JSON has no
    inf or nan."""
    if math.isfinite(x):
        row[key] = x
    else:
        row[key] = None
        row[key + "_reason"] = not_finite(x)


def _cell(row: dict, key: str) -> str:
    x = row.get(key)
    if x is None:
        reason = row.get(key + "_reason")
        return reason or "n/a"
    return number(x, 10)


def format_table(report: dict) -> str:
    out = report["output"]
    lines = [f"output {out['name']} = {number(out['value'], 10)}"]
    inputs = report["inputs"]
    if not inputs:
        return lines[0] + "\n(no inputs)"
    extra = [k for k in ("tf", "fd") if any(k in row for row in inputs.values())]
    header = ["input", "value", "grad", *extra]
    rows = [[name] + [_cell(row, k) for k in header[1:]] for name, row in inputs.items()]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, *rows]:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    report = gradient_report(args)
    if args.json:
        print(json.dumps(report, allow_nan=False))
    else:
        print(format_table(report))
    return 0

