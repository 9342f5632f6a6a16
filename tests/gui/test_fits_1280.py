"""Every tab at 1280 x 720 (a common laptop and projector size) shows its text whole: no
label, button, table column, plot title, caption or tick cut or elided (see fit_checks),
and the window is no bigger than the screen. Then the small things: Play and Pause the
same width, every Modes ratio bar visible, the XOR surface filling its plot, and the
Program dock never hiding the start of a long line."""

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QTextCursor
from PySide6.QtWidgets import QToolButton

from engine.lesson.modes import SIZES, SweepRow
from gui.jobs.tensorflow_checker import READY, TensorFlowChecker
from tests.gui import without_tensorflow
from tests.gui.fit_checks import cut_texts

SCREEN = (1280, 720)


@pytest.fixture
def small_window(window, qtbot, monkeypatch):
    """The window at 1280 x 720, TensorFlow unavailable (its loading would take the test's
    time; its message is one of the longest texts of the Rules tab)."""
    monkeypatch.setattr(TensorFlowChecker, "loader", staticmethod(without_tensorflow.load))
    window.resize(*SCREEN)
    qtbot.waitUntil(lambda: window.size().toTuple() == SCREEN, timeout=5_000)
    return window


def show(window, qtbot, tab):
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(tab.isVisible, timeout=5_000)
    qtbot.wait(50)  # the layouts settle (a wrapped label asks for its height once shown)


def sweep_rows(sizes=SIZES) -> list[SweepRow]:
    """Rows shaped like a real sweep's: forward mode's cost grows with N², reverse's
    with N, so the ratio runs from below 1 to hundreds."""
    rows = []
    for n in sizes:
        forward, reverse = 0.004 * n * n / 3 + 0.008, 0.005 * n + 0.005
        rows.append(SweepRow(n, forward, reverse, forward / reverse, 2e-16))
    return rows


def test_the_window_fits_the_screen_on_every_tab(small_window, qtbot):
    for i in range(small_window.tabs.count()):
        small_window.tabs.setCurrentIndex(i)
        qtbot.wait(20)
        need = small_window.minimumSizeHint()
        assert need.width() <= SCREEN[0] - 40, small_window.tabs.tabText(i)  # room for a frame
        assert need.height() <= SCREEN[1] - 60, small_window.tabs.tabText(i)
        assert small_window.size().toTuple() == SCREEN


def test_graph_tab_shows_its_controls_whole(small_window, qtbot):
    show(small_window, qtbot, small_window.graph_tab)
    assert small_window.graph_tab.phase.text().startswith("ready: ")
    assert cut_texts(small_window) == []
    small_window.session.seek(18)  # mid-way back: the inspector explains a rule
    qtbot.wait(20)
    assert small_window.graph_tab.phase.text().startswith("backward ")
    assert "upstream" in small_window.inspector.toPlainText() \
        or "×" in small_window.inspector.toPlainText()
    assert cut_texts(small_window) == []
    tab = small_window.graph_tab
    text = "a = 2.0\nb = a * 3\nc = b * 2\nd = b + c"  # the no-sort bug's example
    small_window.editor.set_text(text)
    small_window.build(text)
    small_window.wait_for_build()
    tab.engine_box.setCurrentIndex(tab.engine_box.findText("bug: no topological sort"))
    small_window.session.seek(10**9)  # the bug's wrong gradients, said under the graph
    qtbot.wait(20)
    assert tab.problem.isVisible() and tab.problem.text()
    assert cut_texts(small_window) == []


def test_rules_tab_shows_its_text_whole(small_window, qtbot):
    tab = small_window.rules_tab
    show(small_window, qtbot, tab)
    qtbot.waitUntil(lambda: "could not be imported" in tab.tf_status.text(), timeout=60_000)
    qtbot.wait(50)
    assert cut_texts(small_window) == []


def test_rules_tab_with_tensorflows_rows_shows_them_whole(window, qtbot):
    pytest.importorskip("tensorflow")
    window.resize(*SCREEN)
    tab = window.rules_tab
    show(window, qtbot, tab)
    qtbot.waitUntil(lambda: window.checker.state == READY and bool(window.checker.rows),
                    timeout=120_000)
    qtbot.waitUntil(lambda: tab.float32.isVisible(), timeout=5_000)  # the lesson's snippet
    qtbot.wait(100)
    assert tab.tf_table.model().rowCount() == 6
    assert cut_texts(window) == []


