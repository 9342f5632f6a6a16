"""The XOR tab: live training in a worker, pause, step, resume, divergence, closing."""

import math

from engine.nn import train_xor
from gui.jobs import process_job, threads


def open_xor(window, qtbot):
    tab = window.xor_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(tab.isVisible, timeout=5_000)
    return tab


def test_pause_step_and_resume_give_the_uninterrupted_run(window, qtbot):
    tab = open_xor(window, qtbot)
    tab.epochs.setValue(1_000_000)
    tab.buttons["start"].click()
    assert tab.running
    qtbot.waitUntil(lambda: tab.epoch > 100, timeout=30_000)
    tab.buttons["pause"].click()
    qtbot.waitUntil(lambda: not tab.running, timeout=5_000)
    paused_at = tab.epoch
    assert 100 < paused_at < 1_000_000
    assert tab.buttons["start"].text() == "Resume"
    tab.buttons["step"].click()
    assert tab.epoch == paused_at + 1
    total = paused_at + 501
    tab.epochs.setValue(total)
    tab.buttons["start"].click()
    qtbot.waitUntil(lambda: not tab.running, timeout=60_000)
    assert tab.epoch == total
    reference = list(train_xor(epochs=total))
    assert tab.losses == [r.loss for r in reference]
    assert tab.parameters == reference[-1].parameters
    assert f"epoch</b> {total:,}" in tab.counters.text()
    shown = tab.predictions.column_texts(1)
    assert len(shown) == 4


def test_reset_and_reseed(window, qtbot):
    tab = open_xor(window, qtbot)
    tab.buttons["step"].click()
    tab.buttons["step"].click()
    assert tab.epoch == 2
    start = tab.parameters
    tab.buttons["reset"].click()
    assert tab.epoch == 0 and tab.losses == []
    seed = tab.seed.value()
    tab.buttons["reseed"].click()
    assert tab.seed.value() == seed + 1
    assert tab.epoch == 0 and tab.parameters != start


def test_divergence_stops_with_a_message_and_plots_keep_working(window, qtbot):
    tab = open_xor(window, qtbot)
    tab.activation.setCurrentText("relu")
    tab.seed.setValue(0)
    tab.lr.setValue(1e200)
    assert tab.lr.text() == "1e+200"
    run = list(train_xor(epochs=100, lr=tab.lr.value(), seed=0, activation="relu"))
    assert run[-1].diverged  # the setting really diverges
    tab.buttons["start"].click()
    qtbot.waitUntil(lambda: not tab.running, timeout=30_000)
    assert f"Training stopped at epoch {run[-1].epoch}" in tab.message
    assert "Training stopped" in tab.counters.text()
    assert not tab.buttons["start"].isEnabled()
    xs, ys = tab.loss_curve.getData()
    assert all(math.isfinite(y) for y in ys)
    tab.buttons["reset"].click()
    assert tab.message == "" and tab.buttons["start"].isEnabled()


def test_closing_mid_training_ends_the_worker(qtbot):
    from gui.main_window import MainWindow

    w = MainWindow(remember=False)
    qtbot.addWidget(w)
    w.xor_tab.epochs.setValue(1_000_000)
    w.xor_tab.start()
    qtbot.waitUntil(lambda: w.xor_tab.epoch > 10, timeout=30_000)
    w.close()
    assert not w.xor_tab.running
    assert not threads.running() and not process_job.running()
