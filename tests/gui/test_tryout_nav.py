"""Finding one's way in micrograd's grouped MLP after the session-33 tryout: the breadcrumb
lists only the groups the user opened (never those the first view has open unasked), −
walks back through the views seen to the first one, a group closed keeps its place, a
view gone back to is framed readably, a group's backward step marks every parent it
sent to, and the step counter stays one readable line."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from tests.foreign_models import micrograd_demo
from tests.gui.test_tryout_keys import _ready, _redrawn


@pytest.fixture
def mlp(qtbot):
    """micrograd's demo on 20 points, debug(loss) as the tryout's script calls it, in a
    window of 1280 x 720: the first view has data_loss, the samples' stack and the stack
    of their rest open (losses[0], [1], [2], losses[3–11], losses[12–19] drawn closed)."""
    from gui import debug

    demo = micrograd_demo(20)
    model, inputs, losses = demo.model, demo.inputs, demo.losses  # as the script names them
    data_loss, reg_loss, loss = demo.data_loss, demo.reg_loss, demo.loss
    assert model and inputs and losses and data_loss and reg_loss
    window = debug(loss, block=False)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    qtbot.waitUntil(lambda: _ready(window), timeout=180_000)
    qtbot.waitUntil(lambda: window.size().toTuple() == (1280, 720), timeout=5_000)
    yield window
    window.close()


def _group(window, title: str) -> int:
    groups = window.graph_tab.scene.shown.groups
    found = [g.id for g in groups if g.title == title]
    assert found, [g.title for g in groups if g.kind != "names"]
    return found[0]


def _minus(window, qtbot) -> bool:
    """Press − (nothing selected); True if the picture was drawn again."""
    tab = window.graph_tab
    tab.scene.clearSelection()
    before = tab.scene
    tab.expansion.actions["collapse"].trigger()
    QApplication.processEvents()
    if tab.scene is before and not tab.laying_out:
        return False
    qtbot.waitUntil(lambda: tab.scene is not before and _ready(window), timeout=60_000)
    return True


def test_the_breadcrumb_lists_only_what_the_user_opened_and_minus_walks_back(mlp, qtbot):
    window = mlp
    tab = window.graph_tab
    crumb = tab.breadcrumb
    first = set(tab.scene.shown.expanded)
    assert _group(window, "data_loss") in first  # open from the start, never seen as groups
    assert crumb.words().startswith("graph of loss: ")
    rest = _group(window, "losses[3–11]")
    _redrawn(window, qtbot, lambda: tab.view.double_clicked.emit(tab.scene.group_items[rest]))
    tab.scene.clearSelection()
    assert crumb.words() == "graph › losses[3–11]"  # not › data_loss › relu(…) × 20 › …
    sample = _group(window, "losses[5]")
    _redrawn(window, qtbot, lambda: tab.expansion.expand(sample))
    tab.scene.clearSelection()
    assert crumb.words() == "graph › losses[3–11] › losses[5]"
    # a group selected is not a level opened
    box = _group(window, "losses[6]")
    tab.scene.group_items[box].setSelected(True)
    assert crumb.words() == "graph › losses[3–11]"
    assert "<b>" not in crumb.text() and "selected: losses[6] (closed)" in crumb.text()
    # − walks back the views seen, to the first, and stops there
    seen = []
    while _minus(window, qtbot):
        seen.append(set(tab.scene.shown.expanded))
    assert seen == [first | {rest}, first]
    assert crumb.words().startswith("graph of loss: ")
    assert window.statusBar().currentMessage().startswith("This is the first view")


def test_find_adds_no_level_the_first_view_had_open(mlp, qtbot):
    window = mlp
    tab = window.graph_tab
    name = "model.layers[1].neurons[3].w[2]"
    _redrawn(window, qtbot, lambda: tab.expansion.find_node(name))
    tab.scene.clearSelection()
    assert crumb_words(tab) == "graph › model.layers[1] › model.layers[1].neurons[3]"


def crumb_words(tab) -> str:
    return tab.breadcrumb.words()


def _ys(tab, titles: list[str]) -> list[float]:
    shown = tab.scene.shown
    ids = {g.title: g.id for g in shown.groups}
    return [tab.scene.group_items[ids[t]].sceneBoundingRect().center().y() for t in titles]


def test_a_group_closed_keeps_its_place_among_its_siblings(mlp, qtbot):
    window = mlp
    tab = window.graph_tab
    rest = _group(window, "losses[3–11]")
    _redrawn(window, qtbot, lambda: tab.expansion.expand(rest))
    titles = [f"losses[{k}]" for k in range(3, 12)]
    opened = _ys(tab, titles)
    assert opened == sorted(opened)  # the samples in their order, top to bottom
    sample = _group(window, "losses[5]")
    _redrawn(window, qtbot, lambda: tab.expansion.expand(sample))
    # laid out again, not the drawing kept of the view before (the tryout's was let go
    # of: the openings prepared meanwhile had taken its place)
    tab.scene.shown.shared.drawings.clear()
    assert _minus(window, qtbot)
    assert sample in tab.scene.group_items
    closed = _ys(tab, titles)
    assert closed == sorted(closed), dict(zip(titles, closed))


def _framing(view) -> tuple[float, float, float]:
    centre = view.mapToScene(view.viewport().rect().center())
    return view.scale_factor(), centre.x(), centre.y()


def _same(a, b) -> bool:
    """The same zoom, and the same middle to the pixel (centerOn rounds)."""
    return a[0] == pytest.approx(b[0]) and all(abs(p - q) <= 1.5 / a[0] for p, q in
                                               zip(a[1:], b[1:]))


def test_going_back_shows_each_view_as_it_was_left(mlp, qtbot):
    window = mlp
    tab = window.graph_tab
    view = tab.view
    first = _framing(view)
    rest = _group(window, "losses[3–11]")
    _redrawn(window, qtbot, lambda: tab.expansion.expand(rest))
    view.set_zoom(view.readable_scale() * 1.5)  # the user's own zoom and pan in this one
    view.centerOn(tab.scene.group_items[_group(window, "losses[7]")])
    mine = _framing(view)
    _redrawn(window, qtbot, lambda: tab.expansion.expand(_group(window, "losses[7]")))
    view.set_zoom(view.readable_scale())  # zoomed out as far as is readable, in here
    assert _minus(window, qtbot)
    assert _same(_framing(view), mine), (_framing(view), mine)
    assert _minus(window, qtbot)
    assert _same(_framing(view), first)  # the first view's fit, not the last's zoom
    # the breadcrumb's root: the first view as it was framed, from anywhere
    _redrawn(window, qtbot, lambda: tab.expansion.expand(rest))
    _redrawn(window, qtbot, lambda: tab.expansion.expand(_group(window, "losses[7]")))
    view.set_zoom(view.readable_scale())
    _redrawn(window, qtbot, lambda: tab.breadcrumb.linkActivated.emit("-1"))
    assert view.scale_factor() == pytest.approx(first[0])  # its fit, redone: all of it
    shows = view.mapToScene(view.viewport().rect()).boundingRect()
    assert shows.contains(tab.scene.graph_rect())


def _green(scene) -> set[int]:
    """The units drawn with the 'received a gradient' border."""
    from gui.graph.items import RECEIVED

    units = {-1 - g for g, item in scene.group_items.items()
             if item.pen().color().rgba() == RECEIVED.rgba()}
    return units | {i for i, box in scene._box.items()
                    if box.pen().color().rgba() == RECEIVED.rgba()}


def _sent_to(tab) -> set[int]:
    """Every unit a parent of a rule the step at the level shown just applied is in."""
    scene, stepper = tab.scene, tab.scene.stepper
    levels, shown = scene.levels, scene.shown
    a, b = levels.current_span()
    n = len(stepper.forward_steps)
    units = set()
    for step in stepper.backward_steps[max(a - n, 0):max(b - n, 0)]:
        units.update(shown.quotient.unit_of[shown.index[c.parent]] for c in step.contributions)
    return units - {levels.current_unit()}


def test_a_groups_backward_step_marks_every_unit_it_sent_a_gradient_to(mlp, qtbot):
    window = mlp
    tab = window.graph_tab
    tab.actions["end"].trigger()
    qtbot.waitUntil(lambda: not tab.expansion._redraw, timeout=30_000)
    levels = tab.scene.levels
    assert levels.current_unit() == -1 - _group(window, "reg_loss")
    params = {-1 - _group(window, t) for t in
              ("model.layers[0]", "model.layers[1]", "model.layers[2].neurons[0]")}
    assert params <= _green(tab.scene)  # all three: reg_loss reads every parameter
    sample = _group(window, "losses[0]")
    _redrawn(window, qtbot, lambda: tab.expansion.expand(sample))
    levels, stepper = tab.scene.levels, tab.scene.stepper
    n = len(stepper.forward_steps)
    checked = 0
    while stepper.position > n + 1:  # every backward step in here, back from the end
        sent = _sent_to(tab)
        drawn = {-1 - u for u in tab.scene.group_items} | set(tab.scene._box)
        assert _green(tab.scene) == sent & drawn, levels.progress()
        checked += bool(sent)
        tab.actions["back"].trigger()
        qtbot.waitUntil(lambda: not tab.expansion._redraw, timeout=30_000)
    assert checked >= 10


def test_the_step_counter_says_its_counts_and_the_innermost_place_on_one_line(mlp, qtbot):
    window = mlp
    tab = window.graph_tab
    phase = tab.phase
    metrics = phase.fontMetrics()
    levels = tab.scene.levels
    sample = -1 - _group(window, "losses[0]")
    while levels.current_unit() != sample:
        tab.actions["step"].trigger()
    counts = phase.text().split(" · ")[0]
    # the closed group stepped, not 'in' it, nor in the stack the first view has open
    # unasked (never drawn as a group: s34)
    assert counts.startswith("forward ") and "inside" not in phase.text()
    assert phase.shown_lines() == [f"{counts} · losses[0]"]
    assert phase.toolTip().startswith(phase.text())  # the whole path there
    tab.actions["end"].trigger()
    qtbot.waitUntil(lambda: not tab.expansion._redraw, timeout=30_000)
    n = levels.counts()[1]
    # at 1280 px beside the buttons: the counts and the place whole ('9/9' says done)
    assert phase.shown_lines() == [f"backward {n}/{n} · reg_loss"]
    window.resize(1920, 1080)
    qtbot.waitUntil(lambda: window.width() == 1920, timeout=5_000)
    assert phase.shown_lines() == [f"backward {n}/{n} (done) · reg_loss"]
    for width in (1280, 1920):
        window.resize(width, 720 if width == 1280 else 1080)
        qtbot.waitUntil(lambda w=width: window.width() == w, timeout=5_000)
        (line,) = phase.shown_lines()
        assert metrics.horizontalAdvance(line) <= phase.width()
        assert phase.height() < 2 * metrics.lineSpacing()  # room for one line, not two
