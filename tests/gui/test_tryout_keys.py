"""The keys of a big grouped graph after a new user's tryout (issue 22): Right steps after
coming back to the Graph tab, − walks up the groups opened, the breadcrumb goes back,
the inspector describes what is drawn, presentation mode steps at the level shown."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.engine.helpers import NEURON
from tests.gui.grouped_models import load_grouped


def _ready(window) -> bool:
    tab = window.graph_tab
    return not window.building and not tab.laying_out and tab.scene.shown is not None


def _redrawn(window, qtbot, action) -> None:
    tab = window.graph_tab
    before = tab.scene
    action()
    qtbot.waitUntil(lambda: tab.scene is not before and _ready(window), timeout=60_000)


@pytest.fixture
def grouped(window, qtbot):
    window.resize(1280, 720)
    _, grouping = load_grouped(window, points=12, sizes=(2, 6, 6, 1))
    qtbot.waitUntil(lambda: _ready(window), timeout=60_000)
    return window, grouping


def _stack(grouping):
    return next(g for g in grouping.groups if g.kind == "stack" and g.parent < 0)


def _press(widget, qtbot, key) -> None:
    qtbot.keyClick(widget, key)
    QApplication.processEvents()


def test_right_steps_after_coming_back_to_the_graph_tab(window, qtbot):
    window.load_program(NEURON)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    tab = window.graph_tab
    stepper = window.session.stepper
    window.tabs.setCurrentIndex(1)  # another tab, its inside made and shown
    window.editor.editor.setFocus()  # the user clicked into the program, then the tab
    bar = window.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(0).center())
    assert window.tabs.currentIndex() == 0
    assert QApplication.focusWidget() is tab.view
    cursor = window.editor.editor.textCursor().position()
    _press(QApplication.focusWidget(), qtbot, Qt.Key.Key_Right)
    _press(QApplication.focusWidget(), qtbot, Qt.Key.Key_Right)
    assert stepper.position == 2
    _press(QApplication.focusWidget(), qtbot, Qt.Key.Key_Left)
    assert stepper.position == 1
    assert window.editor.editor.textCursor().position() == cursor
    # in a text field the arrows are the field's
    window.editor.editor.setFocus()
    _press(window.editor.editor, qtbot, Qt.Key.Key_Right)
    assert stepper.position == 1
    assert window.editor.editor.textCursor().position() == cursor + 1


def test_minus_with_nothing_selected_walks_up_the_groups_opened(grouped, qtbot):
    window, grouping = grouped
    tab = window.graph_tab
    stack = _stack(grouping)
    sample = stack.children[1]
    _redrawn(window, qtbot, lambda: tab.expansion.expand(stack.id))
    assert not tab.scene.selectedItems()
    _redrawn(window, qtbot, lambda: tab.expansion.expand(sample))
    assert {stack.id, sample} <= tab.scene.shown.expanded
    tab.scene.clearSelection()
    minus = tab.expansion.actions["collapse"]
    _redrawn(window, qtbot, minus.trigger)  # the last opened closes
    assert sample in tab.scene.group_items and stack.id not in tab.scene.group_items
    assert tab.scene.shown.expanded == {stack.id}
    assert not tab.scene.selectedItems() or tab.scene.group_at(
        tab.scene.selectedItems()[0]) == sample
    tab.scene.clearSelection()
    _redrawn(window, qtbot, minus.trigger)  # then the one around it
    assert tab.scene.shown.expanded == set()
    assert set(tab.scene.group_items) == set(grouping.top())


def _link(crumb, title: str) -> str:
    """The href of the breadcrumb's link whose words are `title`."""
    links = dict((t, h) for h, t in re.findall(r"<a href='([^']*)'>([^<]*)</a>", crumb.text()))
    assert title in links, crumb.text()
    return links[title]


def test_the_breadcrumb_goes_back_to_where_a_group_was_opened(grouped, qtbot):
    window, grouping = grouped
    tab = window.graph_tab
    crumb = tab.breadcrumb
    first = set(tab.scene.group_items)
    stack = _stack(grouping)
    sample = stack.children[1]
    neuron = grouping.groups[sample].children[0]
    _redrawn(window, qtbot, lambda: tab.expansion.expand(stack.id))
    _redrawn(window, qtbot, lambda: tab.expansion.expand(sample))
    _redrawn(window, qtbot, lambda: tab.expansion.expand(neuron))
    tab.scene.clearSelection()
    titles = [grouping.groups[g].title for g in (stack.id, sample, neuron)]
    assert crumb.words() == " › ".join(["graph", *titles])
    # a part: the view where it was opened, what was opened inside it closed
    _redrawn(window, qtbot, lambda: crumb.linkActivated.emit(_link(crumb, stack.title)))
    assert tab.scene.shown.expanded == {stack.id}
    assert sample in tab.scene.group_items
    assert crumb.words() == f"graph › {stack.title}"
    # the root is a link, back to the first view
    _redrawn(window, qtbot, lambda: crumb.linkActivated.emit(_link(crumb, "graph")))
    assert tab.scene.shown.expanded == set()
    assert set(tab.scene.group_items) == first


