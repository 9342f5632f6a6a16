"""The garbage collector paused across many event-loop ticks while a big graph is built.

A built graph (Values, steps, scene items) holds no reference cycles: scanning it finds
nothing, and the first full collection after a big build would hold the window for a
fifth of a second. So when the pause ends, what was made during it is frozen out of the
collector's sight (`gc.freeze`); it is still freed by reference counting when dropped.
"""

from __future__ import annotations

import gc

# one pause for the whole window, however many holders (a program's build, its graph's
# layout and drawing): the first to pause notes whether the collector was on, the last to
# resume turns it back on. Each holder keeping its own note would let a build that ends
# turn the collector on under a drawing that has just begun.
_holders = 0
_was_enabled = False


class PausedCollector:
    """`pause()` turns the collector off (once per holder, however often it is called);
    `resume()` lets go; when the last holder has let go, what exists is frozen and the
    collector is turned back on, if it was on before the first pause."""

    def __init__(self):
        self._holding = False

    @property
    def paused(self) -> bool:
        return self._holding

    def pause(self) -> None:
        global _holders, _was_enabled
        if self._holding:
            return
        self._holding = True
        if _holders == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _holders += 1

    def resume(self) -> None:
        global _holders
        if not self._holding:
            return
        self._holding = False
        _holders -= 1
        if _holders == 0:
            gc.freeze()
            if _was_enabled:
                gc.enable()
