"""A picture laid out again after a change in one place (a group opened or closed), with
the rest kept in the order it had: the phases of `layered_layout`, except that each
layer's order starts from where its nodes were before instead of from scratch.

Ranks, virtual nodes, coordinates and routes are made exactly as for a new picture (so
the drawing keeps its standard: no edge through a box, no label on a label). Only the
order changes: every node is given a `start` (the y it, or what stood for it, had in the
picture before), each layer is sorted by it (ties, such as a group's inside that stood
for one box, by a depth-first walk), virtual nodes take the start of where their edge
runs, and a few median sweeps with adjacent swaps remove the crossings the change made
among the nodes that start at one place (a group's inside opened where its box was): a
node never moves past one that started elsewhere, so a group opened keeps its place among
its siblings (median sweeps had drawn losses[5]'s inside after losses[93–99]: fewer
crossings, the order lost). Once placed, what started before such a block moves up and
what started after it moves down, as far as it takes for the block to lie between them
(the coordinates leave nodes of other layers free to sit beside it).
That costs a few milliseconds where `order`'s searches from three starting orders cost
a tenth of a second (a hundred units with 400 edges), and the picture keeps its shape.
"""
# Qt-free: part of the layout, which runs in a child process (tests/test_structure.py).

from __future__ import annotations

from engine._gc import collector_paused
from gui.graph.layout.coordinates import NODE_GAP, coordinates
from gui.graph.layout.mincross import pair_crossings
from gui.graph.layout.ordering import crossings, positions
from gui.graph.layout.ranking import rank
from gui.graph.layout.routing import Drawing, route
from gui.graph.layout.virtual_nodes import LayeredGraph, make_proper

SWEEPS = 4            # median sweeps, alternately rightward and leftward
SWAP_PASSES = 2       # passes of adjacent swaps after each sweep
SWAP_DEGREE = 64      # two nodes with more neighbours than this together are not swapped
SWAP_UP_TO = 3_000    # adjacent swaps in pictures of at most this many nodes, virtual included


def relaid_layout(sizes: list[tuple[float, float]],
                  edges: list[tuple[int, int, tuple[float, float] | None]],
                  start: list[float], radii: list[float] | None = None,
                  budget: int | None = None) -> Drawing:
    """`layered_layout(sizes, edges, budget, radii)` with each layer ordered from `start`
    (one number per node: where it was across its layer before, smaller above) and a
    few sweeps, instead of `order`'s searches (see the module's docstring). Raises
    ValueError for an edge that does not go forward, or a `start` of the wrong length."""
    n = len(sizes)
    if len(start) != n:
        raise ValueError(f"{len(start)} starting places for {n} nodes")
    for u, v, _ in edges:
        if not 0 <= u < v < n:
            raise ValueError(f"edge {u} -> {v} does not go forward in a graph of {n} nodes")
    if budget is None:
        budget = max(3_000, n)
    with collector_paused():
        ranks = rank(n, edges)
        graph = make_proper(sizes, edges, ranks, budget)
        key = _start_order(graph, start)
        _refine(graph, key)
        ys = coordinates(graph)
        for block in _opened_blocks(graph, key):
            _make_room(graph, key, ys, block)
        return route(graph, ys, radii)


def _start_order(graph: LayeredGraph, start: list[float]) -> list[float]:
    """Each layer sorted by the nodes' starts; a virtual node's start is where its edge
    runs at that layer (between its ends' starts); ties by a depth-first walk. Returns
    every node's start, virtual ones included."""
    key = list(start) + [0.0] * (len(graph.rank) - graph.n_real)
    ranks = graph.rank
    for chain in graph.chains:
        a, b = chain[0], chain[-1]
        ya, span = key[a], ranks[b] - ranks[a]
        for w in chain[1:-1]:
            key[w] = ya + (key[b] - ya) * (ranks[w] - ranks[a]) / span
    walk = _walk_positions(graph)
    layers = graph.layers = [[] for _ in graph.layers]
    for v, r in enumerate(ranks):
        layers[r].append(v)
    for layer in layers:
        layer.sort(key=lambda v: (key[v], walk[v]))
    return key


def _opened_blocks(graph: LayeredGraph, key: list[float]) -> list[float]:
    """The starts shared by two real nodes of one layer (a group's inside opened where
    its box was: nodes of a picture before never share a place), smallest first."""
    seen, shared = set(), set()
    for v in range(graph.n_real):
        place = (graph.rank[v], key[v])
        if place in seen:
            shared.add(key[v])
        seen.add(place)
    return sorted(shared)


