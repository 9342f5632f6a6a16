"""A reference derivative to float precision, for programs with no written-out calculus.

The program's instructions are evaluated in 50-digit decimal arithmetic, and the
derivative taken by a central difference with h = 1e-20: its truncation error (~h²) and
round-off (~1e-50 / h) are both far below a double's precision, so the result rounds to
the exact derivative. Used as "the analytic value" for a user's own program.
"""

from __future__ import annotations

from decimal import Decimal, localcontext

from engine.core import ops
from engine.language import Program
from engine.language.program import CONST, INPUT, POW

DIGITS = 50
H = Decimal("1e-20")


_REFERENCE = {op.name: op.reference for op in ops.OPS}  # each op in 50 digits


def evaluate(program: Program, inputs: dict[str, Decimal]) -> Decimal:
    """The program's output in decimal arithmetic, with the given inputs replaced."""
    values: list[Decimal] = []
    for ins, v in zip(program.instructions, program.values):
        if ins.op == INPUT:
            x = inputs.get(v.label, Decimal(repr(ins.number)))
        elif ins.op == CONST:
            x = Decimal(repr(ins.number))
        elif ins.op == POW:
            x = _REFERENCE[POW](values[ins.args[0]], ins.number)
        else:
            x = _REFERENCE[ins.op](*[values[a] for a in ins.args])
        values.append(x)
    return values[program.output_index]


def reference_derivative(program: Program, name: str) -> float:
    """d(output)/d(name) at the program's point, correct to a double's precision
    (away from a kink such as relu at 0). KeyError if `name` is not an input."""
    x = Decimal(repr(program.inputs[name].data))
    with localcontext() as ctx:
        ctx.prec = DIGITS
        up = evaluate(program, {name: x + H})
        down = evaluate(program, {name: x - H})
        return float((up - down) / (2 * H))
