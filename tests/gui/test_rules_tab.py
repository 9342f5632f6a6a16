"""The Rules tab: the rule check, the step-size lesson and the TensorFlow cross-check."""

import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import QApplication

from gui.jobs.tensorflow_checker import LOADING, READY, UNAVAILABLE, TensorFlowChecker
from tests.gui import without_tensorflow

ROOT = Path(__file__).resolve().parents[2]


def open_rules(window, qtbot):
    window.tabs.setCurrentWidget(window.rules_tab)
    qtbot.waitUntil(window.rules_tab.isVisible, timeout=5_000)
    return window.rules_tab


def click_header(qtbot, table, column):
    header = table.horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(x, 5))


@pytest.fixture
def no_tensorflow(monkeypatch):
    """TensorFlow's import fails in the checker's child process, as on a machine
    without it."""
    monkeypatch.setattr(TensorFlowChecker, "loader", staticmethod(without_tensorflow.load))


def test_rule_plot_names_the_worst_case(window, qtbot, no_tensorflow):
    tab = open_rules(window, qtbot)
    title = tab.rule_plot.getPlotItem().titleLabel.text
    assert "18 cases, worst error 6.11e-10 on power (cube)" in title
    assert len(tab.rule_table.column_texts(0)) == 18


def test_clicking_a_header_re_ranks_the_rows(window, qtbot, no_tensorflow):
    tab = open_rules(window, qtbot)
    table = tab.rule_table
    error_column = 4  # |ag − cd|
    assert table.model().headerData(error_column, Qt.Orientation.Horizontal) == "|ag − cd|"
    click_header(qtbot, table, error_column)
    first = [float(t) for t in table.column_texts(error_column)]
    first_names = table.column_texts(0)
    click_header(qtbot, table, error_column)
    second = [float(t) for t in table.column_texts(error_column)]
    second_names = table.column_texts(0)
    assert first == sorted(first) and second == sorted(second, reverse=True)
    assert first[0] < first[-1]
    assert first_names[0] == "cos"                  # the smallest error
    assert second_names[0] == "power (cube)"        # the worst


def test_step_size_lesson_follows_the_chosen_input(window, qtbot, no_tensorflow):
    tab = open_rules(window, qtbot)
    assert [tab.input_box.itemText(i) for i in range(tab.input_box.count())][:3] == \
        ["w1", "w2", "b"]
    tab.input_box.setCurrentText("w2")
    assert "dloss/dw2 = -4.0" in tab.step_note.text()
    assert "exactly 0 (drawn at 1e-17, the bottom of the plot)" in tab.step_note.text()
    curves = tab.step_plot.getPlotItem().listDataItems()
    assert len(curves) == 2
    xs, ys = curves[0].getData()
    assert len(xs) == 13  # h from 1e-1 to 1e-13


def test_tab_works_without_tensorflow(window, qtbot, no_tensorflow):
    tab = open_rules(window, qtbot)
    qtbot.waitUntil(lambda: window.checker.state == UNAVAILABLE, timeout=10_000)
    assert "could not be imported" in tab.tf_status.text()
    assert "pip install tensorflow-cpu" in tab.tf_status.text()
    assert not tab.tf_button.isEnabled()
    window.graph_tab.actions["end"].trigger()  # everything else still works
    assert window.session.at_end


def test_tensorflow_cross_check_of_the_neuron(window, qtbot):
    pytest.importorskip("tensorflow")
    tab = open_rules(window, qtbot)
    qtbot.waitUntil(lambda: window.checker.state == READY and bool(window.checker.rows),
                    timeout=120_000)
    rows = {r.name: r for r in window.checker.rows}
    assert [rows[n].tensorflow for n in ("w1", "w2", "b")] == [-2.0, -4.0, -2.0]
    assert tab.tf_table.column_texts(0) == ["w1", "w2", "b", "x1", "x2", "y"]
    assert tab.tf_table.column_texts(3) == ["0"] * 6
    assert "dL/dw1 = -2.00000000" in tab.float32.text()
    # the inspector shows TensorFlow's gradient beside ours for a leaf
    window.tabs.setCurrentWidget(window.graph_tab)
    leaf_item = window.graph_tab.scene.value_item_of(window.session.program.inputs["w2"])
    leaf_item.setSelected(True)
    assert "tf.GradientTape" in window.inspector.toPlainText()
    assert "-4.0" in window.inspector.toPlainText()
    # a new program is checked automatically now that TensorFlow is loaded
    window.build("a = 3\nb = a * a")
    qtbot.waitUntil(lambda: window.checker.generation == window.session.generation,
                    timeout=30_000)
    assert window.checker.gradient_of(window.session.generation, "a") == 6.0


