"""Forward mode against reverse mode, measured on one function with both machineries.

The function is the lesson's neuron widened to N inputs: L(w) = (tanh(Σ w_i x_i + b) - y)²,
with the N weights as the parameters and x, b, y fixed (drawn by a seeded random
generator). Reverse mode builds the Value graph once and runs one backward pass; forward
mode runs N passes of dual numbers, each with its tangent along one weight. Both are
plain Python objects with the same rules, so the ratio measures the modes, not the
implementations.

`timing_sweep` is a generator: it yields a `SweepProgress` record every ~0.1 s of work and a
`SweepRow` per size, so a caller can stop it between yields (the GUI's Cancel).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from engine.core.forward_mode import Dual
from engine.core.value import Value

SIZES = (2, 5, 10, 20, 50, 100, 200, 400, 800, 1600)
PASSES_SIZES = (2, 100, 10_000, 1_000_000)
REPEATS = 3
SLICE_S = 0.1  # the most work done between two yields


@dataclass(frozen=True)
class Problem:
    """The neuron with `n` inputs: weights w (the parameters), data x, bias b, target y."""

    w: tuple[float, ...]
    x: tuple[float, ...]
    b: float
    y: float

    @classmethod
    def make(cls, n: int, seed: int = 0) -> Problem:
        rng = random.Random(seed * 1_000_003 + n)
        scale = 1.0 / n ** 0.5  # keeps Σ w x of order 1, so tanh is not saturated
        return cls(tuple(rng.uniform(-1, 1) * scale for _ in range(n)),
                   tuple(rng.uniform(-1, 1) for _ in range(n)), 0.1, 1.0)


def neuron_loss(weights: Sequence, x: Sequence[float], b: float, y: float):
    """(tanh(Σ w_i x_i + b) - y)² for weights that are Values or Duals alike."""
    z = weights[0] * x[0]
    for w, xi in zip(weights[1:], x[1:]):
        z = z + w * xi
    return ((z + b).tanh() - y) ** 2


def reverse_mode_gradient(problem: Problem) -> list[float]:
    """The gradient by one forward pass building the graph and one backward pass."""
    weights = [Value(w) for w in problem.w]
    neuron_loss(weights, problem.x, problem.b, problem.y).backward()
    return [w.grad for w in weights]


def forward_pass(problem: Problem, i: int) -> float:
    """dL/dw_i by one forward pass of dual numbers with tangent 1 along w_i."""
    weights = [Dual(w, 1.0 if j == i else 0.0) for j, w in enumerate(problem.w)]
    return neuron_loss(weights, problem.x, problem.b, problem.y).tangent


def forward_mode_gradient(problem: Problem) -> list[float]:
    """The gradient by forward mode: one pass per parameter."""
    return [forward_pass(problem, i) for i in range(len(problem.w))]


@dataclass(frozen=True)
class SweepRow:
    """One size: median milliseconds per full gradient in each mode, their ratio, and
    the largest |forward - reverse| over the gradient's components."""

    n: int
    forward_ms: float
    reverse_ms: float
    ratio: float
    max_difference: float


@dataclass(frozen=True)
class SweepProgress:
    """How far the sweep is: `done` of `total` units of work, now timing size `n`."""

    done: float
    total: float
    n: int


def _work_units(sizes: Sequence[int]) -> float:
    return float(sum(n * n + n for n in sizes))  # forward mode is O(n²), reverse O(n)


