"""A layered, left-to-right drawing of a directed acyclic graph, as Graphviz `dot` draws one.

Plain data in, plain data out (no Qt, no Value), so it can run anywhere. The phases are
those of Gansner et al., "A Technique for Drawing Directed Graphs" (the paper behind
`dot`), and each is one module of this package:

1. `rank`: every node a layer (a column, since the drawing runs left to right), by the
   longest path from the sources; a source is then pulled right, next to its first use.
   Up to TIGHTENED nodes, also dot's ranks (`optimal_ranks`, the network simplex: the
   edges' total span least); where those are shorter (by 1/SHORTER) and the first
   order crosses, the graph is ordered both ways (the second by dot's passes only, past
   3,000 nodes by median sweeps only, and without fan-out buses: its shared values'
   long edges run as chains, as dot draws them) and drawn the way that crosses fewer
   edges, the bus edges' lanes' crossings among themselves estimated from the ranks
   (on a tie, the first way).
2. `make_proper`: an edge that spans several layers gets a virtual node on every layer
   in between, and a labelled edge's last virtual node is the size of its label, so the
   label gets space of its own. When a graph has more virtual nodes than a budget (one
   value feeding every node of a long chain), its longest edges become bus edges: they
   leave their source, run along a lane above (or below) the drawing and drop down to
   a virtual node beside their target, which keeps the work linear in the size of the
   graph (lanes.py: each source's side, lanes nested).
3. `order`: the nodes of each layer, real and virtual together, ordered as dot's
   mincross orders them (breadth-first starts, weighted-median sweeps, adjacent swaps
   repeated until no gain, crossings counted exactly, the best order kept), on the graph
   seen through its layers of virtual nodes; a small graph is tried from more starts and
   sifted too. Past 3,000 nodes, median sweeps from a depth-first walk (up to 4,500,
   dot's passes too where those leave crossings). Up to 4,500, a bus edge's rise and
   drop count as edges to a phantom node above every layer, so that the order keeps
   them near the lanes.
4. `coordinates`: the position within each layer by Brandes and Köpf, "Fast and Simple
   Horizontal Coordinate Assignment": four alignments of each node with a median
   neighbour, compacted and balanced, so long edges run straight.
5. `route`: each edge as straight runs through the columns of its virtual nodes and
   smooth bends (cubic curves with level tangents) in the gaps between columns, where
   no node ever is: an edge never enters a box other than its two ends. An edge runs
   level a little before and after its label's column, so that its bends keep clear
   of the label; a box with more incoming edges than its side has room for arrowheads
   takes them at one point, joined just before it, under one arrowhead.

Coordinates are scene coordinates: x grows to the right (the layers), y grows down.
"""
# Qt-free: laid out in a child process, which never loads Qt (tests/test_structure.py).

from __future__ import annotations

from engine._gc import collector_paused
from gui.graph.layout.coordinates import coordinates
from gui.graph.layout.lanes import nested_lane_crossings
from gui.graph.layout.network_simplex import optimal_ranks, total_span
from gui.graph.layout.ordering import crossings, crossings_with_lanes, order
from gui.graph.layout.ranking import rank
from gui.graph.layout.routing import Drawing, route
from gui.graph.layout.virtual_nodes import LayeredGraph, make_proper

__all__ = ["Drawing", "LayeredGraph", "coordinates", "crossings", "layered_layout",
           "make_proper", "order", "rank", "route"]

TIGHTENED = 1_000  # nodes: up to this many, dot's ranks are tried too
SHORTER = 200  # if they shorten the edges by at least 1/SHORTER of their total span


def layered_layout(sizes: list[tuple[float, float]],
                   edges: list[tuple[int, int, tuple[float, float] | None]],
                   budget: int | None = None, radii: list[float] | None = None) -> Drawing:
    """Lay out nodes 0..n-1 with `sizes` (width, height), connected by `edges`
    (source, target, label size or None), where every source index is smaller than its
    target's (a topological numbering). At most `budget` virtual nodes are made (by
    default a few per node). `radii` gives nodes with rounded ends (a circle, a pill)
    their corner radius, so that edges end on the curve. Raises ValueError for an edge
    that does not go forward."""
    n = len(sizes)
    for u, v, _ in edges:
        if not 0 <= u < v < n:
            raise ValueError(f"edge {u} -> {v} does not go forward in a graph of {n} nodes")
    if budget is None:
        budget = max(3_000, n)
    # every list made here lives until the end: the collector would only rescan them
    with collector_paused():
        graph = _ordered(sizes, edges, budget)
        ys = coordinates(graph)
        return route(graph, ys, radii)


def _ordered(sizes, edges, budget: int) -> LayeredGraph:
    """The proper graph, ordered, of the ranks that cross fewer edges: the longest path's
    or (up to TIGHTENED nodes, where they are shorter and the first cross) dot's, fewer
    bus edges on a tie. dot's are drawn without fan-out buses: lanes that interleave (a
    shared weight's and another's, dropping in turn along a long chain) cross at every
    drop, where dot's parallel tracks need not."""
    n = len(sizes)
    ranks = rank(n, edges)
    graph = make_proper(sizes, edges, ranks, budget)
    order(graph)
    if n > TIGHTENED:
        return graph
    cost = _cost(graph)
    if cost[0] == 0:
        return graph
    tight = optimal_ranks(n, edges, ranks)
    longest = total_span(edges, ranks)
    if (longest - total_span(edges, tight)) * SHORTER < longest:
        return graph
    other = make_proper(sizes, edges, tight, budget, fan_out=False)
    order(other, thorough=False)
    return other if _cost(other) < cost else graph


def _cost(graph: LayeredGraph) -> tuple[int, int]:
    return crossings_with_lanes(graph) + nested_lane_crossings(graph), len(graph.bus)
