"""Every derivative rule checked three ways: autograd, calculus and a central difference.

Each case is a one-input program of the expression language, so the check runs the same
parser and engine a user's program does. The errors against the central difference are
the finite difference's own: with h = 1e-6 it is accurate to roughly 1e-10 (truncation
h^2 f'''/6 plus round-off eps |f| / h), while autograd applies each rule exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from engine.checks import DEFAULT_H, central_difference
from engine.language import parse

TOLERANCE = 1e-9  # the lesson's dashed line


@dataclass(frozen=True)
class RuleCase:
    name: str
    program: str
    analytic: Callable[[float], float]
    formula: str  # the analytic derivative as a learner writes it


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


CASES = (
    RuleCase("add", "x = 1.5\ny = x + 2.5", lambda x: 1.0, "1"),
    RuleCase("multiply", "x = 1.5\ny = x * 2.0", lambda x: 2.0, "2"),
    RuleCase("power (cube)", "x = 1.5\ny = x**3", lambda x: 3 * x * x, "3x²"),
    RuleCase("tanh", "x = 0.5\ny = tanh(x)", lambda x: 1 - math.tanh(x) ** 2, "1 - tanh²(x)"),
    RuleCase("relu (x > 0)", "x = 1.5\ny = relu(x)", lambda x: 1.0, "1"),
    RuleCase("negation", "x = 1.5\ny = -x", lambda x: -1.0, "-1"),
    RuleCase("subtraction", "x = 1.5\ny = x - 2.5", lambda x: 1.0, "1"),
    RuleCase("division", "x = 1.5\ny = x / 2.5", lambda x: 0.4, "1/2.5"),
    RuleCase("exp", "x = 0.5\ny = exp(x)", math.exp, "exp(x)"),
    RuleCase("log", "x = 1.5\ny = log(x)", lambda x: 1 / x, "1/x"),
    RuleCase("sigmoid", "x = 0.5\ny = sigmoid(x)",
             lambda x: _sigmoid(x) * (1 - _sigmoid(x)), "σ(x)(1 - σ(x))"),
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
