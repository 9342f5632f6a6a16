"""Phase 3 for graphs of up to a few thousand nodes: dot's crossing minimisation
(Graphviz lib/dotgen/mincross.c; Gansner, Koutsofios, North and Vo, "A Technique for
Drawing Directed Graphs", 1993, section 3).

Each pass starts from an initial order (dot's two breadth-first searches, from the
sources along out-edges and from the sinks along in-edges, and the layout's own
depth-first walks), improved by adjacent swaps; then up to four iterations of a weighted-
median sweep (down on even iterations, up on odd ones, ties broken the other way every
two) each followed by transposition repeated until it gains nothing. The best order of
all passes, by crossings counted exactly per layer pair, is then iterated further (up to
24 times, stopping after 8 without gain) and transposed once more.
"""
# Qt-free: part of the layout, which runs in a child process (tests/test_structure.py).

from __future__ import annotations

from gui.graph.layout.virtual_nodes import LayeredGraph

FIRST_ITERATIONS = 4   # dot's iterations after each initial order (MIN(4, MaxIter))
MAX_ITERATIONS = 24    # dot's MaxIter
MIN_QUIT = 8           # dot's MinQuit: iterations without gain before stopping
CONVERGENCE = 0.995    # dot's Convergence: a gain smaller than this is no gain
MC_SCALE = 256         # dot's scale of positions in a median
BUBBLE_MAX = 64        # wider layers are sorted at once, not bubble-sorted as dot does


class MinCross:
    """Layers to order and what dot keeps while ordering them: each node's position,
    and the crossings between layer r and r + 1 (None once it may have changed). `up`
    and `down` are each node's neighbours in the layer before and after."""

    def __init__(self, up: list[list[int]], down: list[list[int]], n_layers: int):
        self.up, self.down = up, down
        self.layers: list[list[int]] = [[] for _ in range(n_layers)]
        self.position = [0] * len(up)
        self.cached: list[int | None] = [None] * max(0, n_layers - 1)

    # -- counting ---------------------------------------------------------------------------

    def install(self, layers: list[list[int]]) -> None:
        self.layers[:] = [list(layer) for layer in layers]
        for layer in self.layers:
            for k, v in enumerate(layer):
                self.position[v] = k
        self.cached = [None] * len(self.cached)

    def crossings(self) -> int:
        """Crossings between every pair of adjacent layers, from the cache where valid."""
        total = 0
        for r, known in enumerate(self.cached):
            if known is None:
                known = self.cached[r] = layer_crossings(self.layers[r], self.down,
                                                         self.position)
            total += known
        return total

    def _changed(self, r: int) -> None:
        if r < len(self.cached):
            self.cached[r] = None
        if r > 0:
            self.cached[r - 1] = None

    # -- the passes -------------------------------------------------------------------------

    def run(self, starts: list[list[list[int]]]) -> int:
        """dot's mincross from each initial order in `starts`; leaves the best order in
        `layers` and returns its crossings."""
        best, best_crossings = None, None
        for layers in starts:
            self.install(layers)
            if self.crossings() > 0:
                self.transpose(False)
            found = self.crossings()
            if best_crossings is None or found <= best_crossings:
                best, best_crossings = self.saved(), found
            if found:
                best, best_crossings = self._iterate(FIRST_ITERATIONS, best, best_crossings)
            if best_crossings == 0:
                break
        self.install(best)
        if best_crossings:
            best, best_crossings = self._iterate(MAX_ITERATIONS, best, best_crossings)
            self.install(best)
        if best_crossings:
            self.transpose(False)
            best_crossings = self.crossings()
        return best_crossings

    def saved(self) -> list[list[int]]:
        return [list(layer) for layer in self.layers]

    def _iterate(self, iterations: int, best, best_crossings: int):
        """dot's loop over mincross_step: the best order and its crossings."""
        trying = 0
        for iteration in range(iterations):
            if trying >= MIN_QUIT:
                break
            trying += 1
            self.step(iteration)
            found = self.crossings()
            if found <= best_crossings:
                if found < CONVERGENCE * best_crossings:
                    trying = 0
                best, best_crossings = self.saved(), found
            if found == 0:
                break
        return best, best_crossings

    def step(self, iteration: int) -> None:
        """dot's mincross_step: a median sweep down (even iteration) or up (odd), ties
        broken rightward on iterations 0, 1 (mod 4), then transposition."""
        reverse = iteration % 4 < 2
        n = len(self.layers)
        if iteration % 2 == 0:
            sequence, neighbours = range(1, n), self.up
        else:
            sequence, neighbours = range(n - 2, -1, -1), self.down
        for r in sequence:
            self._reorder(r, neighbours, reverse)
        self.transpose(not reverse)

    def _reorder(self, r: int, neighbours: list[list[int]], reverse: bool) -> None:
        """Sort layer r by its nodes' weighted medians (dot's medians and reorder): a
        node with no neighbour in the layer swept keeps its place, the others are
        bubble-sorted around it, equal medians swapped with `reverse`. A layer wider
        than BUBBLE_MAX is sorted at once (equal medians kept in order, or reversed)."""
        layer, position = self.layers[r], self.position
        values = [median_value(neighbours[v], position) for v in layer]
        if len(layer) > BUBBLE_MAX:
            movable = [k for k, m in enumerate(values) if m >= 0]
            keyed = sorted((values[k], -k if reverse else k, layer[k]) for k in movable)
            new = list(layer)
            for k, (_, _, v) in zip(movable, keyed):
                new[k] = v
        else:
            new = _bubbled(list(layer), values, reverse)
        if new != layer:
            layer[:] = new
            for k, v in enumerate(layer):
                position[v] = k
            self._changed(r)

    def transpose(self, reverse: bool) -> None:
        """dot's transpose: swap adjacent nodes of a layer where that crosses fewer edges
        (or, with `reverse`, as many but some), over the layers that may still gain,
        until a whole round gains nothing."""
        candidate = [True] * len(self.layers)
        while True:
            delta = 0
            for r in range(len(self.layers)):
                if candidate[r]:
                    delta += self._transpose_layer(r, reverse, candidate)
            if delta < 1:
                return

    def _transpose_layer(self, r: int, reverse: bool, candidate: list[bool]) -> int:
        layer, position, up, down = self.layers[r], self.position, self.up, self.down
        candidate[r] = False
        gain = 0
        for k in range(len(layer) - 1):
            v, w = layer[k], layer[k + 1]
            c0 = pair_crossings(up, down, position, v, w)
            if c0 == 0:
                continue
            c1 = pair_crossings(up, down, position, w, v)
            if c1 < c0 or (reverse and c1 == c0):
                layer[k], layer[k + 1] = w, v
                position[v], position[w] = k + 1, k
                gain += c0 - c1
                self._changed(r)
                candidate[r] = True
                if r > 0:
                    candidate[r - 1] = True
                if r + 1 < len(candidate):
                    candidate[r + 1] = True
        return gain


