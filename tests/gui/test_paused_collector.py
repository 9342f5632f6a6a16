"""One pause of the garbage collector for the whole window: a program built in the
background and its graph's drawing each hold it (engine._gc, through SlicedTask), it is
on again only when both let go, and nothing stays frozen afterwards."""

import gc

import pytest

from engine import _gc
from gui.graph.scene import GraphScene
from tests.gui.test_background_layout import LINES, chain


@pytest.fixture(autouse=True)
def node_by_node(monkeypatch):
    """These tests draw big graphs node by node (View → Group big graphs off), as every
    graph was drawn before big ones were grouped."""
    from gui.graph.expansion import Expansion

    monkeypatch.setattr(Expansion, "group_by_default", False)


def test_the_collector_is_on_again_only_when_the_last_holder_lets_go():
    assert gc.isenabled() and gc.get_freeze_count() == 0
    _gc.hold()
    _gc.hold()
    assert _gc.holders() == 2 and not gc.isenabled() and gc.get_freeze_count() > 0
    _gc.release()
    assert not gc.isenabled()  # the other still holds it
    _gc.release()
    assert gc.isenabled() and gc.get_freeze_count() == 0 and _gc.holders() == 0


def test_letting_go_of_a_pause_nobody_holds_is_a_bug():
    with pytest.raises(RuntimeError):
        _gc.release()
    assert gc.isenabled() and _gc.holders() == 0


def test_a_collector_found_off_stays_off():
    gc.disable()
    try:
        _gc.hold()
        _gc.release()
        assert not gc.isenabled() and gc.get_freeze_count() == 0
    finally:
        gc.enable()


def test_the_collector_stays_off_from_the_build_to_the_last_slice_of_the_drawing(
        window, qtbot, monkeypatch):
    tab = window.graph_tab
    seen = []
    build_steps = GraphScene.build_steps

    def steps(scene, *args):
        for _ in build_steps(scene, *args):
            seen.append(gc.isenabled())
            yield

    monkeypatch.setattr(GraphScene, "build_steps", steps)
    # over 20,000 characters: parsed in a child, its stepper made in slices (the build
    # holds the collector), then its graph worked out, laid out and drawn (the tab does)
    assert window.build(chain(LINES // 4))
    qtbot.waitUntil(lambda: not window.building and not tab.laying_out, timeout=120_000)
    assert tab.scene.stepper is window.session.stepper
    assert len(seen) > 10 and not any(seen)
    qtbot.waitUntil(lambda: _gc.holders() == 0, timeout=30_000)  # old scenes emptied too
    assert gc.isenabled()


def test_a_big_graph_stays_frozen_until_it_is_let_go_of(window, qtbot):
    tab = window.graph_tab
    assert window.build(chain(LINES // 4))  # about 5,000 nodes: drawn in slices
    qtbot.waitUntil(lambda: not window.building and not tab.laying_out, timeout=120_000)
    qtbot.waitUntil(lambda: _gc.holders() == 0, timeout=30_000)
    # rescanning it would hold the window: it is kept out of the collector's sight
    assert _gc.settled() and gc.isenabled() and gc.get_freeze_count() > 0
    assert window.build("x = 2\ny = x*x")  # small: the big one is let go of, in slices
    qtbot.waitUntil(lambda: window.disposal.pending == 0 and not tab.tidy.pending
                    and _gc.holders() == 0, timeout=60_000)
    assert not _gc.settled() and gc.get_freeze_count() == 0 and gc.isenabled()


def test_closing_the_window_unfreezes_a_big_graph(qtbot):
    from gui.window.main_window import MainWindow

    window = MainWindow(remember=False)
    qtbot.addWidget(window)
    assert window.build(chain(LINES // 4))
    qtbot.waitUntil(lambda: not window.building and not window.graph_tab.laying_out
                    and _gc.holders() == 0, timeout=120_000)
    assert _gc.settled()
    window.close()
    assert not _gc.settled() and gc.get_freeze_count() == 0 and _gc.holders() == 0