def _make_room(graph: LayeredGraph, key: list[float], ys: list[float], block: float) -> None:
    """Move every node that started before `block` up and every one that started after
    it down (each side as one, so no layer's order or spacing is lost: a layer holds
    them in their starts' order), until the real nodes of each side clear the nodes
    that started at `block` by NODE_GAP."""
    inside = [v for v in range(len(ys)) if key[v] == block]
    if not inside:
        return
    top = min(ys[v] - graph.height[v] / 2 for v in inside)
    bottom = max(ys[v] + graph.height[v] / 2 for v in inside)
    real = range(graph.n_real)
    above = max((ys[v] + graph.height[v] / 2 for v in real if key[v] < block), default=None)
    below = min((ys[v] - graph.height[v] / 2 for v in real if key[v] > block), default=None)
    up = max(0.0, above + NODE_GAP - top) if above is not None else 0.0
    down = max(0.0, bottom + NODE_GAP - below) if below is not None else 0.0
    if up or down:
        for v, k in enumerate(key):
            if k < block:
                ys[v] -= up
            elif k > block:
                ys[v] += down


def _walk_positions(graph: LayeredGraph) -> list[int]:
    """Each node's place in its layer in a depth-first walk back from the sinks (last
    first), parents in order: a tree drawn so has no crossings."""
    seen = [False] * len(graph.rank)
    layers: list[list[int]] = [[] for _ in graph.layers]
    for root in range(len(graph.rank) - 1, -1, -1):
        if seen[root] or graph.down[root]:
            continue
        seen[root] = True
        layers[graph.rank[root]].append(root)
        stack = [iter(graph.up[root])]
        while stack:
            for u in stack[-1]:
                if not seen[u]:
                    seen[u] = True
                    layers[graph.rank[u]].append(u)
                    stack.append(iter(graph.up[u]))
                    break
            else:
                stack.pop()
    for v, was_seen in enumerate(seen):
        if not was_seen:
            layers[graph.rank[v]].append(v)
    return positions(layers)


def _refine(graph: LayeredGraph, key: list[float]) -> None:
    """A few median sweeps (and adjacent swaps, in a picture not too big) from the
    starting order, each moving a node only among those of its `key` (its start); the
    order with the fewest crossings seen is kept."""
    position = positions(graph.layers)
    best, fewest = [list(layer) for layer in graph.layers], crossings(graph, position)
    swaps = len(graph.rank) <= SWAP_UP_TO
    for sweep in range(SWEEPS):
        if fewest == 0:
            break
        _median_pass(graph, position, key, rightward=sweep % 2 == 0)
        if swaps:
            _swap_pass(graph, position, key)
        found = crossings(graph, position)
        if found < fewest:
            best, fewest = [list(layer) for layer in graph.layers], found
    graph.layers = best


def _median_pass(graph: LayeredGraph, position: list[int], key: list[float],
                 rightward: bool) -> None:
    """Each layer sorted by the nodes' starts, then the median place of their neighbours
    in the layer just done; a node without any keeps its place (as a key)."""
    layers = graph.layers
    sequence = range(1, len(layers)) if rightward else range(len(layers) - 2, -1, -1)
    neighbours = graph.up if rightward else graph.down
    for r in sequence:
        keyed = []
        for v in layers[r]:
            near = neighbours[v]
            if near:
                places = sorted(position[u] for u in near)
                m = len(places)
                median = places[m // 2] if m % 2 else (places[m // 2 - 1] + places[m // 2]) / 2
            else:
                median = position[v]
            keyed.append((key[v], median, position[v], v))
        keyed.sort()
        layer = layers[r] = [v for *_, v in keyed]
        for k, v in enumerate(layer):
            position[v] = k


def _swap_pass(graph: LayeredGraph, position: list[int], key: list[float]) -> None:
    """Swap neighbours of one start in a layer while that removes crossings (at most
    SWAP_PASSES passes; pairs with many edges are left: counting theirs is quadratic)."""
    up, down = graph.up, graph.down
    degree = [len(up[v]) + len(down[v]) for v in range(len(up))]
    for _ in range(SWAP_PASSES):
        improved = False
        for layer in graph.layers:
            for k in range(len(layer) - 1):
                v, w = layer[k], layer[k + 1]
                if key[v] != key[w] or degree[v] * degree[w] > SWAP_DEGREE * SWAP_DEGREE:
                    continue
                above, below = pair_crossings(graph.up, graph.down, position, v, w)
                if below < above:
                    layer[k], layer[k + 1] = w, v
                    position[v], position[w] = k + 1, k
                    improved = True
        if not improved:
            return
