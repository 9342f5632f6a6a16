"""The garbage collector paused across many event-loop ticks while a big graph is built.

A built graph (Values, steps, scene items) holds no reference cycles: scanning it finds
nothing, and the first full collection after a big build would hold the window for a
fifth of a second. So when the pause ends, what was made during it is frozen out of the
collector's sight (`gc.freeze`); it is still freed by reference counting when dropped.
"""

from __future__ import annotations

import gc


class PausedCollector:
    """`pause()` turns the collector off (once, however often it is called); `resume()`
    freezes what exists and turns it back on, if it was on before the pause."""

    def __init__(self):
        self._was_enabled: bool | None = None

    @property
    def paused(self) -> bool:
        return self._was_enabled is not None

    def pause(self) -> None:
        if self._was_enabled is None:
            self._was_enabled = gc.isenabled()
            gc.disable()

    def resume(self) -> None:
        if self._was_enabled is None:
            return
        gc.freeze()
        if self._was_enabled:
            gc.enable()
        self._was_enabled = None
