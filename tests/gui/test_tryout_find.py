"""The s34 tryout on micrograd's grouped MLP (20 points, debug(loss) at 1280 x 720):
Enter on part of a name goes to the first name containing it and gives the graph the
keyboard, a click on the background keeps what was found; Expand to level N frames the
picture as the first view is and says how to get back to it; Find frames what it found
at a readable zoom; the step counter's 'in X' names only a group drawn open around the
step, and the inspector's 'where' says the groups drawn as the breadcrumb does."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from gui.graph.find import natural_order
from gui.graph.group_actions import implied
from tests.gui import test_tryout_nav
from tests.gui.test_tryout_keys import _ready, _redrawn
from tests.gui.test_tryout_nav import _group

mlp = test_tryout_nav.mlp  # the fixture: micrograd's demo on 20 points at 1280 x 720

# the completion's popup, offscreen: a platform without raise() or a keyboard grab
pytestmark = pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")


def _selected_label(tab) -> str | None:
    items = tab.scene.selectedItems()
    node = tab.scene.node_at(items[0]) if items else None
    return node.label if node is not None else None


def _empty_point(view) -> QPoint:
    """A point of the viewport with no item under it (the graph's background)."""
    port = view.viewport().rect()
    for y in range(10, port.height() - 10, 15):
        for x in range(10, port.width() - 10, 15):
            if view.itemAt(QPoint(x, y)) is None:
                return QPoint(x, y)
    raise AssertionError("no empty point in the view")


def _enter(window, qtbot, text: str) -> None:
    """Ctrl+F, type `text`, Enter, and wait for what it opens to be drawn."""
    tab = window.graph_tab
    window.activateWindow()  # offscreen, the completion's popup leaves no window active
    qtbot.waitUntil(window.isActiveWindow)
    tab.expansion.actions["find"].trigger()
    bar = tab.find_bar
    assert QApplication.focusWidget() is bar.edit
    bar.edit.clear()
    qtbot.keyClicks(bar.edit, text)
    before = tab.scene
    qtbot.keyClick(bar.edit, Qt.Key.Key_Return)
    QApplication.processEvents()
    if tab.scene is not before or tab.laying_out:
        qtbot.waitUntil(lambda: tab.scene is not before and _ready(window), timeout=60_000)
    qtbot.waitUntil(lambda: _selected_label(tab) is not None or bool(bar.note.text()),
                    timeout=10_000)


def test_enter_on_part_of_a_name_goes_to_its_first_match_and_the_graph_keeps_it(mlp, qtbot):
    window = mlp
    tab = window.graph_tab
    bar = tab.find_bar
    names = [v.label for v in window.session.stepper.forward_steps if v.label]
    matches = sorted((n for n in names if "w[3]" in n), key=natural_order)
    assert len(matches) >= 16 and "w[3]" not in names  # a part of names, no name itself
    _enter(window, qtbot, "w[3]")
    assert _selected_label(tab) == matches[0]  # the completion's first, not 'no node'
    assert bar.note.text().startswith(f"1 of {len(matches)} names containing w[3]")
    assert QApplication.focusWidget() is tab.view  # Right steps at once
    qtbot.keyClick(tab.view, Qt.Key.Key_Right)
    QApplication.processEvents()
    assert window.session.stepper.position > 0
    # a click on the graph's background keeps the node found selected
    qtbot.mouseClick(tab.view.viewport(), Qt.MouseButton.LeftButton,
                     pos=_empty_point(tab.view))
    assert _selected_label(tab) == matches[0]
    # Ctrl+F, Enter again: the next one
    _enter(window, qtbot, "w[3]")
    assert _selected_label(tab) == matches[1]
    assert bar.note.text().startswith(f"2 of {len(matches)} names")
    # a click on another box still selects it
    box = tab.scene.selectedItems()[0]
    port = tab.view.viewport().rect()
    view = tab.view
    spot = next(p for p in (QPoint(x, y) for y in range(5, port.height(), 9)
                            for x in range(5, port.width(), 9))
                if (i := view.itemAt(p)) is not None and (n := tab.scene.node_at(i)) is not None
                and n.label not in (None, "", matches[1]))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=spot)
    other = tab.scene.value_item_of(tab.scene.node_at(view.itemAt(spot)))
    assert other.isSelected() and not box.isSelected()
    # and a click on the background clears a selection that is not the node found, as
    # ever (the way back to the inspector following the steps)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=_empty_point(view))
    assert not tab.scene.selectedItems()
    # only a text no name contains is 'no node has that name'
    _enter(window, qtbot, "no such weight")
    assert bar.note.text() == "no node has that name"


