"""A layered, left-to-right drawing of a directed acyclic graph, as Graphviz `dot` draws one.

Plain data in, plain data out (no Qt, no Value), so it can run anywhere. The phases are
those of Gansner et al., "A Technique for Drawing Directed Graphs" (the paper behind
`dot`), and each is one function below:

1. `rank`: every node a layer (a column, since the drawing runs left to right), by the
   longest path from the sources; a source is then pulled right, next to its first use.
2. `make_proper`: an edge that spans several layers gets a virtual node on every layer
   in between, and a labelled edge's last virtual node is the size of its label, so the
   label gets space of its own. When a graph has more virtual nodes than a budget (one
   value feeding every node of a long chain), its longest edges become bus edges: they
   leave their source, run along a lane above the drawing and drop down to a virtual
   node beside their target, which keeps the work linear in the size of the graph.
3. `order`: the nodes of each layer, real and virtual together, ordered from a depth-
   first walk back from the sinks, then median sweeps and adjacent swaps (transpose)
   keep whichever order crosses fewest edges.
4. `coordinates`: the position within each layer by Brandes and Köpf, "Fast and Simple
   Horizontal Coordinate Assignment": four alignments of each node with a median
   neighbour, compacted and balanced, so long edges run straight.
5. `route`: each edge as straight runs through the columns of its virtual nodes and
   smooth bends (cubic curves with level tangents) in the gaps between columns, where
   no node ever is: an edge never enters a box other than its two ends.

Coordinates are scene coordinates: x grows to the right (the layers), y grows down.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass

NODE_GAP = 18.0       # between two real nodes of one layer
VIRTUAL_GAP = 8.0     # between a virtual node and anything
VIRTUAL_H = 8.0       # the height an edge passing through a layer takes
MIN_RANK_GAP = 14.0   # between two columns: where edges bend
MAX_RANK_GAP = 110.0
LANE_GAP = 12.0       # between two lanes of bus edges above the drawing
BUS_MIN_SPAN = 10     # edges shorter than this are always routed through virtual nodes


@dataclass(frozen=True)
class Drawing:
    """Where everything goes.

    `centers[i]` is node i's centre. `routes[e]` is edge e as a list of segments, each a
    tuple of points: two points for a straight line, four for a cubic curve (start, two
    control points, end); it starts on the source's box and ends on the target's.
    `label_centers[e]` is the centre of the space kept for edge e's label, or None.
    A bus edge's route begins with its source's trunk (out of the source, up to its lane
    and along it), which it shares with the source's other bus edges: `own_from[e]` is
    where the part that is edge e's alone begins (0 for every other edge), and
    `trunks[source]` the longest trunk of each source, to be drawn once.
    """

    centers: list[tuple[float, float]]
    routes: list[list[tuple[tuple[float, float], ...]]]
    label_centers: list[tuple[float, float] | None]
    own_from: list[int]
    trunks: dict[int, list[tuple[tuple[float, float], ...]]]
    bounds: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # x0, y0, x1, y1


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
    collecting = gc.isenabled()
    gc.disable()
    try:
        ranks = rank(n, edges)
        graph = make_proper(sizes, edges, ranks, budget)
        order(graph)
        ys = coordinates(graph)
        return route(graph, ys, radii)
    finally:
        if collecting:
            gc.enable()


# -- 1. rank ------------------------------------------------------------------------------------


def rank(n: int, edges: list[tuple[int, int, tuple | None]]) -> list[int]:
    """Each node's layer: the longest path from a source (a labelled edge spans at least
    two layers, to make room for its label), then each source moved right up to its
    nearest use."""
    ranks = [0] * n
    has_in = [False] * n
    for u, v, label in sorted(edges, key=lambda e: e[1]):
        has_in[v] = True
        need = ranks[u] + (2 if label is not None else 1)
        if need > ranks[v]:
            ranks[v] = need
    nearest: dict[int, int] = {}
    for u, v, label in edges:
        if not has_in[u]:
            limit = ranks[v] - (2 if label is not None else 1)
            if limit < nearest.get(u, limit + 1):
                nearest[u] = limit
    for u, limit in nearest.items():
        ranks[u] = limit
    low = min(ranks, default=0)
    return [r - low for r in ranks]


# -- 2. virtual nodes ---------------------------------------------------------------------------


class LayeredGraph:
    """The proper graph: real and virtual nodes, each edge between adjacent layers."""

    def __init__(self, sizes, ranks):
        self.n_real = len(sizes)
        self.width = [w for w, _ in sizes]
        self.height = [h for _, h in sizes]
        self.rank = list(ranks)
        self.up: list[list[int]] = [[] for _ in sizes]     # neighbours one layer left
        self.down: list[list[int]] = [[] for _ in sizes]   # neighbours one layer right
        self.chains: list[list[int]] = []                  # per edge: its nodes, in order
        self.label_node: list[int | None] = []             # per edge
        self.bus: set[int] = set()                         # edges routed along a lane
        self.layers: list[list[int]] = []

    def add_virtual(self, rank: int, width: float, height: float) -> int:
        self.width.append(width)
        self.height.append(height)
        self.rank.append(rank)
        self.up.append([])
        self.down.append([])
        return len(self.width) - 1

    def is_virtual(self, v: int) -> bool:
        return v >= self.n_real

    def link(self, a: int, b: int) -> None:
        self.down[a].append(b)
        self.up[b].append(a)


def make_proper(sizes, edges, ranks, budget: int) -> LayeredGraph:
    """Split every edge into one-layer pieces through virtual nodes; a labelled edge's
    virtual node next to its target carries the label's size."""
    graph = LayeredGraph(sizes, ranks)
    spans = [ranks[v] - ranks[u] for u, v, _ in edges]
    bus = _bus_edges(spans, budget)
    for e, (u, v, label) in enumerate(edges):
        chain = [u]
        label_node = None
        if e in bus:
            graph.bus.add(e)
            w, h = label if label is not None else (0.0, VIRTUAL_H)
            label_node = graph.add_virtual(ranks[v] - 1, w, h)
            graph.link(label_node, v)
            chain += [label_node, v]
        else:
            previous = u
            for r in range(ranks[u] + 1, ranks[v]):
                if label is not None and r == ranks[v] - 1:
                    node = label_node = graph.add_virtual(r, label[0], label[1])
                else:
                    node = graph.add_virtual(r, 0.0, VIRTUAL_H)
                graph.link(previous, node)
                chain.append(node)
                previous = node
            graph.link(previous, v)
            chain.append(v)
        graph.chains.append(chain)
        graph.label_node.append(label_node)
    n_layers = max(graph.rank, default=-1) + 1
    graph.layers = [[] for _ in range(n_layers)]
    return graph


