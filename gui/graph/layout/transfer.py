"""A layout computed in a child process and sent back in pieces.

A 20,000-node drawing pickles to about 9 MB of small tuples, and unpickling it in one go
holds the window for about a fifth of a second. Sent as pieces of a few thousand items
each, it is read a piece at a time between two frames, and put back together as the same
`Drawing`. Plain data only: the child imports no Qt.
"""
# Qt-free: part of the layout, which runs in a child process (tests/test_structure.py).

from __future__ import annotations

import math
from array import array
from collections.abc import Generator, Iterator
from itertools import chain
from operator import itemgetter

from gui.graph.layout import layered_layout
from gui.graph.layout.reuse import relaid_layout
from gui.graph.layout.routing import Drawing

ROUTES_PER_PIECE = 200     # a route is a few segments of a few points: ~2 ms to unpickle
ITEMS_PER_PIECE = 1_000    # a centre, a label centre or an index
_AT_ONCE = 1 << 62         # a slice size that packs the whole graph in one slice


def layout_pieces(sizes: list[tuple[float, float]],
                  edges: list[tuple[int, int, tuple[float, float] | None]],
                  radii: list[float] | None = None,
                  start: list[float] | None = None) -> Iterator[tuple]:
    """Lay the graph out (`layered_layout`, or with `start` `relaid_layout`: a picture
    laid out again from the one before), then yield the drawing as records
    (field, start, items) for its long lists, and last ("rest", trunks, bounds).
    Raises what `layered_layout` raises."""
    drawing = (layered_layout(sizes, edges, radii=radii) if start is None
               else relaid_layout(sizes, edges, list(start), radii=radii))
    for field, per_piece in (("centers", ITEMS_PER_PIECE), ("label_centers", ITEMS_PER_PIECE),
                             ("own_from", ITEMS_PER_PIECE), ("routes", ROUTES_PER_PIECE)):
        items = getattr(drawing, field)
        for start in range(0, len(items), per_piece):
            yield field, start, items[start:start + per_piece]
    yield "rest", drawing.trunks, drawing.bounds


def pack_graph(sizes: list[tuple[float, float]],
               edges: list[tuple[int, int, tuple[float, float] | None]],
               radii: list[float] | None = None) -> dict:
    """`layout_pieces`' arguments as flat arrays of numbers: a child process is sent
    them at the cost of a copy (the same lists of tuples take Python's pickle 40 ms at
    20,000 nodes, on the window's thread)."""
    steps = pack_graph_steps(sizes, edges, radii, _AT_ONCE)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def pack_graph_steps(sizes: list[tuple[float, float]],
                     edges: list[tuple[int, int, tuple[float, float] | None]],
                     radii: list[float] | None = None,
                     every: int = 5_000) -> Generator[None, None, dict]:
    """`pack_graph` a slice of `every` nodes and edges at a time: it yields between
    slices and returns the packed graph."""
    none = (math.nan, math.nan)  # an edge without a label
    packed = {"sizes": array("d"), "ends": array("q"), "labels": array("d"),
              "radii": None if radii is None else array("d", radii)}
    for a in range(0, len(sizes), every):  # in C loops, a slice at a time
        packed["sizes"].extend(chain.from_iterable(sizes[a:a + every]))
        yield
    for a in range(0, len(edges), every):
        part = edges[a:a + every]
        packed["ends"].extend(chain.from_iterable(map(itemgetter(0, 1), part)))
        packed["labels"].extend(chain.from_iterable(
            none if label is None else label for label in map(itemgetter(2), part)))
        yield
    return packed


def unpack_graph(sizes: array, ends: array, labels: array,
                 radii: array | None) -> tuple[list, list, list | None]:
    """The (sizes, edges, radii) that `pack_graph` packed."""
    size_list = list(zip(sizes[0::2], sizes[1::2]))
    edges = [(u, v, None if math.isnan(w) else (w, h))
             for u, v, w, h in zip(ends[0::2], ends[1::2], labels[0::2], labels[1::2])]
    return size_list, edges, None if radii is None else list(radii)


def layout_packed(start: array | None = None, **packed) -> Iterator[tuple]:
    """`layout_pieces` of a graph packed by `pack_graph`, from `start` if given (what a
    child process runs)."""
    return layout_pieces(*unpack_graph(**packed), start=start)


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