def timing_sweep(sizes: Sequence[int] = SIZES, repeats: int = REPEATS,
                 seed: int = 0) -> Iterator[SweepProgress | SweepRow]:
    """Time a full gradient in both modes at each size (median of `repeats`), yielding
    SweepProgress records between slices of work and one SweepRow per size.

    Only the gradient computations are timed; the time spent yielding is not.
    """
    total = _work_units(sizes) * repeats
    done = 0.0
    for n in sizes:
        problem = Problem.make(n, seed)
        forward_times, reverse_times = [], []
        for _ in range(repeats):
            t0 = time.perf_counter()
            reverse = reverse_mode_gradient(problem)
            reverse_times.append(time.perf_counter() - t0)
            elapsed, forward, since_yield = 0.0, [], 0.0
            for i in range(n):
                t0 = time.perf_counter()
                forward.append(forward_pass(problem, i))
                spent = time.perf_counter() - t0
                elapsed += spent
                since_yield += spent
                if since_yield > SLICE_S:
                    since_yield = 0.0
                    yield SweepProgress(done + (i + 1) * n, total, n)
            forward_times.append(elapsed)
            done += n * n + n
            yield SweepProgress(done, total, n)
        fwd = statistics.median(forward_times) * 1000.0
        rev = statistics.median(reverse_times) * 1000.0
        diff = max(abs(f - r) for f, r in zip(forward, reverse))
        yield SweepRow(n, fwd, rev, fwd / rev if rev > 0 else float("inf"), diff)


def sweep_rows(sizes: Sequence[int] = SIZES, repeats: int = REPEATS,
               seed: int = 0) -> list[SweepRow]:
    """The whole sweep at once (for the CLI and the report)."""
    return [r for r in timing_sweep(sizes, repeats, seed) if isinstance(r, SweepRow)]


@dataclass(frozen=True)
class PassesRow:
    parameters: int
    forward_passes: int
    reverse_passes: int


def passes_table(sizes: Sequence[int] = PASSES_SIZES) -> list[PassesRow]:
    """Passes for a full gradient of one scalar output: N forward, 1 reverse."""
    return [PassesRow(n, n, 1) for n in sizes]


def break_even(rows: Sequence[SweepRow]) -> float | None:
    """The parameter count where forward mode stops being cheaper than reverse mode,
    interpolated on log scales between the sizes either side; None if it never does,
    the smallest size if forward mode is never cheaper."""
    ordered = sorted(rows, key=lambda r: r.n)
    if not ordered:
        return None
    if ordered[0].ratio >= 1.0:
        return float(ordered[0].n)
    for a, b in zip(ordered, ordered[1:]):
        if a.ratio < 1.0 <= b.ratio:
            t = (0.0 - math.log(a.ratio)) / (math.log(b.ratio) - math.log(a.ratio))
            return math.exp(math.log(a.n) + t * (math.log(b.n) - math.log(a.n)))
    return None


@dataclass(frozen=True)
class BreakEven:
    """Where reverse mode stops being dearer, in words: `at` is where the timing curves
    cross (None if they never do), `label` a few words for the plot, `sentence` the
    explanation. A parameter count is a whole number, so the crossing, interpolated
    between two sizes timed, is given with the first whole count past it."""

    at: float | None
    label: str
    sentence: str


def break_even_words(rows: Sequence[SweepRow]) -> BreakEven:
    """`break_even(rows)` said so that a fractional crossing reads right."""
    ordered = sorted(rows, key=lambda r: r.n)
    at = break_even(ordered)
    if at is None:
        return BreakEven(None, "", "Forward mode was the cheaper at every size timed.")
    if at == ordered[0].n and ordered[0].ratio >= 1.0:
        return BreakEven(at, f"reverse cheaper from N = {ordered[0].n:,}",
                         f"Reverse mode is already as cheap or cheaper at the smallest size "
                         f"timed, N = {ordered[0].n:,}.")
    below = max(r.n for r in ordered if r.n < at)
    above = min(r.n for r in ordered if r.n > at)
    first = math.ceil(at - 1e-9)
    return BreakEven(at, f"curves cross at N ≈ {at:.3g}",
                     f"The timing curves cross at N ≈ {at:.3g} (interpolated on the log-log "
                     f"plot between the sizes timed, {below:,} and {above:,}); a network has a "
                     f"whole number of parameters, so from N = {first:,} on reverse mode is "
                     f"the cheaper.")
