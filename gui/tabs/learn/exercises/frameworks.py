"""Exercise 5: the program as TensorFlow, PyTorch and JAX scripts, beside the
TensorFlow check."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
)

from engine.lesson.learn.code_export import FRAMEWORKS, TITLES
from engine.numbers import scientific
from gui.jobs.tensorflow_checker import MAX_NODES as TF_NODES
from gui.tabs.learn.common import Exercise, Feedback, intro_label, monospace


class FrameworksExercise(Exercise):
    """Exercise 5: the program as a TensorFlow, PyTorch or JAX script, and the app's own
    TensorFlow check beside it."""

    key = "frameworks"

    def __init__(self, director, copier=None, checker=None, parent=None):
        super().__init__(director, parent)
        self.copier, self.checker = copier, checker
        self._asked = None  # the program generation the learner asked TensorFlow about
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
        row.addStretch(1)
        check = QHBoxLayout()  # a row of its own: four buttons in one outgrow a 1280 screen
        check.addWidget(self.tf_button)
        check.addStretch(1)
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
        box.addWidget(intro_label("Copy the script, run it with python where the framework is "
                             "installed, and compare its gradients with the app's. The app's "
                             "own TensorFlow check runs the same graph beside it.", self))
        box.addLayout(row)
        box.addLayout(check)
        box.addWidget(self.code)
        box.addWidget(self.results)
        box.addWidget(self.table)
        if checker is not None:
            checker.changed.connect(self._show_check)

    @Slot()
    def copy(self, framework: str) -> str:
        text = self.copier.copy(framework) if self.copier is not None else ""
        if text:  # a copy checks nothing yet: the exercise is solved by the comparison
            self.code.setPlainText(text)
        return text

    @Slot()
    def run_check(self) -> None:
        session = self.director.session if self.director else None
        if self.checker is None or session is None or session.program is None:
            return
        self._asked = session.generation
        self.results.say("Asking TensorFlow (the first time it loads, a few seconds)…")
        program = session.program
        n = len(program.values)  # a big graph read from Python is refused unwritten
        self.checker.check(session.generation, program.source if n <= TF_NODES else "", n)

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
        # solved by the learner's own comparison, not by a check another tab started
        if worst <= 1e-12 and self._asked == session.generation:
            self.mark_solved()
