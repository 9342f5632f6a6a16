"""Phase 3: the order of the nodes in each layer, real and virtual together, so that few
edges cross. Up to a few thousand nodes, dot's crossing minimisation (mincross.py) on
the graph seen through its layers of virtual nodes (see_through.py), from dot's
breadth-first starting orders (and for a small graph, their mirror images, depth-first
walks and a few shuffled orders, with sifting); past that, median sweeps from one
depth-first order (and up to MINCROSS_UP_TO nodes dot's passes too, if those leave
crossings). Bus edges' rises and drops are weighed as edges to a phantom node above
every layer (`lifted`)."""
# Qt-free: part of the layout, which runs in a child process (tests/test_structure.py).

from __future__ import annotations

import random

from gui.graph.layout.mincross import MinCross, drop_crossings, layer_crossings, pair_crossings
from gui.graph.layout.see_through import contracted, expanded
from gui.graph.layout.virtual_nodes import LayeredGraph

SMALL = 3_000  # nodes, real and virtual: below this, dot's crossing minimisation
MINCROSS_UP_TO = 4_500  # up to this, also dot's passes if median sweeps leave > FEW
THOROUGH = 8_000  # up to this cost of a transposition round, a graph is small
FEW = 40  # a small graph crossing this often or less after dot's passes: more starts
RANDOM_STARTS = 8  # shuffled starting orders (a fixed seed) of such a graph
FINALISTS = 3  # of those starts, the best taken on to dot's last pass
SWEEPS = 16  # median sweeps from each depth-first start of such a graph
FAST_ROUNDS = 8  # rounds of each transposition of a bigger graph
AS_BEFORE = 6_000  # up to this cost of the whole graph's round, the order median sweeps
# find is kept if it crosses nothing: a small graph that did not cross looks as before
DFS_STARTS = ("sinks", "sinks reversed", "sources")
TRANSPOSED = 3_000  # nodes, real and virtual: up to this many, median sweeps with swaps


def order(graph: LayeredGraph, max_sweeps: int | None = None, thorough: bool = True) -> None:
    """Order each layer of `graph` in place so that few edges cross. A graph of fewer
    than SMALL nodes (real and virtual) is ordered as dot orders it (`mincross`) on the
    graph seen through its layers of virtual nodes, from dot's two starting orders; a
    small one that still crosses a little is tried again from more (their mirror
    images, the three depth-first walks, shuffled orders, the order median sweeps find
    and the best so far) with sifting, so it never crosses more than either (if
    `thorough`; otherwise dot's passes only); a very small one that median sweeps
    draw without a crossing keeps their order. A bigger
    graph, or given `max_sweeps`, is ordered by median sweeps from depth-first walks
    (and, if `thorough`, dot's passes too up to MINCROSS_UP_TO nodes)."""
    size = len(graph.rank)
    if size < SMALL and max_sweeps is None:
        _mincross(graph, thorough)
        return
    sweeps = max_sweeps if max_sweeps is not None else 6 if size < 12_000 else 2
    graph.layers = _swept(graph, DFS_STARTS if size < 3_000 else DFS_STARTS[:1], sweeps)
    if max_sweeps is None and size < MINCROSS_UP_TO and thorough:
        swept = graph.layers
        found = crossings_with_lanes(graph)
        if found > FEW:
            _mincross(graph, thorough=False)
            if crossings_with_lanes(graph) >= found:
                graph.layers = swept


def _swept(graph: LayeredGraph, starts, max_sweeps: int) -> list[list[int]]:
    """The order with fewest crossings that median sweeps find from each depth-first
    start (the order this layout used before dot's, still that of big graphs)."""
    best, best_crossings = None, None
    up, down, drops = graph.up, graph.down, frozenset()  # a big graph's lanes are not
    if len(graph.rank) < MINCROSS_UP_TO:  # weighed: its sweeps stop if nothing else crosses
        (up, down, _), drops = lifted(graph, up, down), graph.drops
    for start in starts:
        graph.layers = [[] for _ in graph.layers]
        _initial_order(graph, start)
        layers, found = _sweep(graph, max_sweeps, up, down, drops)
        if best_crossings is None or found < best_crossings:
            best, best_crossings = layers, found
        if found == 0:
            break
    return best


