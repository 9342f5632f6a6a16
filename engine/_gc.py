"""The one pause of the garbage collector, for bulk graph building.

Every Value and parent tuple is an object the cyclic collector tracks, so while a big
graph is being built the collector rescans the growing graph again and again, and finds
nothing: the graphs hold no reference cycles and are freed by reference counting. Pausing
it around the bulk loops (not inside each operation) keeps the cost per node flat.

There is one pause for the whole process, however many holders nest in it (a parse
inside a program's build inside a window's sliced task): the first `hold()` notes
whether the collector was on, turns it off and freezes what exists (`gc.freeze`: out of
the collector's sight, so nothing alive before is rescanned); the last `release()`
unfreezes it (`gc.unfreeze`) and turns the collector back on if it was on, so cyclic
garbage made meanwhile is collected afterwards, as any other.

One exception, asked for with `hold(settles=True)` and `release(settle=True)` (the
window's sliced tasks): when
the pause leaves more than SETTLE_OBJECTS objects alive (a 20,000-node graph and its
drawing), rescanning them would hold the window for a tenth of a second and more (a
second at 200,000 nodes), so they stay frozen, the new ones with them. The first
settling release that finds the heap back near its size before them (the big graph
let go of: `sys.getallocatedblocks`, read only by settling holders, since it costs
0.5 µs on a small heap and over 100 µs on a big one, too much for each row of an XOR
epoch) unfreezes them all, and their garbage is collected then; `unsettle()` does it at
once. Qt-free: the window's sliced tasks (gui.jobs.sliced) hold this same pause.

Outside any pause, in a user's own loop, the engine's nodes keep out of the collector's
way by another means: they are made a batch at a time by `made_quietly`, which puts the
batch straight into the oldest generation (see engine.core.value).
"""

from __future__ import annotations

import gc
import sys

SETTLE_OBJECTS = 50_000  # more alive than this stays frozen after a settling release

_depth = 0             # holders now
_was_enabled = False   # whether the collector was on before the first of them
_settled = False       # objects are kept frozen after the last release (see above)
_blocks_at_hold: int | None = None  # the heap's size when a settling pause began
_blocks_before = 0     # ... and when the pause that settled began


def hold(settles: bool = False) -> None:
    """Pause the collector (nested holds count: each needs its `release`). `settles`:
    the holder will release with `settle=True`, so the heap's size is noted now."""
    global _depth, _was_enabled, _blocks_at_hold
    if _depth == 0:
        _blocks_at_hold = sys.getallocatedblocks() if settles else None
        _was_enabled = gc.isenabled()
        gc.disable()
        gc.freeze()
    _depth += 1


def release(settle: bool = False) -> None:
    """Let go of one `hold`; the last one unfreezes (unless it settles, see the module's
    docstring) and turns the collector back on, if it was on before the first. Raises
    RuntimeError if nothing holds the pause."""
    global _depth, _settled, _blocks_before
    if _depth == 0:
        raise RuntimeError("the collector's pause is not held")
    _depth -= 1
    if _depth > 0:
        return
    if settle:
        if gc.get_count()[0] > SETTLE_OBJECTS and _blocks_at_hold is not None:
            # many made (and kept) during a pause whose start was measured
            if not _settled:
                _settled, _blocks_before = True, _blocks_at_hold
        elif _settled and sys.getallocatedblocks() <= _blocks_before + SETTLE_OBJECTS:
            _settled = False  # the heap is back near its size before the big graph
        if _settled:
            gc.freeze()  # the new ones join them, out of sight
    if not _settled:
        gc.unfreeze()
    if _was_enabled:
        gc.enable()


def unsettle() -> None:
    """Unfreeze what a settling release kept frozen, now (the window closes: its big
    graph and its other garbage are to be collected); nothing if the pause is held."""
    global _settled
    if _settled and _depth == 0:
        _settled = False
        gc.unfreeze()


def holders() -> int:
    """How many holds are not yet released."""
    return _depth


def settled() -> bool:
    """Whether objects are kept frozen after the last release (see the module's
    docstring)."""
    return _settled

def made_quietly(make, *args):
    """`make(*args)`, a burst of new objects that are to live long (the engine's blank
    nodes), made out of the collector's way; returns what `make` returned.

    With the collector on and nothing frozen but by a settling release, the young
    generations are collected first (their collection, due soon anyway, as it would
    have run), the burst is made with the collector off, and a freeze and unfreeze put
    it straight into the oldest generation: it adds nothing to the young generation's
    count, so building a graph sets off no collection, and nothing to what decides a
    full one. Under a pause (the collector off) the burst is made as anything else.
    The collector's settings are not changed, and the user's own objects go through the
    generations as they would have.
    """
    if not gc.isenabled():
        return make(*args)
    gc.collect(1)
    gc.disable()
    try:
        made = make(*args)
        if _settled:
            gc.freeze()  # it joins what the settling release keeps out of sight
        elif gc.get_freeze_count() == 0:  # no one else's frozen objects to thaw
            gc.freeze()
            gc.unfreeze()
    finally:
        gc.enable()
    return made


class _Paused:
    """`with collector_paused():` as a plain object: a generator-based context manager
    costs a microsecond a use, and the XOR network's forward pass pauses once per row."""

    __slots__ = ()

    def __enter__(self) -> None:
        hold()

    def __exit__(self, *_exc) -> bool:
        release()
        return False  # an exception in the block goes on


_PAUSED = _Paused()


def collector_paused() -> _Paused:
    """The collector paused for the block (a `hold` and its `release`, even if the block
    raises); a collector found disabled stays disabled."""
    return _PAUSED
