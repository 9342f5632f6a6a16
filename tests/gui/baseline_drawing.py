"""Today's drawing of a computation graph (before edges were routed), kept only as the
baseline that the quality tests compare crossings against.

A copy of the layered layout and the scene geometry the app used until edges were routed
through virtual nodes: layers from networkx's topological generations, leaves pulled
next to their first use, four barycenter sweeps; value boxes 116x58 and op circles of
diameter 30 placed in those layers; every edge one cubic from the source's right middle
to the target's left middle, bent 18 px more for each repeat of the same parent. Pure
Python, no Qt. Returns the export JSON's shape, so the same checks read both drawings.
"""

from __future__ import annotations

import networkx as nx

SWEEPS = 4
VALUE_W, VALUE_H = 116.0, 58.0
OP_D = 30.0
GAP_AFTER_VALUE = 120.0
GAP_AFTER_OP = 36.0
ROW_H = VALUE_H + 30.0
BEND = 18.0
SAMPLES = 16  # pieces per edge, as the export samples one cubic


def baseline_graph(parents: list[tuple[int, ...]]) -> dict:
    """Today's drawing of the graph whose value node i (in topological order) has the
    value nodes `parents[i]` as parents, constants drawn as nodes: {"nodes", "edges"}
    as in the export JSON (node ids 'v<i>' and 'o<i>', no edge labels)."""
    layer, row, n_layers = _layered_layout(parents)
    xs = _layer_positions(layer, n_layers)
    centre = {node: (xs[layer[node]], row[node] * ROW_H) for node in layer}
    nodes = []
    for i, ps in enumerate(parents):
        x, y = centre[("v", i)]
        nodes.append({"id": f"v{i}", "kind": "value" if ps else "constant", "label": f"v{i}",
                      "box": [x - VALUE_W / 2, y - VALUE_H / 2, VALUE_W, VALUE_H]})
    edges = []
    for i, ps in enumerate(parents):
        if not ps:
            continue
        x, y = centre[("o", i)]
        nodes.append({"id": f"o{i}", "kind": "op", "label": "op",
                      "box": [x - OP_D / 2, y - OP_D / 2, OP_D, OP_D]})
        seen: dict[int, int] = {}
        for p in ps:
            repeat = seen.get(p, 0)
            seen[p] = repeat + 1
            px, py = centre[("v", p)]
            edges.append(_edge(f"v{p}", f"o{i}", (px + VALUE_W / 2, py), (x - OP_D / 2, y),
                               BEND * repeat))
        vx, vy = centre[("v", i)]
        edges.append(_edge(f"o{i}", f"v{i}", (x + OP_D / 2, y), (vx - VALUE_W / 2, vy), 0.0))
    return {"nodes": nodes, "edges": edges}


def _edge(source: str, target: str, start, end, bend: float) -> dict:
    dx = max(30.0, (end[0] - start[0]) / 2)
    controls = (start, (start[0] + dx, start[1] + bend), (end[0] - dx, end[1] + bend), end)
    path = [_cubic(controls, k / SAMPLES) for k in range(SAMPLES + 1)]
    path[0], path[-1] = start, end
    return {"source": source, "target": target,
            "path": [[round(x, 2), round(y, 2)] for x, y in path], "label": None}


def _cubic(controls, t: float):
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = controls
    u = 1 - t
    a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
    return a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3


def _layer_positions(layer: dict, n_layers: int) -> list[float]:
    has_value = [False] * n_layers
    for (kind, _), k in layer.items():
        if kind == "v":
            has_value[k] = True
    xs, x = [], 0.0
    for k in range(n_layers):
        width = VALUE_W if has_value[k] else OP_D
        xs.append(x + width / 2)
        x += width + (GAP_AFTER_VALUE if has_value[k] else GAP_AFTER_OP)
    return xs


def _layered_layout(parents: list[tuple[int, ...]]):
    graph = nx.DiGraph()
    for i, ps in enumerate(parents):
        graph.add_node(("v", i))
        if ps:
            graph.add_edge(("o", i), ("v", i))
            for p in ps:
                graph.add_edge(("v", p), ("o", i))
    layer = {}
    for depth, generation in enumerate(nx.topological_generations(graph)):
        for node in generation:
            layer[node] = depth
    for i, ps in enumerate(parents):
        node = ("v", i)
        if not ps:
            uses = [layer[s] for s in graph.successors(node)]
            if uses:
                layer[node] = min(uses) - 1
    n_layers = max(layer.values()) + 1
    columns: list[list] = [[] for _ in range(n_layers)]
    for node in sorted(layer, key=_creation_order):
        columns[layer[node]].append(node)
    _reduce_crossings(graph, columns)
    row = {}
    for column in columns:
        offset = (len(column) - 1) / 2.0
        for k, node in enumerate(column):
            row[node] = k - offset
    return layer, row, n_layers


def _creation_order(node):
    kind, i = node
    return (i, 0 if kind == "o" else 1)


def _reduce_crossings(graph: nx.DiGraph, columns: list[list]) -> None:
    position = {node: k for column in columns for k, node in enumerate(column)}
    for sweep in range(SWEEPS):
        rightward = sweep % 2 == 0
        sequence = columns[1:] if rightward else columns[-2::-1]
        for column in sequence:
            neighbours = graph.predecessors if rightward else graph.successors
            keys = {}
            for node in column:
                near = [position[m] for m in neighbours(node)]
                keys[node] = sum(near) / len(near) if near else position[node]
            column.sort(key=lambda node: (keys[node], position[node]))
            for k, node in enumerate(column):
                position[node] = k
