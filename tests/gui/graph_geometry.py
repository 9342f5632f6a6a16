"""Checks over an exported graph (the JSON of `main.py export`), as pure functions.

Each takes the dict {"nodes": [...], "edges": [...]} and returns the offending items (an
empty list when the drawing is clean), or a count for `crossings`. Boxes are [x, y, w, h]
and paths [[x, y], ...] in scene coordinates. No Qt: a test reads the drawing as a
person would, from the numbers alone.
"""

from __future__ import annotations

import math

END_TOLERANCE = 1.0     # px: a path may graze a box by this much
MIDDLE_DISTANCE = 2.0   # px: two edges closer than this at a middle share it
ENDPOINT_MARGIN = 3.0   # px: crossings this near a shared end box do not count


def _segments(path):
    return list(zip(path, path[1:]))


def _bounds(points):
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _bounds_meet(a, b, slack=0.0) -> bool:
    return (a[0] - slack <= b[2] and b[0] - slack <= a[2]
            and a[1] - slack <= b[3] and b[1] - slack <= a[3])


def _box_bounds(box, grow=0.0):
    x, y, w, h = box
    return x - grow, y - grow, x + w + grow, y + h + grow


def segment_enters_box(p, q, bounds) -> bool:
    """Whether segment p-q has a point strictly inside the rectangle `bounds`
    (x0, y0, x1, y1): Liang-Barsky clipping, on the open rectangle."""
    x0, y0, x1, y1 = bounds
    if x1 <= x0 or y1 <= y0:
        return False
    dx, dy = q[0] - p[0], q[1] - p[1]
    lo, hi = 0.0, 1.0
    for edge_p, edge_q in ((-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0),
                           (dy, y1 - p[1])):
        if edge_p == 0:
            if edge_q <= 0:
                return False  # parallel to this side and outside (or on) it
            continue
        t = edge_q / edge_p
        if edge_p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo >= hi:
            return False
    return True


def edges_through_boxes(g) -> list[tuple[int, str]]:
    """(edge index, node id) for every edge whose path enters the box of a node other
    than its own source and target (the box shrunk by 1 px, so a graze is allowed)."""
    found = []
    nodes = g["nodes"]
    for i, e in enumerate(g["edges"]):
        ends = {e["source"], e["target"]}
        bounds = _bounds(e["path"])
        segments = _segments(e["path"])
        for n in nodes:
            if n["id"] in ends:
                continue
            box = _box_bounds(n["box"], -END_TOLERANCE)
            if not _bounds_meet(bounds, box):
                continue
            if any(segment_enters_box(p, q, box) for p, q in segments):
                found.append((i, n["id"]))
    return found


def _boxes_overlap(a, b) -> bool:
    """Whether two [x, y, w, h] boxes share some area (touching sides do not)."""
    return (a[0] < b[0] + b[2] and b[0] < a[0] + a[2]
            and a[1] < b[1] + b[3] and b[1] < a[1] + a[3])


def overlapping_boxes(g) -> list[tuple[str, str]]:
    """(id, id) for every two node boxes that overlap."""
    nodes = g["nodes"]
    return [(a["id"], b["id"]) for k, a in enumerate(nodes) for b in nodes[k + 1:]
            if _boxes_overlap(a["box"], b["box"])]


def overlapping_labels(g) -> list[tuple]:
    """("label", i, j) for the labels of edges i and j that overlap, and ("box", i, id)
    for the label of edge i on the box of node `id`."""
    labelled = [(i, e["label"]["box"]) for i, e in enumerate(g["edges"]) if e["label"]]
    found = [("label", i, j) for k, (i, a) in enumerate(labelled)
             for j, b in labelled[k + 1:] if _boxes_overlap(a, b)]
    found += [("box", i, n["id"]) for i, a in labelled for n in g["nodes"]
              if _boxes_overlap(a, n["box"])]
    return found


def _point_at_half_length(path) -> tuple[float, float]:
    lengths = [math.dist(p, q) for p, q in _segments(path)]
    half = sum(lengths) / 2
    for (p, q), length in zip(_segments(path), lengths):
        if half <= length and length > 0:
            t = half / length
            return p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t
        half -= length
    return tuple(path[-1])


def _distance_to_segment(point, p, q) -> float:
    dx, dy = q[0] - p[0], q[1] - p[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((point[0] - p[0]) * dx
                                                     + (point[1] - p[1]) * dy) / length2))
    return math.dist(point, (p[0] + dx * t, p[1] + dy * t))


def distance_to_path(point, path) -> float:
    return min(_distance_to_segment(point, p, q) for p, q in _segments(path))


