"""The layered layout on its own (plain data, no Qt): every edge routed around the boxes,
nothing on top of anything, the same drawing every time."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gui.graph.layout import layered_layout

VALUE, OP, LABEL = (116.0, 58.0), (30.0, 30.0), (64.0, 28.0)


def program_graph(parents: list[tuple[int, ...]]):
    """The graph the scene draws for values with these parents: a box per value, an
    operation before each computed value, a labelled edge per operand."""
    sizes, edges, where = [], [], {}
    for i, ps in enumerate(parents):
        if ps:
            op = len(sizes)
            sizes.append(OP)
            for p in ps:
                edges.append((where[p], op, LABEL))
        where[i] = len(sizes)
        sizes.append(VALUE)
        if ps:
            edges.append((where[i] - 1, where[i], None))
    return sizes, edges


def random_parents(rng: random.Random, n: int, reuse: float) -> list[tuple[int, ...]]:
    parents = [()]
    for i in range(1, n):
        if rng.random() < 0.25:
            parents.append(())  # another input
            continue
        k = 1 if rng.random() < 0.3 else 2
        pool = range(i) if rng.random() < reuse else range(max(0, i - 3), i)
        parents.append(tuple(rng.choice(pool) for _ in range(k)))
    return parents


def boxes(sizes, drawing):
    return [(x - w / 2, y - h / 2, x + w / 2, y + h / 2)
            for (w, h), (x, y) in zip(sizes, drawing.centers)]


def label_boxes(edges, drawing):
    return [(x - label[0] / 2, y - label[1] / 2, x + label[0] / 2, y + label[1] / 2)
            for (_, _, label), c in zip(edges, drawing.label_centers)
            if label is not None for x, y in [c]]


def points(segment, n=24):
    if len(segment) == 2:
        (x0, y0), (x1, y1) = segment
        return [(x0 + (x1 - x0) * t / n, y0 + (y1 - y0) * t / n) for t in range(n + 1)]
    p0, p1, p2, p3 = segment
    out = []
    for k in range(n + 1):
        t = k / n
        u = 1 - t
        out.append(tuple(u**3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t**3 * d
                         for a, b, c, d in zip(p0, p1, p2, p3)))
    return out


def inside(point, box, margin=0.5):
    x, y = point
    return box[0] + margin < x < box[2] - margin and box[1] + margin < y < box[3] - margin


def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def check_drawing(sizes, edges, drawing):
    """Every property the scene relies on; returns nothing, asserts everything."""
    rects = boxes(sizes, drawing)
    for a in range(len(rects)):
        for b in range(a + 1, len(rects)):
            assert not overlap(rects[a], rects[b]), f"boxes {a} and {b} overlap"
    labels = label_boxes(edges, drawing)
    for a, la in enumerate(labels):
        assert not any(overlap(la, r) for r in rects), f"label {a} covers a box"
        for b in range(a + 1, len(labels)):
            assert not overlap(la, labels[b]), f"labels {a} and {b} overlap"
    for e, ((u, v, _), route) in enumerate(zip(edges, drawing.routes)):
        assert drawing.centers[u][0] < drawing.centers[v][0], f"edge {e} goes left"
        first, last = route[0][0], route[-1][-1]
        assert abs(first[0] - rects[u][2]) < 1e-6 and rects[u][1] < first[1] < rects[u][3]
        assert rects[v][0] - 1e-6 <= last[0] <= rects[v][0] + 15.0  # on a rounded end
        assert rects[v][1] < last[1] < rects[v][3]
        for s0, s1 in zip(route, route[1:]):
            assert s0[-1] == s1[0], f"edge {e} is broken"
        for segment in route:
            for p in points(segment):
                for k, r in enumerate(rects):
                    if k not in (u, v):
                        assert not inside(p, r), f"edge {e} ({u}->{v}) enters box {k}"


def test_same_graph_same_drawing_and_every_edge_goes_right():
    sizes, edges = program_graph([(), (), (0, 1), (2, 0), (3, 3), (4, 2, 1)[:2]])
    first, second = layered_layout(sizes, edges), layered_layout(sizes, edges)
    assert first == second
    check_drawing(sizes, edges, first)


def test_a_value_used_four_times_gets_four_separate_routes():
    # q = 3; r = q*q*q + q: the four uses of q leave it at four different heights
    sizes, edges = program_graph([(), (0, 0), (1, 0), (2, 0)])
    drawing = layered_layout(sizes, edges)
    check_drawing(sizes, edges, drawing)
    from_q = [route for (u, _, _), route in zip(edges, drawing.routes) if u == 0]
    assert len(from_q) == 4
    assert len({route[0][0][1] for route in from_q}) == 4  # four ports
    labels = [c for (u, _, _), c in zip(edges, drawing.label_centers) if u == 0]
    assert len(set(labels)) == 4


def test_a_long_edge_is_routed_around_the_chain_it_skips():
    # x feeds the first and the last of a chain of six: its last edge must bend around
    parents = [(), (0,), (1,), (2,), (3,), (4,), (5, 0)]
    sizes, edges = program_graph(parents)
    drawing = layered_layout(sizes, edges)
    check_drawing(sizes, edges, drawing)
    long_route = drawing.routes[[e for e, (u, v, _) in enumerate(edges)
                                 if u == 0 and v == len(sizes) - 2][0]]
    # it leaves the chain's row to pass the boxes it skips, and comes back
    row = drawing.centers[2][1]
    assert max(abs(p[1] - row) for seg in long_route for p in seg) > VALUE[1] / 2


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 40), st.floats(0.0, 1.0))
def test_random_programs_are_drawn_cleanly(seed, n, reuse):
    sizes, edges = program_graph(random_parents(random.Random(seed), n, reuse))
    check_drawing(sizes, edges, layered_layout(sizes, edges))


def test_bus_edges_keep_big_fan_outs_linear_and_clean():
    # w feeds every link of a chain: with a small budget its far edges take the lane
    parents = [(), ()]
    for i in range(2, 40):
        parents.append((i - 1, 0))
    sizes, edges = program_graph(parents)
    drawing = layered_layout(sizes, edges, budget=50)
    assert drawing.trunks and any(drawing.own_from)
    check_drawing(sizes, edges, drawing)
    top = min(y for _, y in drawing.centers)
    for e in drawing.trunks.values():
        assert min(p[1] for seg in e for p in seg) < top - 29  # the lane is above the boxes


def test_edges_must_go_forward():
    import pytest

    with pytest.raises(ValueError):
        layered_layout([VALUE, VALUE], [(1, 0, None)])


def test_a_drawing_sent_in_pieces_comes_back_whole():
    from gui.graph.layout import transfer as pieces

    sizes, edges = program_graph(random_parents(random.Random(3), 400, 0.5))
    radii = [15.0 if size == OP else 0.0 for size in sizes]
    records = list(pieces.layout_pieces(sizes, edges, radii))
    assert len(records) > 4  # the routes alone come in several pieces
    assembler = pieces.DrawingAssembler()
    for record in records:
        assembler.add(record)
    assert assembler.drawing == layered_layout(sizes, edges, radii=radii)


def test_a_graph_packed_for_the_child_is_laid_out_as_the_graph_itself():
    import pickle

    from gui.graph.layout import transfer as pieces

    sizes, edges = program_graph(random_parents(random.Random(5), 300, 0.5))
    edges = [(u, v, (40.0, 22.5) if k % 3 else None) for k, (u, v, _) in enumerate(edges)]
    radii = [15.0 if size == OP else 0.0 for size in sizes]
    packed = pickle.loads(pickle.dumps(pieces.pack_graph(sizes, edges, radii)))
    assert pieces.unpack_graph(**packed) == (sizes, edges, radii)
    steps = pieces.pack_graph_steps(sizes, edges, radii, every=7)
    slices = 0
    while True:
        try:
            next(steps)
            slices += 1
        except StopIteration as done:
            assert pieces.unpack_graph(**done.value) == (sizes, edges, radii)
            break
    assert slices == -(-len(sizes) // 7) + -(-len(edges) // 7)
    assembler = pieces.DrawingAssembler()
    for record in pieces.layout_packed(**packed):
        assembler.add(record)
    assert assembler.drawing == layered_layout(sizes, edges, radii=radii)
