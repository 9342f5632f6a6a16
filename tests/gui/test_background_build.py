"""A big program is parsed in a child process and built in slices: the window keeps
beating, errors show at their line and column, and a new build or Cancel ends the old."""

import time

import pytest
from PySide6.QtCore import Qt

import gui.window.files
from benchmarks.build_gaps import chain_program
from engine import ExpressionError, parse
from gui.jobs import process_job, worker
from gui.jobs.program_build import BACKGROUND_CHARS
from tests.gui.test_background_layout import Heartbeat

BIG = chain_program(60_000)  # just over BACKGROUND_CHARS: built in the background
assert len(BIG) > BACKGROUND_CHARS


def test_building_200000_nodes_never_freezes_the_window_and_opens_drawn_grouped(window, qtbot):
    text = chain_program(200_000)
    window.editor.set_text(text)
    heart = Heartbeat()
    start = time.perf_counter()
    assert window.build(text)
    assert window.building
    tab = window.graph_tab
    qtbot.waitUntil(lambda: window.session.program is not None
                    and window.session.program.source is text and not tab.laying_out,
                    timeout=180_000)
    end = time.perf_counter()
    # drawn (once "not drawn above 20,000 nodes"), collapsed by structure: a few boxes
    assert tab.scene.stepper is window.session.stepper and tab.scene.group_items
    assert len(tab.scene.shown.quotient.units) < 200
    heart.painted(qtbot, end)
    assert heart.longest_gap(start, end) < 0.5
    assert not window.building and _left(window) == ([], [])
    stepper = window.session.stepper
    assert len(stepper.forward_steps) > 190_000
    for key in (Qt.Key.Key_Right, Qt.Key.Key_Right, Qt.Key.Key_Right, Qt.Key.Key_End):
        t = time.perf_counter()
        qtbot.keyClick(window.graph_tab.view, key)
        assert time.perf_counter() - t < 0.5
    assert window.session.at_end
    assert window.session.program.inputs["w"].grad != 0.0
    assert window.editor.text() is not None and window.editor.text() == text
    heart.timer.stop()


def test_an_error_far_down_a_big_text_is_shown_at_its_line_and_column(window, qtbot):
    before = window.session.program
    text = BIG + "\nz = out + (w *\n"
    with pytest.raises(ExpressionError) as expected:
        parse(text)  # the synchronous path's error, to compare with
    e = expected.value
    assert e.line > 2000
    window.editor.set_text(text)
    assert window.build(text)
    assert window.wait_for_build()
    assert window.session.program is before
    assert window.editor.error.text().startswith(f"Line {e.line}, col {e.col}: {e.message}")
    status = window.statusBar().currentMessage()
    assert status == f"Error at line {e.line}, col {e.col}: {e.message}"
    assert window.editor.text() == text
    assert window.graph_tab.actions["step"].isEnabled()


def _left(window) -> tuple[list, list]:
    """The workers and child processes still running, but the warm layout child (kept
    from a grouped picture for the next one, until the window closes)."""
    warm = window.graph_tab.background.server.worker
    return ([w for w in worker.running_workers() if w is not warm],
            [j for j in process_job.running() if warm is None or j is not warm.job])


def test_a_new_build_ends_the_one_still_running(window, qtbot):
    loads = []
    window.session.loaded.connect(lambda: loads.append(window.session.program.source))
    first, second = BIG, BIG.replace("w = 0.9", "w = 0.8")
    with qtbot.waitSignal(window.program_build.progress, timeout=60_000):
        assert window.build(first)  # waits for a slice of it: the first is under way
    assert window.build(second)
    assert window.wait_for_build()
    assert _left(window) == ([], [])  # nothing left to land
    assert loads == [second]
    assert window.session.program.inputs["w"].data == 0.8
    small = "x = 2\ny = x*x"
    assert window.build(BIG) and window.build(small)  # a quick build ends a big one too
    assert not window.building and not _left(window)[0] and loads[-1] == small


def test_cancel_keeps_the_last_program(window, qtbot):
    before = window.session.program
    assert window.build(BIG)
    assert window.cancel_build.isVisibleTo(window)
    assert not window.graph_tab.actions["step"].isEnabled()
    window.cancel_build.click()
    assert not window.building and _left(window) == ([], [])
    assert window.session.program is before
    assert window.graph_tab.actions["step"].isEnabled()
    assert not window.cancel_build.isVisibleTo(window)


