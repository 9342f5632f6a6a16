"""The XOR tab: a small network learning XOR live, trained in a child process and drawn
at a steady 30 frames a second from the latest state."""

from __future__ import annotations

import math
import time

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.nn import (
    ACTIVATIONS,
    DEFAULT_EPOCHS,
    DEFAULT_LR,
    DEFAULT_SEED,
    MLP,
    predictions,
    train_xor,
)
from gui.jobs.process_job import ProcessJob
from gui.tabs import plots
from gui.tabs.network_view import NetworkView
from gui.tabs.ranked_table import Column, RankedTable
from gui.tabs.widgets import group_box

FRAME_MS = 33  # about 30 frames a second, whatever the training speed


class ScientificSpinBox(QDoubleSpinBox):
    """A spin box for numbers spanning many decades, shown as 0.1 or 1e+200; the arrows
    step on a log scale."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setDecimals(12)  # keeps 1e-6 exact; larger values are not rounded further

    def textFromValue(self, value: float) -> str:
        return f"{value:g}"

    def valueFromText(self, text: str) -> float:
        try:
            return float(text)
        except ValueError:
            return self.value()

    def validate(self, text: str, pos: int):
        try:
            value = float(text)
        except ValueError:
            return QValidator.State.Intermediate, text, pos
        ok = self.minimum() <= value <= self.maximum()
        return (QValidator.State.Acceptable if ok else QValidator.State.Intermediate), text, pos

    def stepBy(self, steps: int) -> None:
        self.setValue(self.value() * 10 ** (steps / 4))


class XorTab(QWidget):
    status = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.losses: list[float] = []   # every epoch's loss so far
        self.parameters: tuple[float, ...] | None = None
        self.rises, self.largest_rise = 0, 0.0
        self.message = ""
        self._job: ProcessJob | None = None
        self._pausing = False
        self._started_at = 0.0
        self._epochs_at_start = 0
        self._build_controls()
        self._build_views()
        self.timer = QTimer(self)
        self.timer.setInterval(FRAME_MS)
        self.timer.timeout.connect(self._on_frame)
        self.reset()

    # -- layout ------------------------------------------------------------------------------

    def _build_controls(self) -> None:
        self.lr = ScientificSpinBox(self)
        self.lr.setRange(1e-6, 1e300)
        self.lr.setValue(DEFAULT_LR)
        self.lr.setToolTip("Learning rate η of plain gradient descent; the arrows step by "
                           "a quarter of a decade. Try 1e200 with relu to watch it overflow.")
        self.epochs = QSpinBox(self)
        self.epochs.setRange(1, 10_000_000)
        self.epochs.setValue(DEFAULT_EPOCHS)
        self.epochs.setGroupSeparatorShown(True)
        self.epochs.setToolTip("Epochs to train in all; Start continues up to this number")
        self.seed = QSpinBox(self)
        self.seed.setRange(0, 1_000_000)
        self.seed.setValue(DEFAULT_SEED)
        self.seed.setToolTip("Seed of the initial weights; the same seed gives the same run")
        self.hidden = QSpinBox(self)
        self.hidden.setRange(1, 8)
        self.hidden.setValue(2)
        self.hidden.setToolTip("Hidden units")
        self.activation = QComboBox(self)
        self.activation.addItems(ACTIVATIONS)
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
        form.addRow("Epochs", self.epochs)
        form.addRow("Seed", self.seed)
        form.addRow("Hidden units", self.hidden)
        form.addRow("Activation", self.activation)
        buttons = QGridLayout()
        for k, key in enumerate(("start", "pause", "step", "reset", "reseed")):
            buttons.addWidget(self.buttons[key], k // 2, k % 2)
        self.counters = QLabel(self)
        self.counters.setObjectName("counters")
        self.counters.setTextFormat(Qt.TextFormat.RichText)
        self.counters.setWordWrap(True)
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

        self.loss_plot = plots.plot_widget(self)
        self.loss_curve = plots.loss_curve(self.loss_plot.getPlotItem())
        self.surface_plot = plots.plot_widget(self)
        self.surface_image = plots.decision_surface_items(self.surface_plot.getPlotItem())
        charts = QHBoxLayout()
        charts.addWidget(group_box("Loss (sum over the 4 rows, log axis)", self.loss_plot, self))
        charts.addWidget(group_box("Output over the input square: blue ≈ 1, orange ≈ 0; "
                                   "dots: the 4 rows", self.surface_plot, self))
        right = QVBoxLayout()
        right.addLayout(charts, 1)
        right.addWidget(group_box("Predictions", self.predictions, self))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(controls)
        layout.addLayout(right, 1)

    # -- training ----------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._job is not None

    @property
    def epoch(self) -> int:
        return len(self.losses)

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
        self.losses, self.rises, self.largest_rise, self.message = [], 0, 0.0, ""
        self._rate = ""
        self._draw()

    @Slot()
    def reseed(self) -> None:
        self.seed.setValue(self.seed.value() + 1)  # resets through valueChanged

    @Slot()
    def start(self) -> None:
        """Train in a child process up to the Epochs count, from the current weights."""
        left = self.epochs.value() - self.epoch
        if self.running or left <= 0 or self.message:
            return
        lr, seed, hidden, activation = self._config()
        self._job = ProcessJob("engine.nn", "train_xor", epochs=left, lr=lr, seed=seed,
                               hidden=hidden, activation=activation, start=self.parameters)
        self._pausing = False
        self._started_at, self._epochs_at_start = time.perf_counter(), self.epoch
        self.timer.start()
        self.status.emit("Training XOR…")
        self._update_buttons()

    @Slot()
    def pause(self) -> None:
        """Stop after the epochs already under way; the frames then collect the rest."""
        if self._job is not None:
            self._pausing = True
            self._job.request_stop()

    def stop(self) -> None:
        """Stop the child now, keeping what it finished (resetting, closing the window)."""
        if self._job is not None:
            self._job.stop()
            self._on_frame()

    @Slot()
    def step_epoch(self) -> None:
        """One epoch, on the GUI thread: it takes well under a millisecond."""
        if self.running or self.message:
            return
        lr, seed, hidden, activation = self._config()
        record = next(train_xor(1, lr, seed, hidden, activation, self.parameters))
        self._absorb([record.loss], record)
        self._draw()

    def _finish(self, job: ProcessJob) -> None:
        self._job = None
        self.timer.stop()
        if job.error:
            self.message = f"Training failed at epoch {self.epoch:,}: {job.error}"
        if self.message:
            text = self.message
        elif self._pausing:
            text = f"Paused at epoch {self.epoch:,}."
        else:
            text = f"Training finished at epoch {self.epoch:,}."
        self.status.emit(text)
        self._draw()

    def _absorb(self, losses: list[float], latest) -> None:
        for loss in losses:
            if self.losses and math.isfinite(loss) and loss > self.losses[-1]:
                self.rises += 1
                self.largest_rise = max(self.largest_rise, loss - self.losses[-1])
            self.losses.append(loss)
        if latest is not None:
            if latest.diverged:
                self.message = (f"Training stopped at epoch {self.epoch:,}: the loss is no "
                                "longer a finite number. Lower the learning rate and Reset.")
            else:
                self.parameters = latest.parameters

    @Slot()
    def _on_frame(self) -> None:
        job = self._job
        if job is not None:
            records = job.drain()
            if records:
                self._absorb([r.loss for r in records], records[-1])
            if job.finished:
                self._finish(job)
                return
        self._draw()

    # -- drawing -----------------------------------------------------------------------------

    def _draw(self) -> None:
        _, _, hidden, activation = self._config()
        plots.update_loss_curve(self.loss_curve, self.losses, self.epochs.value())
        plots.update_decision_surface(self.surface_image, self.parameters, hidden, activation)
        self.network.set_parameters(self.parameters, hidden)
        self.predictions.set_rows(predictions(self.parameters, hidden, activation))
        if self.running:
            elapsed = time.perf_counter() - self._started_at
            if elapsed > 0.2:
                self._rate = f"{(self.epoch - self._epochs_at_start) / elapsed:,.0f}"
        rate = self._rate
        last = self.losses[-1] if self.losses else None
        transitions = max(0, self.epoch - 1)
        self.counters.setText(
            f"<b>epoch</b> {self.epoch:,} &nbsp; <b>loss</b> "
            f"{'—' if last is None else f'{last:.6f}'}<br>"
            f"<b>epochs/s</b> {rate or '—'}<br>"
            f"<b>rises</b> {self.rises:,} of {transitions:,} transitions, largest "
            f"{self.largest_rise:.6f}"
            + (f"<br><span style='color:#b91c1c'>{self.message}</span>" if self.message
               else ""))
        self._update_buttons()

    def _update_buttons(self) -> None:
        running = self.running
        can_train = not self.message and self.epoch < self.epochs.value()
        self.buttons["start"].setEnabled(not running and can_train)
        self.buttons["start"].setText("Resume" if self.epoch and not running else "Start")
        self.buttons["pause"].setEnabled(running)
        self.buttons["step"].setEnabled(not running and not self.message)
        for key in ("reset", "reseed"):
            self.buttons[key].setEnabled(True)