def test_a_plot_title_wraps_rather_than_widen_its_plot(qtbot):
    from engine.lesson.rules import rule_errors, worst
    from gui.tabs import plots

    widget = plots.plot_widget()
    qtbot.addWidget(widget)
    plots.rule_bars(widget.getPlotItem(), rule_errors())  # its title is about 330 px
    widget.resize(400, 360)  # the rules' group in a narrow window
    widget.show()
    qtbot.waitExposed(widget)
    qtbot.wait(20)
    plot = widget.getPlotItem()
    title = plot.titleLabel
    rows = rule_errors()
    assert title.item.toPlainText().endswith(f"on {worst(rows).name}")  # the whole title
    assert plot.size().width() <= widget.viewport().width() + 1
    box = plot.getViewBox().sceneBoundingRect()
    assert title.item.boundingRect().width() <= box.width() + 1
    assert title.item.document().documentLayout().blockBoundingRect(
        title.item.document().firstBlock()).height() > 1.5 * title.item.font().pointSizeF()
    assert cut_texts(widget) == []


def test_modes_tab_shows_a_sweep_whole(small_window, qtbot):
    tab = small_window.modes_tab
    show(small_window, qtbot, tab)
    assert cut_texts(small_window) == []  # before a sweep: the hints
    tab.rows = sweep_rows()
    tab._show_rows()
    qtbot.wait(50)
    assert cut_texts(small_window) == []


def test_xor_tab_shows_a_run_whole(small_window, qtbot):
    tab = small_window.xor_tab
    show(small_window, qtbot, tab)
    tab.epochs.setValue(400)
    tab.buttons["start"].click()
    qtbot.waitUntil(lambda: not tab.running, timeout=60_000)
    qtbot.wait(50)
    assert tab.epoch == 400
    assert cut_texts(small_window) == []


def test_pitfalls_tab_shows_its_text_whole(small_window, qtbot):
    show(small_window, qtbot, small_window.pitfalls_tab)
    # its zero_grad runs train in child processes; the plot is drawn when they are in
    qtbot.waitUntil(lambda: not small_window.pitfalls_tab.training, timeout=120_000)
    qtbot.wait(50)
    assert cut_texts(small_window) == []


def test_every_learn_section_and_the_quiz_show_whole(small_window, qtbot):
    tab = small_window.learn_tab
    show(small_window, qtbot, tab)
    for row in range(tab.sections.count()):
        tab.sections.setCurrentRow(row)
        qtbot.wait(20)
        assert cut_texts(small_window) == [], tab.sections.item(row).text()
    assert tab.quiz is not None and tab.quiz.isVisible()  # the last section is the quiz


# -- the small things ---------------------------------------------------------------------


def test_play_and_pause_leave_the_speed_slider_where_it_is(small_window, qtbot):
    tab = small_window.graph_tab
    show(small_window, qtbot, tab)
    slider_x = tab.speed.mapTo(tab, tab.speed.rect().topLeft()).x()
    play = tab.findChild(QToolButton, "play_button")
    width = play.width()
    tab.actions["play"].setChecked(True)
    qtbot.wait(20)
    assert play.text() == "Pause"
    assert play.width() == width
    assert tab.speed.mapTo(tab, tab.speed.rect().topLeft()).x() == slider_x
    tab.actions["play"].setChecked(False)
    qtbot.wait(20)
    assert play.text() == "Play" and play.width() == width


def _bar_pixels(widget, x: float) -> int:
    """How many pixels of the bar colour the plot shows in the column of data x."""
    from gui.tabs.plots import FORWARD

    view = widget.getPlotItem().getViewBox()
    image = widget.grab().toImage()
    column = round(widget.mapFromScene(view.mapViewToScene(QPointF(x, 0))).x())
    return sum(QColor(image.pixel(column, y)).rgb() == FORWARD.rgb()
               for y in range(image.height()))


