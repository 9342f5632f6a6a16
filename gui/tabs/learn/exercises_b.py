"""Exercises 4-6: one gradient step by hand, the framework scripts beside the
TensorFlow check, and the passes counted."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from engine.lesson.learn.code_export import FRAMEWORKS, TITLES
from engine.lesson.learn.passes import MAX_N, PassCount, PassProgress, count_passes
from engine.numbers import scientific
from gui.graph.editor import PRESETS
from gui.jobs.worker import ProcessWorker
from gui.tabs.learn.common import Exercise, Feedback, monospace, number
from gui.tabs.learn.director import NEURON
from gui.tabs.learn.exercises_a import _intro
from gui.tabs.learn.gradient_step import describe

STEP_ANSWERS = {"w1": 0.7, "w2": 0.1, "b": 0.3}
STEP_GRADIENTS = {"w1": -2.0, "w2": -4.0, "b": -2.0}
STEP_START = {"w1": 0.5, "w2": -0.3, "b": 0.1}
STEP_TOLERANCE = 1e-6


class StepExercise(Exercise):
    """Exercise 4: w1, w2, b after one step at η = 0.1, then the step applied."""

    key = "step"

    def __init__(self, director, stepper=None, parent=None):
        super().__init__(director, parent)
        self.stepper = stepper  # the window's GradientStepper
        self.fields: dict[str, QLineEdit] = {}
        row = QHBoxLayout()
        for name in STEP_ANSWERS:
            edit = QLineEdit(self)
            edit.setPlaceholderText("new value")
            edit.setToolTip(f"{name} after one step: {name} − 0.1 × dL/d{name}")
            edit.setMaximumWidth(110)
            edit.returnPressed.connect(self.check_values)
            row.addWidget(QLabel(f"{name} =", self))
            row.addWidget(edit)
            self.fields[name] = edit
        self.check = QPushButton("Check", self)
        self.check.setToolTip("Compare with the step the engine takes (Enter)")
        self.check.clicked.connect(self.check_values)
        self.apply = QPushButton("Apply the step in the Graph tab", self)
        self.apply.setToolTip("Open the neuron and take Step → Apply one gradient step "
                              "(Ctrl+G) at η = 0.1 on w1, w2 and b; the loss before and "
                              "after is shown here")
        self.apply.clicked.connect(self.apply_step)
        row.addWidget(self.check)
        row.addWidget(self.apply)
        row.addStretch(1)
        self.feedback = Feedback(self)
        self.loss = Feedback(self)
        box = QVBoxLayout(self)
        box.addWidget(_intro("Gradient descent moves each parameter against its gradient: "
                             "new = old − η × gradient. With η = 0.1 and the gradients "
                             "−2, −4, −2 above, where do w1, w2 and b land?", self))
        box.addLayout(row)
        box.addWidget(self.feedback)
        box.addWidget(self.loss)

    @Slot()
    def check_values(self) -> bool:
        wrong, missing = [], []
        for name, edit in self.fields.items():
            text = edit.text().strip().replace("−", "-")
            try:
                value = float(text)
            except ValueError:
                missing.append(name)
                continue
            if abs(value - STEP_ANSWERS[name]) > STEP_TOLERANCE:
                wrong.append(name)
        if missing:
            self.feedback.wrong("Type a number for " + ", ".join(missing) + ".")
            return False
        if wrong:
            hints = "; ".join(f"{n} = {number(STEP_START[n])} − 0.1 × "
                              f"({number(STEP_GRADIENTS[n])})" for n in wrong)
            self.feedback.wrong(f"Not yet: {', '.join(wrong)}. Mind the signs: {hints}.")
            return False
        self.feedback.right("Right: 0.7, 0.1 and 0.3. Each moved against its gradient, and "
                            "w2 twice as far as w1 because its input is twice as large. "
                            "Apply the step to see the loss fall.")
        self.mark_solved()
        return True

    @Slot()
    def apply_step(self):
        """Open the neuron and take the step through the Step menu's machinery."""
        if self.director is None or self.stepper is None:
            return None
        self.director.open_graph(PRESETS / NEURON)
        replaced = self.director.replaced
        step = self.stepper.apply(0.1, list(STEP_ANSWERS))
        if step is None:
            return None
        self.director.session.run_to_end()
        self.director.show_graph(whole=True)  # the loss, at the right end, in view
        undo = ("Ctrl+Z in the editor: the neuron before the step; again: your text"
                if replaced else "Ctrl+Z in the editor brings back the values before")
        self.director.window.show_status(
            "Apply the step: the editor now holds the lesson's neuron after one gradient "
            f"step ({undo}). " + describe(step, "loss"))
        self.loss.right(f"Applied: w1 = {number(step.after['w1'])}, w2 = "
                        f"{number(step.after['w2'])}, b = {number(step.after['b'])}; the "
                        f"loss fell from {number(step.loss_before)} to "
                        f"{number(step.loss_after)}. Step → Apply one gradient step "
                        "(Ctrl+G) takes another, on any program.")
        return step


