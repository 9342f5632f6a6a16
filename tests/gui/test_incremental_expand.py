"""Opening and closing groups without laying out or scanning the whole graph again: the
quotient made from the one before (gui/graph/quotients.py) is the one made from scratch,
for any sequence of opens, closes, levels and reveals; and a picture laid out again from
the one before (gui/graph/layout/reuse.py) keeps the drawing's standard."""

import random
from functools import partial

import pytest

from gui.graph.grouped import Shown, renumbered
from gui.graph.groups import arrays_of, group_graph
from gui.graph.groups.model import quotient
from tests.graph_models import graph_of, microgpt_step, micrograd_mlp


@pytest.fixture(scope="module", params=["mlp", "gpt"])
def grouped(request):
    root = micrograd_mlp(8).loss if request.param == "mlp" else microgpt_step(positions=3).loss
    nodes, roles = graph_of(root)
    arrays = arrays_of(nodes, roles)
    grouping = group_graph(arrays, threshold=100)
    assert len(grouping.groups) > 10
    return renumbered(arrays, grouping)


def _made(shown: Shown) -> Shown:
    for _ in shown.quotient_steps():
        pass
    return shown


def _moves(shown: Shown, rng: random.Random):
    """A random next set of open groups, as the window's actions make them."""
    groups = shown.groups
    choice = rng.random()
    if choice < 0.45:
        closed = [g.id for g in groups if g.id not in shown.expanded]
        return shown.expanding(rng.choice(closed)) if closed else set()
    if choice < 0.75 and shown.expanded:
        return shown.collapsing(rng.choice(sorted(shown.expanded)))
    if choice < 0.9:
        return shown.revealing(rng.randrange(len(shown.arrays)))
    return shown.to_level(rng.randrange(4))


@pytest.mark.parametrize("seed", range(3))
def test_a_quotient_made_from_the_one_before_is_the_one_made_from_scratch(grouped, seed):
    arrays, grouping = grouped
    rng = random.Random(seed)
    shown = _made(Shown(None, arrays, grouping, set()))
    for _ in shown.bucket_steps():
        pass
    assert shown.shared.buckets.done
    # every operand held inside a group is filed once, under the innermost group that
    # holds both its ends
    filed = [op for ops in shown.shared.buckets.inside.values() for op in ops]
    assert len(filed) == len(set(filed))
    for g, ops in shown.shared.buckets.inside.items():
        for c, k in ops:
            both = [h for h, h2 in zip(grouping.ancestors(c),
                                       grouping.ancestors(arrays.parents[c][k])) if h == h2]
            assert both and both[-1] == g
    held = sum(1 for c, ps in enumerate(arrays.parents) for p in ps
               if set(grouping.ancestors(c)) & set(grouping.ancestors(p)))
    assert len(filed) == held
    changed = 0
    for _ in range(40):
        expanded = _moves(shown, rng)
        shown.shared.quotients.clear()  # made from the one before, not found kept
        following = shown.opened(expanded)
        assert following._before is shown
        _made(following)
        plain = quotient(arrays, grouping, set(expanded))
        assert following.quotient.units == plain.units
        assert following.quotient.unit_of == plain.unit_of
        assert following.quotient.edges == plain.edges  # the same edges, in the same order
        changed += following.quotient.edges != shown.quotient.edges
        shown = following
    assert changed > 20


def test_a_set_of_open_groups_seen_before_reuses_its_quotient(grouped):
    arrays, grouping = grouped
    shown = _made(Shown(None, arrays, grouping, set()))
    g = grouping.top()[0]
    opened = _made(shown.opened(shown.expanding(g)))
    again = _made(opened.opened(set()))
    assert again.quotient is shown.quotient
    assert again.quotient.edges == quotient(arrays, grouping, set()).edges


# -- in the window: laid out again from the picture before, in the warm child ----------------


def _big_mlp(window, qtbot, points=8):
    from engine.core.value import topological_order
    from tests.gui.grouped_models import program_of, stepper_of

    loss = micrograd_mlp(points).loss
    nodes = topological_order(loss)
    program = program_of(nodes)
    window.session.load_prepared(program, stepper_of(loss, nodes))
    tab = window.graph_tab
    qtbot.waitUntil(lambda: tab.scene.shown is not None and not tab.laying_out
                    and not window.building, timeout=120_000)
    return loss, nodes, program


def _idle(window, qtbot):
    tab = window.graph_tab
    qtbot.waitUntil(lambda: not tab.expansion.preparer.running and not tab.laying_out,
                    timeout=60_000)
    return tab.scene


