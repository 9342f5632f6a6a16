"""Keep the garbage collector out of bulk graph building.

Every Value and parent tuple is an object the cyclic collector tracks, so while a big
graph is being built the collector rescans the growing graph again and again, and finds
nothing: the graphs hold no reference cycles and are freed by reference counting. Pausing
it around the bulk loops (not inside each operation) keeps the cost per node flat.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Disable the garbage collector for the block, then enable it again, even if the
    block raises, but only if it was enabled before: a caller may have disabled it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