class FrameworksExercise(Exercise):
    """Exercise 5: the program as a TensorFlow, PyTorch or JAX script, and the app's own
    TensorFlow check beside it."""

    key = "frameworks"

    def __init__(self, director, copier=None, checker=None, parent=None):
        super().__init__(director, parent)
        self.copier, self.checker = copier, checker
        self.buttons = {}
        row = QHBoxLayout()
        for framework in FRAMEWORKS:
            button = QPushButton(f"Copy as {TITLES[framework]} code", self)
            button.setToolTip(f"A runnable {TITLES[framework]} script for the program in "
                              "the Graph tab, printing its gradients, on the clipboard "
                              "(also in the File menu)")
            button.clicked.connect(lambda checked=False, f=framework: self.copy(f))
            row.addWidget(button)
            self.buttons[framework] = button
        self.tf_button = QPushButton("Run the TensorFlow check", self)
        self.tf_button.setToolTip("Differentiate the same program with tf.GradientTape "
                                  "(float64) in a separate process and compare")
        self.tf_button.clicked.connect(self.run_check)
        row.addWidget(self.tf_button)
        row.addStretch(1)
        self.code = QPlainTextEdit(self)
        self.code.setReadOnly(True)
        self.code.setFont(monospace())
        self.code.setMinimumHeight(220)
        self.code.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.code.setPlaceholderText("The script appears here as well as on the clipboard.")
        self.results = Feedback(self)
        self.results.say("TensorFlow's gradients for the program appear here.")
        self.table = QLabel(self)
        self.table.setObjectName("tensorflow_rows")
        self.table.setTextFormat(Qt.TextFormat.RichText)
        box = QVBoxLayout(self)
        box.addWidget(_intro("Copy the script, run it with python where the framework is "
                             "installed, and compare its gradients with the app's. The app's "
                             "own TensorFlow check runs the same graph beside it.", self))
        box.addLayout(row)
        box.addWidget(self.code)
        box.addWidget(self.results)
        box.addWidget(self.table)
        if checker is not None:
            checker.changed.connect(self._show_check)

    @Slot()
    def copy(self, framework: str) -> str:
        text = self.copier.copy(framework) if self.copier is not None else ""
        if text:
            self.code.setPlainText(text)
            self.mark_solved()
        return text

    @Slot()
    def run_check(self) -> None:
        session = self.director.session if self.director else None
        if self.checker is None or session is None or session.program is None:
            return
        self._asked = session.generation
        self.results.say("Asking TensorFlow (the first time it loads, a few seconds)…")
        program = session.program
        self.checker.check(session.generation, program.source, len(program.values))

    @Slot()
    def _show_check(self) -> None:
        checker = self.checker
        session = self.director.session if self.director else None
        if session is None or checker.generation != session.generation:
            if checker.state == "unavailable":
                self.results.wrong(checker.message or "TensorFlow is not available.")
            return
        if checker.message:
            self.results.wrong(checker.message)
            self.table.clear()
            return
        worst = max((r.difference for r in checker.rows), default=0.0)
        verdict = self.results.right if worst <= 1e-12 else self.results.wrong
        n = len(checker.rows)
        verdict(f"tf.GradientTape (float64) on the program in the Graph tab: {n} "
                f"gradient{'' if n == 1 else 's'}, largest difference from ours "
                f"{scientific(worst)}.")
        cells = "".join(
            f"<tr><td>{html.escape(r.name)}</td><td align='right'>{r.ours!r}</td>"
            f"<td align='right'>{r.tensorflow!r}</td><td align='right'>{scientific(r.difference)}"
            "</td></tr>" for r in checker.rows)
        self.table.setText("<table cellspacing='0' cellpadding='3'><tr><th align='left'>"
                           "input</th><th>ours</th><th>tf.GradientTape</th><th>difference"
                           f"</th></tr>{cells}</table>")
        if worst <= 1e-12:
            self.mark_solved()


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
        box.addWidget(_intro("The lesson's neuron widened to N weights, "
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
