"""File → Check an engine…: the table, Cancel, and a failing case stepped in the Graph
tab by the user's engine."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer

from engine.checks.engine_check import CHECKS
from engine.checks.engine_check.replay import RecordedEngine
from engine.core.engines import CORRECT
from gui import engine_dialog

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = engine_dialog.EXAMPLES  # the app's own: in the checkout, assets/engines
CLOSURES = (ROOT / "tests" / "engine" / "engines" / "closures.py").read_text()
HANG = CLOSURES.replace("self.grad += e * out.grad  # exp",
                        "while True: pass  # a CPU-bound hang")


def run_dialog(window, qtbot, path, timeout_s=10.0):
    dialog = engine_dialog.open_dialog(window)
    dialog.start(str(path), "Value", timeout_s)
    qtbot.waitUntil(lambda: not dialog.running, timeout=120_000)
    return dialog


def test_the_examples_are_offered(window):
    dialog = engine_dialog.open_dialog(window)
    names = [dialog.examples.itemText(i) for i in range(1, dialog.examples.count())]
    assert names == ["no_seed.py", "no_sort.py", "overwrite.py", "pow_rule.py",
                     "tanh_rule.py"]
    dialog.examples.setCurrentIndex(names.index("tanh_rule.py") + 1)
    assert dialog.path.text() == str(EXAMPLES / "tanh_rule.py")
    dialog.path.setText("/somewhere/else/my_engine.py")  # typed: no example is named
    assert dialog.examples.currentIndex() == 0
    dialog.path.setText(str(EXAMPLES / "no_sort.py"))
    assert dialog.examples.currentText() == "no_sort.py"
    dialog.close()


def test_a_wrong_rule_is_red_with_its_sentence(window, qtbot):
    dialog = run_dialog(window, qtbot, EXAMPLES / "tanh_rule.py")
    newer = {"sin", "cos", "sqrt", "abs", "pow_input"}  # ops the example has no method for
    assert [dialog.status_of(name) for name in CHECKS] == [
        "wrong" if name == "tanh" else "missing" if name in newer else "ok" for name in CHECKS]
    assert dialog.sentence_of("tanh") == "1 - t instead of 1 - t² (t = tanh(x))"
    row = CHECKS.index("tanh")
    assert dialog.table.item(row, 2).foreground().color().name() == "#b91c1c"
    assert dialog.table.item(0, 1).foreground().style().name == "NoBrush"  # ok: plain
    assert "expected: value 0.462117; d out/dx = 0.786448" in dialog.table.item(row, 2).toolTip()
    assert dialog.progress.value() == len(CHECKS)
    assert not dialog.graph_button.isEnabled()
    dialog.select("tanh")
    assert dialog.graph_button.isEnabled()
    # the selected check's numbers under the table, not only in a tooltip
    assert dialog.details.text().startswith("tanh: 1 - t instead of 1 - t² (t = tanh(x))")
    assert "expected: value 0.462117; d out/dx = 0.786448" in dialog.details.text()
    dialog.close()


def test_the_table_quotes_code_instead_of_showing_backticks(window, qtbot):
    dialog = run_dialog(window, qtbot, EXAMPLES / "overwrite.py")
    sentence = dialog.sentence_of("accumulation")
    assert "`" not in sentence and "‘=’ instead of ‘+=’" in sentence
    dialog.close()


def test_a_failing_case_is_stepped_by_the_users_engine(window, qtbot):
    dialog = run_dialog(window, qtbot, EXAMPLES / "tanh_rule.py")
    dialog.select("tanh")
    dialog.graph_button.click()
    session, tab = window.session, window.graph_tab
    assert isinstance(session.engine, RecordedEngine) and session.engine is session.recorded
    assert tab.engine_box.currentText() == "your engine: tanh_rule.py"
    assert tab.engine_box.currentData() is session.engine
    assert window.editor.text() == "x = 0.5\nout = tanh(x)"
    assert "The editor now holds the case (Ctrl+Z in the editor brings your text back)." \
        in window.statusBar().currentMessage()
    window.editor.editor.undo()  # it does
    assert window.editor.text() != "x = 0.5\nout = tanh(x)"
    window.editor.editor.redo()
    session.run_to_end()
    x = session.program.inputs["x"]
    t = math.tanh(0.5)
    assert x.grad == pytest.approx(1 - t)  # their rule, 1 - t
    step = session.stepper.backward_steps[1]
    assert step.contributions[0].right == pytest.approx(1 - t * t)
    assert "the right local derivative is 0.786448" in step.problem
    assert tab.problem.text().endswith("At the end: x has gradient 0.537883 with your "
                                       "engine; the correct gradient is 0.786448.")
    edge = tab.scene.edge_item(session.program.output, 0)
    assert edge.label == "0.5379 × 1\n= 0.5379\nright: 0.7864"
    # the correct engine on the same program, and back
    recorded = session.engine
    tab.engine_box.setCurrentIndex(tab.engine_box.findData(CORRECT))
    session.run_to_end()
    assert session.program.inputs["x"].grad == pytest.approx(1 - t * t)
    tab.engine_box.setCurrentIndex(tab.engine_box.findData(recorded))
    assert session.engine is recorded
    session.run_to_end()
    assert session.program.inputs["x"].grad == pytest.approx(1 - t)
    # another program cannot be stepped by their engine: the entry goes
    window.build("a = 3\nb = a * a")
    assert session.engine is CORRECT and tab.engine_box.findData(recorded) == -1
    assert tab.engine_box.findText("your engine", Qt.MatchFlag.MatchStartsWith) == -1
    dialog.close()


def test_no_sort_is_replayed_in_the_users_order(window, qtbot):
    dialog = run_dialog(window, qtbot, EXAMPLES / "no_sort.py")
    dialog.select("topological_order")
    dialog.graph_button.click()
    session = window.session
    stepper = session.stepper
    problems = [s for s in stepper.backward_steps if s.problem]
    assert problems and "not applied in reverse topological order" in problems[0].problem
    session.run_to_end()
    record = dialog.report["checks"]["topological_order"]
    assert {n: v.grad for n, v in session.program.inputs.items()} == \
        record["received"]["grads"]
    dialog.close()


def test_cancel_stops_the_child(window, qtbot, tmp_path):
    path = tmp_path / "engine.py"
    path.write_text(HANG)
    dialog = engine_dialog.open_dialog(window)
    dialog.start(str(path), "Value", 60.0)
    qtbot.waitUntil(lambda: dialog.run.current == "exp", timeout=60_000)
    process = dialog.run._process
    dialog.cancel_button.click()
    assert not dialog.running and not process.is_alive()
    assert dialog.status.text().startswith("Cancelled after ")
    assert dialog.status_of("exp") == "running…"  # where it was stopped
    assert dialog.check_button.isEnabled()
    dialog.close()


def test_closing_the_window_stops_a_check(qtbot, tmp_path):
    from gui.window.main_window import MainWindow

    path = tmp_path / "engine.py"
    path.write_text(HANG)
    w = MainWindow(remember=False)
    qtbot.addWidget(w)
    w.show()
    dialog = engine_dialog.open_dialog(w)
    dialog.start(str(path), "Value", 60.0)
    qtbot.waitUntil(lambda: dialog.run.current == "exp", timeout=60_000)
    process = dialog.run._process
    w.close()
    assert not process.is_alive()


def test_a_file_that_cannot_be_loaded_says_why(window, qtbot, tmp_path):
    path = tmp_path / "engine.py"
    path.write_text("import no_such_module_i15\n")
    dialog = run_dialog(window, qtbot, path)
    assert dialog.status.text() == ("engine.py cannot be checked: ModuleNotFoundError: No "
                                    "module named 'no_such_module_i15' (line 1 of engine.py, "
                                    "in <module>)")
    assert all(dialog.status_of(name) == "" for name in CHECKS)
    dialog.close()


@pytest.mark.slow
def test_a_hanging_engine_leaves_the_window_responsive(window, qtbot, tmp_path):
    path = tmp_path / "engine.py"
    path.write_text(HANG)
    ticks: list[str | None] = []
    heartbeat = QTimer()
    heartbeat.setInterval(10)
    dialog = engine_dialog.open_dialog(window)
    heartbeat.timeout.connect(lambda: ticks.append(dialog.run.current))
    heartbeat.start()
    dialog.start(str(path), "Value", 3.0)
    processes = []
    qtbot.waitUntil(lambda: dialog.run.current == "exp", timeout=60_000)
    processes.append(dialog.run._process)
    qtbot.waitUntil(lambda: not dialog.running, timeout=120_000)
    heartbeat.stop()
    # the window's event loop kept turning while the child spun on exp
    assert ticks.count("exp") >= 20
    assert dialog.status_of("exp") == "timeout"
    assert [dialog.status_of(n) for n in CHECKS].count("ok") == len(CHECKS) - 1
    assert not processes[0].is_alive()
    assert dialog.run._process is None
    dialog.close()


def test_an_engines_words_are_shown_as_written_never_as_html(window, qtbot, tmp_path):
    trap = "<img src='x.png'><a href='http://example.invalid'>click</a>"
    path = tmp_path / "engine.py"
    path.write_text(CLOSURES.replace("self.grad += e * out.grad  # exp",
                                     f"raise ValueError({trap!r})"))
    dialog = run_dialog(window, qtbot, path)
    dialog.select("exp")
    assert dialog.details.textFormat() == Qt.TextFormat.PlainText
    assert trap in dialog.details.text()
    assert dialog.status.textFormat() == Qt.TextFormat.PlainText
    tip = dialog.table.item(CHECKS.index("exp"), 2).toolTip()
    assert "<img" not in tip and "&lt;img src=&#x27;x.png&#x27;&gt;" in tip
    dialog.close()
