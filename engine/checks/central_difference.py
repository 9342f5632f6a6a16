"""Independent checks of a gradient: the central difference."""

from __future__ import annotations

from dataclasses import dataclass

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


STEP_SIZES = tuple(10.0 ** -k for k in range(1, 14))  # 1e-1 ... 1e-13


@dataclass(frozen=True)
class StepError:
    """The central difference's error at one step size h, against the reference."""

    h: float
    central: float | None  # None where the step leaves the program's domain
    error: float | None


def step_size_errors(program: Program, name: str, reference: float,
                     steps=STEP_SIZES) -> list[StepError]:
    """|central difference - reference| for each h: truncation error falls as h
    shrinks, then round-off error rises. KeyError if `name` is not an input."""
    rows = []
    for h in steps:
        fd = central_difference(program, name, h)
        rows.append(StepError(h, fd, None if fd is None else abs(fd - reference)))
    return rows
