"""Phase 4: each node's position across its layer, by Brandes and Köpf, "Fast and Simple
Horizontal Coordinate Assignment" (with node sizes): long edges run straight."""
# Qt-free: part of the layout, which runs in a child process (tests/test_structure.py).

from __future__ import annotations

from gui.graph.layout.ordering import positions
from gui.graph.layout.virtual_nodes import LayeredGraph

NODE_GAP = 18.0       # between two real nodes of one layer
VIRTUAL_GAP = 8.0     # between a virtual node and anything


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
    # a bus edge's drop comes from a lane, not from the layer before: the node it feeds
    # never aligns with it, so that the chain it belongs to stays straight
    marked = {(d, v) for d in graph.drops for v in graph.down[d]}
    layers = graph.layers
    position = positions(layers)
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