def _bus_edges(spans: list[int], budget: int) -> set[int]:
    """The longest edges, taken out of the layers until the rest need at most `budget`
    virtual nodes."""
    total = sum(max(0, s - 1) for s in spans)
    bus = set()
    if total <= budget:
        return bus
    for e in sorted(range(len(spans)), key=lambda e: -spans[e]):
        if total <= budget or spans[e] < BUS_MIN_SPAN:
            break
        bus.add(e)
        total -= spans[e] - 2  # a bus edge keeps one virtual node, beside its target
    return bus


# -- 3. order -----------------------------------------------------------------------------------


def order(graph: LayeredGraph, max_sweeps: int | None = None) -> None:
    """Order each layer of `graph` in place so that few edges cross. A small graph is
    tried from three starting orders (sweeps settle in a local optimum: a long edge
    drawn below a node stays there even when above would cross nothing)."""
    size = len(graph.rank)
    if max_sweeps is None:
        max_sweeps = 16 if size < 3_000 else 6 if size < 12_000 else 2
    starts = ("sinks", "sinks reversed", "sources") if size < 3_000 else ("sinks",)
    best, best_crossings = None, None
    for start in starts:
        graph.layers = [[] for _ in graph.layers]
        _initial_order(graph, start)
        layers, found = _sweep(graph, max_sweeps)
        if best_crossings is None or found < best_crossings:
            best, best_crossings = layers, found
        if found == 0:
            break
    graph.layers = best


