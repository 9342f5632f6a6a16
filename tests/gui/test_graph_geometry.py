"""The drawing checks of graph_geometry on small hand-made graphs: each can fail."""

from tests.gui.graph_geometry import (
    crossings,
    edges_through_boxes,
    labels_crossed,
    overlapping_boxes,
    overlapping_labels,
    piled_arrowheads,
    shared_middles,
)


def node(id_, x, y, w=20.0, h=20.0, kind="value"):
    return {"id": id_, "kind": kind, "label": id_, "box": [x, y, w, h]}


def edge(source, target, points, label=None):
    return {"source": source, "target": target, "path": [list(p) for p in points],
            "label": label}


def line(a, b, n=16):
    return [(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n) for k in range(n + 1)]


def graph(nodes, edges):
    return {"nodes": nodes, "edges": edges}


# two ends with a box between them on the straight line
A, B, M = node("a", 0, 0), node("b", 200, 0), node("m", 90, 0)


def test_an_edge_through_a_box_is_found():
    g = graph([A, B, M], [edge("a", "b", line((20, 10), (200, 10)))])
    assert edges_through_boxes(g) == [(0, "m")]


def test_an_edge_around_a_box_is_clean():
    around = line((20, 10), (90, -20), 8) + line((90, -20), (110, -20), 4)[1:] \
        + line((110, -20), (200, 10), 8)[1:]
    g = graph([A, B, M], [edge("a", "b", around)])
    assert edges_through_boxes(g) == []


def test_an_edge_grazing_a_box_within_a_pixel_is_allowed_beyond_it_is_not():
    grazing = graph([A, B, M], [edge("a", "b", line((20, -0.5), (200, -0.5)))])
    assert edges_through_boxes(grazing) == []
    cutting = graph([A, B, M], [edge("a", "b", line((20, 1.5), (200, 1.5)))])
    assert edges_through_boxes(cutting) == [(0, "m")]


def test_an_edge_may_start_and_end_inside_its_own_boxes():
    g = graph([A, B], [edge("a", "b", line((10, 10), (210, 10)))])
    assert edges_through_boxes(g) == []


def test_a_segment_jumping_over_a_box_between_samples_is_found():
    # only two points, the box lies between them: segments are checked, not points
    g = graph([A, B, M], [edge("a", "b", [(20, 10), (200, 10)])])
    assert edges_through_boxes(g) == [(0, "m")]


def test_overlapping_boxes():
    assert overlapping_boxes(graph([node("a", 0, 0), node("b", 10, 10)], [])) == [("a", "b")]
    assert overlapping_boxes(graph([node("a", 0, 0), node("b", 20, 0)], [])) == []  # touching
    assert overlapping_boxes(graph([node("a", 0, 0), node("b", 0, 30)], [])) == []


def test_two_labels_overlapping_and_a_label_on_a_box():
    far = node("far", 500, 500)
    one = edge("a", "b", line((20, 10), (200, 10)), {"text": "1 × 1 = 1", "box": [50, 40, 60, 12]})
    two = edge("a", "b", line((20, 10), (200, 50)), {"text": "2 × 1 = 2", "box": [80, 45, 60, 12]})
    assert overlapping_labels(graph([A, B], [one, two])) == [("label", 0, 1)]
    apart = edge("a", "b", line((20, 10), (200, 50)), {"text": "2", "box": [80, 60, 60, 12]})
    assert overlapping_labels(graph([A, B], [one, apart])) == []
    on_box = edge("a", "b", [(0, 0)] * 16, {"text": "3", "box": [495, 495, 10, 10]})
    assert overlapping_labels(graph([A, B, far], [on_box])) == [("box", 0, "far")]
    unlabelled = edge("a", "b", line((20, 10), (200, 10)))
    assert overlapping_labels(graph([A, B, far], [unlabelled, unlabelled])) == []


def test_edges_on_one_line_share_their_middle():
    same = graph([A, B], [edge("a", "b", line((20, 10), (200, 10))),
                          edge("a", "b", line((20, 11), (200, 11)))])
    assert shared_middles(same) == [(0, 1)]
    bent = [(20 + 180 * k / 16, 10 - 30 * (1 - abs(k - 8) / 8)) for k in range(17)]
    apart = graph([A, B], [edge("a", "b", line((20, 10), (200, 10))), edge("a", "b", bent)])
    assert shared_middles(apart) == []


