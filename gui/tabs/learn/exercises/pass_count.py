"""Exercise 6: count the passes that reverse mode saves."""

from __future__ import annotations

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from engine.lesson.learn.passes import MAX_N, PassCount, PassProgress, count_passes
from engine.numbers import scientific
from gui.jobs.worker import ProcessWorker
from gui.tabs.learn.common import Exercise, Feedback, intro_label


class PassesExercise(Exercise):
    """Exercise 6: the neuron with N weights, differentiated both ways in a child
    process, passes counted and timed."""

    key = "passes"

    def __init__(self, director, parent=None):
        super().__init__(director, parent)
        self.result: PassCount | None = None
        self._worker: ProcessWorker | None = None
        self._error = ""
        self.n = QSpinBox(self)
        self.n.setRange(1, MAX_N)
        self.n.setValue(200)
        self.n.setGroupSeparatorShown(True)
        self.n.setToolTip(f"The number of weights, 1 to {MAX_N:,}: forward mode needs one "
                          "pass per weight")
        self.start = QPushButton("Count and time", self)
        self.start.setToolTip("Differentiate the neuron with N weights both ways, in a "
                              "separate process")
        self.start.clicked.connect(self.count)
        self.cancel = QPushButton("Cancel", self)
        self.cancel.setEnabled(False)
        self.cancel.clicked.connect(self.stop)
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 1000)
        self.bar.setMaximumWidth(200)
        self.feedback = Feedback(self)
        row = QHBoxLayout()
        for widget in (QLabel("N =", self), self.n, self.start, self.cancel, self.bar):
            row.addWidget(widget)
        row.addStretch(1)
        box = QVBoxLayout(self)
        box.addWidget(intro_label("The lesson's neuron widened to N weights, "
                             "L = (tanh(Σ wᵢxᵢ + b) − y)². Pick N; the app counts the passes "
                             "each mode makes for the full gradient and times them.", self))
        box.addLayout(row)
        box.addWidget(self.feedback)

    @property
    def running(self) -> bool:
        return self._worker is not None

    @Slot()
    def count(self) -> None:
        if self.running:
            return
        self.result = None
        self._error = ""
        worker = self._worker = ProcessWorker(count_passes, interval_ms=50, parent=self,
                                              n=self.n.value())
        worker.yielded.connect(self._on_record)
        worker.errored.connect(self._on_error)
        worker.finished.connect(self._on_finished)
        self.bar.setValue(0)
        self.start.setEnabled(False)
        self.cancel.setEnabled(True)
        self.feedback.say(f"Counting with N = {self.n.value():,}…")
        worker.start()

    @Slot()
    def stop(self) -> None:
        if self._worker is not None:
            worker, self._worker = self._worker, None
            worker.cancel()
            self._finish("Cancelled.")

    def _finish(self, text: str = "") -> None:
        self._worker = None
        self.start.setEnabled(True)
        self.cancel.setEnabled(False)
        if text:
            self.feedback.say(text)

    @Slot(object)
    def _on_record(self, record) -> None:
        if isinstance(record, PassProgress):
            self.bar.setValue(int(1000 * record.done / record.n))
        elif isinstance(record, PassCount):
            self.result = record

    @Slot(str)
    def _on_error(self, error: str) -> None:
        self._error = error

    @Slot()
    def _on_finished(self) -> None:
        if self.sender() is not self._worker:
            return  # cancelled
        if self.result is None:
            self._finish(f"The count failed: {self._error or 'no result'}.")
            return
        r = self.result
        self.bar.setValue(1000)
        self._finish()
        plural = "pass" if r.forward_passes == 1 else "passes"
        self.feedback.right(
            f"N = {r.n:,}. Forward mode: {r.forward_passes:,} {plural}, "
            f"{r.forward_ms:.3g} ms. Reverse mode: {r.reverse_passes} pass, "
            f"{r.reverse_ms:.3g} ms ({r.ratio:.3g}× cheaper). The two gradients agree to "
            f"{scientific(r.max_difference, 2)}: the difference is cost, not accuracy.")
        self.mark_solved()