def _sweep(graph: LayeredGraph, max_sweeps: int) -> tuple[list[list[int]], int]:
    """Median sweeps (and transposes, for a small graph) from the current order; the
    best order seen and its crossings."""
    size = len(graph.rank)
    position = _positions(graph.layers)
    best = [list(layer) for layer in graph.layers]
    best_crossings = crossings(graph, position) if size < 200_000 else 0
    if best_crossings == 0:
        return best, 0
    stale = 0
    for sweep in range(max_sweeps):
        rightward = sweep % 2 == 0
        _median_sweep(graph, position, rightward)
        if size < 3_000:
            _transpose(graph, position)
        if size >= 12_000:
            if sweep == max_sweeps - 1:  # a big graph: its sweeps are kept uncounted
                return [list(layer) for layer in graph.layers], best_crossings
            continue
        found = crossings(graph, position)
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


def _positions(layers: list[list[int]]) -> dict[int, int] | list[int]:
    size = sum(len(layer) for layer in layers)
    position = [0] * size
    for layer in layers:
        for k, v in enumerate(layer):
            position[v] = k
    return position


def _median_sweep(graph: LayeredGraph, position: list[int], rightward: bool) -> None:
    """Sort each layer by the median position of its neighbours in the layer just
    swept; a node with no such neighbours keeps its place."""
    layers = graph.layers
    sequence = range(1, len(layers)) if rightward else range(len(layers) - 2, -1, -1)
    neighbours = graph.up if rightward else graph.down
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


def _transpose(graph: LayeredGraph, position: list[int]) -> None:
    """Swap adjacent nodes while that removes crossings (small graphs only)."""
    for _ in range(8):
        improved = False
        for layer in graph.layers:
            for k in range(len(layer) - 1):
                v, w = layer[k], layer[k + 1]
                if _pair_crossings(graph, position, w, v) < _pair_crossings(graph, position,
                                                                             v, w):
                    layer[k], layer[k + 1] = w, v
                    position[v], position[w] = k + 1, k
                    improved = True
        if not improved:
            return


def _pair_crossings(graph: LayeredGraph, position: list[int], v: int, w: int) -> int:
    """Crossings between the edges of v and of w if v is drawn above w."""
    count = 0
    for near in (graph.up, graph.down):
        for a in near[v]:
            pa = position[a]
            for b in near[w]:
                if pa > position[b]:
                    count += 1
    return count


def crossings(graph: LayeredGraph, position: list[int]) -> int:
    """Edge crossings between every pair of adjacent layers (Barth, Jünger and Mutzel's
    accumulator tree: inversions counted in O(E log V))."""
    total = 0
    for layer in graph.layers[:-1]:
        targets = []
        for v in layer:
            targets.extend(sorted(position[w] for w in graph.down[v]))
        if len(targets) < 2:
            continue
        total += _inversions(targets)
    return total


def _inversions(sequence: list[int]) -> int:
    size = max(sequence) + 1
    tree = [0] * (size + 1)
    count = 0
    seen = 0
    for x in sequence:
        # how many earlier entries are greater than x
        i, below = x + 1, 0
        while i > 0:
            below += tree[i]
            i -= i & -i
        count += seen - below
        i = x + 1
        while i <= size:
            tree[i] += 1
            i += i & -i
        seen += 1
    return count


# -- 4. coordinates -----------------------------------------------------------------------------


def coordinates(graph: LayeredGraph) -> list[float]:
    """Each node's y (its position across its layer), by Brandes and Köpf: the four
    extreme alignments compacted, then balanced by the mean of their two medians."""
    conflicts = _type1_conflicts(graph)
    candidates = []
    # a big graph takes two opposite corners of the four, balanced by their mean
    corners = ((True, True), (False, False)) if len(graph.rank) >= 12_000 else (
        (True, True), (True, False), (False, True), (False, False))
    for downward, leftward in corners:
        candidates.append(_one_alignment(graph, conflicts, downward, leftward))
    widths = [max(c) - min(c) if c else 0.0 for c in candidates]
    narrowest = candidates[widths.index(min(widths))]
    lo, hi = min(narrowest, default=0.0), max(narrowest, default=0.0)
    for k, c in enumerate(candidates):
        if not c:
            continue
        leftward = corners[k][1]
        shift = lo - min(c) if leftward else hi - max(c)
        candidates[k] = [y + shift for y in c]
    if len(candidates) == 2:
        ys = [(a + b) / 2 for a, b in zip(*candidates)]
    else:
        ys = []
        for values in zip(*candidates):
            s = sorted(values)
            ys.append((s[1] + s[2]) / 2)
    _separate(graph, ys)
    return ys


