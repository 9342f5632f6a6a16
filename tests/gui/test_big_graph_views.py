"""The readability of a big graph after a new user's tryout (issue 22): what the editor
says the graph is, where the view goes after a group opens, the smallest text a fit
shows, the zoom keys, the breadcrumb, the inspector's lists."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QAction

from engine.io.graph_import import import_graph
from gui.debug_graph import editor_text
from gui.graph.controls import phase_label
from gui.graph.framing import opened_items, united
from gui.graph.group_inspector import _listed, constants_said, describe_group
from gui.graph.groups.titles import has_constant
from gui.graph.spec import sent_label
from gui.graph.view import READABLE_PX, SMALLEST_TEXT_PT
from tests.engine.engines.closures import Value as ClosureValue
from tests.gui.grouped_models import load_grouped


def test_the_editor_names_the_users_own_class_not_micrograd():
    # a class of the user's with micrograd's fields (_prev, _op), not micrograd itself
    x = ClosureValue(1.5)
    y = x
    for k in range(1_100):  # over EDITOR_NODES: the editor shows a note, not the text
        y = y + ClosureValue(0.25 * (k % 3))
    graph = import_graph(y, title="y")
    assert graph.described() == "tests.engine.engines.closures.Value, micrograd-style"
    note = editor_text(graph, "debug(y)")
    assert note.startswith("# debug(y): a graph of 2,201 nodes read from Python "
                           "(tests.engine.engines.closures.Value, micrograd-style),")
    assert "micrograd's" not in note


# -- a grouped MLP in the window -----------------------------------------------------------

def _ready(window) -> bool:
    tab = window.graph_tab
    return not window.building and not tab.laying_out and tab.scene.shown is not None


def _visible(view) -> QRectF:
    return view.mapToScene(view.viewport().rect()).boundingRect()


def _open(window, qtbot, g: int) -> None:
    tab = window.graph_tab
    before = tab.scene
    tab.expansion.expand(g)
    qtbot.waitUntil(lambda: tab.scene is not before and _ready(window), timeout=60_000)


@pytest.fixture
def grouped(window, qtbot):
    """A grouped MLP of 12 samples (a stack of the first three and one of the rest) in
    a window of 1280 x 720."""
    window.resize(1280, 720)
    _, grouping = load_grouped(window, points=12, sizes=(2, 6, 6, 1))
    qtbot.waitUntil(lambda: _ready(window), timeout=60_000)
    return window, grouping


def test_opening_the_stack_shows_what_it_holds_and_the_current_step(grouped, qtbot):
    window, grouping = grouped
    tab, view = window.graph_tab, window.graph_tab.view
    stack = next(g for g in grouping.groups if g.kind == "stack")
    view.zoom_by(3.0)  # the user's zoom: too close for what the stack holds
    tab.actions["step"].trigger()  # the first step's box is current
    _open(window, qtbot, stack.id)
    inside = opened_items(tab.scene, stack.id)
    assert len(inside) == len(stack.children)  # the instances' boxes
    region = united(inside).united(view.step_items()[0].sceneBoundingRect())
    assert _visible(view).contains(region)
    assert view.readable_scale() * 0.999 <= view.scale_factor() <= 1.0


def test_a_group_too_big_to_read_whole_opens_readable_at_the_step(grouped, qtbot):
    window, grouping = grouped
    tab, view = window.graph_tab, window.graph_tab.view
    window.resize(700, 420)  # the stack's inside does not fit at the readable size
    stack = next(g for g in grouping.groups if g.kind == "stack")
    tab.actions["step"].trigger()
    while tab.expansion.levels().current_unit() != -1 - stack.id:
        tab.actions["step"].trigger()  # to the stack's forward step: the step inside it
    _open(window, qtbot, stack.id)
    assert view.scale_factor() == pytest.approx(view.readable_scale())
    assert _visible(view).contains(view.step_items()[0].sceneBoundingRect())
    view.fit(readable=True)  # Ctrl+0: never below the readable size, the opened group shown
    assert view.scale_factor() == pytest.approx(view.readable_scale())
    assert _visible(view).intersects(united(opened_items(tab.scene, stack.id)))


def test_ctrl_0_never_shrinks_text_below_the_readable_size(grouped):
    window, _ = grouped
    view = window.graph_tab.view
    window.graph_tab.expansion.to_level(3)
    window.menuBar()  # Ctrl+0 is View → Fit graph
    fit = next(a for a in window.findChildren(QAction) if a.shortcut().toString() == "Ctrl+0")
    window.resize(700, 420)
    fit.trigger()
    scene = window.graph_tab.scene
    assert scene.graph_rect().width() * view.readable_scale() > view.viewport().width()
    px = SMALLEST_TEXT_PT * view.logicalDpiY() / 72.0 * view.scale_factor()
    assert px >= READABLE_PX - 1e-6


def test_keyboard_zoom_keeps_the_current_step_still_and_the_wheel_the_cursor(grouped):
    window, _ = grouped
    tab, view = window.graph_tab, window.graph_tab.view
    nine_px = 9.0 * 72.0 / (SMALLEST_TEXT_PT * view.logicalDpiY())  # the old floor's zoom
    view.zoom_by(2.0 * nine_px / view.scale_factor())  # room to scroll either way
    for _ in range(3):
        tab.actions["step"].trigger()
    box = view.step_items()[0]
    before = view.mapFromScene(box.sceneBoundingRect().center())
    assert view.viewport().rect().contains(before)
    assert (before - view.viewport().rect().center()).manhattanLength() > 20  # off centre
    zoom_in = next(a for a in window.findChildren(QAction)
                   if a.shortcut().toString() == "Ctrl+=")
    scale = view.scale_factor()
    zoom_in.trigger()
    after = view.mapFromScene(box.sceneBoundingRect().center())
    assert abs(after.x() - before.x()) <= 1  # (this short graph cannot scroll up and down)
    assert view.scale_factor() == pytest.approx(scale * 1.25)
    cursor = QPointF(30, 40)  # the wheel: the point under the cursor stays
    under = view.mapToScene(cursor.toPoint())
    view.zoom_by(1.15, cursor)
    assert (view.mapFromScene(under) - cursor.toPoint()).manhattanLength() <= 2


def test_the_breadcrumb_shows_the_groups_opened_not_the_steps(grouped, qtbot):
    window, grouping = grouped
    tab = window.graph_tab
    stack = next(g for g in grouping.groups if g.kind == "stack")
    rest = next(grouping.groups[c] for c in stack.children if grouping.groups[c].kind == "stack")
    _open(window, qtbot, stack.id)
    _open(window, qtbot, rest.id)
    tab.actions["reset"].trigger()
    tab.actions["step"].trigger()  # a step outside the stack: the first parameters
    tab.scene.clearSelection()
    crumb = tab.breadcrumb
    assert crumb.words() == f"graph › {stack.title} › {rest.title}"
    before = tab.scene
    tab.expansion.collapse(rest.id)
    qtbot.waitUntil(lambda: tab.scene is not before and _ready(window), timeout=60_000)
    assert crumb.words() == f"graph › {stack.title}"


def test_the_group_inspector_lists_a_bounded_number_of_names_grouped(grouped):
    window, grouping = grouped
    shown = window.graph_tab.scene.shown
    layer = next(g for g in grouping.groups if g.title == "layers[1]")
    text = describe_group(layer.id, shown)  # six: each said
    assert all(f"layers[1].neurons[{j}]" in text for j in range(6))
    neurons = [f"model.layers[1].neurons[{j}]" for j in range(16)]
    assert _listed(neurons) == "model.layers[1].neurons[0–15] (16 boxes)"
    boxes = ["reg_loss", "inputs[0]", "inputs[1]", "inputs[2]",
             *(f"inputs[{a}–{a + 9}]" for a in range(3, 93, 10)), "inputs[93–99]"]
    assert _listed(boxes) == "reg_loss, inputs[0–99] (13 boxes)"
    gives = [f"g{k}" for k in range(30)]  # thirty names of nothing in common
    assert _listed(gives) == "g0, g1, g2, g3, g4, g5, g6, g7, … 22 more"


def test_a_titles_c_is_explained_by_the_constants_it_stands_for(qtbot):
    """micrograd's demo on 8 points: a sample computes relu((Σ 16 terms + b) × c + c),
    where the cs are -y (±1) and 1: the inspector says so."""
    from gui import debug
    from tests.foreign_models import micrograd_demo

    demo = micrograd_demo(8)
    model, inputs, loss = demo.model, demo.inputs, demo.loss  # named as a script names them
    assert model and inputs
    window = debug(loss, block=False)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: _ready(window) or window.graph_tab.scene.shown is None
                    and not window.building, timeout=120_000)
    shown = window.graph_tab.expansion.shown
    assert shown is not None
    stack = next(g for g in shown.groups if g.kind == "stack" and g.instances == 8)
    assert stack.title == "relu((Σ 16 terms + b) × c + c) × 8"
    assert has_constant(stack.title) and not has_constant("model.layers[1].neurons[0]")
    # relu(score × -y + 1): the first c is -y, ±1 by sample, the second 1
    assert constants_said(shown, stack.id) == ("constants, in the title's order: "
                                               "1 or -1 (by instance); 1")
    assert "<b>c</b>" in describe_group(stack.id, shown)
    assert "Each c in its title is a constant" in shown.describe(stack.id)  # its tooltip
    window.close()


def test_the_step_counter_is_said_shorter_on_one_line_in_a_narrow_window(qtbot):
    label = phase_label(None)
    qtbot.addWidget(label)
    label.setText("ready: 14 forward and 9 backward steps")
    metrics = label.fontMetrics()
    label.resize(metrics.horizontalAdvance("14 forward · 9 backward") + 4, label.height())
    assert label.shown_lines() == ["14 forward · 9 backward"]  # one line, not two
    assert label.toolTip().startswith("ready: 14 forward and 9 backward steps")
    label.resize(metrics.horizontalAdvance(label.text()) + 4, label.height())
    assert label.shown_lines() == ["ready: 14 forward and 9 backward steps"]


def test_after_presenting_ctrl_0s_fit_is_the_same_as_before(grouped, qtbot):
    """At 1280 x 720, Ctrl+0, F5 and Esc: the view is fitted as Ctrl+0 left it (a
    readable fit both times, not the whole graph at 5-px text one time of two)."""
    window, _ = grouped
    view = window.graph_tab.view
    window.graph_tab.expansion.to_level(3)
    qtbot.waitUntil(lambda: _ready(window) and bool(window.graph_tab.scene.shown.expanded),
                    timeout=60_000)
    fit = next(a for a in window.findChildren(QAction) if a.shortcut().toString() == "Ctrl+0")
    fit.trigger()
    zoom, seen = view.scale_factor(), _visible(view)
    assert zoom == pytest.approx(view.readable_scale())  # too big to read whole
    window.presentation.enter()
    qtbot.wait(20)
    window.presentation.leave()
    qtbot.wait(20)
    assert view.auto_fit and view.scale_factor() == pytest.approx(zoom)
    fit.trigger()
    assert view.scale_factor() == pytest.approx(zoom) and _visible(view) == seen


def test_the_parameters_edges_of_an_open_layer_are_bundled_through_a_junction(grouped, qtbot):
    window, grouping = grouped
    tab = window.graph_tab
    stack = next(g for g in grouping.groups if g.kind == "stack")
    layer = next(g for g in grouping.groups if g.title == "layers[1]")
    _open(window, qtbot, stack.id)
    _open(window, qtbot, layer.id)
    scene = tab.scene
    spec, quotient = scene.spec, scene.shown.quotient
    neurons = [-1 - c for c in layer.children]
    plain = [(s, t, ops) for s, t, ops in quotient.edges if s in neurons and t < 0]
    targets = {t for _, t, _ in plain}
    assert len(plain) == len(neurons) * len(targets) >= 24  # 6 neurons × 4 boxes
    junction = spec.ids.index(f"j{layer.id}")
    out_of = {spec.ids.index(f"g{-1 - u}"): u for u in neurons}
    from_neurons = [(u, v) for u, v, _ in spec.edges if u in out_of]
    assert sorted(v for _, v in from_neurons) == [junction] * len(neurons)  # one each
    fanned = [e for e, (u, _, _) in enumerate(spec.edges) if u == junction]
    assert len(fanned) == len(targets)
    # every path an edge stood for is on one of the junction's edges, once
    paths = sorted(p for _, _, ops in plain for p in ops)
    assert sorted(p for e in fanned for p in spec.operands[e]) == paths
    tab.actions["end"].trigger()  # the labels: none, what each box sent is to many nodes
    steps, step_of = window.session.stepper.backward_steps, scene.shown.step_of
    parents = scene.shown.arrays.parents
    for e in fanned:
        edge = scene.edges_into_group(-1 - spec.keys[e][0])
        label = next(x.label for x in edge if x is scene._edges.get(e))
        total = sum(steps[step_of[c]].contributions[k].contribution
                    for c, k in spec.operands[e])
        to = {parents[c][k] for c, k in spec.operands[e]}  # the neurons' parameters
        assert label == ("" if len(to) > 1 else
                         sent_label(total, len(spec.operands[e]), len(spec.operands[e])))


def test_before_any_step_a_group_too_big_to_read_whole_opens_centred_or_on_its_output(
        grouped, qtbot):
    window, grouping = grouped
    tab, view = window.graph_tab, window.graph_tab.view
    window.resize(700, 420)
    stack = next(g for g in grouping.groups if g.kind == "stack")
    _open(window, qtbot, stack.id)
    # readable: at the readable size, or a little more where that leaves no box cut
    assert view.readable_scale() * 0.999 <= view.scale_factor() <= view.readable_scale() * 1.2
    inside = united(opened_items(tab.scene, stack.id))  # a stack: its instances centred
    # centred, give or take the pan that keeps its boxes whole (x: the scene's edge)
    assert abs(_visible(view).center().y() - inside.center().y()) < _visible(view).height() / 3
    assert _visible(view).intersects(inside)
    sample = grouping.groups[stack.children[0]]
    _open(window, qtbot, sample.id)  # one computation: its output's end
    last = tab.scene.value_item_of(tab.scene.nodes[sample.last - 1])
    assert _visible(view).contains(last.sceneBoundingRect())


def test_a_group_opened_far_from_the_step_shows_what_it_holds(grouped, qtbot):
    """The step at the loss (the backward pass's first), a sample opened far to its
    left in a small window: its inside is shown, not the loss."""
    window, grouping = grouped
    tab, view = window.graph_tab, window.graph_tab.view
    window.resize(700, 420)
    stack = next(g for g in grouping.groups if g.kind == "stack")
    sample = grouping.groups[stack.children[0]]
    _open(window, qtbot, stack.id)
    n = len(window.session.stepper.forward_steps)
    window.session.seek(n + 1)  # the loss's backward step
    _open(window, qtbot, sample.id)
    inside = united(opened_items(tab.scene, sample.id))
    seen = _visible(view)
    assert seen.intersected(inside).width() * seen.intersected(inside).height() >= 0.5 * min(
        seen.width() * seen.height(), inside.width() * inside.height())
    assert view.scale_factor() == pytest.approx(view.readable_scale())


@pytest.mark.parametrize("size", [(1000, 640), (1280, 720)])
def test_opening_the_stack_leaves_no_box_cut_at_the_views_edges(grouped, qtbot, size):
    from gui.graph.items import GroupItem, OpItem, ValueItem

    window, grouping = grouped
    window.resize(*size)
    qtbot.wait(30)
    tab, view = window.graph_tab, window.graph_tab.view
    stack = next(g for g in grouping.groups if g.kind == "stack")
    _open(window, qtbot, stack.id)
    shown = _visible(view)
    boxes = [item.sceneBoundingRect() for item in tab.scene.items()
             if isinstance(item, (ValueItem, OpItem, GroupItem))]
    on_screen = [r for r in boxes if r.intersects(shown)]
    assert len(on_screen) > len(stack.children)  # what the stack holds, and more
    assert [r for r in on_screen if not shown.contains(r)] == []  # each one whole
