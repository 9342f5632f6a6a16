"""A training run's loss history in bounded memory, for runs of any length.

A run of ten million epochs would need ten million floats to keep every loss, and a plot
of all of them would cost a hundred times more per frame than one of a hundred
thousand. `LossHistory` keeps instead what the tables and the plot need: the number of
epochs, the last loss, the rises (counted as the losses arrive), and the curve as
min-max buckets. Each bucket spans `width` consecutive epochs and keeps its lowest and
its highest loss with their epochs; when the buckets run out, neighbours are merged and
the width doubles. So every spike and every dip stays on the curve at its own epoch,
while memory and the points handed to a plot stay under `2 * capacity`. Runs shorter
than `capacity` epochs keep every loss exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

CAPACITY = 2048  # buckets: the plot gets at most twice as many points


class LossHistory:
    """Losses fed in order with `extend`; `points()` is the decimated curve."""

    def __init__(self, capacity: int = CAPACITY):
        if capacity < 2 or capacity % 2:
            raise ValueError("capacity must be an even number of at least 2")
        self.capacity = capacity
        self.epochs = 0               # losses seen
        self.last: float | None = None  # the latest loss, finite or not
        self.rises = 0                # transitions where the loss went up
        self.largest_rise = 0.0
        self.width = 1                # epochs per bucket
        self._previous: float | None = None  # the latest finite loss
        self._low_y = np.full(capacity, np.inf)
        self._low_x = np.zeros(capacity, dtype=np.int64)
        self._high_y = np.full(capacity, -np.inf)
        self._high_x = np.zeros(capacity, dtype=np.int64)
        self._used = 0  # buckets up to the last one touched

    def extend(self, losses: Sequence[float]) -> None:
        """Add the losses of the next epochs (the first of them is epoch `epochs + 1`)."""
        y = np.asarray(losses, dtype=float).ravel()
        if not y.size:
            return
        x = np.arange(self.epochs + 1, self.epochs + 1 + y.size, dtype=np.int64)
        self.epochs += y.size
        self.last = float(y[-1])
        self._count_rises(y)
        shown = np.isfinite(y) & (y > 0)  # what a log axis can show
        self._add(x[shown], y[shown])

    def _count_rises(self, y: np.ndarray) -> None:
        finite = y[np.isfinite(y)]
        if self._previous is not None:
            finite = np.concatenate(([self._previous], finite))
        if finite.size:
            steps = np.diff(finite)
            up = steps[steps > 0]
            if up.size:
                self.rises += int(up.size)
                self.largest_rise = max(self.largest_rise, float(up.max()))
            self._previous = float(finite[-1])

    def _add(self, x: np.ndarray, y: np.ndarray) -> None:
        if not x.size:
            return
        while (x[-1] - 1) // self.width >= self.capacity:
            self._halve()
        bucket = (x - 1) // self.width
        starts = np.flatnonzero(np.r_[True, bucket[1:] != bucket[:-1]])
        ends = np.r_[starts[1:], bucket.size]
        for s, e in zip(starts.tolist(), ends.tolist()):
            b = bucket[s]
            part = y[s:e]
            low, high = s + int(part.argmin()), s + int(part.argmax())
            if y[low] < self._low_y[b]:
                self._low_y[b], self._low_x[b] = y[low], x[low]
            if y[high] > self._high_y[b]:
                self._high_y[b], self._high_x[b] = y[high], x[high]
        self._used = max(self._used, int(bucket[-1]) + 1)

    def _halve(self) -> None:
        """Merge buckets 2i and 2i + 1 into bucket i; the width doubles."""
        half = self.capacity // 2
        for ys, xs, better in ((self._low_y, self._low_x, np.less),
                               (self._high_y, self._high_x, np.greater)):
            pairs_y, pairs_x = ys.reshape(half, 2), xs.reshape(half, 2)
            second = better(pairs_y[:, 1], pairs_y[:, 0])  # ties keep the earlier epoch
            merged_y = np.where(second, pairs_y[:, 1], pairs_y[:, 0])
            merged_x = np.where(second, pairs_x[:, 1], pairs_x[:, 0])
            ys[:half], xs[:half] = merged_y, merged_x
            ys[half:] = np.inf if better is np.less else -np.inf
            xs[half:] = 0
        self.width *= 2
        self._used = (self._used + 1) // 2

    def points(self) -> tuple[np.ndarray, np.ndarray]:
        """(epochs, losses) to draw: each bucket's lowest and highest loss in epoch order,
        at most 2 × capacity points; every loss while the run is shorter than capacity.
        Losses a log axis cannot show (zero, negative, not finite) are left out."""
        n = self._used
        filled = np.isfinite(self._low_y[:n])
        lx, ly = self._low_x[:n][filled], self._low_y[:n][filled]
        hx, hy = self._high_x[:n][filled], self._high_y[:n][filled]
        low_first = lx <= hx
        first_x, first_y = np.where(low_first, lx, hx), np.where(low_first, ly, hy)
        second_x, second_y = np.where(low_first, hx, lx), np.where(low_first, hy, ly)
        x = np.column_stack([first_x, second_x]).ravel()
        y = np.column_stack([first_y, second_y]).ravel()
        distinct = np.r_[x[:1] == x[:1], x[1:] != x[:-1]]  # a bucket of one epoch: one point
        return x[distinct].astype(float), y[distinct]