def _separation(graph: LayeredGraph, a: int, b: int) -> float:
    gap = NODE_GAP if a < graph.n_real and b < graph.n_real else VIRTUAL_GAP
    return (graph.height[a] + graph.height[b]) / 2 + gap


def _type1_conflicts(graph: LayeredGraph) -> set[tuple[int, int]]:
    """Edges between a real node and anything that cross an edge between two virtual
    nodes: those give way, so that long edges stay straight."""
    marked = set()
    layers = graph.layers
    position = _positions(layers)
    virtual = graph.is_virtual
    for i in range(len(layers) - 1):
        upper, lower = layers[i], layers[i + 1]
        k0, scan = 0, 0
        for l1, v in enumerate(lower):
            inner = None
            if virtual(v):
                for u in graph.up[v]:
                    if virtual(u):
                        inner = u
            if inner is not None or l1 == len(lower) - 1:
                k1 = position[inner] if inner is not None else len(upper) - 1
                while scan <= l1:
                    w = lower[scan]
                    for u in graph.up[w]:
                        k = position[u]
                        if (k < k0 or k > k1) and not (virtual(u) and virtual(w)):
                            marked.add((u, w))
                    scan += 1
                k0 = k1
    return marked


def _one_alignment(graph: LayeredGraph, conflicts, downward: bool, leftward: bool) -> list[float]:
    """One of the four extreme layouts: align each node with a median neighbour in the
    layer before (in the sweep's direction), then pack blocks towards one side."""
    layers = graph.layers if downward else graph.layers[::-1]
    if not leftward:
        layers = [layer[::-1] for layer in layers]
    before = graph.up if downward else graph.down
    size = len(graph.rank)
    position = [0] * size
    for layer in layers:
        for k, v in enumerate(layer):
            position[v] = k
    root = list(range(size))
    align = list(range(size))
    for layer in layers:
        r = -1
        for v in layer:
            near = before[v]
            if not near:
                continue
            near = sorted(near, key=position.__getitem__)
            d = len(near)
            for m in ((d - 1) // 2, d // 2) if d % 2 == 0 else ((d - 1) // 2,):
                if align[v] != v:
                    break
                u = near[m]
                pu = position[u]
                key = (u, v) if downward else (v, u)
                if r < pu and key not in conflicts:
                    align[u] = v
                    root[v] = root[u]
                    align[v] = root[v]
                    r = pu
    ys = _compact(graph, layers, root, align)
    return ys if leftward else [-y for y in ys]


def _compact(graph: LayeredGraph, layers, root, align) -> list[float]:
    """Place every block (a chain of aligned nodes) as near the start of its layers as
    the blocks before it allow: longest paths over the blocks in topological order."""
    size = len(root)
    # constraint edges between blocks: (left block, right block, separation)
    succ: dict[int, list[tuple[int, float]]] = {}
    indegree = [0] * size
    for layer in layers:
        for k in range(1, len(layer)):
            a, b = layer[k - 1], layer[k]
            ra, rb = root[a], root[b]
            succ.setdefault(ra, []).append((rb, _separation(graph, a, b)))
            indegree[rb] += 1
    y = [0.0] * size
    ready = [v for v in range(size) if root[v] == v and indegree[v] == 0]
    placed = 0
    while ready:
        r = ready.pop()
        placed += 1
        for rb, sep in succ.get(r, ()):
            if y[r] + sep > y[rb]:
                y[rb] = y[r] + sep
            indegree[rb] -= 1
            if indegree[rb] == 0:
                ready.append(rb)
    return [y[root[v]] for v in range(size)]


def _separate(graph: LayeredGraph, ys: list[float]) -> None:
    """Push nodes apart wherever balancing left two of a layer too close (a safety net:
    the balanced layout keeps the order; this keeps the gaps)."""
    for layer in graph.layers:
        for k in range(1, len(layer)):
            a, b = layer[k - 1], layer[k]
            least = ys[a] + _separation(graph, a, b)
            if ys[b] < least:
                ys[b] = least


# -- 5. route -----------------------------------------------------------------------------------


def route(graph: LayeredGraph, ys: list[float], radii: list[float] | None = None) -> Drawing:
    """Columns placed left to right, each as wide as its widest node, with room to bend
    between them; then every edge drawn through its virtual nodes."""
    n_layers = len(graph.layers)
    col_w = [0.0] * n_layers
    for v, r in enumerate(graph.rank):
        if graph.width[v] > col_w[r]:
            col_w[r] = graph.width[v]
    travel = [0.0] * n_layers  # the largest vertical travel through the gap after a layer
    for v in range(len(graph.rank)):
        for w in graph.down[v]:
            dy = abs(ys[w] - ys[v])
            if dy > travel[graph.rank[v]]:
                travel[graph.rank[v]] = dy
    gap = [min(MAX_RANK_GAP, max(MIN_RANK_GAP, 0.2 * t)) for t in travel]
    left = [0.0] * n_layers
    x = 0.0
    for r in range(n_layers):
        left[r] = x
        x += col_w[r] + gap[r]
    right = [left[r] + col_w[r] for r in range(n_layers)]
    center_x = [left[r] + col_w[r] / 2 for r in range(n_layers)]
    n = graph.n_real
    centers = [(center_x[graph.rank[v]], ys[v]) for v in range(n)]
    out_port, in_port = _ports(graph, ys)
    top = min((ys[v] - graph.height[v] / 2 for v in range(len(ys))), default=0.0)
    lanes = _lanes(graph, left, right, gap)
    routes, labels, own_from, trunks, lanes_y = [], [], [], {}, []
    reach: dict[int, float] = {}
    for e, chain in enumerate(graph.chains):
        s, t = chain[0], chain[-1]
        start = (center_x[graph.rank[s]] + graph.width[s] / 2, out_port[e])
        end = (center_x[graph.rank[t]] - graph.width[t] / 2, in_port[e])
        if radii is not None and radii[t] > 0:
            r, dy = radii[t], in_port[e] - ys[t]
            end = (end[0] + r - max(0.0, r * r - dy * dy) ** 0.5, end[1])
        if e in graph.bus:
            lane_y = top - 24.0 - LANE_GAP * lanes[s]
            lanes_y.append(lane_y)
            trunk, own = _bus_route(graph, chain, ys, start, end, lane_y, left, right, gap, e)
            if trunk[-1][-1][0] > reach.get(s, float("-inf")):
                reach[s], trunks[s] = trunk[-1][-1][0], trunk
            segments = trunk + own
            own_from.append(len(trunk))
        else:
            segments = _chain_route(graph, chain, ys, start, end, left, right)
            own_from.append(0)
        routes.append(segments)
        d = graph.label_node[e]
        labels.append(None if d is None else (center_x[graph.rank[d]], ys[d]))
    size = len(ys)
    bottom = max((ys[v] + graph.height[v] / 2 for v in range(size)), default=0.0)
    lane_top = min((lane for lane in lanes_y), default=top)
    bounds = (0.0, min(top, lane_top), x - gap[-1] if n_layers else 0.0, bottom)
    return Drawing(centers, routes, labels, own_from, trunks, bounds)


def _ports(graph: LayeredGraph, ys: list[float]) -> tuple[list[float], list[float]]:
    """Where each edge leaves its source and enters its target: spread over the box's
    side in the order of the edges' other ends, so that edges sharing an end stay apart."""
    n_edges = len(graph.chains)
    out_port, in_port = [0.0] * n_edges, [0.0] * n_edges
    leaving: dict[int, list[tuple[float, int]]] = {}
    entering: dict[int, list[tuple[float, int]]] = {}
    for e, chain in enumerate(graph.chains):
        leaving.setdefault(chain[0], []).append((ys[chain[1]], e))
        entering.setdefault(chain[-1], []).append((ys[chain[-2]], e))
    for ends, port in ((leaving, out_port), (entering, in_port)):
        for v, items in ends.items():
            m = len(items)
            if m == 1:
                port[items[0][1]] = ys[v]
                continue
            items.sort()
            room = max(0.0, graph.height[v] - 14.0)
            step = min(9.0, room / (m - 1))
            for k, (_, e) in enumerate(items):
                port[e] = ys[v] + (k - (m - 1) / 2) * step
    return out_port, in_port


def _bend(a: tuple[float, float], b: tuple[float, float]) -> tuple:
    """A cubic from a to b, level at both ends."""
    half = (b[0] - a[0]) / 2
    return (a, (a[0] + half, a[1]), (b[0] - half, b[1]), b)


def _line(a: tuple[float, float], b: tuple[float, float]) -> tuple | None:
    return None if a == b else (a, b)


def _chain_route(graph, chain, ys, start, end, left, right) -> list[tuple]:
    segments: list[tuple] = []
    s_rank = graph.rank[chain[0]]
    here = (right[s_rank], start[1])
    _extend(segments, start, here)
    for v in chain[1:-1]:
        r = graph.rank[v]
        enter, leave = (left[r], ys[v]), (right[r], ys[v])
        _extend(segments, here, enter)
        _extend(segments, enter, leave)
        here = leave
    t_rank = graph.rank[chain[-1]]
    enter = (left[t_rank], end[1])
    _extend(segments, here, enter)
    _extend(segments, enter, end)
    return segments


def _extend(segments: list[tuple], a: tuple[float, float], b: tuple[float, float]) -> None:
    """Go on from a to b: level, by lengthening the last line if it is level too (a
    straight run through many columns is one line); otherwise by a bend."""
    if a == b:
        return
    if a[1] == b[1]:
        if segments and len(segments[-1]) == 2 and segments[-1][0][1] == a[1]:
            segments[-1] = (segments[-1][0], b)
        else:
            segments.append((a, b))
    else:
        segments.append(_bend(a, b))


def _lanes(graph: LayeredGraph, left, right, gap) -> dict[int, int]:
    """A lane above the drawing for each source of bus edges, shared by sources whose
    spans do not overlap (intervals coloured greedily from the left)."""
    spans: dict[int, list[float]] = {}
    for e in graph.bus:
        s, d = graph.chains[e][0], graph.chains[e][1]
        a = right[graph.rank[s]]
        b = left[graph.rank[d]]
        lo, hi = spans.get(s, (a, b))
        spans[s] = [min(lo, a), max(hi, b)]
    lanes: dict[int, int] = {}
    ends: list[float] = []  # per lane, where its last span ends
    for s, (a, b) in sorted(spans.items(), key=lambda item: item[1][0]):
        for k, last in enumerate(ends):
            if last + 20.0 < a:
                lanes[s], ends[k] = k, b
                break
        else:
            lanes[s] = len(ends)
            ends.append(b)
    return lanes


def _bus_route(graph, chain, ys, start, end, lane_y, left, right, gap, e) -> tuple[list, list]:
    """Out of the source, up its gap to the lane and along it (the trunk, shared), then
    down the gap before the label's column, through the label's place and into the
    target (the edge's own part). Corners are rounded; the lane is above every box."""
    s, d, t = chain
    rs, rd = graph.rank[s], graph.rank[d]
    # drops into one gap are spread so that they do not lie on top of each other
    x_up = right[rs] + gap[rs] / 2
    x_down = left[rd] - gap[rd - 1] * (0.25 + 0.5 * ((e * 0.618) % 1.0))
    sy, yd = start[1], ys[d]
    c = min(8.0, (x_down - x_up) / 2, (sy - lane_y) / 2, (yd - lane_y) / 2,
            x_up - start[0])
    trunk = [(start, (x_up - c, sy)),
             ((x_up - c, sy), (x_up, sy), (x_up, sy), (x_up, sy - c)),
             ((x_up, sy - c), (x_up, lane_y + c)),
             ((x_up, lane_y + c), (x_up, lane_y), (x_up, lane_y), (x_up + c, lane_y)),
             ((x_up + c, lane_y), (x_down - c, lane_y))]
    level = (right[rd], yd)
    # the drop is one cubic whose control points sit on the vertical: it runs down the
    # gap, never more than c from it, and turns level at both ends
    own = [((x_down - c, lane_y), (x_down, lane_y), (x_down, yd), (x_down + c, yd)),
           ((x_down + c, yd), level)]
    enter = (left[graph.rank[t]], end[1])
    own.append(_bend(level, enter))
    if enter != end:
        own.append((enter, end))
    return trunk, own


__all__ = ["Drawing", "layered_layout", "rank", "make_proper", "order", "coordinates",
           "route", "crossings"]
