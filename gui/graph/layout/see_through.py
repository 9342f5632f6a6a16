"""The layers seen through: a layer whose every node has one edge in and one out (a
label's layer between values and operations; the virtual nodes of long edges) adds no
crossing of its own once sorted by its edges' ends, so the order is found on the graph
without those layers, which are then sorted to fit."""
# Qt-free: part of the layout, which runs in a child process (tests/test_structure.py).

from __future__ import annotations

from gui.graph.layout.virtual_nodes import LayeredGraph


def contracted(graph: LayeredGraph, layers: list[list[int]],
               keep: set[int] = frozenset()) -> tuple[list, list, list[int]]:
    """The graph seen through its layers of virtual nodes only (every node one edge in,
    one out: a label's layer between values and operations, long edges): each kept
    node's neighbours in the next and previous kept layers, through those (an edge's
    crossings there are those of the edge drawn straight, once the layer is sorted by
    `expanded`), and the kept layers' indices. `layers`: every layer's nodes; a layer
    with a node of `keep` is kept."""
    up, down = graph.up, graph.down
    see_through = [bool(layer) and all(len(up[v]) == 1 and len(down[v]) == 1
                                       and v not in keep for v in layer)
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


def expanded(graph: LayeredGraph, layers: list[list[int]], kept: list[int],
             ordered: list[list[int]]) -> list:
    """Every one of `layers`: the kept ones as `ordered`, each other one sorted by the
    positions of its edges' ends in the kept layers around it (so that it adds no
    crossing), then by its neighbour's in the layer before."""
    layers = [list(layer) for layer in layers]
    position = [0] * len(graph.rank)
    for r, layer in zip(kept, ordered):
        layers[r] = list(layer)
        for k, v in enumerate(layer):
            position[v] = k
    up, down = graph.up, graph.down
    top, bottom = list(range(len(graph.rank))), list(range(len(graph.rank)))
    for a, b in zip(kept, kept[1:]):
        for r in range(a + 1, b):  # each edge's end in layer a, carried along
            for v in layers[r]:
                top[v] = top[up[v][0]]
        for r in range(b - 1, a, -1):  # and in layer b
            for v in layers[r]:
                bottom[v] = bottom[down[v][0]]
        for r in range(a + 1, b):
            keyed = [(position[top[v]], position[bottom[v]], position[up[v][0]], v)
                     for v in layers[r]]
            keyed.sort()  # the last key keeps two edges with the same ends apart
            layers[r] = [v for *_, v in keyed]
            for k, v in enumerate(layers[r]):
                position[v] = k
    return layers