def _mincross(graph: LayeredGraph, thorough: bool = True) -> None:
    """dot's passes from its two starts; then (if `thorough`) for a small graph that
    still crosses a little, the same from more starts and the best order so far, with
    sifting."""
    before = None
    if _round_cost(graph, [[] for _ in graph.layers], graph.up, graph.down) <= AS_BEFORE:
        before = _swept(graph, DFS_STARTS, SWEEPS)  # drawn as before if that crosses
        graph.layers = before                       # nothing
        if crossings_with_lanes(graph) == 0:
            return
    nodes = node_list(graph)
    starts = [breadth_first(graph, False, nodes), breadth_first(graph, True, nodes)]
    rising = {graph.chains[e][0] for e in graph.bus}
    up, down, kept = contracted(graph, starts[0], rising)
    small = _round_cost(graph, [starts[0][r] for r in kept], up, down) <= THOROUGH
    up, down, phantom = lifted(graph, up, down)
    crossing = MinCross(up, down, len(kept), rounds=None if small else FAST_ROUNDS,
                        drops=graph.drops)
    crossing.position[phantom] = -1
    found = crossing.run([[start[r] for r in kept] for start in starts + [before] if start])
    if thorough and small and 0 < found <= FEW:
        more = [[layer[::-1] for layer in start] for start in starts]
        for start in DFS_STARTS:
            graph.layers = [[] for _ in graph.layers]
            _initial_order(graph, start)
            more.append(graph.layers)
        shuffle = random.Random(23)
        more += [[shuffle.sample(layer, len(layer)) for layer in starts[0]]
                 for _ in range(RANDOM_STARTS)]
        if before is None:  # the order median sweeps find: never worse than that
            more.append(_swept(graph, DFS_STARTS, SWEEPS))
        best = crossing.saved()
        crossing.sifting = True
        crossing.run([[start[r] for r in kept] for start in more] + [best], FINALISTS)
    graph.layers = expanded(graph, starts[0], kept, crossing.layers)


def _round_cost(graph: LayeredGraph, layers: list[list[int]], up, down) -> int:
    """What a round of transposition costs: each layer's width times its edges (given
    empty layers, those of the nodes' ranks)."""
    if not any(layers):
        for v, r in enumerate(graph.rank):
            layers[r].append(v)
    return sum(len(layer) * sum(len(up[v]) + len(down[v]) for v in layer) for layer in layers)


def _sweep(graph: LayeredGraph, max_sweeps: int, up, down,
           drops) -> tuple[list[list[int]], int]:
    """Median sweeps (and transposes, for a small graph) from the current order, with
    the neighbours `up` and `down` (`lifted`, and its `drops`); the best order seen and
    its crossings."""
    size = len(graph.rank)
    position = positions(graph.layers) + [-1]  # the phantom node's
    best = [list(layer) for layer in graph.layers]
    best_crossings = _counted(graph.layers, down, position, drops) if size < 200_000 else 0
    if best_crossings == 0:
        return best, 0
    stale = 0
    for sweep in range(max_sweeps):
        rightward = sweep % 2 == 0
        _median_sweep(graph, position, rightward, up, down)
        if size < TRANSPOSED:
            _transpose(graph, position, up, down)
        if size >= 12_000:
            if sweep == max_sweeps - 1:  # a big graph: its sweeps are kept uncounted
                return [list(layer) for layer in graph.layers], best_crossings
            continue
        found = _counted(graph.layers, down, position, drops)
        if found < best_crossings:
            best, best_crossings, stale = [list(layer) for layer in graph.layers], found, 0
            if found == 0:
                break
        else:
            stale += 1
            if stale >= 4:
                break
    return best, best_crossings


def _initial_order(graph: LayeredGraph, start: str = "sinks") -> None:
    """A depth-first walk: back from each sink (last node first), parents in their
    order ('sinks': a tree drawn this way has no crossings at all) or in reverse order;
    or forward from each source ('sources', as dot starts)."""
    seen = [False] * len(graph.rank)
    layers = graph.layers
    if start == "sources":
        roots = [v for v in range(len(graph.rank)) if not graph.up[v]]
        onward = graph.down
    else:
        roots = [v for v in range(len(graph.rank) - 1, -1, -1) if not graph.down[v]]
        onward = graph.up if start == "sinks" else [near[::-1] for near in graph.up]
    for root in roots:
        if seen[root]:
            continue
        seen[root] = True
        layers[graph.rank[root]].append(root)
        stack = [iter(onward[root])]
        while stack:
            for u in stack[-1]:
                if not seen[u]:
                    seen[u] = True
                    layers[graph.rank[u]].append(u)
                    stack.append(iter(onward[u]))
                    break
            else:
                stack.pop()
    for v, was_seen in enumerate(seen):  # anything no root reaches (none in a program)
        if not was_seen:
            layers[graph.rank[v]].append(v)


def positions(layers: list[list[int]]) -> list[int]:
    """Each node's index within its layer."""
    size = sum(len(layer) for layer in layers)
    position = [0] * size
    for layer in layers:
        for k, v in enumerate(layer):
            position[v] = k
    return position


def _median_sweep(graph: LayeredGraph, position: list[int], rightward: bool, up,
                  down) -> None:
    """Sort each layer by the median position of its neighbours in the layer just
    swept; a node with no such neighbours keeps its place."""
    layers = graph.layers
    sequence = range(1, len(layers)) if rightward else range(len(layers) - 2, -1, -1)
    neighbours = up if rightward else down
    for r in sequence:
        layer = layers[r]
        keyed, fixed = [], []
        for v in layer:
            near = neighbours[v]
            if len(near) == 1:
                keyed.append((position[near[0]], position[v], v))
            elif near:
                keyed.append((_median(sorted(position[u] for u in near)), position[v], v))
            else:
                fixed.append(v)
        if not keyed:
            continue
        keyed.sort()
        if fixed:
            slots = [k for k, v in enumerate(layer) if not neighbours[v]]
            new = [None] * len(layer)
            for k, v in zip(slots, fixed):
                new[k] = v
            it = iter(keyed)
            for k in range(len(new)):
                if new[k] is None:
                    new[k] = next(it)[2]
        else:
            new = [v for _, _, v in keyed]
        layer[:] = new
        for k, v in enumerate(layer):
            position[v] = k


