"""Exercise 2: a learner's hand derivative of a one-input program against autodiff,
over a range of the input."""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.errors import ExpressionError
from engine.language import Program, parse
from engine.lesson.learn.formula import Formula

LESSON_FUNCTION = "tanh(x**3 + 3*x)"
LESSON_DERIVATIVE = "(1 - tanh(x**3 + 3*x)**2) * (3*x**2 + 3)"
# a derivative that forgets the inner function's factor: wrong almost everywhere, and
# indistinguishable from the right one where tanh is flat
FORGETFUL_DERIVATIVE = "1 - tanh(x**3 + 3*x)**2"
MAX_POINTS = 2_001
NODE_BUDGET = 200_000  # nodes evaluated in all (points x program size): well under a second


def chain_agrees(x: float, y: float) -> bool:
    return math.isclose(x, y, rel_tol=1e-8, abs_tol=1e-10)


@dataclass(frozen=True)
class ChainComparison:
    """Autodiff's and the hand derivative at each x of the range (points where either
    cannot be computed are left out and counted in `skipped`)."""

    name: str                       # the input's name
    xs: tuple[float, ...]
    autodiff: tuple[float, ...]
    hand: tuple[float, ...]
    skipped: int

    @property
    def differences(self) -> tuple[float, ...]:
        return tuple(h - a for h, a in zip(self.hand, self.autodiff))

    @property
    def worst(self) -> int | None:
        """The index of the largest |hand - autodiff|, None if no point was computed."""
        diffs = [abs(d) for d in self.differences]
        return max(range(len(diffs)), key=diffs.__getitem__) if diffs else None

    @property
    def ok(self) -> bool:
        return bool(self.xs) and all(chain_agrees(h, a) for h, a in zip(self.hand, self.autodiff))


def one_input_program(text: str) -> Program:
    """Parse `text` (a program, or one bare expression) that has exactly one input;
    a bare expression's free name x is declared for it. Raises ExpressionError."""
    try:
        program = parse(text)
    except ExpressionError as e:
        if "'x' is not defined" in e.message and "=" not in text:
            program = parse("x = 0.5; " + text)  # a bare expression in x
        else:
            raise
    if len(program.inputs) != 1:
        raise ExpressionError(f"the program has {len(program.inputs)} inputs; this "
                              "check needs exactly one (e.g. x = 0.5)")
    return program


def autodiff_derivative(program: Program, x: float) -> float:
    """d(output)/d(input) at `x` by a fresh backward pass. Raises ExpressionError."""
    (name,) = program.inputs
    copy = program.rebuild(**{name: x})
    copy.output.backward()
    return copy.inputs[name].grad


def compare(function_text: str, derivative_text: str, lo: float, hi: float,
            n: int = 401) -> ChainComparison:
    """Autodiff against the learner's derivative at `n` evenly spaced x in [lo, hi]
    (fewer for a program so big that `n` points would exceed NODE_BUDGET nodes).
    Raises ExpressionError for a function or derivative outside the language, and
    ValueError for an empty or inverted range."""
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise ValueError("the range needs two finite numbers, the first below the second")
    program = one_input_program(function_text)
    # a big program gets fewer points, so that the check stays quick
    n = max(2, min(n, MAX_POINTS, NODE_BUDGET // len(program.values)))
    (name,) = program.inputs
    hand = Formula(derivative_text, (name,))
    xs, ad, hd, skipped = [], [], [], 0
    for i in range(n):
        x = lo + (hi - lo) * i / (n - 1)
        try:
            a, h = autodiff_derivative(program, x), hand(x)
        except ExpressionError:
            skipped += 1
            continue
        xs.append(x)
        ad.append(a)
        hd.append(h)
    return ChainComparison(name, tuple(xs), tuple(ad), tuple(hd), skipped)


@dataclass(frozen=True)
class SaturatedCheck:
    """The lesson's chain at one x, printed to 10 decimals: autodiff, the right
    derivative and one that forgets the inner factor."""

    x: float
    autodiff: float
    right: float
    forgetful: float


def saturated_check(x: float = 2.0) -> SaturatedCheck:
    """Why a check at x = 2 proves nothing: there tanh is flat, and every candidate
    derivative, right or wrong, is 0 to ten decimals."""
    program = one_input_program(LESSON_FUNCTION)
    return SaturatedCheck(x, autodiff_derivative(program, x),
                          Formula(LESSON_DERIVATIVE, ("x",))(x),
                          Formula(FORGETFUL_DERIVATIVE, ("x",))(x))
