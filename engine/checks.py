"""Independent checks of a gradient: the central difference."""

from __future__ import annotations

from engine.errors import ExpressionError
from engine.language import Program

DEFAULT_H = 1e-6


def central_difference(program: Program, name: str, h: float = DEFAULT_H) -> float | None:
    """(f(x + h) - f(x - h)) / 2h for the input `name` of `program`.

    Returns None when the program cannot be evaluated at x - h or x + h (the step
    leaves the domain, as for log near 0). KeyError if `name` is not an input.
    """
    x = program.inputs[name].data
    try:
        up = program.rebuild(**{name: x + h}).output.data
        down = program.rebuild(**{name: x - h}).output.data
    except ExpressionError:
        return None
    return (up - down) / (2.0 * h)
