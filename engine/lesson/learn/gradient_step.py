"""Exercise 4 and Step → Apply one gradient step: w ← w − η·dL/dw for chosen inputs,
and the program's text rewritten with the new values."""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.errors import ExpressionError
from engine.language import Program
from engine.language.tokens import NAME, NUM, Lines, tokenize

DATA_PREFIXES = ("x", "y", "target")  # inputs that are data, not parameters, by default


@dataclass(frozen=True)
class GradientStep:
    """One step of gradient descent: the inputs updated, their values before and
    after, their gradients, and the output before and after."""

    eta: float
    before: dict
    gradients: dict
    after: dict
    loss_before: float
    loss_after: float


def default_parameters(program: Program) -> list[str]:
    """The inputs a step updates unless told otherwise: all but those named like
    data (x…, y…, target…); all of them if that leaves none."""
    names = [n for n in program.inputs if not n.lower().startswith(DATA_PREFIXES)]
    return names or list(program.inputs)


def gradient_step(program: Program, eta: float, names: list[str]) -> GradientStep:
    """Take one step of size `eta` on the inputs `names`, from a fresh backward pass
    (the program itself is not touched). Raises KeyError for a name that is not an
    input, ValueError for a learning rate that is not a finite number, and
    ExpressionError if the program cannot be computed at the new point."""
    if not math.isfinite(eta):
        raise ValueError("the learning rate must be a finite number")
    for name in names:
        if name not in program.inputs:
            raise KeyError(name)
    copy = program.rebuild()
    copy.output.backward()
    before = {n: copy.inputs[n].data for n in names}
    grads = {n: copy.inputs[n].grad for n in names}
    # 15 significant digits: -0.3 + 0.4 is written 0.1, not 0.10000000000000003 (the
    # round-off of the subtraction, not the step); the loss after is taken at them
    after = {n: float(f"{before[n] - eta * grads[n]:.15g}") for n in names}
    for n, v in after.items():
        if not math.isfinite(v):
            raise ExpressionError(f"the step takes {n} to {v}: lower the learning rate")
    stepped = program.rebuild(**after)
    return GradientStep(eta, before, grads, after, copy.output.data, stepped.output.data)


def with_inputs(program: Program, values: dict[str, float]) -> str:
    """The program's text with the literals of the inputs in `values` replaced by the
    new values (each the shortest text that reads back as the same float), everything
    else as it was."""
    text = program.source
    lines = Lines(text)
    tokens = tokenize(text, lines)
    where = {}
    for name in values:
        ins = program.instructions[program._name_index[name]]
        where[(ins.line, ins.col)] = name
    edits = []
    for i, (kind, _, offset) in enumerate(tokens):
        name = where.get(lines.locate(offset)) if kind == NAME else None
        if name is None:
            continue
        j = i + 2  # past the name and '='
        start = tokens[j][2]
        if tokens[j][1] in ("+", "-"):
            j += 1
        if tokens[j][0] != NUM:  # not a literal: cannot happen for an input
            continue
        edits.append((start, tokens[j][2] + len(tokens[j][1]), repr(float(values[name]))))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text
