"""The lanes of bus edges (virtual_nodes.py): a source's bus edges leave it, run along a
lane above the drawing, or below it, and turn into the drawing beside their targets.
Each source's side is the one where its rise and drops cross fewer edges, and the lanes
of one side nest as a long edge's virtual nodes do (one that ends sooner inside those
that end later), so that lanes cross one another as little as they can."""
# Qt-free: part of the layout, which runs in a child process (tests/test_structure.py).

from __future__ import annotations

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
    lane nearest the drawing whose last span ends LANE_ROOM before it begins."""
    lanes: dict[int, int] = {}
    for side in (False, True):
        ends: list[float] = []  # per lane, where its last span ends
        for s, (a, b) in sorted(spans.items(), key=lambda item: (item[1][1], item[1][0])):
            if (s in below) != side:
                continue
            for k, last in enumerate(ends):
                if last + LANE_ROOM < a:
                    lanes[s], ends[k] = k, b
                    break
            else:
                lanes[s] = len(ends)
                ends.append(b)
    return lanes


def _lane_crossings(graph: LayeredGraph, ys, spans, lanes, below, left) -> int:
    """Crossings among the lanes of one side: two rises out of one column whose lanes are
    in the other order than their sources, and a rise or drop that turns through a lane
    nearer the drawing running there."""
    by_side: dict[bool, list[int]] = {False: [], True: []}
    for s in spans:
        by_side[s in below].append(s)
    turns: dict[int, list[float]] = {s: [spans[s][0]] for s in spans}
    for e in graph.bus:
        turns[graph.chains[e][0]].append(left[graph.rank[graph.chains[e][1]]])
    count = 0
    for side, sources in by_side.items():
        for s in sources:
            a, k, y = spans[s][0], lanes[s], ys[s]
            for t in sources:
                if lanes[t] >= k:
                    continue
                ta, tb = spans[t]
                if ta == a:  # rises out of one column: the outer lane's source is outer
                    count += (ys[t] > y) if side else (ys[t] < y)
                count += sum(1 for x in turns[s] if ta < x < tb)
    return count


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
