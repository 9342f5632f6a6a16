"""Our engine against micrograd 0.1.0 on the same work, each comparison interleaved.

Both sides run the very same code (`xor_epoch`, `wide_sum`) with a different `Value`
class. micrograd has no tanh, so one is added to it in micrograd's own style: a closure
that captures its output, as every micrograd op does.
"""

from __future__ import annotations

import contextlib
import gc
import math
import statistics
import sys
import time

import numpy as np
from micrograd.engine import Value as MicrogradValue

from engine.core.value import Value as OurValue
from engine.lesson.nn import train_xor

XOR = (((0.0, 0.0), 0.0), ((0.0, 1.0), 1.0), ((1.0, 0.0), 1.0), ((1.0, 1.0), 0.0))


def _micrograd_tanh(self):
    t = math.tanh(self.data)
    out = MicrogradValue(t, (self,), "tanh")

    def _backward():
        self.grad += (1 - t * t) * out.grad
    out._backward = _backward
    return out


if not hasattr(MicrogradValue, "tanh"):
    MicrogradValue.tanh = _micrograd_tanh


def make_parameters(value_class, seed: int = 0) -> list:
    """The lesson's start (seed 0), as Values of `value_class`."""
    return [value_class(v) for v in np.random.default_rng(seed).uniform(-1, 1, 9).tolist()]


def xor_epoch(params: list, lr: float = 0.1) -> float:
    """One epoch of the 2-2-1 tanh network: forward over the 4 rows, the summed squared
    loss, zero-grad, backward, update. Returns the loss."""
    w11, w12, b1, w21, w22, b2, v1, v2, c = params
    loss = None
    for (x1, x2), target in XOR:
        h1 = (w11 * x1 + w12 * x2 + b1).tanh()
        h2 = (w21 * x1 + w22 * x2 + b2).tanh()
        out = (v1 * h1 + v2 * h2 + c).tanh()
        error = (out - target) ** 2
        loss = error if loss is None else loss + error
    for p in params:
        p.grad = 0.0
    loss.backward()
    for p in params:
        p.data -= lr * p.grad
    return loss.data


def wide_sum(value_class, n: int = 1000) -> float:
    """Σ a_i b_i over n pairs of leaves, then backward."""
    a = [value_class(0.001 * i) for i in range(n)]
    b = [value_class(1.0 - 0.001 * i) for i in range(n)]
    total = a[0] * b[0]
    for x, y in zip(a[1:], b[1:]):
        total = total + x * y
    total.backward()
    return a[-1].grad


def compare(ours, theirs, blocks: int, runs: int = 1) -> dict:
    """Time the two sides in alternate blocks of `runs` calls, `blocks` blocks each.

    The ms are medians over blocks of the time per call; the speed-up is the median of
    the block pairs' ratios: each pair ran back to back, so a slow spell of a shared
    machine slows both sides alike. Blocks rather than single calls, because
    micrograd's garbage is collected when the next allocations trigger the collector:
    alternated call by call, our side would often pay for collecting micrograd's.
    """
    mine, other = [], []
    for _ in range(blocks):
        t0 = time.perf_counter()
        for _ in range(runs):
            ours()
        t1 = time.perf_counter()
        for _ in range(runs):
            theirs()
        t2 = time.perf_counter()
        mine.append((t1 - t0) / runs)
        other.append((t2 - t1) / runs)
    ratios = [o / m for m, o in zip(mine, other)]
    return {"ours_ms": statistics.median(mine) * 1e3,
            "micrograd_ms": statistics.median(other) * 1e3,
            "speedup": statistics.median(ratios)}


@contextlib.contextmanager
def deep_recursion():
    """micrograd sorts the graph recursively, and a sum of 1,000 terms is 2,000 frames
    deep: raise Python's recursion limit while it runs, and put it back after."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def measure(quick: bool = False) -> dict:
    with deep_recursion():
        return _measure(quick)


def _measure(quick: bool) -> dict:
    ours_p, theirs_p = make_parameters(OurValue), make_parameters(MicrogradValue)
    epoch = compare(lambda: xor_epoch(ours_p), lambda: xor_epoch(theirs_p),
                    30 if quick else 200, 20)
    training = train_xor(epochs=10**9)  # the engine's own generator, as the app runs it
    theirs_t = make_parameters(MicrogradValue)
    train_epoch = compare(lambda: next(training), lambda: xor_epoch(theirs_t),
                          30 if quick else 200, 20)
    epochs = 300 if quick else 3000
    ours_run = make_parameters(OurValue)
    theirs_run = make_parameters(MicrogradValue)
    run = compare(lambda: [xor_epoch(ours_run) for _ in range(epochs)],
                  lambda: [xor_epoch(theirs_run) for _ in range(epochs)], 5 if quick else 9)
    wide = compare(lambda: wide_sum(OurValue), lambda: wide_sum(MicrogradValue),
                   5 if quick else 15, 5)
    return {"xor_epoch": epoch, "train_xor_epoch": train_epoch,
            f"xor_{epochs}_epochs": run, "wide_sum_1000": wide}


def gc_pauses(value_class, epochs: int) -> dict:
    """Collections the garbage collector ran while training, and their total time."""
    params = make_parameters(value_class)
    pauses: list[float] = []
    started: list[float] = []

    def watch(phase, info):
        if phase == "start":
            started.append(time.perf_counter())
        elif started:
            pauses.append(time.perf_counter() - started.pop())

    gc.collect()
    gc.callbacks.append(watch)
    try:
        for _ in range(epochs):
            xor_epoch(params)
    finally:
        gc.callbacks.remove(watch)
    return {"collections": len(pauses), "total_ms": sum(pauses) * 1e3,
            "longest_ms": max(pauses, default=0.0) * 1e3}


def report(rows: dict) -> str:
    lines = ["against micrograd 0.1.0 (median ms per call; sides alternated in blocks; "
             "speed-up = median of the block pairs' ratios)",
             f"{'work':>22} {'ours':>10} {'micrograd':>10} {'speed-up':>9}"]
    for name, r in rows.items():
        lines.append(f"{name:>22} {r['ours_ms']:>10.3f} {r['micrograd_ms']:>10.3f} "
                     f"{r['speedup']:>8.1f}×")
    return "\n".join(lines)