def shared_middles(g) -> list[tuple[int, int]]:
    """(i, j), i < j, for two edges where the middle (by arc length) of one lies within
    2 px of the other's path: two edges drawn as one line there, e.g. q*q's two edges."""
    edges = g["edges"]
    middles = [_point_at_half_length(e["path"]) for e in edges]
    bounds = [_bounds(e["path"]) for e in edges]
    found = []
    for i in range(len(edges)):
        for j in range(i + 1, len(edges)):
            if not _bounds_meet(bounds[i], bounds[j], MIDDLE_DISTANCE):
                continue
            if (distance_to_path(middles[i], edges[j]["path"]) <= MIDDLE_DISTANCE
                    or distance_to_path(middles[j], edges[i]["path"]) <= MIDDLE_DISTANCE):
                found.append((i, j))
    return found


def _orientation(a, b, c) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def proper_intersection(p1, p2, q1, q2):
    """The point where segments p1-p2 and q1-q2 cross (each one's ends on opposite sides
    of the other), or None. A point exactly on the other line counts as on its left
    side, so a path crossing at a sampled point is counted once, not twice or never."""
    d1, d2 = _orientation(q1, q2, p1), _orientation(q1, q2, p2)
    d3, d4 = _orientation(p1, p2, q1), _orientation(p1, p2, q2)
    if (d1 >= 0) == (d2 >= 0) or (d3 >= 0) == (d4 >= 0):
        return None
    t = d1 / (d1 - d2)
    return p1[0] + (p2[0] - p1[0]) * t, p1[1] + (p2[1] - p1[1]) * t


def _inside(point, bounds) -> bool:
    return bounds[0] <= point[0] <= bounds[2] and bounds[1] <= point[1] <= bounds[3]


def crossings(g) -> int:
    """How many times paths of different edges cross, counting proper intersections of
    their segments; a crossing within 3 px of a box both edges end at is not counted
    (edges that fan out of, or into, one node meet there by design)."""
    edges = g["edges"]
    box_of = {n["id"]: n["box"] for n in g["nodes"]}
    bounds = [_bounds(e["path"]) for e in edges]
    segments = [_segments(e["path"]) for e in edges]
    count = 0
    for i in range(len(edges)):
        for j in range(i + 1, len(edges)):
            if not _bounds_meet(bounds[i], bounds[j]):
                continue
            shared = ({edges[i]["source"], edges[i]["target"]}
                      & {edges[j]["source"], edges[j]["target"]})
            near = [_box_bounds(box_of[s], ENDPOINT_MARGIN) for s in shared if s in box_of]
            for p1, p2 in segments[i]:
                sb = _bounds((p1, p2))
                for q1, q2 in segments[j]:
                    if not _bounds_meet(sb, _bounds((q1, q2))):
                        continue
                    point = proper_intersection(p1, p2, q1, q2)
                    if point is not None and not any(_inside(point, b) for b in near):
                        count += 1
    return count


LABEL_CLEARANCE = 3.0   # px: no path comes nearer a label than this, but its own level run


def labels_crossed(g, clearance: float = LABEL_CLEARANCE) -> list[tuple[int, int]]:
    """(i, j) where edge j's path comes within `clearance` px of edge i's label (or
    enters it): edge i's own path may only run level through it, at its middle height,
    as it is drawn under its label; its bends, and every other edge, keep clear."""
    found = []
    for i, e in enumerate(g["edges"]):
        if not e["label"]:
            continue
        x, y, w, h = e["label"]["box"]
        middle = y + h / 2
        grown = (x - clearance, y - clearance, x + w + clearance, y + h + clearance)
        for j, other in enumerate(g["edges"]):
            if not _bounds_meet(_bounds(other["path"]), grown):
                continue
            for p, q in _segments(other["path"]):
                if j == i and abs(p[1] - middle) < 0.5 and abs(q[1] - middle) < 0.5:
                    continue
                if segment_enters_box(p, q, grown):
                    found.append((i, j))
                    break
    return found


HEAD_HEIGHT = 8.0  # px: an arrowhead's height (gui/graph/items.add_head)


def piled_arrowheads(g) -> list[tuple[str, int]]:
    """(node id, how many) for the nodes whose incoming edges end at points apart by
    less than an arrowhead's height but not at one point: their heads overlap in a
    blot, where merged into one point they are one arrow."""
    ends: dict[str, set] = {}
    for e in g["edges"]:
        x, y = e["path"][-1]
        ends.setdefault(e["target"], set()).add((round(x, 1), round(y, 1)))
    found = []
    for node, points in ends.items():
        ys = sorted(y for _, y in points)
        if any(0 < b - a < HEAD_HEIGHT for a, b in zip(ys, ys[1:])):
            found.append((node, len(points)))
    return found