def test_expand_to_level_frames_the_picture_and_find_shows_a_readable_node(mlp, qtbot):
    window = mlp
    tab = window.graph_tab
    view = tab.view
    first = set(tab.scene.shown.expanded)
    view.set_zoom(0.05)  # Ctrl+0 twice on a big level: the graph a dot
    _redrawn(window, qtbot, tab.expansion.actions["level1"].trigger)
    scale = view.scale_factor()
    assert scale >= view.readable_scale() * 0.999 or view.mapToScene(
        view.viewport().rect()).boundingRect().contains(tab.scene.graph_rect())
    assert view.auto_fit  # framed as the first view is: fitted, followed on resizes
    view.fit(readable=True)
    assert view.scale_factor() == scale  # the same frame
    said = window.statusBar().currentMessage()
    assert "View → First view (Alt+Home)" in said, said
    # Find after the level change: the node framed at a readable zoom, on screen
    view.set_zoom(0.05)
    name = "model.layers[1].neurons[3].w[3]"
    _enter(window, qtbot, name)
    assert _selected_label(tab) == name
    assert view.scale_factor() >= view.readable_scale() * 0.999
    item = tab.scene.selectedItems()[0]
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    assert shown.contains(item.sceneBoundingRect())
    # View → First view goes back to the groups the graph opened with
    first_view = tab.expansion.actions["first"]
    assert first_view.shortcut().toString() == "Alt+Home"
    _redrawn(window, qtbot, first_view.trigger)
    assert tab.scene.shown.expanded == first


def _drawn_open(tab) -> set[str]:
    shown = tab.scene.shown
    hidden = implied(tab.expansion)
    return {shown.groups[g].title for g in shown.expanded if g not in hidden}


def test_the_counter_says_in_only_for_a_group_drawn_open_around_the_step(mlp, qtbot):
    window = mlp
    tab = window.graph_tab
    phase = tab.phase
    levels = tab.scene.levels
    window.resize(1920, 1080)
    qtbot.waitUntil(lambda: window.width() == 1920, timeout=5_000)
    total = window.session.stepper.total
    seen = 0
    while window.session.stepper.position < total:
        tab.actions["step"].trigger()
        (line,) = phase.shown_lines()
        assert " · in " not in line and " · inside " not in phase.text(), line  # none open
        seen += 1
    n = levels.counts()[1]
    assert phase.shown_lines() == [f"backward {n}/{n} (done) · reg_loss"]  # not 'in'
    # a group the user opened: 'in' it while the step is inside it
    rest = _group(window, "losses[3–11]")
    _redrawn(window, qtbot, lambda: tab.expansion.expand(rest))
    levels = tab.scene.levels
    tab.actions["reset"].trigger()
    inside = 0
    while window.session.stepper.position < total:
        tab.actions["step"].trigger()
        (line,) = phase.shown_lines()
        held = rest in tab.scene.shown.holders(levels.current_unit())
        assert (" · inside losses[3–11]" in phase.text()) == held, phase.text()
        assert phase.text().count(" · inside ") == held  # no other group drawn open
        if " · in " in line:
            assert line.split(" · in ")[1] == "losses[3–11]", line
        inside += held
    assert inside >= 2 and seen >= 10


def test_the_inspectors_where_says_the_groups_drawn_as_the_breadcrumb_does(mlp, qtbot):
    window = mlp
    tab = window.graph_tab
    sample = _group(window, "losses[1]")
    _redrawn(window, qtbot, lambda: tab.expansion.expand(sample))
    scene = tab.scene
    node = next(scene.node_at(i) for i in scene.items()
                if scene.node_at(i) is not None and scene.node_at(i).label == "losses[1]")
    scene.clearSelection()
    scene.value_item_of(node).setSelected(True)
    QApplication.processEvents()
    assert tab.breadcrumb.words() == "graph › losses[1]"
    lines = window.inspector.toPlainText().replace("\u200b", "").splitlines()
    where = lines[lines.index("where") + 1]
    # drawn: losses[1]; open from the start but never drawn as groups: said apart
    assert where.startswith("in losses[1]; inside loss › data_loss › relu("), where
    assert where.endswith("not drawn as groups"), where