def median_value(near: list[int], position: list[int]) -> int:
    """dot's mval: MC_SCALE times the weighted median position of `near`, as an int
    (dot's reorder compares it truncated), -1 for no neighbours."""
    if not near:
        return -1
    if len(near) == 1:
        return MC_SCALE * position[near[0]]
    places = sorted(MC_SCALE * position[u] for u in near)
    if len(places) == 2:
        return (places[0] + places[1]) // 2
    return int(weighted_median(places))


def _bubbled(layer: list[int], values: list[int], reverse: bool) -> list[int]:
    """dot's reorder of one layer: a bubble sort of the nodes with a median (value >= 0)
    that steps over the others, left in place."""
    end = len(layer)
    for _ in range(len(layer)):
        lp = 0
        while lp < end:
            while lp < end and values[lp] < 0:
                lp += 1
            if lp >= end:
                break
            rp = lp + 1
            while rp < end and values[rp] < 0:
                rp += 1
            if rp >= end:
                break
            if values[lp] > values[rp] or (reverse and values[lp] == values[rp]):
                layer[lp], layer[rp] = layer[rp], layer[lp]
                values[lp], values[rp] = values[rp], values[lp]
            lp = rp
        if not reverse:
            end -= 1
    return layer


def weighted_median(sorted_positions: list[int]) -> float:
    """dot's median value of a node's neighbour positions: the median of an odd count,
    the mean of two, and of an even count the two middle ones weighted by how spread
    each side is (the middle one nearer the tighter side counts more)."""
    m = len(sorted_positions)
    mid = m // 2
    if m % 2 == 1:
        return float(sorted_positions[mid])
    if m == 2:
        return (sorted_positions[0] + sorted_positions[1]) / 2
    left = sorted_positions[mid - 1] - sorted_positions[0]
    right = sorted_positions[-1] - sorted_positions[mid]
    if left == right:
        return (sorted_positions[mid - 1] + sorted_positions[mid]) / 2
    return (sorted_positions[mid - 1] * right + sorted_positions[mid] * left) / (left + right)


