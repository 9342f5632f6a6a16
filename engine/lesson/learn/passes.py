"""Exercise 6: count the passes. The lesson's neuron widened to N weights is
differentiated by forward mode (one pass of dual numbers per weight) and by reverse
mode (one backward pass), each pass counted as it runs and timed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from engine.lesson.modes import Problem, forward_pass, reverse_mode_gradient

MAX_N = 2_000
SLICE_S = 0.1


@dataclass(frozen=True)
class PassProgress:
    """Forward mode has made `done` of its `n` passes."""

    done: int
    n: int


@dataclass(frozen=True)
class PassCount:
    """Both modes on the neuron with `n` weights: passes made, milliseconds, and the
    largest |forward − reverse| over the gradient."""

    n: int
    forward_passes: int
    reverse_passes: int
    forward_ms: float
    reverse_ms: float
    max_difference: float

    @property
    def ratio(self) -> float:
        return self.forward_ms / self.reverse_ms if self.reverse_ms > 0 else float("inf")


def count_passes(n: int, seed: int = 0) -> Iterator[PassProgress | PassCount]:
    """Differentiate the widened neuron both ways, yielding PassProgress about every
    SLICE_S of forward mode and one PassCount at the end. ValueError unless
    1 <= n <= MAX_N."""
    if not 1 <= n <= MAX_N:
        raise ValueError(f"N must be between 1 and {MAX_N:,}")
    problem = Problem.make(n, seed)
    reverse_passes = 0
    t0 = time.perf_counter()
    reverse = reverse_mode_gradient(problem)
    reverse_passes += 1
    reverse_ms = (time.perf_counter() - t0) * 1000.0
    forward, spent, since = [], 0.0, 0.0
    for i in range(n):
        t0 = time.perf_counter()
        forward.append(forward_pass(problem, i))
        dt = time.perf_counter() - t0
        spent += dt
        since += dt
        if since > SLICE_S:
            since = 0.0
            yield PassProgress(i + 1, n)
    diff = max(abs(f - r) for f, r in zip(forward, reverse))
    yield PassCount(n, len(forward), reverse_passes, spent * 1000.0, reverse_ms, diff)