def _median(sorted_positions: list[int]) -> float:
    """dot's weighted median of a node's neighbour positions."""
    m = len(sorted_positions)
    mid = m // 2
    if m % 2 == 1:
        return float(sorted_positions[mid])
    if m == 2:
        return (sorted_positions[0] + sorted_positions[1]) / 2
    left = sorted_positions[mid - 1] - sorted_positions[0]
    right = sorted_positions[-1] - sorted_positions[mid]
    if left + right == 0:
        return (sorted_positions[mid - 1] + sorted_positions[mid]) / 2
    return (sorted_positions[mid - 1] * right + sorted_positions[mid] * left) / (left + right)


def _transpose(graph: LayeredGraph, position: list[int], up, down) -> None:
    """Swap adjacent nodes while that removes crossings (small graphs only)."""
    for _ in range(8):
        improved = False
        for layer in graph.layers:
            for k in range(len(layer) - 1):
                v, w = layer[k], layer[k + 1]
                above, below = pair_crossings(up, down, position, v, w)
                if below < above:
                    layer[k], layer[k + 1] = w, v
                    position[v], position[w] = k + 1, k
                    improved = True
        if not improved:
            return


def crossings(graph: LayeredGraph, position: list[int]) -> int:
    """Edge crossings between every pair of adjacent layers (Barth, Jünger and Mutzel's
    accumulator tree: inversions counted in O(E log V), mincross.layer_crossings)."""
    return _counted(graph.layers, graph.down, position)


def _counted(layers: list[list[int]], down, position: list[int], drops=frozenset()) -> int:
    total = sum(layer_crossings(layer, down, position) for layer in layers[:-1])
    if drops:
        total += sum(drop_crossings(layer, following, down, position, drops)
                     for layer, following in zip(layers, layers[1:]))
    return total


def lifted(graph: LayeredGraph, up, down) -> tuple[list, list, int]:
    """`up` and `down` (each node's neighbours one layer left and right) with the lanes'
    phantom: a node above every layer (its position -1, in no layer) that each source
    of bus edges has as a neighbour on the right (its rise to the lanes above the
    drawing) and each bus edge's drop node on the left (its drop from there). Counted
    and swept with it, an order keeps those ends near the top, where their runs to and
    from the lanes cross few edges. Also the phantom's index (the lists' last)."""
    phantom = len(up)
    up, down = list(up) + [[]], list(down) + [[]]
    for s in {graph.chains[e][0] for e in graph.bus}:
        down[s] = down[s] + [phantom]
    for d in graph.drops:
        up[d] = up[d] + [phantom]
    return up, down, phantom


def crossings_with_lanes(graph: LayeredGraph) -> int:
    """The crossings of `graph`'s order, with those of its bus edges' rises and drops
    (`lifted`) as if their lanes ran above the drawing."""
    _, down, _ = lifted(graph, graph.up, graph.down)
    return _counted(graph.layers, down, positions(graph.layers) + [-1], graph.drops)


def breadth_first(graph: LayeredGraph, from_sinks: bool,
                  nodes: list[int] | None = None) -> list[list[int]]:
    """dot's build_ranks: a breadth-first search from each source along out-edges (or
    from each sink along in-edges), the roots taken in dot's node list order (a depth-
    first walk from node 0 along out-edges then in-edges), each node appended to its
    layer as it is reached."""
    n = len(graph.rank)
    onward = graph.up if from_sinks else graph.down
    layers: list[list[int]] = [[] for _ in graph.layers]
    seen = [False] * n
    for root in node_list(graph) if nodes is None else nodes:
        if seen[root] or (graph.down[root] if from_sinks else graph.up[root]):
            continue  # reached already, or not a sink (a source)
        seen[root] = True
        queue = [root]
        for v in queue:  # the list grows as it is read: a queue
            layers[graph.rank[v]].append(v)
            for u in onward[v]:
                if not seen[u]:
                    seen[u] = True
                    queue.append(u)
    for v in range(n):  # nothing is left in a graph whose every node has a path to a root
        if not seen[v]:
            layers[graph.rank[v]].append(v)
    return layers


def node_list(graph: LayeredGraph) -> list[int]:
    """dot's order of the nodes (decompose's search_component): depth-first preorder
    from each node not yet reached, in index order, along out-edges then in-edges."""
    n = len(graph.rank)
    seen = [False] * n
    out = []
    for start in range(n):
        if seen[start]:
            continue
        seen[start] = True
        out.append(start)
        stack = [iter(graph.down[start] + graph.up[start])]
        while stack:
            for u in stack[-1]:
                if not seen[u]:
                    seen[u] = True
                    out.append(u)
                    stack.append(iter(graph.down[u] + graph.up[u]))
                    break
            else:
                stack.pop()
    return out