def test_every_modes_ratio_bar_shows(small_window, qtbot):
    tab = small_window.modes_tab
    show(small_window, qtbot, tab)
    tab.rows = sweep_rows()
    tab._show_rows()
    qtbot.wait(50)
    ratios = [r.ratio for r in tab.rows]
    assert ratios[0] < 1 < ratios[1] < 2 and ratios[-1] > 200  # N = 2, N = 5 and the rest
    heights = [_bar_pixels(tab.ratio_plot, x) for x in range(len(tab.rows))]
    assert min(heights) >= 10, heights
    assert heights == sorted(heights)  # taller for a larger ratio


def test_xor_surface_fills_its_plot_in_a_tall_box(qtbot):
    from gui.tabs import plots

    widget = plots.plot_widget()
    qtbot.addWidget(widget)
    image = plots.decision_surface_items(widget.getPlotItem())
    widget.resize(300, 520)  # taller than wide, as a narrow window makes it
    widget.show()
    qtbot.waitExposed(widget)
    plots.update_decision_surface(image, [0.5] * 9, 2, "tanh")
    qtbot.wait(20)
    box = widget.getPlotItem().getViewBox().sceneBoundingRect()
    covered = image.sceneBoundingRect()
    assert covered.top() <= box.top() + 1 and covered.bottom() >= box.bottom() - 1
    assert covered.left() <= box.left() + 1 and covered.right() >= box.right() - 1
    (x0, x1), (y0, y1) = widget.getPlotItem().getViewBox().viewRange()
    margin = plots.SURFACE_MARGIN
    assert (x0, x1, y0, y1) == pytest.approx((-margin, 1 + margin, -margin, 1 + margin))


def test_the_program_dock_shows_line_1_whole_and_a_long_lines_start(small_window, qtbot):
    editor = small_window.editor.editor
    show(small_window, qtbot, small_window.graph_tab)
    first = editor.toPlainText().split("\n")[0]
    assert first.startswith("#") and editor.fontMetrics().horizontalAdvance(first) \
        > editor.viewport().width()  # the neuron's comment is wider than the dock
    assert not editor.horizontalScrollBar().isVisible()
    long_line = "z = " + " + ".join(f"w{i}*x{i}" for i in range(40))
    editor.setPlainText(long_line)
    cursor = editor.textCursor()
    cursor.movePosition(QTextCursor.MoveOperation.End)
    editor.setTextCursor(cursor)
    editor.insertPlainText(" + b")  # an edit at the line's end
    qtbot.wait(20)
    assert editor.horizontalScrollBar().value() == 0
    start = QTextCursor(editor.document())
    assert editor.cursorRect(start).left() >= 0  # the line's start is in sight
    assert editor.cursorRect(start).top() >= 0


def test_a_wrapped_lines_number_sits_on_its_first_row_and_the_next_below_it(small_window,
                                                                          qtbot):
    editor = small_window.editor.editor
    show(small_window, qtbot, small_window.graph_tab)
    editor.setPlainText("# " + "a long comment " * 12 + "\nx = 1\ny = x * 2")
    qtbot.wait(20)
    row = editor.fontMetrics().lineSpacing()
    numbers = editor.gutter_numbers(editor.viewport().height())
    assert [n for n, _ in numbers] == [1, 2, 3]
    (_, first), (_, second), (_, third) = numbers
    wrapped_rows = editor.document().firstBlock().layout().lineCount()
    assert wrapped_rows >= 2  # the comment is wider than the dock
    assert second - first == pytest.approx(wrapped_rows * row, abs=wrapped_rows + 1)
    assert third - second == pytest.approx(row, abs=2)


# -- the graph itself at 1280 x 720 (issue 22's second tryout) -----------------------------

def _graph_items(scene) -> list:
    """The boxes and op circles of the graph drawn now (a grouped graph's group boxes
    with them)."""
    from gui.graph.items import OpItem, ValueItem

    boxes = [item for item in scene.items() if isinstance(item, (ValueItem, OpItem))]
    return boxes + list(getattr(scene, "group_items", {}).values())


def _cut(view) -> list:
    """The graph's boxes not whole in the viewport."""
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    return [item for item in _graph_items(view.scene())
            if not shown.contains(item.sceneBoundingRect())]


def _smallest_px(view) -> float:
    from gui.graph.view import SMALLEST_TEXT_PT

    return SMALLEST_TEXT_PT * view.logicalDpiY() / 72.0 * view.scale_factor()


def _ctrl_0(window):
    from PySide6.QtGui import QAction

    return next(a for a in window.findChildren(QAction) if a.shortcut().toString() == "Ctrl+0")


