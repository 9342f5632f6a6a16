"""A layered, left-to-right layout of a computation graph, from networkx.

Plain data in, plain data out (no Qt, no Value), so it can run in a worker thread.
Nodes are the value nodes 0..n-1 of a program in topological order; every value with
parents also gets an op node, drawn between its parents and itself as in the seed's
diagram. Layers come from networkx's topological generations, leaves are pulled right
next to their first use, and a few barycenter sweeps reduce edge crossings. The result
depends only on the graph, so the same program is always drawn the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

SWEEPS = 4


@dataclass(frozen=True)
class GraphLayout:
    """Where each node goes: `layer` and `row` per node id, ids ('v', i) and ('o', i)."""

    layer: dict[tuple[str, int], int]
    row: dict[tuple[str, int], float]
    layers: int


def layered_layout(parents: list[tuple[int, ...]]) -> GraphLayout:
    """Lay out a graph given, for each value node in topological order, its parents'
    indices. Returns each value node ('v', i) and op node ('o', i) a layer and a row."""
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
    # a leaf sits just left of its first use, not in column 0 with every other input
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
    return GraphLayout(layer, row, n_layers)


def _creation_order(node: tuple[str, int]) -> tuple[int, int]:
    kind, i = node
    return (i, 0 if kind == "o" else 1)


def _reduce_crossings(graph: nx.DiGraph, columns: list[list]) -> None:
    """Barycenter heuristic: order each layer by the mean position of its neighbours in
    the layer before (sweeping right) or after (sweeping left); ties keep their order."""
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