def test_the_breadcrumb_never_collapses_past_the_first_view(window, qtbot):
    from gui.jobs.grouping_job import Grouped
    from tests.gui.grouped_models import arrays_for, grouped_mlp, program_of, stepper_of

    loss, nodes, roles, grouping = grouped_mlp(12, (2, 6, 6, 1))
    stack = _stack(grouping)
    window.graph_tab.expansion.give(Grouped(loss, nodes, arrays_for(nodes, roles), grouping,
                                            {stack.id}))  # the first view: the stack open
    window.session.load_prepared(program_of(nodes), stepper_of(loss, nodes))
    qtbot.waitUntil(lambda: _ready(window), timeout=60_000)
    tab = window.graph_tab
    assert tab.scene.shown.expanded == {stack.id}
    sample = stack.children[2]
    _redrawn(window, qtbot, lambda: tab.expansion.expand(sample))
    tab.scene.clearSelection()
    crumb = tab.breadcrumb
    # the stack, open from the start, was never seen as a group: not a level (session 33)
    assert crumb.words() == f"graph › {grouping.groups[sample].title}"
    _redrawn(window, qtbot, lambda: crumb.linkActivated.emit(_link(crumb, "graph")))
    assert tab.scene.shown.expanded == {stack.id}  # not the stack collapsed
    _redrawn(window, qtbot, lambda: tab.expansion.expand(sample))
    _redrawn(window, qtbot, tab.expansion.actions["collapse"].trigger)
    assert tab.scene.shown.expanded == {stack.id}
    tab.expansion.actions["collapse"].trigger()  # − stops at the first view
    assert tab.scene.shown.expanded == {stack.id} and not tab.laying_out


def test_the_inspector_describes_the_groups_step_while_stepping(grouped, qtbot):
    window, grouping = grouped
    tab = window.graph_tab
    layer = next(g for g in grouping.groups if g.title == "layers[1]")
    levels = tab.expansion.levels()
    for _ in range(20):
        tab.actions["step"].trigger()
        if levels.current_unit() == -1 - layer.id:
            break
    assert levels.current_unit() == -1 - layer.id
    assert not tab.scene.selectedItems()
    text = window.inspector.toPlainText()
    assert "layers[1]" in text and "the model's parameters under this name" in text
    assert "neurons[5].w" not in text and "neurons[5].b" not in text


def test_after_minus_the_inspector_shows_the_box_holding_the_selection(grouped, qtbot):
    window, grouping = grouped
    tab = window.graph_tab
    stack = _stack(grouping)
    sample = stack.children[1]
    _redrawn(window, qtbot, lambda: tab.expansion.expand(stack.id))
    _redrawn(window, qtbot, lambda: tab.expansion.expand(sample))
    node = grouping.groups[sample].nodes[0]
    value = window.session.stepper.forward_steps[node]
    item = tab.scene.value_item_of(value)
    assert item is not None
    item.setSelected(True)
    assert value.label in window.inspector.toPlainText()
    _redrawn(window, qtbot, tab.expansion.actions["collapse"].trigger)
    assert sample in tab.scene.group_items
    selected = tab.scene.selectedItems()
    assert selected and tab.scene.group_at(selected[0]) == sample
    text = window.inspector.toPlainText()
    assert grouping.groups[sample].title in text and value.label not in text


def test_presentation_captions_and_steps_at_the_level_shown(grouped, qtbot):
    window, grouping = grouped
    tab = window.graph_tab
    levels = tab.expansion.levels()
    window.presentation.enter()
    try:
        QApplication.processEvents()
        caption = window.presentation.caption
        stepper = window.session.stepper
        window.presentation._next()
        assert stepper.position < stepper.total
        assert caption.text().startswith(levels.progress())
        assert caption.text().startswith("forward 1/")
        for _ in range(3):
            _press(tab.view, qtbot, Qt.Key.Key_Right)
        assert caption.text().startswith("forward 4/"), caption.text()
        assert caption.text().startswith(tab.phase.text().split(" · ")[0])
        while stepper.position <= len(stepper.forward_steps):
            window.presentation._next()
        window.presentation._next()
        assert caption.text().startswith("backward 2/"), caption.text()
        assert caption.text().startswith(tab.expansion.progress(levels))
        shown = tab.scene
        unit = levels.current_unit()
        if unit is not None and unit >= 0:
            assert shown.is_drawn(stepper.backward_steps[stepper.position
                                  - len(stepper.forward_steps) - 1].node)
        _press(tab.view, qtbot, Qt.Key.Key_Left)
        assert caption.text().startswith("backward 1/"), caption.text()
    finally:
        window.presentation.leave()


def test_after_a_group_closes_the_inspector_shows_the_box_holding_the_step(grouped, qtbot):
    window, grouping = grouped
    tab = window.graph_tab
    stack = _stack(grouping)
    sample = stack.children[0]
    _redrawn(window, qtbot, lambda: tab.expansion.expand(stack.id))
    _redrawn(window, qtbot, lambda: tab.expansion.expand(sample))
    stepper = window.session.stepper
    inside = set(grouping.groups[sample].nodes)
    while stepper.position < len(stepper.forward_steps):
        tab.actions["step"].trigger()
        unit = tab.expansion.levels().current_unit()
        if unit is not None and unit >= 0 and unit in inside:
            break
    current = stepper.forward_steps[stepper.position - 1]
    assert current.label and current.label in window.inspector.toPlainText()
    tab.scene.clearSelection()
    _redrawn(window, qtbot, tab.expansion.actions["collapse"].trigger)
    assert sample in tab.scene.group_items and not tab.scene.is_drawn(current)
    text = window.inspector.toPlainText()
    assert grouping.groups[sample].title in text and current.label not in text