def _redrawn(window, qtbot, action):
    tab = window.graph_tab
    before = tab.scene
    action()
    qtbot.waitUntil(lambda: tab.scene is not before and not tab.laying_out, timeout=60_000)
    return _idle(window, qtbot)


def _clean(scene) -> None:
    """Every unit of the quotient placed, no edge through a box, no label on a label."""
    from gui.graph.export import graph_records
    from tests.gui.graph_geometry import edges_through_boxes, overlapping_boxes, overlapping_labels

    shown, spec = scene.shown, scene.spec
    units = {f"g{-1 - u}" if u < 0 else f"v{u}" for u in shown.quotient.units}
    folded = {f"v{u}" for u in shown.quotient.units if u >= 0 and f"v{u}" not in spec.ids
              and shown.arrays.roles[u] == "constant"}
    assert units - folded <= set(spec.ids)
    assert len(scene.drawing.centers) == len(spec.ids)
    g = graph_records(scene)
    assert edges_through_boxes(g) == []
    assert overlapping_boxes(g) == []
    assert overlapping_labels(g) == []


def test_opening_and_closing_in_any_order_keeps_the_drawing_clean_and_the_steps(window, qtbot):
    loss, nodes, program = _big_mlp(window, qtbot)
    tab = window.graph_tab
    expansion = tab.expansion
    scene = _idle(window, qtbot)
    assert tab.background.server.running  # warm, ahead of the first click
    shown = scene.shown
    biggest = max(scene.group_items, key=lambda g: shown.groups[g].members)
    # prepared while idle: opening the biggest group finds its drawing made already
    prepared = shown.shared.drawings.get((frozenset(shown.expanding(biggest)), True))
    assert prepared is not None
    scene = _redrawn(window, qtbot, lambda: expansion.expand(biggest))
    assert scene.drawing is prepared[1] and biggest not in scene.group_items
    _clean(scene)
    rng = random.Random(7)
    for move in ("inner", "close", "reveal", "level", "inner"):
        shown = scene.shown
        inner = [g for g in scene.group_items if shown.groups[g].parent >= 0]
        expanded = set(shown.expanded)
        if move == "inner":
            g = rng.choice(inner or list(scene.group_items))
            scene = _redrawn(window, qtbot, partial(expansion.expand, g))
        elif move == "close":
            g = rng.choice(sorted(shown.expanded))
            scene = _redrawn(window, qtbot, partial(expansion.collapse, g))
        elif move == "reveal":
            hidden = [i for i in range(len(nodes)) if shown.quotient.unit_of[i] < 0]
            scene = _redrawn(window, qtbot, partial(expansion.reveal, rng.choice(hidden)))
        else:
            scene = _redrawn(window, qtbot, partial(expansion.to_level, 2))
        assert scene.shown.expanded != expanded
        _clean(scene)
    # the same groups open, laid out from scratch: the same boxes and edges
    fresh = scene.shown.opened(set(scene.shown.expanded))
    fresh.quotient = None
    fresh.shared = type(scene.shown.shared)()
    for _ in fresh.quotient_steps():
        pass
    assert fresh.quotient.edges == scene.shown.quotient.edges
    tab.actions["end"].trigger()  # the script's own backward()'s gradients, to the bit
    _clean(tab.scene)
    grads = {v.label: v.grad for v in program.values if v.label}
    for v in nodes:
        v.grad = 0.0
    loss.backward()
    assert grads == {v.label: v.grad for v in nodes if v.label}


def test_the_warm_layout_child_stops_with_the_window(window, qtbot):
    _big_mlp(window, qtbot, points=6)
    server = window.graph_tab.background.server
    _idle(window, qtbot)
    assert server.running
    qtbot.waitUntil(lambda: server.ready, timeout=60_000)  # started, and its layout imported
    process = server._worker.job.process
    assert process.is_alive()
    window.close()
    assert not server.running
    process.join(5)
    assert not process.is_alive()


def test_a_picture_given_up_on_never_reaches_the_view_and_the_next_is_drawn(window, qtbot):
    _big_mlp(window, qtbot, points=6)
    tab = window.graph_tab
    scene = _idle(window, qtbot)
    shown = scene.shown
    first, second = sorted(scene.group_items, key=lambda g: -shown.groups[g].members)[:2]
    shown.shared.drawings.clear()  # laid out now, in the child
    tab.expansion.expand(first)
    tab.expansion.expand(second)  # before the first is drawn: it is given up
    qtbot.waitUntil(lambda: tab.scene is not scene and not tab.laying_out, timeout=60_000)
    drawn = _idle(window, qtbot)
    assert second not in drawn.group_items and first in drawn.group_items
    _clean(drawn)