def test_micrograds_mlp_opens_whole_and_readable_and_ctrl_0_keeps_it(qtbot):
    from gui import debug
    from gui.graph.view import READABLE_PX
    from tests.foreign_models import micrograd_demo

    demo = micrograd_demo(100)
    model, loss = demo.model, demo.loss  # named as the tryout's script names them
    window = debug(loss, block=False)
    qtbot.addWidget(window)
    window.resize(*SCREEN)
    tab = window.graph_tab
    qtbot.waitUntil(lambda: not window.building and not tab.laying_out
                    and tab.scene.shown is not None, timeout=180_000)
    qtbot.waitUntil(lambda: window.size().toTuple() == SCREEN, timeout=5_000)
    qtbot.wait(50)
    view = tab.view
    assert len(tab.scene.shown.stepper.forward_steps) == 65_818 and model.layers
    shown = tab.scene.shown
    titles = [g.title for g in shown.groups if -1 - g.id in shown.quotient.units]
    assert "model.layers[0]" in titles
    assert len(_graph_items(tab.scene)) > 10 and _cut(view) == []  # the first view: all of it
    assert READABLE_PX - 1e-6 <= _smallest_px(view) < 9.0  # under the old floor, not ~5 px
    _ctrl_0(window).trigger()
    assert _cut(view) == [] and _smallest_px(view) >= READABLE_PX - 1e-6
    window.close()


def test_the_lessons_neuron_fits_whole_in_the_window_and_presenting(small_window, qtbot):
    from tests.engine.helpers import NEURON

    small_window.load_program(NEURON)
    view = small_window.graph_tab.view
    qtbot.wait(50)
    assert len(_graph_items(view.scene())) == 13 + 7  # its boxes and op circles
    assert _cut(view) == []  # p - y and loss too (cut at the right before)
    _ctrl_0(small_window).trigger()
    assert _cut(view) == []
    small_window.resize(1200, 700)  # a fit is redone on a resize
    qtbot.waitUntil(lambda: small_window.size().toTuple() == (1200, 700), timeout=5_000)
    assert _cut(view) == [] or view.scale_factor() == pytest.approx(view.readable_scale())
    small_window.resize(*SCREEN)
    small_window.presentation.enter()
    try:
        qtbot.wait(20)
        small_window.resize(*SCREEN)  # the offscreen screen is smaller than a projector's
        qtbot.waitUntil(lambda: small_window.size().toTuple() == SCREEN, timeout=5_000)
        qtbot.wait(20)
        # its type would be 18 px: too large to fit, so the largest scale that fits
        assert _cut(view) == [] and view.scale_factor() < view.readable_scale()
        port = view.viewport().rect()
        whole = view.scene().graph_rect()
        assert view.scale_factor() == pytest.approx(
            min(port.width() / (whole.width() + 48), port.height() / (whole.height() + 48)))
    finally:
        small_window.presentation.leave()


def test_a_second_ctrl_0_fits_a_long_chain_whatever_its_text_size(small_window, qtbot):
    from gui.graph.view import READABLE_PX
    from gui.graph.zoom_steps import WHOLE_SAID

    text = "x = 0.5\na1 = tanh(x)\n" + "".join(f"a{i} = tanh(a{i - 1})\n" for i in range(2, 51))
    small_window.editor.set_text(text)
    small_window.build(text)
    assert small_window.wait_for_build() and small_window.graph_tab.wait_for_layout()
    view = small_window.graph_tab.view
    qtbot.wait(20)
    seen = len(_graph_items(view.scene())) - len(_cut(view))
    assert seen > 9  # the old floor showed 7 boxes and op circles of the row
    assert _smallest_px(view) == pytest.approx(READABLE_PX, abs=0.05)
    _ctrl_0(small_window).trigger()  # once: the readable fit again
    assert len(_cut(view)) == len(_graph_items(view.scene())) - seen
    _ctrl_0(small_window).trigger()  # twice in a row: all of it
    assert _cut(view) == []
    assert small_window.statusBar().currentMessage() == WHOLE_SAID
    _ctrl_0(small_window).trigger()  # a third: readable again
    assert _smallest_px(view) == pytest.approx(READABLE_PX, abs=0.05)
