"""The edges: failing workers, unexpected exceptions, odd numbers, odd files."""

import logging
import math
import os

import numpy as np
import pytest
from PySide6.QtWidgets import QMessageBox

from engine.lesson.modes import SweepRow
from engine.lesson.rules import rule_errors
from gui.app import report_unexpected
from gui.jobs import process_job, worker
from gui.tabs import plots


def test_a_failing_training_worker_reports_and_returns_to_idle(window, qtbot):
    tab = window.xor_tab
    tab.activation.blockSignals(True)
    tab.activation.addItem("bogus")
    tab.activation.setCurrentText("bogus")
    tab.activation.blockSignals(False)
    tab.start()
    qtbot.waitUntil(lambda: not tab.running, timeout=30_000)
    assert "Training failed at epoch 0" in tab.message
    assert "unknown activation" in tab.message
    assert not tab.buttons["pause"].isEnabled() and tab.buttons["reset"].isEnabled()


def test_a_failing_sweep_reports_and_returns_to_idle(window, qtbot):
    tab = window.modes_tab
    tab.sizes = (0,)  # a neuron with no inputs cannot be made
    tab.start_sweep()
    qtbot.waitUntil(lambda: not tab.running, timeout=30_000)
    assert tab.state.text().startswith("The sweep failed: ZeroDivisionError")
    assert tab.start.isEnabled() and not tab.cancel.isEnabled()


def test_unexpected_exception_is_shown_and_logged(qapp, dialogs, caplog):
    try:
        raise RuntimeError("a slot went wrong")
    except RuntimeError as e:
        with caplog.at_level(logging.ERROR, logger="autograd_debugger"):
            report_unexpected(type(e), e, e.__traceback__)
    assert dialogs[-1][0] == "critical"
    assert "a slot went wrong" in dialogs[-1][2] and "Traceback" not in dialogs[-1][2]
    assert "Traceback" in caplog.text and "a slot went wrong" in caplog.text


def test_plots_draw_nan_infinity_zero_and_huge_values(qtbot):
    widget = plots.plot_widget()
    qtbot.addWidget(widget)
    curve = plots.loss_curve(widget.getPlotItem())
    plots.update_loss_curve(curve, [1.0, 0.0, -1.0, math.nan, math.inf, 1e308, 1e-300])
    xs, ys = curve.getData()
    assert list(xs) == [1.0, 6.0, 7.0] and np.isfinite(ys).all()
    other = plots.plot_widget()
    qtbot.addWidget(other)
    image = plots.decision_surface_items(other.getPlotItem())
    plots.update_decision_surface(image, [math.nan, math.inf, -1e300] * 3, 2, "relu")
    assert image.image is not None and np.isfinite(image.image).all()
    plots.modes_timing(widget.getPlotItem(), [SweepRow(2, 0.0, 0.0, 1.0, 0.0),
                                              SweepRow(5, 1e300, 1e-300, 1e300, 0.0)])
    rows = rule_errors()
    plots.rule_bars(widget.getPlotItem(), [rows[0].__class__(**{**rows[0].__dict__,
                                                                "error_fd": 0.0}), *rows[1:]])
    widget.grab()  # and it paints


def test_a_failed_save_leaves_the_old_file(window, tmp_path, monkeypatch, dialogs):
    path = tmp_path / "keep.expr"
    path.write_text("x = 1\n")
    window.editor.editor.setPlainText("x = 2\n")

    def crash(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    assert not window.save_to(path)
    assert path.read_text() == "x = 1\n"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.expr"]  # no temporary left
    assert dialogs[-1][0] == "warning" and "No space left" in dialogs[-1][2]


@pytest.mark.parametrize(("content", "words"), [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary"),
    (b"x = \xff\xfe1", "not UTF-8"),
    (b"", "empty"),
    (b"   \n\n", "empty"),
    (b"x = 1\n" * 800_000, "bytes long"),
    (b"__import__('os').system('echo hi')", "error at line 1"),
])
def test_odd_files_are_refused_and_the_program_kept(window, tmp_path, dialogs, content,
                                                    words):
    path = tmp_path / "odd.expr"
    path.write_bytes(content)
    before_text, before_program = window.editor.text(), window.session.program
    assert not window.open_file(str(path))
    assert window.editor.text() == before_text
    assert window.session.program is before_program
    assert words in dialogs[-1][2]


def test_a_broken_program_opens_when_the_user_says_so(window, tmp_path, monkeypatch):
    path = tmp_path / "typo.expr"
    path.write_text("x = 1\ny = x +\n")
    monkeypatch.setattr(QMessageBox, "question",
                        staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))
    assert window.open_file(str(path))
    assert window.editor.text() == "x = 1\ny = x +\n"
    assert window.editor.error.isVisible()


def test_closing_during_the_tensorflow_import_and_the_workers(qtbot):
    from gui.window.main_window import MainWindow

    w = MainWindow(remember=False)
    qtbot.addWidget(w)
    w.show()
    w.tabs.setCurrentWidget(w.rules_tab)        # starts the TensorFlow import
    w.modes_tab.sizes = (800, 1600)
    w.modes_tab.start_sweep()
    w.xor_tab.epochs.setValue(1_000_000)
    w.xor_tab.start()
    # close once both children are at work: the sweep and the training have reported
    # (TensorFlow takes seconds to import: it is still loading then)
    qtbot.waitUntil(lambda: w.modes_tab.bar.value() > 0 and w.xor_tab.epoch > 0,
                    timeout=60_000)
    w.close()
    assert not worker.running_workers() and not process_job.running()


def _rss_mb() -> float:
    import resource

    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


@pytest.mark.slow
def test_memory_of_100k_epochs_in_the_window(window, qtbot):
    tab = window.xor_tab
    window.tabs.setCurrentWidget(tab)
    tab.epochs.setValue(101_000)
    tab.start()
    qtbot.waitUntil(lambda: tab.epoch >= 1_000, timeout=60_000)  # warm-up
    before = _rss_mb()
    qtbot.waitUntil(lambda: not tab.running, timeout=600_000)
    assert tab.epoch == 101_000
    assert _rss_mb() - before < 50
