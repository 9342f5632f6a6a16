"""A big program and its stepper let go of a slice at a time.

Dropping the last reference to a 200,000-node program frees its Values, and its
stepper's steps and records, in one go: about a third of a second on the window's
thread. A `Disposal` takes the old program and stepper instead, waits until it holds
the last reference to each, and then empties their big lists from the end, a slice at a
time. A graph's values are emptied from the last one made: each is then referred to by
nothing that is still to be freed, so no slice sets off a cascade through the graph.
"""

from __future__ import annotations

import sys
import time

from PySide6.QtCore import QObject, QTimer, Slot

from engine import Program
from engine.core.stepping import Stepper
from gui.jobs.sliced import SlicedTask

SLICE_S = 0.008      # freeing per tick: the window draws in between
PER_SLICE = 2_000    # list items freed per step
WAIT_MS = 100        # how often to look again while something else still holds one
PATIENCE_S = 10.0    # after this long, an object still held elsewhere is simply let go


class Disposal(QObject):
    """Lets go of programs and steppers in slices (see the module's docstring)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._queue: list[tuple[object, float]] = []  # (program or stepper, since)
        self._task: SlicedTask | None = None  # the one being emptied
        self._again = QTimer(self)  # one shot: look again for one no longer held
        self._again.setSingleShot(True)
        self._again.setInterval(WAIT_MS)
        self._again.timeout.connect(self._next)

    @property
    def pending(self) -> int:
        """How many programs and steppers are still to be let go of."""
        return len(self._queue) + (self._task is not None)

    def drop(self, *objects) -> None:
        """Let go of these programs and steppers (None is ignored), in slices."""
        now = time.monotonic()
        self._queue += [(o, now) for o in objects if isinstance(o, (Program, Stepper))]
        if self._task is None:
            self._next()

    def finish(self) -> None:
        """Let go of everything now (the window is closing, or a test wants it done)."""
        self._again.stop()
        self._queue.clear()  # first: the task's end would start the next one's
        if self._task is not None:
            self._task.run_to_end()

    @Slot()
    def _next(self) -> None:
        """Empty the first object only this holds; look again later if none is yet."""
        if self._task is not None:
            return
        work = self._next_ready()
        if work is None:
            if self._queue:
                self._again.start()
            return
        self._task = SlicedTask(work, SLICE_S, self)
        self._task.finished.connect(self._on_emptied)
        self._task.start()

    @Slot(object)
    def _on_emptied(self, _result) -> None:
        self._task = None
        self._next()

    def _next_ready(self):
        """The slices for the first object this holds the last reference to (one held
        elsewhere for too long is let go as it is); None if there is none yet."""
        now = time.monotonic()
        for k, (obj, since) in enumerate(self._queue):
            # references: the queue's tuple, the loop's name and getrefcount's argument
            if sys.getrefcount(obj) <= 3:
                del self._queue[k]
                return _emptied(obj)
            if now - since > PATIENCE_S:
                del self._queue[k]
                return _nothing()
        return None


def _nothing():
    yield from ()


def _emptied(obj):
    """Empty a program or a stepper's big lists from their ends, a slice at a time."""
    if isinstance(obj, Stepper):
        obj._index = None  # lists of references only: what they refer to lives on
        obj._order = None
        yield from _from_the_end(obj.backward_steps)  # the steps and their records
        obj.forward_steps = []
    else:
        obj.names, obj.inputs, obj.output = {}, {}, None
        yield from _from_the_end(obj.values)  # the last made first: no cascades
        obj.instructions = ()
        yield


def _from_the_end(items: list):
    while items:
        del items[-PER_SLICE:]
        yield