def test_opening_a_big_file_reads_it_once_and_parses_it_in_the_child(window, tmp_path,
                                                                       monkeypatch):
    path = tmp_path / "big.expr"
    path.write_text(BIG, encoding="utf-8")
    parses, reads = [], []
    parse, read = gui.window.files.parse, gui.window.files.read_program
    monkeypatch.setattr(gui.window.files, "parse", lambda t: (parses.append(1), parse(t))[1])
    monkeypatch.setattr(gui.window.files, "read_program",
                        lambda p: (reads.append(1), read(p))[1])
    before_text = window.editor.text()
    assert window.open_file(str(path))
    assert window.editor.text() == before_text  # until the new program is ready
    assert window.wait_for_build()
    assert (len(reads), len(parses)) == (1, 0)
    assert window.editor.text() == BIG
    assert window.session.program.source == BIG
    assert window.windowTitle().startswith("big.expr")


def test_a_big_program_is_stepped_with_a_bug_without_holding_the_window(window, qtbot):
    from engine.core.pitfalls import OVERWRITE
    from tests.gui.test_background_layout import LINES, Heartbeat, chain

    assert window.build(chain(LINES))  # about 20,000 nodes
    assert window.wait_for_build()
    tab = window.graph_tab
    qtbot.waitUntil(lambda: not tab.laying_out, timeout=120_000)
    before = window.session.stepper
    heart = Heartbeat()
    started = time.perf_counter()
    tab.engine_box.setCurrentIndex(tab.engine_box.findData(OVERWRITE))
    assert window.building and window.session.stepper is before  # made in slices
    assert not tab.actions["step"].isEnabled()
    qtbot.waitUntil(lambda: not window.building and not tab.laying_out, timeout=120_000)
    heart.timer.stop()
    assert heart.longest_gap(started, time.perf_counter()) < 0.5
    stepper = window.session.stepper
    assert stepper is not before and stepper.engine is OVERWRITE
    assert stepper.output is window.session.program.output
    assert tab.scene.stepper is stepper and tab.actions["step"].isEnabled()


def test_cancelling_a_bug_being_prepared_puts_the_engine_back(window, qtbot):
    from engine.core.engines import CORRECT
    from engine.core.pitfalls import NO_SORT
    from tests.gui.test_background_layout import LINES, chain

    assert window.build(chain(LINES // 2))
    assert window.wait_for_build()
    tab = window.graph_tab
    qtbot.waitUntil(lambda: not tab.laying_out, timeout=120_000)
    before = window.session.stepper
    tab.engine_box.setCurrentIndex(tab.engine_box.findData(NO_SORT))
    assert window.building
    window.cancel_build.click()
    assert not window.building and window.session.stepper is before
    assert window.session.engine is CORRECT and tab.engine_box.currentData() is CORRECT
    assert "as they were" in window.statusBar().currentMessage()
    tab.actions["step"].trigger()
    assert before.position == 1


def test_the_parser_process_sends_the_order_the_stepper_walks():
    from engine.core.value import topological_order
    from gui.jobs.parse_child import parse_pieces

    text = "x = 0.5; w = -0.3\nz = x*w + x\ny = tanh(z) * z + w*w\n"
    records = list(parse_pieces(text))
    assert [r[0] for r in records] == ["head", "instructions", "order"]
    program = parse(text)
    walked = topological_order(program.output)
    assert [id(program.values[i]) for i in records[-1][1]] == [id(v) for v in walked]
    assert len(records[-1][1]) == len(walked) == len(program.values)


def test_opening_a_200000_node_file_never_freezes_the_window(window, qtbot, tmp_path):
    text = chain_program(200_000)
    path = tmp_path / "huge.expr"
    path.write_text(text, encoding="utf-8")
    heart = Heartbeat()
    start = time.perf_counter()
    assert window.open_file(str(path))
    qtbot.waitUntil(lambda: window.session.program is not None
                    and window.session.program.source == text, timeout=180_000)
    heart.painted(qtbot, time.perf_counter())  # the editor and the view take the new text
    heart.timer.stop()
    assert heart.longest_gap(start, time.perf_counter()) < 0.5
    assert window.editor.text() == text
    assert len(window.session.stepper.forward_steps) > 190_000
    assert window.windowTitle().startswith("huge.expr")
