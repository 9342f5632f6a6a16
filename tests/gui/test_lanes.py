"""The lanes of bus edges are placed and their crossings counted in O(n log n): the same
lanes and counts as the pairwise way they were first written (kept here as the
reference), on random lanes, and a graph of thousands of bus sources laid out whole."""
# Qt-free: the layout runs in a child process.

from __future__ import annotations

import random
from types import SimpleNamespace

from gui.graph.layout import lanes as lanes_module
from gui.graph.layout.lanes import LANE_ROOM


def pairwise_lanes(spans, below):
    lanes = {}
    for side in (False, True):
        ends = []
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


def pairwise_crossings(graph, ys, spans, lanes, below, left):
    by_side = {False: [], True: []}
    for s in spans:
        by_side[s in below].append(s)
    turns = {s: [spans[s][0]] for s in spans}
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
                if ta == a:
                    count += (ys[t] > y) if side else (ys[t] < y)
                count += sum(1 for x in turns[s] if ta < x < tb)
    return count


def random_bus(rng: random.Random, sources: int, columns: int):
    """Bus edges from `sources` nodes to nodes of later columns: a graph with ranks,
    chains (source, drop, ...), the columns' left and right edges, the nodes' heights."""
    rank, chains, ys = [], [], []
    for _ in range(sources):
        rank.append(rng.randrange(columns - 2))
        ys.append(float(rng.randrange(8)) * 30.0)  # ties of height too
    for s in range(sources):
        for _ in range(rng.randrange(1, 4)):
            d = len(rank)
            rank.append(rng.randrange(rank[s] + 2, columns))
            ys.append(rng.random() * 300.0)
            chains.append([s, d])
    left = [c * 100.0 for c in range(columns)]
    right = [x + 40.0 for x in left]
    graph = SimpleNamespace(bus=list(range(len(chains))), chains=chains, rank=rank)
    return graph, ys, left, right


def test_lanes_and_their_crossings_are_the_pairwise_ones():
    rng = random.Random(7)
    for trial in range(60):
        graph, ys, left, right = random_bus(rng, rng.randrange(1, 40), rng.randrange(3, 12))
        spans = lanes_module._spans(graph, left, right)
        below = {s for s in spans if rng.random() < 0.5} if trial % 3 else set()
        lanes = lanes_module._lanes(spans, below)
        assert lanes == pairwise_lanes(spans, below), trial
        assert lanes_module._lane_crossings(graph, ys, spans, lanes, below, left) == \
            pairwise_crossings(graph, ys, spans, lanes, below, left), trial


def test_thousands_of_bus_sources_are_laid_out():
    """A chain whose every link uses three products of inputs: longest-path ranks put
    each product in the first column, so nearly 3,000 sources' lanes run the whole drawing (the
    pairwise count grew with the square of the sources: 84 s of a 20,000-node layout in
    benchmarks/layout_scale.py's neuron chain)."""
    from gui.graph.layout import layered_layout

    sizes, edges = [(40.0, 24.0)] * 4, []
    last = 0
    for _ in range(1_000):
        base = len(sizes)
        sizes += [(40.0, 24.0)] * 5  # three products, a sum, a tanh
        for k in range(3):
            edges += [(1 + k, base + k, None), (0 if k else 3, base + k, None)]
            edges.append((base + k, base + 3, None))
        edges += [(last, base + 3, None), (base + 3, base + 4, None)]
        last = base + 4
    drawing = layered_layout(sizes, sorted(edges))
    assert len(drawing.centers) == len(sizes) and len(drawing.routes) == len(edges)
    assert len(drawing.trunks) > 2_500  # nearly every product's edge went by its lane
