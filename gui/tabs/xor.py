"""The XOR tab: a small network learning XOR live, trained in a child process and drawn
at a steady 30 frames a second from the latest state."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.lesson.history import LossHistory
from engine.lesson.nn import (
    ACTIVATION_TIP,
    ACTIVATIONS,
    DEFAULT_EPOCHS,
    DEFAULT_LR,
    DEFAULT_SEED,
    MAX_LR,
    MLP,
    layers_text,
    not_learned,
    predictions,
    train_xor,
)
from gui.jobs.worker import ProcessWorker
from gui.palette import hex_of
from gui.tabs import plots
from gui.tabs.learning_rate import LearningRateBox
from gui.tabs.network_view import NetworkView
from gui.tabs.ranked_table import Column, RankedTable
from gui.tabs.widgets import WrappedLabel, group_box, scrolling_tab

FRAME_MS = 33  # about 30 frames a second, whatever the training speed
RISES_NOTE = (
    "Why the loss sometimes climbs: each epoch steps a fixed η along the gradient. Where "
    "the valley is narrower than that step (curvature above 2/η), each step overshoots to "
    "the far wall and the weights zig-zag across it, the loss rising for dozens of epochs "
    "until they reach a wider part. Long runs can meet such places again: the spikes. A "
    "smaller η smooths them out.")


class XorTab(QWidget):
    status = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.history = LossHistory()  # the epochs so far: counts, rises, the curve
        self.parameters: tuple[float, ...] | None = None
        self.message = ""   # why training cannot go on (it diverged or failed)
        self.warning = ""   # what a finished run did not do (learn XOR)
        self._worker: ProcessWorker | None = None
        self._epochs_in: list = []  # records the worker yielded, not yet drawn
        self._error = ""  # why the worker failed
        self._pausing = False
        self._started_at: float | None = None
        self._epochs_at_start = 0
        self._build_controls()
        self._build_views()
        self.timer = QTimer(self)  # frames at a steady rate while it trains
        self.timer.setInterval(FRAME_MS)
        self.timer.timeout.connect(self._on_frame)
        self.reset()

    # -- layout ------------------------------------------------------------------------------

    def _build_controls(self) -> None:
        self.lr = LearningRateBox(DEFAULT_LR, self)
        self.lr.setToolTip("Learning rate η of plain gradient descent: any positive number "
                           f"up to {MAX_LR:g}, e.g. 0.1 or 1e-7, taken when you press Enter "
                           "or leave the box; Up and Down step by a quarter of a decade. "
                           "Try 1e200 with relu to watch it overflow.")
        self.lr_message = QLabel(self)
        self.lr_message.setObjectName("lr_message")
        self.lr_message.setWordWrap(True)
        self.lr_message.setStyleSheet(f"color: {hex_of('error')}")
        self.lr_message.hide()
        self.lr.refused.connect(self._on_lr_refused)
        self.lr.valueChanged.connect(self._on_lr_changed)
        self.epochs = QSpinBox(self)
        self.epochs.setRange(1, 10_000_000)
        self.epochs.setValue(DEFAULT_EPOCHS)
        self.epochs.setGroupSeparatorShown(True)
        self.epochs.setToolTip("Epochs to train in all; Start continues up to this number")
        self.seed = QSpinBox(self)
        self.seed.setRange(0, 1_000_000)
        self.seed.setValue(DEFAULT_SEED)
        self.seed.setSpecialValueText("0 (the lesson's run)")  # shown at the minimum, 0
        self.seed.setToolTip("Seed of the initial weights, drawn uniformly from [-1, 1): "
                             "0 is the lesson's start; the same seed gives the same run")
        self.hidden = QSpinBox(self)
        self.hidden.setRange(1, 8)
        self.hidden.setValue(2)
        self.hidden.setToolTip("Hidden units")
        self.activation = QComboBox(self)
        self.activation.addItems(ACTIVATIONS)
        self.activation.setToolTip(ACTIVATION_TIP)
        for box in (self.seed, self.hidden):
            box.valueChanged.connect(self.reset)
        self.activation.currentTextChanged.connect(self.reset)
        self.buttons = {}
        for key, text, tip in (
                ("start", "Start", "Train in the background (continues after a pause)"),
                ("pause", "Pause", "Stop after the current epoch"),
                ("step", "Step one epoch", "Train exactly one more epoch"),
                ("reset", "Reset", "Back to epoch 0 with this seed's initial weights"),
                ("reseed", "Reseed", "Try the next seed (a run can stall on a plateau)")):
            button = QPushButton(text, self)
            button.setToolTip(tip)
            self.buttons[key] = button
        self.buttons["start"].clicked.connect(self.start)
        self.buttons["pause"].clicked.connect(self.pause)
        self.buttons["step"].clicked.connect(self.step_epoch)
        self.buttons["reset"].clicked.connect(self.reset)
        self.buttons["reseed"].clicked.connect(self.reseed)

    def _build_views(self) -> None:
        form = QFormLayout()
        form.addRow("Learning rate", self.lr)
        form.addRow(self.lr_message)
        form.addRow("Epochs", self.epochs)
        form.addRow("Seed", self.seed)
        form.addRow("Hidden units", self.hidden)
        form.addRow("Activation", self.activation)
        buttons = QGridLayout()
        for k, key in enumerate(("start", "pause", "step", "reset", "reseed")):
            buttons.addWidget(self.buttons[key], k // 2, k % 2)
        self.counters = WrappedLabel("", self)
        self.counters.setObjectName("counters")
        self.counters.setTextFormat(Qt.TextFormat.RichText)
        self.network = NetworkView(self)
        self.predictions = RankedTable([
            Column("input", lambda r: f"({r[0][0]:g}, {r[0][1]:g})"),
            Column("prediction", lambda r: r[1], lambda x: f"{x:+.4f}"),
            Column("target", lambda r: r[2], lambda x: f"{x:g}"),
            Column("right side of 0.5", lambda r: "yes" if (r[1] > 0.5) == (r[2] > 0.5)
                   else "no"),
        ], self)
        self.predictions.setMaximumHeight(150)
        side = QVBoxLayout()
        side.addLayout(form)
        side.addLayout(buttons)
        side.addWidget(self.counters)
        side.addWidget(self.network, 1)
        controls = QWidget(self)
        controls.setLayout(side)
        controls.setMaximumWidth(320)

        self.loss_plot = plots.plot_widget(self, minimum_height=200)
        self.loss_curve = plots.loss_curve(self.loss_plot.getPlotItem())
        self.surface_plot = plots.plot_widget(self, minimum_height=200)
        self.surface_image = plots.decision_surface_items(self.surface_plot.getPlotItem())
        self.rises_note = WrappedLabel(RISES_NOTE, self)
        self.rises_note.setObjectName("rises_note")
        self.rises_note.setStyleSheet(f"color: {hex_of('muted')}")
        loss_panel = QWidget(self)
        loss_box = QVBoxLayout(loss_panel)
        loss_box.setContentsMargins(0, 0, 0, 0)
        loss_box.addWidget(self.loss_plot, 1)
        loss_box.addWidget(self.rises_note)
        charts = QHBoxLayout()
        charts.addWidget(group_box("Loss (sum over the 4 rows, log axis)", loss_panel, self), 1)
        charts.addWidget(surface := group_box("Output over the input square", self.surface_plot,
                                              self), 1)
        surface.layout().addWidget(WrappedLabel("Blue ≈ 1, orange ≈ 0; dots: the 4 rows, "
                                                "coloured by their target.", self))
        right = QVBoxLayout()
        right.addLayout(charts, 1)
        right.addWidget(group_box("Predictions", self.predictions, self))
        layout = QHBoxLayout()
        layout.addWidget(controls)
        layout.addLayout(right, 1)
        scrolling_tab(self, layout)

    # -- training ----------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._worker is not None

    @property
    def epoch(self) -> int:
        return self.history.epochs

    def _config(self) -> tuple[float, int, int, str]:
        return self.lr.value(), self.seed.value(), self.hidden.value(), \
            self.activation.currentText()

    @Slot()
    def reset(self) -> None:
        """Epoch 0: this seed's initial weights, no history."""
        if self.running:
            self.stop()
        _, seed, hidden, activation = self._config()
        model = MLP((2, hidden, 1), activation, seed)
        self.parameters = tuple(p.data for p in model.parameters())
        self.history, self.message, self.warning = LossHistory(), "", ""
        self._rate = ""
        self._draw()
        self.status.emit(f"Epoch 0: seed {seed}'s starting weights; Start trains.")

    @Slot()
    def reseed(self) -> None:
        self.seed.setValue(self.seed.value() + 1)  # resets through valueChanged

    @Slot()
    def start(self) -> None:
        """Train in a child process up to the Epochs count, from the current weights."""
        left = self.epochs.value() - self.epoch
        if self.running or left <= 0 or self.message:
            return
        self.warning = ""
        lr, seed, hidden, activation = self._config()
        worker = self._worker = ProcessWorker(train_xor, interval_ms=FRAME_MS, parent=self,
                                              epochs=left, lr=lr, seed=seed, hidden=hidden,
                                              activation=activation, start=self.parameters)
        self._epochs_in = []
        self._error = ""
        worker.yielded.connect(self._on_epoch)
        worker.errored.connect(self._on_error)
        worker.finished.connect(self._on_finished)
        worker.start()
        self._pausing = False
        self._started_at = None  # set by the first records: the child takes a while to start
        self.timer.start()
        self.status.emit("Training XOR…")
        self._update_buttons()

    @Slot()
    def pause(self) -> None:
        """Stop after the epochs already under way; the frames then collect the rest."""
        if self._worker is not None:
            self._pausing = True
            self._worker.abort()

    def stop(self) -> None:
        """Stop the child now, keeping what it finished (resetting, closing the window)."""
        if self._worker is not None:
            self._worker.stop()  # its last epochs, then finished

    @Slot()
    def step_epoch(self) -> None:
        """One epoch, on the GUI thread: it takes well under a millisecond."""
        if self.running or self.message:
            return
        lr, seed, hidden, activation = self._config()
        record = next(train_xor(1, lr, seed, hidden, activation, self.parameters))
        self._absorb([record.loss], record)
        self._draw()
        self.status.emit(f"One epoch by hand: epoch {self.epoch:,}, loss {record.loss:.6f} "
                         "(the loss before this epoch's update).")

    @Slot(object)
    def _on_epoch(self, record) -> None:
        if self._started_at is None:  # timed from the first epoch's arrival, even in a burst
            self._started_at = time.perf_counter()
            self._epochs_at_start = self.epoch + len(self._epochs_in) + 1
        self._epochs_in.append(record)

    @Slot(str)
    def _on_error(self, error: str) -> None:
        self._error = error

    @Slot()
    def _on_finished(self) -> None:
        self._take_epochs()
        self._measure_rate(final=True)  # a short run may end before a frame measured it
        self._worker = None
        self.timer.stop()
        if self._error:
            self.message = f"Training failed at epoch {self.epoch:,}: {self._error}"
        if self.message:
            text = self.message
        elif self._pausing:
            text = f"Paused at epoch {self.epoch:,}."
        else:
            lr, _, hidden, activation = self._config()
            self.warning = not_learned(self.parameters, hidden, activation, self.history, lr)
            # the status bar gets the verdict; the why is under the counters
            verdict = self.warning.split(";")[0].split(". ")[0].rstrip(".")
            text = f"Training finished at epoch {self.epoch:,}" + (
                f", but {verdict} (see under the counters)." if self.warning else ".")
        self.status.emit(text)
        self._draw()

    def _absorb(self, losses, latest) -> None:
        self.history.extend(losses)
        if latest is not None:
            if latest.diverged:
                self.message = (f"Training stopped at epoch {self.epoch:,}: the loss is no "
                                "longer a finite number. Lower the learning rate and Reset.")
            else:
                self.parameters = latest.parameters

    def _measure_rate(self, final: bool = False) -> None:
        """Epochs a second since the first records (after 0.2 s, or at a short run's end)."""
        if self._started_at is not None:
            elapsed = time.perf_counter() - self._started_at
            done = self.epoch - self._epochs_at_start
            if done > 0 and (elapsed > 0.2 or (final and elapsed > 0.02)):
                self._rate = f"{done / elapsed:,.0f}"

    def _take_epochs(self) -> None:
        records, self._epochs_in = self._epochs_in, []
        if records:
            self._absorb([r.loss for r in records], records[-1])

    @Slot()
    def _on_frame(self) -> None:
        self._take_epochs()
        self._draw()

    # -- drawing -----------------------------------------------------------------------------

    def _draw(self) -> None:
        _, _, hidden, activation = self._config()
        plots.show_loss_points(self.loss_curve, *self.history.points(),
                               max(self.epochs.value(), self.epoch))
        plots.update_decision_surface(self.surface_image, self.parameters, hidden, activation)
        self.network.set_parameters(self.parameters, hidden)
        self.predictions.set_rows(predictions(self.parameters, hidden, activation))
        if self.running:
            self._measure_rate()
        rate = self._rate
        last = self.history.last
        transitions = max(0, self.epoch - 1)
        self.counters.setText(
            f"<b>epoch</b> {self.epoch:,} &nbsp; <b>loss</b> "
            f"{'—' if last is None else f'{last:.6f}'}<br>"
            f"<b>epochs/s</b> {rate or '—'}<br>"
            f"<b>layers</b> {layers_text(activation)}<br>"
            + (f"<b>rises</b> {self.history.rises:,} of {transitions:,} transitions, largest "
               f"{self.history.largest_rise:.6f}" if transitions else
               "<b>rises</b> — (counted from epoch 2 on)")
            + (f"<br><span style='color:{hex_of('error')}'>{self.message}</span>" if self.message
               else "")
            + (f"<br><span style='color:{hex_of('warning')}'>{self.warning}</span>" if self.warning
               else ""))
        self._update_buttons()

    @Slot(str)
    def _on_lr_refused(self, text: str) -> None:
        self.lr_message.setText(text)
        self.lr_message.show()
        self.status.emit(text)

    @Slot(float)
    def _on_lr_changed(self, value: float) -> None:
        self.lr_message.hide()
        self.status.emit(f"Learning rate {value:g}: used from the next Start or Step.")

    def _update_buttons(self) -> None:
        running = self.running
        can_train = not self.message and self.epoch < self.epochs.value()
        self.buttons["start"].setEnabled(not running and can_train)
        self.buttons["start"].setText("Resume" if self.epoch and not running else "Start")
        self.buttons["pause"].setEnabled(running)
        self.buttons["step"].setEnabled(not running and not self.message)
        for key in ("reset", "reseed"):
            self.buttons[key].setEnabled(True)
