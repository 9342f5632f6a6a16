"""A large graph is drawn a slice at a time into a scene of its own, shown when complete:
the same picture as drawn at once, and a new build or Cancel stops the slices."""

import gc

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QGraphicsSimpleTextItem

from engine import _gc
from gui.graph.export import graph_records
from gui.graph.scene import GraphScene
from gui.graph.spec import LARGE
from tests.gui.test_background_layout import chain


@pytest.fixture(autouse=True)
def node_by_node(monkeypatch):
    """These tests draw big graphs node by node (View → Group big graphs off), as every
    graph was drawn before big ones were grouped."""
    from gui.graph.expansion import Expansion

    monkeypatch.setattr(Expansion, "group_by_default", False)


def _on_slice(monkeypatch, action, at: int = 3) -> list:
    """Make the first sliced build run `action` (from the event loop) after its
    `at`-th slice; returns the scenes whose slices ran."""
    building = []
    build_steps = GraphScene.build_steps

    def steps(scene, *args):
        building.append(scene)
        for k, _ in enumerate(build_steps(scene, *args)):
            if k == at and len(building) == 1:
                QTimer.singleShot(0, action)
            yield

    monkeypatch.setattr(GraphScene, "build_steps", steps)
    return building


def _collector_back(qtbot) -> None:
    """The old scenes are emptied (a sliced task, holding the collector's pause), then
    the collector is on again; frozen only while a graph too big to rescan is kept
    out of its sight (see engine._gc)."""
    qtbot.waitUntil(lambda: _gc.holders() == 0, timeout=10_000)
    assert gc.isenabled() and (gc.get_freeze_count() > 0) == _gc.settled()


def _drawn(scene) -> int:
    return sum(not isinstance(item, QGraphicsSimpleTextItem) for item in scene.items())


def _shown_scenes(tab) -> list:
    shown = []
    set_scene = tab.view.setScene
    tab.view.setScene = lambda scene: (shown.append(scene), set_scene(scene))
    return shown


def test_a_sliced_drawing_is_the_graph_drawn_at_once(window, qtbot):
    tab = window.graph_tab
    assert window.build(chain(LARGE // 3 + 100))
    stepper = window.session.stepper
    assert len(stepper.forward_steps) > LARGE and tab.laying_out
    assert tab.wait_for_layout()
    sliced = tab.scene
    assert tab.view.scene() is sliced and sliced.stepper is stepper
    at_once = GraphScene()
    at_once.build(stepper, sliced.spec, sliced.drawing, window.session.roles())
    assert len(sliced.value_items) == len(at_once.value_items) > LARGE // 2
    assert len(sliced.op_items) == len(at_once.op_items)
    # (the view has given the boxes it shows their texts: those are not counted)
    assert _drawn(sliced) == _drawn(at_once)
    assert graph_records(sliced) == graph_records(at_once)
    _collector_back(qtbot)
    tab.actions["step"].trigger()
    assert stepper.position >= 1


def test_the_inspector_shows_the_box_selected_in_a_sliced_scene(window, qtbot):
    tab = window.graph_tab
    assert window.build(chain(LARGE // 3 + 100))
    assert tab.wait_for_layout()
    shown = []
    window.inspector.show_node = lambda node, *args, **kwargs: shown.append(node)
    box = tab.scene.value_items[7]
    box.setSelected(True)
    assert shown and shown[-1] is tab.scene.nodes[box.index]


def test_a_rebuild_while_drawing_leaves_only_the_new_graph(window, qtbot, monkeypatch):
    tab = window.graph_tab
    old_scene = tab.scene
    shown = _shown_scenes(tab)
    building = _on_slice(monkeypatch, lambda: window.build(chain(LARGE // 3 + 300, w=0.2)))
    assert window.build(chain(LARGE // 3 + 600))
    qtbot.waitUntil(lambda: len(building) == 2, timeout=60_000)
    assert tab.laying_out and tab.scene is old_scene  # the last graph is still shown
    qtbot.waitUntil(lambda: not tab.laying_out, timeout=60_000)
    stepper = window.session.stepper
    assert window.session.program.inputs["w"].data == 0.2
    assert shown == [building[1]] and tab.scene is building[1]
    assert tab.scene.stepper is stepper
    assert len(tab.scene.nodes) == len(stepper.forward_steps)
    _collector_back(qtbot)
    qtbot.waitUntil(lambda: not tab.tidy.pending, timeout=10_000)
    assert not building[0].items() and not old_scene.items()


def test_cancel_while_drawing_leaves_a_note_and_stepping_works(window, qtbot, monkeypatch):
    tab = window.graph_tab
    shown = _shown_scenes(tab)
    building = _on_slice(monkeypatch, tab.cancel_layout)
    assert window.build(chain(LARGE // 3 + 600))
    assert window.wait_for_build()
    qtbot.waitUntil(lambda: not tab.laying_out, timeout=60_000)
    assert building and building[0] not in shown
    assert "cancelled" in window.statusBar().currentMessage()
    notes = [item.text() for item in tab.scene.items() if hasattr(item, "text")]
    assert any("drawing" in text and "not drawn" in text for text in notes)
    _collector_back(qtbot)
    assert not window.cancel_layout.isVisible()
    tab.actions["step"].trigger()
    assert window.session.stepper.position == 1


def test_a_graph_drawn_in_slices_after_some_steps_shows_them(window):
    tab = window.graph_tab
    assert window.build(chain(LARGE // 3 + 100))
    assert tab.wait_for_layout()
    for _ in range(5):
        tab.actions["step"].trigger()
    window.constants_action.setChecked(True)  # laid out and drawn again, mid-program
    assert tab.laying_out and tab.wait_for_layout()
    stepper = window.session.stepper
    assert stepper.position >= 5 and tab.scene.stepper is stepper
    at_once = GraphScene()
    at_once.build(stepper, tab.scene.spec, tab.scene.drawing, window.session.roles())
    assert graph_records(tab.scene) == graph_records(at_once)
    assert tab.scene.current_item().pen().widthF() == at_once.current_item().pen().widthF() > 1


def test_what_to_draw_is_worked_out_in_slices_as_it_is_at_once(window):
    from gui.graph.spec import graph_spec, graph_spec_steps

    assert window.build(chain(LARGE // 3 + 100))
    assert window.wait_for_build()
    stepper, roles = window.session.stepper, window.session.roles()
    for folded in (True, False):
        steps = graph_spec_steps(stepper, roles, folded, nodes_per_slice=100)
        slices = 0
        while True:
            try:
                next(steps)
                slices += 1
            except StopIteration as done:
                spec = done.value
                break
        assert slices == len(stepper.forward_steps) // 100
        assert spec == graph_spec(stepper, roles, folded)
        assert len(spec.ids) == len(spec.kinds) == len(spec.sizes)


def test_dismantling_lets_go_of_the_drawing_in_slices_only_when_it_is_the_last_holder(
        window):
    scene = window.graph_tab.scene
    drawing, routes = scene.drawing, scene.drawing.routes
    n_routes, n_centers = len(routes), len(drawing.centers)
    assert n_routes and n_centers
    list(scene.dismantle_steps())  # the test holds the drawing: it is left whole
    assert (len(routes), len(drawing.centers)) == (n_routes, n_centers)
    assert window.build("x = 2\ny = x*x + x")
    scene = window.graph_tab.scene
    routes, centers = scene.drawing.routes, scene.drawing.centers
    spec_edges = scene.spec.edges
    slices = sum(1 for _ in scene.dismantle_steps())  # nothing else holds it now
    assert routes == [] and centers == [] and spec_edges == []
    assert slices >= 3 and not scene.items()