def pair_crossings(up: list[list[int]], down: list[list[int]], position: list[int],
                   v: int, w: int) -> int:
    """Crossings between the edges of v and of w (both sides) if v is drawn above w."""
    count = 0
    for near in (up, down):
        nw = near[w]
        if not nw:
            continue
        for a in near[v]:
            pa = position[a]
            for b in nw:
                if pa > position[b]:
                    count += 1
    return count


def layer_crossings(layer: list[int], down: list[list[int]], position: list[int]) -> int:
    """Crossings between `layer` and the next one: inversions of the targets' positions
    read in the layer's order (a Fenwick tree, as Barth, Jünger and Mutzel count them)."""
    targets = []
    for v in layer:
        near = down[v]
        if len(near) == 1:
            targets.append(position[near[0]])
        elif near:
            targets.extend(sorted(position[w] for w in near))
    if len(targets) < 2:
        return 0
    size = max(targets) + 1
    tree = [0] * (size + 1)
    count = 0
    for seen, x in enumerate(targets):
        i, below = x + 1, 0
        while i > 0:
            below += tree[i]
            i -= i & -i
        count += seen - below
        i = x + 1
        while i <= size:
            tree[i] += 1
            i += i & -i
    return count


def contracted(graph: LayeredGraph) -> tuple[list, list, list[int]]:
    """The graph seen through its layers of virtual nodes only (every node one edge in,
    one out: a label's layer between values and operations, long edges): each kept
    node's neighbours in the next and previous kept layers, through those (an edge's
    crossings there are those of the edge drawn straight, once the layer is sorted by
    `expanded`), and the kept layers' indices."""
    up, down, layers = graph.up, graph.down, graph.layers
    see_through = [bool(layer) and all(len(up[v]) == 1 and len(down[v]) == 1 for v in layer)
                   for layer in layers]
    kept = [r for r, through in enumerate(see_through) if not through]
    new_up, new_down = list(up), list(down)
    for a, b in zip(kept, kept[1:]):
        if b == a + 1:
            continue
        for v in layers[a]:
            ends = []
            for w in down[v]:
                for _ in range(b - a - 1):
                    w = down[w][0]
                ends.append(w)
            new_down[v] = ends
        for v in layers[b]:
            starts = []
            for w in up[v]:
                for _ in range(b - a - 1):
                    w = up[w][0]
                starts.append(w)
            new_up[v] = starts
    return new_up, new_down, kept


def expanded(graph: LayeredGraph, kept: list[int], ordered: list[list[int]]) -> list:
    """Every layer of `graph`: the kept ones as `ordered`, each other one sorted by the
    positions of its edges' ends in the kept layers around it (so that it adds no
    crossing), then by its neighbour's in the layer before."""
    layers = [list(layer) for layer in graph.layers]
    position = [0] * len(graph.rank)
    for r, layer in zip(kept, ordered):
        layers[r] = list(layer)
        for k, v in enumerate(layer):
            position[v] = k
    for a, b in zip(kept, kept[1:]):
        for r in range(a + 1, b):
            keyed = []
            for v in layers[r]:
                u = w = v
                for _ in range(r - a):
                    u = graph.up[u][0]
                for _ in range(b - r):
                    w = graph.down[w][0]
                keyed.append((position[u], position[w], position[graph.up[v][0]], v))
            keyed.sort()  # the last key keeps two edges with the same ends apart
            layers[r] = [v for *_, v in keyed]
            for k, v in enumerate(layers[r]):
                position[v] = k
    return layers


def breadth_first(graph: LayeredGraph, from_sinks: bool) -> list[list[int]]:
    """dot's build_ranks: a breadth-first search from each source along out-edges (or
    from each sink along in-edges), the roots taken in dot's node list order (a depth-
    first walk from node 0 along out-edges then in-edges), each node appended to its
    layer as it is reached."""
    n = len(graph.rank)
    onward = graph.up if from_sinks else graph.down
    layers: list[list[int]] = [[] for _ in graph.layers]
    seen = [False] * n
    for root in node_list(graph):
        if onward is graph.down and graph.up[root] or from_sinks and graph.down[root]:
            continue
        if seen[root]:
            continue
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
