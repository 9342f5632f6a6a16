"""Exercise 4: one gradient step taken by hand."""

from __future__ import annotations

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
)

from gui.graph.editor import PRESETS
from gui.tabs.learn.common import Exercise, Feedback, intro_label, six_digits
from gui.tabs.learn.director import NEURON
from gui.tabs.learn.gradient_step import describe_step

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
        box.addWidget(intro_label("Gradient descent moves each parameter against its gradient: "
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
            hints = "; ".join(f"{n} = {six_digits(STEP_START[n])} − 0.1 × "
                              f"({six_digits(STEP_GRADIENTS[n])})" for n in wrong)
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
            f"step ({undo}). " + describe_step(step, "loss"))
        self.loss.right(f"Applied: w1 = {six_digits(step.after['w1'])}, w2 = "
                        f"{six_digits(step.after['w2'])}, b = {six_digits(step.after['b'])}; the "
                        f"loss fell from {six_digits(step.loss_before)} to "
                        f"{six_digits(step.loss_after)}. Step → Apply one gradient step "
                        "(Ctrl+G) takes another, on any program.")
        return step