def test_a_middle_on_another_edge_is_shared_even_when_the_other_middle_is_not():
    long_edge = edge("a", "b", line((0, 10), (400, 10)))
    short_edge = edge("a", "b", line((180, 10), (220, 10)))  # its middle is on the long one
    assert shared_middles(graph([], [long_edge, short_edge])) == [(0, 1)]


def test_crossings_counts_proper_intersections():
    c, d = node("c", 0, 100), node("d", 200, 100)
    x1 = edge("a", "d", line((20, 10), (200, 110)))
    x2 = edge("c", "b", line((20, 110), (200, 10)))
    assert crossings(graph([A, B, c, d], [x1, x2])) == 1
    parallel = edge("c", "d", line((20, 110), (200, 110)))
    assert crossings(graph([A, B, c, d], [edge("a", "b", line((20, 10), (200, 10))),
                                          parallel])) == 0


def test_crossings_near_a_shared_end_box_do_not_count():
    # two edges out of one box that cross 2 px outside it: a fan-out, not a crossing
    src, t1, t2 = node("s", 0, 0), node("t1", 200, -100), node("t2", 200, 100)
    e1 = edge("s", "t1", [(20, 12), (22, 8)] + line((22, 8), (200, -90), 15))
    e2 = edge("s", "t2", [(20, 8), (22, 12)] + line((22, 12), (200, 110), 15))
    assert crossings(graph([src, t1, t2], [e1, e2])) == 0
    # the same crossing far from any shared box counts
    other = node("o", -200, 0)
    e3 = edge("o", "t2", [(20, 8), (22, 12)] + line((22, 12), (200, 110), 15))
    assert crossings(graph([src, t1, t2, other], [e1, e3])) == 1


def test_a_curve_crossing_a_line_twice_counts_twice():
    c, d = node("c", 0, 100), node("d", 300, 100)
    straight = edge("a", "b", line((20, 10), (300, 10)))
    wave = edge("c", "d", [(20, 50), (100, 50), (150, -30), (200, -30), (250, 50), (300, 50)])
    assert crossings(graph([A, B, c, d], [straight, wave])) == 2


def test_a_crossing_at_a_sampled_point_of_both_paths_counts_once():
    c, d = node("c", 0, 100), node("d", 200, 100)
    x1 = edge("a", "d", [(20, 10), (110, 60), (200, 110)])
    x2 = edge("c", "b", [(20, 110), (110, 60), (200, 10)])
    assert crossings(graph([A, B, c, d], [x1, x2])) == 1
    # touching at a point without crossing over is not a crossing
    touch = edge("c", "b", [(20, 110), (110, 60), (200, 110)])
    assert crossings(graph([A, B, c, d], [x1, touch])) in (0, 2)


def test_a_bend_grazing_a_label_is_found_its_own_level_run_is_not():
    label = {"text": "3 × 1\n= 3", "box": [100, -14, 36, 28]}
    clean = graph([A, B], [edge("a", "b", [(20, 40), (90, 0), (140, 0), (200, 10)], label)])
    assert labels_crossed(clean) == []
    # the bend reaches the label's middle height only at its left side: it climbs
    # along the label's left edge, within a pixel of its text
    grazing = [(20, 40), (98, 10), (99, 0), (140, 0), (200, 10)]
    assert labels_crossed(graph([A, B], [edge("a", "b", grazing, label)])) == [(0, 0)]
    other = edge("a", "b", line((20, 10), (200, 10)))  # another edge under the label
    assert labels_crossed(graph([A, B], [clean["edges"][0], other])) == [(0, 1)]


def test_arrowheads_apart_or_at_one_point_are_clean_piled_ones_are_found():
    c = node("c", 200, 0, h=40)
    apart = [edge("a", "c", [(20, 10), (200, 10 + 9 * k)]) for k in range(3)]
    assert piled_arrowheads(graph([A, c], apart)) == []
    merged = [edge("a", "c", [(20, 10 * k), (200, 20)]) for k in range(5)]
    assert piled_arrowheads(graph([A, c], merged)) == []
    piled = [edge("a", "c", [(20, 10 * k), (200, 10 + 2 * k)]) for k in range(5)]
    assert piled_arrowheads(graph([A, c], piled)) == [("c", 5)]
