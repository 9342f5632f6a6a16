"""Every derivative rule checked three ways: autograd, calculus and a central difference.

Each case is a one-input program of the expression language, so the check runs the same
parser and engine a user's program does. The errors against the central difference are
the finite difference's own: with h = 1e-6 it is accurate to roughly 1e-10 (truncation
h^2 f'''/6 plus round-off eps |f| / h), while autograd applies each rule exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.checks.central_difference import DEFAULT_H, central_difference
from engine.core import ops
from engine.language import parse

TOLERANCE = 1e-9  # the lesson's dashed line


RuleCase = ops.RuleRow  # a rule's row: name, one-input program, calculus, formula

# every op's rows from the op table, then two that are about the chain rule itself
CASES = tuple(row for op in ops.OPS for row in op.rules) + (
    RuleCase("chain: tanh(x³ + 3x)", "x = 0.5\ny = tanh(x**3 + 3*x)",
             lambda x: (1 - math.tanh(x**3 + 3 * x) ** 2) * (3 * x * x + 3),
             "(1 - tanh²(x³ + 3x))(3x² + 3)"),
    RuleCase("shared node: a·a", "a = 1.5\ny = a * a", lambda a: 2 * a, "2a"),
)


@dataclass(frozen=True)
class RuleError:
    """One case's numbers: the gradient three ways and the absolute differences."""

    name: str
    x: float
    autograd: float
    analytic: float
    central: float
    error_fd: float        # |autograd - central difference|
    error_analytic: float  # |autograd - analytic|
    formula: str


def rule_errors(h: float = DEFAULT_H) -> list[RuleError]:
    """Check every case in CASES; returns one RuleError per case, in CASES order."""
    rows = []
    for case in CASES:
        program = parse(case.program)
        program.output.backward()
        (name, leaf), = program.inputs.items()
        grad = leaf.grad
        fd = central_difference(program, name, h)
        exact = case.analytic(leaf.data)
        rows.append(RuleError(case.name, leaf.data, grad, exact, fd, abs(grad - fd),
                              abs(grad - exact), case.formula))
    return rows


def worst(rows: list[RuleError]) -> RuleError:
    """The case with the largest error against the central difference."""
    return max(rows, key=lambda r: r.error_fd)
