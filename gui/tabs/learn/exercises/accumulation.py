"""Exercise 3: watch gradients accumulate (and what `=` would give)."""

from __future__ import annotations

import math

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
)

from engine.lesson.learn.accumulation import CASES, ENGINES, accumulate
from gui.tabs.learn.common import Exercise, Feedback, intro_label, six_digits


class AccumulateExercise(Exercise):
    """Exercise 3: predict a's gradient in a + a and a * a, with += and with =, then
    see it."""

    key = "accumulate"
    predicted_right = Signal(str, str)  # (case, engine): a combination predicted right

    def __init__(self, director, right=(), parent=None):
        super().__init__(director, parent)
        # the combinations predicted right so far, in this session or before
        self.right: set[tuple[str, str]] = set(right)
        self.case = QComboBox(self)
        self.case.addItems(list(CASES))
        self.case.setToolTip("The program: a = 3, then b = a + a or c = a * a")
        self.engine = QComboBox(self)
        self.engine.addItems(list(ENGINES))
        self.engine.setToolTip("+= adds each path's gradient to what a holds; = overwrites it")
        self.prediction = QLineEdit(self)
        self.prediction.setPlaceholderText("a number")
        self.prediction.setToolTip("What will a's gradient be after the backward pass?")
        self.prediction.setMaximumWidth(120)
        self.reveal = QPushButton("Reveal", self)
        self.reveal.setToolTip("Run the backward pass and show what a received, path by "
                               "path (Enter)")
        self.reveal.clicked.connect(self.check_prediction)
        self.prediction.returnPressed.connect(self.check_prediction)
        self.show_step = QPushButton("Show me the step", self)
        self.show_step.setToolTip("Open this case in the Graph tab just before a's last "
                                  "path arrives: press Right to see it")
        self.show_step.clicked.connect(self.show_in_graph)
        self.feedback = Feedback(self)
        self.score = QLabel(self)
        box = QVBoxLayout(self)
        box.addWidget(intro_label("a = 3. Predict a's gradient before you look: a reaches the "
                             "output along two paths. Try all four combinations.", self))
        # the case on one row, the prediction on the next: in one they outgrow a 1280 screen
        for widgets in ((QLabel("Program:", self), self.case, QLabel("engine rule:", self),
                         self.engine),
                        (QLabel("a's gradient will be", self), self.prediction, self.reveal,
                         self.show_step)):
            row = QHBoxLayout()
            for widget in widgets:
                row.addWidget(widget)
            row.addStretch(1)
            box.addLayout(row)
        box.addWidget(self.feedback)
        box.addWidget(self.score)
        self._update_score()

    @Slot()
    def check_prediction(self) -> bool | None:
        try:
            guess = float(self.prediction.text().strip().replace("−", "-"))
        except ValueError:
            self.feedback.wrong("Type your prediction as a number first, e.g. 2.")
            return None
        case, engine = self.case.currentText(), self.engine.currentText()
        result = accumulate(case, engine)
        paths = ", then ".join(f"{six_digits(d.contribution)} ({six_digits(d.before)} → "
                               f"{six_digits(d.after)})" for d in result.deliveries)
        how = ("each added to what a held" if engine == "+="
               else "the second overwriting the first")
        text = (f"a received {paths}, {how}: its gradient is {six_digits(result.gradient)}.")
        if math.isclose(guess, result.gradient):
            self.right.add((case, engine))
            self.predicted_right.emit(case, engine)
            self.feedback.right(f"Right, {six_digits(guess)}. " + text)
            ok = True
        else:
            self.feedback.wrong(f"You predicted {six_digits(guess)}. " + text)
            ok = False
        self._update_score()
        if len(self.right) == len(CASES) * len(ENGINES):
            self.mark_solved()
        return ok

    def _update_score(self) -> None:
        self.score.setText(f"Predicted right: {len(self.right)} of "
                           f"{len(CASES) * len(ENGINES)} combinations.")

    @Slot()
    def show_in_graph(self) -> None:
        case, engine = self.case.currentText(), self.engine.currentText()
        result = accumulate(case, engine)
        if self.director is not None:
            self.director.accumulate(case, engine, result.position_before)
