"""Work on the window's thread, a slice at a time, with the window drawing in between.

A `SlicedTask` runs a generator on a zero-interval timer: each tick it takes steps until
its time budget is spent (or one more step as long as the last would overrun it by half),
so that no tick holds the window for long. Every value the generator yields is a step
done (the last of a slice is sent as `progress`); `WAIT` means "nothing to do until
something happens" (a child's next piece): the task sleeps until `wake()`. What the
generator returns comes with `finished`.

While any task runs, the garbage collector is paused (engine._gc: one pause, held once
per running task, frozen and unfrozen in pairs): what a task makes mostly lives on (a
graph, its drawing), and the collector would only rescan it again and again. A task's
release settles: a graph too big to rescan without holding the window stays frozen
until it is let go of (see engine._gc).
"""

from __future__ import annotations

import time
from collections.abc import Generator

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal, Slot

from engine import _gc

SLICE_S = 0.012  # work per tick: the window draws in between
WAIT = object()  # yielded by a generator that waits for `wake()`


class SlicedTask(QObject):
    """Runs `steps` (a generator) a slice of at most `budget_s` at a time.

    Signals: `progress(value)` with the last value a slice yielded (not WAIT);
    `finished(result)` with the generator's return value; `errored(exception)` if it
    raised (a bug surfaces as well: the exception is also re-raised in the slot);
    `cancelled()` when `cancel()` ended it. Exactly one of the last three, once, sent
    while the collector is still paused (released right after).
    """

    progress = Signal(object)
    finished = Signal(object)
    errored = Signal(object)
    cancelled = Signal()

    def __init__(self, steps: Generator, budget_s: float = SLICE_S, parent=None,
                 expected: tuple[type[BaseException], ...] = ()):
        super().__init__(parent)
        self._steps = steps
        self._budget_s = budget_s
        self._expected = expected  # exceptions that are the work's own answers
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._on_slice)
        self.running = False
        self.waiting = False
        self._in_run = False  # a slice is being taken: a tick meanwhile is not another
        self._wait_until = 0.0  # run_to_end waits for a WAIT's events until then

    def start(self) -> SlicedTask:
        """Hold the collector's pause and start the slices; returns the task."""
        if not self.running:
            self.running = True
            _gc.hold(settles=True)
            self._timer.start()
        return self

    def wake(self) -> None:
        """Go on at the next tick (after a WAIT: what it waited for has come)."""
        if self.running and self.waiting:
            self.waiting = False
            self._timer.start()

    def cancel(self) -> None:
        """End the task now: its generator is closed and nothing more of it happens."""
        if self.running:
            self._stop()
            try:
                self._steps.close()
                self.cancelled.emit()
            finally:
                _gc.release(settle=True)

    def run_to_end(self, timeout_s: float = 300.0) -> bool:
        """Take every step now, no slices (for pictures, exports and the command line,
        never in the window's own use); at a WAIT, the events that wake it are handled
        here, for at most `timeout_s` in all. True if the task has ended."""
        self._wait_until = time.monotonic() + timeout_s
        self._run(None)
        return not self.running

    @Slot()
    def _on_slice(self) -> None:
        self._run(self._budget_s)

    def _run(self, budget_s: float | None) -> None:
        if not self.running or self._in_run:
            return
        self._in_run = True
        try:
            self._take(budget_s)
        finally:
            self._in_run = False

    def _take(self, budget_s: float | None) -> None:
        before = time.perf_counter()
        deadline = None if budget_s is None else before + budget_s
        overrun = deadline if budget_s is None else deadline + budget_s / 2
        last = WAIT
        try:
            while True:
                value = next(self._steps)
                now = time.perf_counter()
                took, before = now - before, now
                if value is WAIT:
                    if budget_s is None and time.monotonic() < self._wait_until:
                        # run_to_end: let what it waits for come
                        QCoreApplication.processEvents()
                        if not self.running:
                            return  # an event cancelled it
                        time.sleep(0.001)
                        continue
                    self.waiting = True
                    self._timer.stop()
                    break
                last = value
                # or a step like the last one would overrun the budget by half: the
                # window's turn first (a slice lasts about its budget, not that and a step)
                if deadline is not None and (now >= deadline or now + took >= overrun):
                    break
        except StopIteration as done:
            # the slots run with the pause still held: what they start (a drawing after
            # a build) holds it in turn, with no collection in between
            self._stop()
            try:
                self.finished.emit(done.value)
            finally:
                _gc.release(settle=True)
            return
        except BaseException as e:  # noqa: BLE001 - reported, and a bug is raised again
            self._stop()
            try:
                self.errored.emit(e)
            finally:
                _gc.release(settle=True)
            if not isinstance(e, self._expected):
                raise
            return
        if last is not WAIT:
            self.progress.emit(last)

    def _stop(self) -> None:
        self.running = self.waiting = False
        self._timer.stop()
