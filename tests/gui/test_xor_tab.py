"""The XOR tab: live training in a worker, pause, step, resume, divergence, closing."""

import math
import re

import numpy as np
from PySide6.QtCore import Qt

from engine.lesson.history import LossHistory
from engine.lesson.nn import DEFAULT_LR, train_xor
from gui.jobs import process_job, worker


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
    expected = LossHistory()
    expected.extend([r.loss for r in reference])
    assert tab.history.last == reference[-1].loss
    assert (tab.history.rises, tab.history.largest_rise) == (expected.rises,
                                                             expected.largest_rise)
    x, y = tab.loss_curve.getOriginalDataset()
    assert x.tolist() == expected.points()[0].tolist()  # the same curve, point for point
    assert y.tolist() == expected.points()[1].tolist()
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
    assert tab.epoch == 0 and tab.history.last is None
    assert tab.seed.value() == 0 and tab.seed.text() == "0 (the lesson's run)"
    assert list(tab.parameters) == np.random.default_rng(0).uniform(-1, 1, 9).tolist()
    seed = tab.seed.value()
    tab.buttons["reseed"].click()
    assert tab.seed.value() == seed + 1
    assert tab.epoch == 0 and tab.parameters != start


def test_divergence_stops_with_a_message_and_plots_keep_working(window, qtbot):
    tab = open_xor(window, qtbot)
    tab.activation.setCurrentText("relu")
    tab.seed.setValue(0)
    tab.hidden.setValue(5)
    tab.lr.setValue(1e200)
    assert tab.lr.text() == "1e+200"
    run = list(train_xor(epochs=100, lr=tab.lr.value(), seed=0, hidden=5, activation="relu"))
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
    from gui.window.main_window import MainWindow

    w = MainWindow(remember=False)
    qtbot.addWidget(w)
    w.xor_tab.epochs.setValue(1_000_000)
    w.xor_tab.start()
    qtbot.waitUntil(lambda: w.xor_tab.epoch > 10, timeout=30_000)
    w.close()
    assert not w.xor_tab.running
    assert not worker.running_workers() and not process_job.running()


def test_the_plot_gets_a_bounded_number_of_points_however_long_the_run(window, qtbot):
    # issue 17, defect 6: every frame redrew the whole history (5,000,000 points)
    tab = open_xor(window, qtbot)
    epochs = 1_000_000
    losses = 1.0 + 0.5 * np.sin(np.arange(epochs) / 5000.0)
    losses[777_777] = 50.0  # a spike must survive the decimation at its own epoch
    tab.epochs.setValue(epochs)
    tab._absorb(losses.tolist(), None)
    tab._draw()
    x, y = tab.loss_curve.getOriginalDataset()
    assert len(x) <= 4096
    assert (777_778.0, 50.0) in zip(x.tolist(), y.tolist())
    assert x[0] == 1.0 and x[-1] == epochs
    assert f"epoch</b> {epochs:,}" in tab.counters.text()


def _type_rate(qtbot, tab, text):
    tab.lr.clear()
    qtbot.keyClicks(tab.lr, text)


def test_the_learning_rate_is_taken_only_when_committed(window, qtbot):
    # issue 17, defect 9: "1e-7" + Enter gave 1.0, "1e400" gave 1e40
    tab = open_xor(window, qtbot)
    taken = []
    tab.lr.valueChanged.connect(taken.append)
    _type_rate(qtbot, tab, "1e-7")
    assert tab.lr.value() == DEFAULT_LR and taken == []  # typing alone changes nothing
    qtbot.keyClick(tab.lr, Qt.Key.Key_Return)
    assert tab.lr.value() == 1e-7 and taken == [1e-7]
    assert tab.lr.text() == "1e-07" and tab.lr_message.isHidden()
    for bad, why in (("1e400", "must be a finite number, not '1e400'"),
                     ("nan", "must be a number, not 'nan'"),
                     ("-1", "must be positive, not '-1'"), ("0", "must be positive"),
                     ("1e308", "must be at most 1e+300"), ("0.1x", "must be a number")):
        _type_rate(qtbot, tab, bad)
        qtbot.keyClick(tab.lr, Qt.Key.Key_Return)
        assert tab.lr.value() == 1e-7, bad
        assert tab.lr.text() == "1e-07"
        assert not tab.lr_message.isHidden()
        assert why in tab.lr_message.text() and "It stays 1e-07." in tab.lr_message.text()
    assert taken == [1e-7]
    _type_rate(qtbot, tab, "x" * 10_000)
    qtbot.keyClick(tab.lr, Qt.Key.Key_Return)
    assert len(tab.lr_message.text()) < 250  # the text is quoted, 80 characters at most
    _type_rate(qtbot, tab, "2.5E-3")
    tab.lr.clearFocus()  # leaving the box commits too
    tab.lr.editingFinished.emit()
    assert tab.lr.value() == 0.0025 and tab.lr_message.isHidden()
    qtbot.keyClick(tab.lr, Qt.Key.Key_Up)
    assert tab.lr.value() == 0.0025 * 10 ** 0.25


