"""The lanes of bus edges (virtual_nodes.py): a source's bus edges leave it, run along a
lane above the drawing, or below it, and turn into the drawing beside their targets.
Each source's side is the one where its rise and drops cross fewer edges, and the lanes
of one side nest as a long edge's virtual nodes do (one that ends sooner inside those
that end later), so that lanes cross one another as little as they can."""
# Qt-free: part of the layout, which runs in a child process (tests/test_structure.py).

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right

from gui.graph.layout.virtual_nodes import LayeredGraph

LANE_ROOM = 20.0  # two spans closer than this along a lane take two lanes
MANY = 300        # sources of bus edges past which lanes' crossings are not weighed


def bus_lanes(graph: LayeredGraph, ys: list[float], left, right) -> tuple[set[int], dict]:
    """The sources whose lane runs below the drawing, and each source's lane (0 nearest
    the drawing, on its side). Of three choices, each source on its better side, all
    above, all below, the one whose lanes cross fewest edges and lanes is kept."""
    if not graph.bus:
        return set(), {}
    lean = _leaning(graph, ys)
    spans = _spans(graph, left, right)
    choices = [{s for s, more in lean.items() if more > 0}, set(), set(lean)]
    best = None
    for below in choices if len(lean) <= MANY else choices[:1]:
        lanes = _lanes(spans, below)
        cost = -sum(lean[s] for s in below) + _lane_crossings(graph, ys, spans, lanes, below,
                                                               left)
        if best is None or cost < best[0]:
            best = (cost, below, lanes)
    return best[1], best[2]


def _leaning(graph: LayeredGraph, ys: list[float]) -> dict[int, int]:
    """Per source of bus edges: how many more edges its rise and drops cross if its lane
    is above than if below (each edge in a gap counted where it is halfway across)."""
    middles: list[list[float]] = [[] for _ in graph.layers]  # per gap, sorted
    for v, near in enumerate(graph.down):
        for w in near:
            middles[graph.rank[v]].append((ys[v] + ys[w]) / 2)
    for heights in middles:
        heights.sort()
    lean: dict[int, int] = {}

    def weigh(s: int, r: int, y: float) -> None:
        heights = middles[r]
        more = bisect_left(heights, y) - (len(heights) - bisect_right(heights, y))
        lean[s] = lean.get(s, 0) + more

    for e in graph.bus:
        s, d = graph.chains[e][0], graph.chains[e][1]
        if s not in lean:
            weigh(s, graph.rank[s], ys[s])  # the rise, shared by the source's bus edges
        weigh(s, graph.rank[d] - 1, ys[d])
    return lean


def _spans(graph: LayeredGraph, left, right) -> dict[int, tuple[float, float]]:
    """Per source of bus edges, where its lane begins and ends."""
    spans: dict[int, tuple[float, float]] = {}
    for e in graph.bus:
        s, d = graph.chains[e][0], graph.chains[e][1]
        a, b = right[graph.rank[s]], left[graph.rank[d]]
        lo, hi = spans.get(s, (a, b))
        spans[s] = (min(lo, a), max(hi, b))
    return spans


def _lanes(spans: dict[int, tuple[float, float]], below: set[int]) -> dict[int, int]:
    """Each source's lane on its side: the spans taken by where they end, each given the
    lane nearest the drawing whose last span ends LANE_ROOM before it begins, else a new
    lane (found in a tree of the lanes' ends: thousands of lanes cost a log each)."""
    lanes: dict[int, int] = {}
    ordered = sorted(spans.items(), key=lambda item: (item[1][1], item[1][0]))
    for side in (False, True):
        taken = [(s, span) for s, span in ordered if (s in below) == side]
        ends = _FirstBelow(len(taken))  # per lane, where its last span ends
        used = 0
        for s, (a, b) in taken:
            k = ends.first_below(a - LANE_ROOM)
            if k < 0:
                k, used = used, used + 1
            lanes[s] = k
            ends.set(k, b)
    return lanes


class _FirstBelow:
    """Numbers 0..n-1, +inf until set: the first one below a bound, and setting one,
    each in O(log n) (a tree of minima)."""

    def __init__(self, n: int):
        size = 1
        while size < n:
            size *= 2
        self.size = size
        self.low = [math.inf] * (2 * size)

    def set(self, k: int, x: float) -> None:
        low, i = self.low, k + self.size
        low[i] = x
        i //= 2
        while i:
            low[i] = min(low[2 * i], low[2 * i + 1])
            i //= 2

    def first_below(self, bound: float) -> int:
        """The first k whose number is < bound, or -1."""
        low, i = self.low, 1
        if not low[1] < bound:
            return -1
        while i < self.size:
            i = 2 * i if low[2 * i] < bound else 2 * i + 1
        return i - self.size


