"""A layout computed in a child process and sent back in pieces.

A 20,000-node drawing pickles to about 9 MB of small tuples, and unpickling it in one go
holds the window for about a fifth of a second. Sent as pieces of a few thousand items
each, it is read a piece at a time between two frames, and put back together as the same
`Drawing`. Plain data only: the child imports no Qt.
"""

from __future__ import annotations

from collections.abc import Iterator

from gui.graph.layout import layered_layout
from gui.graph.layout.routing import Drawing

ROUTES_PER_PIECE = 200     # a route is a few segments of a few points: ~2 ms to unpickle
ITEMS_PER_PIECE = 1_000    # a centre, a label centre or an index


def layout_pieces(sizes: list[tuple[float, float]],
                  edges: list[tuple[int, int, tuple[float, float] | None]],
                  radii: list[float] | None = None) -> Iterator[tuple]:
    """Lay the graph out (`layered_layout`), then yield the drawing as records
    (field, start, items) for its long lists, and last ("rest", trunks, bounds).
    Raises what `layered_layout` raises."""
    drawing = layered_layout(sizes, edges, radii=radii)
    for field, per_piece in (("centers", ITEMS_PER_PIECE), ("label_centers", ITEMS_PER_PIECE),
                             ("own_from", ITEMS_PER_PIECE), ("routes", ROUTES_PER_PIECE)):
        items = getattr(drawing, field)
        for start in range(0, len(items), per_piece):
            yield field, start, items[start:start + per_piece]
    yield "rest", drawing.trunks, drawing.bounds


class DrawingAssembler:
    """Collects the records of `layout_pieces`; `drawing` is the whole once "rest" came."""

    def __init__(self):
        self._lists: dict[str, list] = {"centers": [], "label_centers": [], "own_from": [],
                                        "routes": []}
        self.drawing: Drawing | None = None

    def add(self, record: tuple) -> None:
        if record[0] == "rest":
            _, trunks, bounds = record
            self.drawing = Drawing(trunks=trunks, bounds=bounds, **self._lists)
            return
        field, start, items = record
        target = self._lists[field]
        if start != len(target):
            raise ValueError(f"piece of {field} at {start} after {len(target)} items")
        target.extend(items)