def test_a_run_that_does_not_learn_ends_with_a_warning(window, qtbot):
    tab = open_xor(window, qtbot)
    tab.activation.setCurrentText("relu")
    tab.lr.setValue(100)
    tab.epochs.setValue(300)
    messages = []
    tab.status.connect(messages.append)
    tab.buttons["start"].click()
    qtbot.waitUntil(lambda: not tab.running, timeout=30_000)
    assert tab.predictions.column_texts(1) == ["+0.0000"] * 4
    assert messages[-1] == ("Training finished at epoch 300, but XOR is not learned: 2 of 4 "
                            "predictions are on the wrong side of 0.5 (see under the "
                            "counters).")
    assert "whatever the input" in tab.counters.text()
    tab.buttons["reset"].click()
    assert tab.warning == "" and "not learned" not in tab.counters.text()


def test_a_finished_run_says_how_fast_it_trained(window, qtbot):
    # 3,000 epochs end in about half a second: the rate must not wait for a later frame
    tab = open_xor(window, qtbot)
    tab.buttons["start"].click()
    qtbot.waitUntil(lambda: not tab.running, timeout=60_000)
    assert tab.epoch == 3_000
    found = re.search(r"<b>epochs/s</b> ([\d,]+)<br>", tab.counters.text())
    assert found, tab.counters.text()
    assert int(found.group(1).replace(",", "")) > 0


def test_a_run_that_arrives_in_one_burst_still_has_a_rate(window, qtbot):
    # a fast child can deliver all its epochs between two frames: the rate is timed from
    # the first epoch's arrival, not from the frame that drew them all
    tab = open_xor(window, qtbot)
    records = list(train_xor(epochs=300))
    tab._started_at = None
    for record in records[:150]:
        tab._on_epoch(record)
    qtbot.wait(60)
    for record in records[150:]:
        tab._on_epoch(record)
    tab._take_epochs()
    tab._measure_rate(final=True)
    tab._draw()
    found = re.search(r"<b>epochs/s</b> ([\d,]+)<br>", tab.counters.text())
    assert found, tab.counters.text()
    assert 0 < int(found.group(1).replace(",", "")) < 299 / 0.05


def test_the_tab_says_which_activation_each_layer_uses(window, qtbot):
    tab = open_xor(window, qtbot)
    assert "<b>layers</b> tanh hidden, tanh output" in tab.counters.text()
    tab.activation.setCurrentText("relu")
    assert "<b>layers</b> relu hidden, sigmoid output" in tab.counters.text()
    assert "except under relu, where it is a sigmoid" in tab.activation.toolTip()


def test_the_status_bar_follows_reset_and_a_step_by_hand(window, qtbot):
    tab = open_xor(window, qtbot)
    tab.epochs.setValue(50)
    tab.buttons["start"].click()
    qtbot.waitUntil(lambda: not tab.running, timeout=60_000)
    assert window.statusBar().currentMessage().startswith("Training finished at epoch 50")
    tab.buttons["reset"].click()
    assert window.statusBar().currentMessage() == (
        "Epoch 0: seed 0's starting weights; Start trains.")
    tab.buttons["step"].click()
    assert window.statusBar().currentMessage() == (
        "One epoch by hand: epoch 1, loss 1.766174 (the loss before this epoch's update).")


def test_rises_are_not_counted_before_there_are_two_epochs(window, qtbot):
    tab = open_xor(window, qtbot)
    assert "<b>rises</b> — (counted from epoch 2 on)" in tab.counters.text()  # not "0 of 0"
    tab.buttons["step"].click()
    assert "<b>rises</b> — " in tab.counters.text()  # one epoch: nothing to compare yet
    tab.buttons["step"].click()
    assert f"<b>rises</b> {tab.history.rises} of 1 transitions" in tab.counters.text()
