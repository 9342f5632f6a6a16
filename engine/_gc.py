"""The one pause of the garbage collector, for bulk graph building.

Every Value and parent tuple is an object the cyclic collector tracks, so while a big
graph is being built the collector rescans the growing graph again and again, and finds
nothing: the graphs hold no reference cycles and are freed by reference counting. Pausing
it around the bulk loops (not inside each operation) keeps the cost per node flat.

There is one pause for the whole process, however many holders nest in it (a parse
inside a program's build inside a window's sliced task): the first `hold()` notes
whether the collector was on, turns it off and freezes what exists (`gc.freeze`: out of
the collector's sight, so nothing alive before is rescanned); the last `release()`
unfreezes it (`gc.unfreeze`, one for the one freeze) and turns the collector back on if
it was on. Nothing stays frozen after the last holder lets go, so cyclic garbage made
meanwhile is collected afterwards, as any other. Qt-free: the window's sliced tasks
(gui.jobs.sliced) hold the same pause.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_depth = 0             # holders now
_was_enabled = False   # whether the collector was on before the first of them


def hold() -> None:
    """Pause the collector (nested holds count: each needs its `release`)."""
    global _depth, _was_enabled
    if _depth == 0:
        _was_enabled = gc.isenabled()
        gc.disable()
        gc.freeze()
    _depth += 1


def release() -> None:
    """Let go of one `hold`; the last one unfreezes and turns the collector back on, if
    it was on before the first. Raises RuntimeError if nothing holds the pause."""
    global _depth
    if _depth == 0:
        raise RuntimeError("the collector's pause is not held")
    _depth -= 1
    if _depth == 0:
        gc.unfreeze()
        if _was_enabled:
            gc.enable()


def holders() -> int:
    """How many holds are not yet released."""
    return _depth


@contextmanager
def collector_paused() -> Iterator[None]:
    """The collector paused for the block (a `hold` and its `release`, even if the block
    raises); a collector found disabled stays disabled."""
    hold()
    try:
        yield
    finally:
        release()