def test_tensorflow_loads_without_stalling_the_window(window, qtbot):
    pytest.importorskip("tensorflow")
    tab = window.rules_tab  # made, not shown: showing it starts the load
    window.tabs.setCurrentWidget(tab)
    assert window.checker.state == LOADING
    QApplication.processEvents()  # the tab's own first paint (its plots), not TensorFlow's
    ticks = []
    heartbeat = QTimer()
    heartbeat.setInterval(5)
    heartbeat.timeout.connect(lambda: ticks.append(time.perf_counter()))
    heartbeat.start()
    ticks.append(time.perf_counter())
    qtbot.waitUntil(lambda: window.checker.state == READY and bool(window.checker.rows),
                    timeout=120_000)
    heartbeat.stop()
    longest = max(b - a for a, b in zip(ticks, ticks[1:]))
    assert len(ticks) > 20
    # generous: it tests that the import runs elsewhere, not how fast this machine is
    assert longest < 0.5, f"the window stalled for {longest * 1000:.0f} ms"


def test_window_start_does_not_import_tensorflow():
    code = ("import os, sys\nos.environ['QT_QPA_PLATFORM'] = 'offscreen'\n"
            "from gui.app import application\nfrom gui.window.main_window import MainWindow\n"
            "app = application()\nw = MainWindow(remember=False)\nw.show()\n"
            "app.processEvents()\nprint('tensorflow' in sys.modules)\nw.close()\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_the_float32_snippet_shows_under_the_lessons_neuron_only(window, qtbot):
    tab = window.rules_tab
    window.checker.float32 = {"w1": -2.0, "w2": -4.0, "b": -2.0}  # as the child sends it
    tab.refresh()
    assert not tab.float32.isHidden()
    assert tab.float32.text() == (
        "The lesson's own snippet on this neuron (TensorFlow's default float32): "
        "dL/dw1 = -2.00000000, dL/dw2 = -4.00000000, dL/db = -2.00000000.")
    assert window.build("a = 3\nb = a * a")
    tab.refresh()
    assert tab.float32.isHidden() and tab.float32.text() == ""


def test_rule_bars_are_red_only_above_the_tolerance():
    from engine.lesson.rules import RuleError, rule_errors
    from gui.tabs.plots import FAIL, PASS, WORST_PASS, bar_colours

    rows = rule_errors()
    colours = bar_colours(rows)
    worst = max(range(len(rows)), key=lambda k: rows[k].error_fd)
    assert rows[worst].error_fd < 1e-9  # every rule passes: no red bar
    assert colours[worst] == WORST_PASS and FAIL not in colours
    assert all(c == PASS for k, c in enumerate(colours) if k != worst)

    def row(name, error):
        return RuleError(name, 1.0, 1.0, 1.0, 1.0, error, 0.0, "")

    made_up = [row("ok", 1e-12), row("at the line", 1e-9), row("over", 2e-9),
               row("far over", 1e-6)]
    assert bar_colours(made_up) == [PASS, PASS, FAIL, FAIL]
    assert FAIL != PASS and FAIL != WORST_PASS


def test_rule_plot_says_every_case_passes(window, qtbot, no_tensorflow):
    tab = open_rules(window, qtbot)
    axis = tab.rule_plot.getPlotItem().getAxis("bottom").labelText
    assert axis == "|autograd − central difference| (h = 1e-6): all below 1e-9"


def test_a_zero_tensorflow_difference_reads_0(window, qtbot):
    from engine.checks.tensorflow_check import GradientRow

    checker = window.checker
    checker.state = READY  # as if TensorFlow were loaded: nothing is asked of it here
    tab = open_rules(window, qtbot)
    checker.generation = window.session.generation
    checker.rows = [GradientRow("w1", -2.0, -2.0, 0.0), GradientRow("w2", -4.0, -4.0, 0.0)]
    checker.message = ""
    checker.changed.emit()
    assert tab.tf_status.text() == "2 inputs; largest difference 0."
    assert tab.tf_table.column_texts(3) == ["0", "0"]
    checker.rows = [GradientRow("w1", -2.0, -2.5, 0.5)]
    checker.changed.emit()
    assert tab.tf_status.text() == "1 input; largest difference 5.00e-01."


def test_the_step_size_axes_read_the_steps_themselves_for_every_program(window, qtbot,
                                                                         no_tensorflow):
    # a program built while the tab is hidden is drawn again: its log axes once read a
    # thousand times their values (0.001 where h is 1e-6), pyqtgraph's SI prefix
    tab = open_rules(window, qtbot)
    window.tabs.setCurrentWidget(window.graph_tab)
    assert window.build("x = 0.5\ny = tanh(x**3 + 3*x)")
    tab = open_rules(window, qtbot)
    plot = tab.step_plot.getPlotItem()
    for name in ("bottom", "left"):
        axis = plot.getAxis(name)
        assert axis.autoSIPrefixScale == 1.0
        # the tick at h = 1e-6 says so (it said 0.001)
        assert axis.tickStrings([-6.0], axis.autoSIPrefixScale, 1.0) == ["10⁻⁶"]
    xs, ys = plot.listDataItems()[0].getData()  # as drawn: log10 of each step
    assert [round(x, 9) for x in xs] == [-k for k in range(1, 14)]