def _lane_crossings(graph: LayeredGraph, ys, spans, lanes, below, left) -> int:
    """Crossings among the lanes of one side: two rises out of one column whose lanes are
    in the other order than their sources, and a rise or drop that turns through a lane
    nearer the drawing running there. Counted a lane at a time, outwards, against the
    spans of the lanes inside it (Fenwick trees), in O(n log n)."""
    by_side: dict[bool, list[int]] = {False: [], True: []}
    for s in spans:
        by_side[s in below].append(s)
    turns: dict[int, list[float]] = {s: [spans[s][0]] for s in spans}
    for e in graph.bus:
        turns[graph.chains[e][0]].append(left[graph.rank[graph.chains[e][1]]])
    count = 0
    for side, sources in by_side.items():
        outwards = sorted(sources, key=lanes.__getitem__)
        count += _turns_through(outwards, spans, lanes, turns)
        rising: dict[float, list[int]] = {}
        for s in outwards:
            rising.setdefault(spans[s][0], []).append(s)
        for together in rising.values():
            if len(together) > 1:
                count += _rises_crossed(together, lanes, ys, side)
    return count


def _runs(outwards: list[int], lanes) -> list[list[int]]:
    """Sources sorted by lane, cut into runs of one lane."""
    runs: list[list[int]] = []
    last = None
    for s in outwards:
        if lanes[s] != last:
            runs.append([])
            last = lanes[s]
        runs[-1].append(s)
    return runs


def _turns_through(outwards: list[int], spans, lanes, turns) -> int:
    """Turns of each lane strictly inside the span of a lane nearer the drawing: the
    spans begun before the turn less those ended at or before it (every span begins
    before it ends)."""
    points = sorted({x for s in outwards for x in (*spans[s], *turns[s])})
    index = {x: i + 1 for i, x in enumerate(points)}
    begun, ended = _Counts(len(points)), _Counts(len(points))
    count = 0
    for run in _runs(outwards, lanes):
        for s in run:
            for x in turns[s]:
                i = index[x]
                count += begun.upto(i - 1) - ended.upto(i)
        for s in run:
            a, b = spans[s]
            if a < b:  # an empty span holds no turn
                begun.add(index[a])
                ended.add(index[b])
    return count


def _rises_crossed(together: list[int], lanes, ys, side: bool) -> int:
    """Of sources rising out of one column (sorted by lane), the pairs whose inner lane's
    source is further out (below the drawing: lower; above: higher)."""
    heights = sorted({ys[s] for s in together})
    index = {y: i + 1 for i, y in enumerate(heights)}
    seen = _Counts(len(heights))
    count = inner = 0
    for run in _runs(together, lanes):
        for s in run:
            i = index[ys[s]]
            count += inner - seen.upto(i) if side else seen.upto(i - 1)
        for s in run:
            seen.add(index[ys[s]])
            inner += 1
    return count


class _Counts:
    """How many of the numbers 1..n added so far are at most i (a Fenwick tree)."""

    def __init__(self, n: int):
        self.tree = [0] * (n + 1)

    def add(self, i: int) -> None:
        tree, n = self.tree, len(self.tree)
        while i < n:
            tree[i] += 1
            i += i & -i

    def upto(self, i: int) -> int:
        tree, total = self.tree, 0
        while i > 0:
            total += tree[i]
            i -= i & -i
        return total


def nested_lane_crossings(graph: LayeredGraph) -> int:
    """An estimate, from the ranks alone, of the crossings among the lanes of `graph`'s
    bus edges were they all on one side, nested as `_lanes` nests them: each turn (a
    rise or a drop) of a lane that ends later, strictly inside the span of one that ends
    sooner (nearer the drawing), crosses it once."""
    spans: dict[int, list[int]] = {}
    turns: dict[int, list[int]] = {}
    for e in graph.bus:
        s, d = graph.chains[e][0], graph.chains[e][1]
        lo, hi = spans.setdefault(s, [graph.rank[s], graph.rank[d]])
        spans[s] = [min(lo, graph.rank[s]), max(hi, graph.rank[d])]
        turns.setdefault(s, [graph.rank[s]]).append(graph.rank[d])
    count = 0
    for s, (_, end) in spans.items():
        at = sorted(turns[s])
        for t, (ta, tb) in spans.items():
            if tb < end or (tb == end and t < s):
                count += max(0, bisect_left(at, tb) - bisect_right(at, ta))
    return count
