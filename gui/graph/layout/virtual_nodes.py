"""Phase 2: the proper graph. An edge that spans several layers gets a virtual node on
every layer in between; a labelled edge's last one is the size of its label. Past a
budget of virtual nodes, the longest edges become bus edges (routed along a lane)."""
# Qt-free: part of the layout, which runs in a child process (tests/test_structure.py).

from __future__ import annotations

VIRTUAL_H = 8.0       # the height an edge passing through a layer takes
BUS_MIN_SPAN = 10     # edges shorter than this are always routed through virtual nodes
BUS_FAN_OUT = 8       # a value with more long edges than this sends them all by bus


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
        self.drops: set[int] = set()                       # their virtual nodes
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


def make_proper(sizes, edges, ranks, budget: int, fan_out: bool = True) -> LayeredGraph:
    """Split every edge into one-layer pieces through virtual nodes; a labelled edge's
    virtual node next to its target carries the label's size. With `fan_out`, a value's
    many long edges go by bus even within the budget (`_fan_out_edges`)."""
    graph = LayeredGraph(sizes, ranks)
    spans = [ranks[v] - ranks[u] for u, v, _ in edges]
    bus = _bus_edges(spans, budget)
    if fan_out:
        bus |= _fan_out_edges(edges, spans)
    for e, (u, v, label) in enumerate(edges):
        chain = [u]
        label_node = None
        if e in bus:
            graph.bus.add(e)
            w, h = label if label is not None else (0.0, VIRTUAL_H)
            label_node = graph.add_virtual(ranks[v] - 1, w, h)
            graph.drops.add(label_node)
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


def _fan_out_edges(edges, spans: list[int]) -> set[int]:
    """The long edges of a value with more than BUS_FAN_OUT of them (a weight shared by
    every step of a long computation): a bus draws them far more clearly than as many
    parallel tracks across the drawing."""
    long_edges: dict[int, list[int]] = {}
    for e, (u, _, _) in enumerate(edges):
        if spans[e] >= BUS_MIN_SPAN:
            long_edges.setdefault(u, []).append(e)
    return {e for group in long_edges.values() if len(group) > BUS_FAN_OUT for e in group}


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
