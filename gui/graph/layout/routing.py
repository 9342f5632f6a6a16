"""Phase 5: columns placed left to right and every edge drawn: level through the columns
of its virtual nodes, bending only in the gaps between columns, where no box is."""
# Qt-free: part of the layout, which runs in a child process (tests/test_structure.py).

from __future__ import annotations

from dataclasses import dataclass

from gui.graph.layout.lanes import bus_lanes
from gui.graph.layout.virtual_nodes import LayeredGraph

MIN_RANK_GAP = 14.0   # between two columns: where edges bend
MAX_RANK_GAP = 110.0
LANE_GAP = 12.0       # between two lanes of bus edges above the drawing


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
    out_port, in_port, merged = _ports(graph, ys)
    top = min((ys[v] - graph.height[v] / 2 for v in range(len(ys))), default=0.0)
    bottom = max((ys[v] + graph.height[v] / 2 for v in range(len(ys))), default=0.0)
    below, lanes = bus_lanes(graph, ys, left, right)
    routes, labels, own_from, trunks, lanes_y = [], [], [], {}, []
    reach: dict[int, float] = {}
    for e, chain in enumerate(graph.chains):
        s, t = chain[0], chain[-1]
        start = (center_x[graph.rank[s]] + graph.width[s] / 2, out_port[e])
        end = (center_x[graph.rank[t]] - graph.width[t] / 2, in_port[e])
        if radii is not None and radii[t] > 0:
            r, dy = radii[t], in_port[e] - ys[t]
            end = (end[0] + r - max(0.0, r * r - dy * dy) ** 0.5, end[1])
        enter_x = _enter_x(graph.rank[t], t in merged, left, gap)
        if e in graph.bus:
            lane_y = (bottom + 24.0 + LANE_GAP * lanes[s] if s in below
                      else top - 24.0 - LANE_GAP * lanes[s])
            lanes_y.append(lane_y)
            trunk, own = _bus_route(graph, chain, ys, start, end, lane_y, left, right, gap, e,
                                    enter_x)
            if trunk[-1][-1][0] > reach.get(s, float("-inf")):
                reach[s], trunks[s] = trunk[-1][-1][0], trunk
            segments = trunk + own
            own_from.append(len(trunk))
        else:
            segments = _chain_route(graph, chain, ys, start, end, left, right, enter_x,
                                    graph.label_node[e])
            own_from.append(0)
        routes.append(segments)
        d = graph.label_node[e]
        labels.append(None if d is None else (center_x[graph.rank[d]], ys[d]))
    lane_top = min(lanes_y, default=top)
    lane_bottom = max(lanes_y, default=bottom)
    bounds = (0.0, min(top, lane_top), x - gap[-1] if n_layers else 0.0,
              max(bottom, lane_bottom))
    return Drawing(centers, routes, labels, own_from, trunks, bounds)


HEAD_H = 8.0  # an arrowhead's height (items.add_head): ends closer than this overlap
JOIN = 12.0   # edges merged into one arrow run this long together into their box
# an edge runs level for this long (at most a third of the gap) before and after the
# column of its label, so that its bends keep clear of the label's text instead of
# climbing along its side: the bends take that much less of the gaps, no width more
LABEL_LEAD = 4.0


def _ports(graph: LayeredGraph, ys: list[float]) -> tuple[list[float], list[float], set]:
    """Where each edge leaves its source and enters its target: spread over the box's
    side in the order of the edges' other ends, so that edges sharing an end stay apart.
    Where a box's side has no room for its incoming edges' arrowheads apart (a neuron's
    sum of 16 terms: 17 heads in 20 px piled into one blot), they all end at its
    middle instead and their heads are one arrow: those boxes are the third result."""
    n_edges = len(graph.chains)
    out_port, in_port = [0.0] * n_edges, [0.0] * n_edges
    merged: set[int] = set()
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
            if port is in_port and step < HEAD_H:
                step = 0.0  # into one point, under one arrowhead
                merged.add(v)
            for k, (_, e) in enumerate(items):
                port[e] = ys[v] + (k - (m - 1) / 2) * step
    return out_port, in_port, merged


def _enter_x(rank: int, merged: bool, left: list[float], gap: list[float]) -> float:
    """Where an edge into a node of `rank` turns level: its column's left side; for
    edges merged into one arrow, a little before it, where they join: the arrowhead
    sits on a shaft of its own, not at the point where a fan of curves closes."""
    return left[rank] - (min(JOIN, gap[rank - 1] / 3) if merged else 0.0)


def _bend(a: tuple[float, float], b: tuple[float, float]) -> tuple:
    """A cubic from a to b, level at both ends."""
    half = (b[0] - a[0]) / 2
    return (a, (a[0] + half, a[1]), (b[0] - half, b[1]), b)


def _chain_route(graph, chain, ys, start, end, left, right, enter_x: float,
                 label: int | None) -> list[tuple]:
    segments: list[tuple] = []
    s_rank = graph.rank[chain[0]]
    here = (right[s_rank], start[1])
    _extend(segments, start, here)
    for v in chain[1:-1]:
        r = graph.rank[v]
        enter, leave = (left[r], ys[v]), (right[r], ys[v])
        if v == label:  # its label's column: level a little before and after it
            enter = (left[r] - _lead(left[r] - right[r - 1]), ys[v])
            leave = (right[r] + _lead(left[r + 1] - right[r]), ys[v])
        _extend(segments, here, enter)
        _extend(segments, enter, leave)
        here = leave
    enter = (enter_x, end[1])
    _extend(segments, here, enter)
    _extend(segments, enter, end)
    return segments


def _lead(gap: float) -> float:
    return min(LABEL_LEAD, gap / 3)


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


def _bus_route(graph, chain, ys, start, end, lane_y, left, right, gap, e,
               enter_x: float) -> tuple[list, list]:
    """Out of the source, up (or down) its gap to the lane and along it (the trunk,
    shared), then down (up) the gap before the label's column, through the label's
    place and into the target (the edge's own part). Corners are rounded; the lane is
    above (below) every box."""
    s, d, t = chain
    rs, rd = graph.rank[s], graph.rank[d]
    # drops into one gap are spread so that they do not lie on top of each other
    x_up = right[rs] + gap[rs] / 2
    x_down = left[rd] - gap[rd - 1] * (0.25 + 0.5 * ((e * 0.618) % 1.0))
    sy, yd = start[1], ys[d]
    down = 1.0 if lane_y > sy else -1.0  # from the source to a lane below, or above
    c = min(8.0, (x_down - x_up) / 2, abs(sy - lane_y) / 2, abs(yd - lane_y) / 2,
            x_up - start[0])
    trunk = [(start, (x_up - c, sy)),
             ((x_up - c, sy), (x_up, sy), (x_up, sy), (x_up, sy + down * c)),
             ((x_up, sy + down * c), (x_up, lane_y - down * c)),
             ((x_up, lane_y - down * c), (x_up, lane_y), (x_up, lane_y), (x_up + c, lane_y)),
             ((x_up + c, lane_y), (x_down - c, lane_y))]
    level = (right[rd] + _lead(left[rd + 1] - right[rd]), yd)
    # the drop is one cubic whose control points sit on the vertical: it runs down the
    # gap, never more than c from it, and turns level at both ends
    own = [((x_down - c, lane_y), (x_down, lane_y), (x_down, yd), (x_down + c, yd)),
           ((x_down + c, yd), level)]
    enter = (enter_x, end[1])
    own.append(_bend(level, enter))
    if enter != end:
        own.append((enter, end))
    return trunk, own
