"""Exercise 1: write the multiply rule, checked at random points, then stepped."""

from __future__ import annotations

import math

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QPushButton,
    QVBoxLayout,
)

from engine import parse
from engine.core.stepping import gradients_with
from engine.language import FUNCTIONS
from engine.lesson.learn.multiply_rule import LearnerMultiplyRule, check_multiply_rule
from gui.graph.editor import PRESETS
from gui.tabs.learn.common import Exercise, Feedback, formula_edit, intro_label, six_digits
from gui.tabs.learn.director import NEURON


class MultiplyExercise(Exercise):
    """Exercise 1: the learner's d(a·b)/da and d(a·b)/db, checked at random points,
    then used as the engine's multiply rule on the neuron in the Graph tab."""

    key = "multiply"

    def __init__(self, director, parent=None):
        super().__init__(director, parent)
        self.rule: LearnerMultiplyRule | None = None
        self.da = formula_edit("an expression in a and b", "Your d(a·b)/da: how much a·b "
                               "moves per unit of a, at any a and b", self)
        self.db = formula_edit("an expression in a and b", "Your d(a·b)/db", self)
        self.check = QPushButton("Check my rule", self)
        self.check.setToolTip("Compare your rule with the product rule at 12 points, the "
                              "lesson's a = 3, b = 4 first (Enter)")
        self.check.clicked.connect(self.check_rule)
        self.da.returnPressed.connect(self.check_rule)
        self.db.returnPressed.connect(self.check_rule)
        self.run = QPushButton("Step the neuron with my rule", self)
        self.run.setToolTip("Open the lesson's neuron in the Graph tab with your rule as "
                            "the engine's multiply rule; a wrong gradient turns red")
        self.run.setEnabled(False)
        self.run.clicked.connect(self.step_neuron)
        self.feedback = Feedback(self)
        self.engine_note = Feedback(self)
        form = QFormLayout()
        form.addRow("d(a·b)/da =", self.da)
        form.addRow("d(a·b)/db =", self.db)
        buttons = QHBoxLayout()
        buttons.addWidget(self.check)
        buttons.addWidget(self.run)
        buttons.addStretch(1)
        box = QVBoxLayout(self)
        box.addWidget(intro_label("Type the two local derivatives of a product as expressions in "
                             "a and b (the program language: + - * / ** and "
                             f"{', '.join(FUNCTIONS)}). The app checks them, then runs the "
                             "neuron with them in place of its own rule.", self))
        box.addLayout(form)
        box.addLayout(buttons)
        box.addWidget(self.feedback)
        box.addWidget(self.engine_note)

    @Slot()
    def check_rule(self) -> bool:
        # what the neuron gave with the rule checked before no longer applies
        self.engine_note.clear()
        result = check_multiply_rule(self.da.text(), self.db.text())
        if result.error:
            self.rule = None
            self.run.setEnabled(False)
            self.feedback.wrong(f"Not a formula yet: {result.error}.")
            return False
        self.rule = LearnerMultiplyRule(self.da.text(), self.db.text())
        self.run.setEnabled(True)
        bad = result.first_wrong
        if bad is None:
            self.feedback.right(f"Right at all {len(result.points)} points: at a = 3, b = 4 "
                                "your rule gives 4 and 3, the product rule's b and a. Step "
                                "the neuron with it: every gradient comes out as the "
                                "engine's.")
            self.mark_solved()
            return True
        got = ", ".join("cannot be computed" if math.isnan(v) else six_digits(v)
                        for v in (bad.da, bad.db))
        self.feedback.wrong(f"Not yet: at a = {six_digits(bad.a)}, b = {six_digits(bad.b)} your "
                            f"rule gives {got}; the product rule gives "
                            f"{six_digits(bad.right_da)} and {six_digits(bad.right_db)}. Hint: if "
                            "a moves by 1, a·b moves by how much?")
        return False

    @Slot()
    def step_neuron(self) -> None:
        # the rule as typed now, so that the verdict above and the note below agree
        self.check_rule()
        if self.rule is None:
            return
        program = parse((PRESETS / NEURON).read_text(encoding="utf-8"))
        yours = gradients_with(program, self.rule)
        right = gradients_with(program)
        parts = [f"{n} {six_digits(yours[n])}" + ("" if math.isclose(yours[n], right[n],
                                                                   rel_tol=1e-9,
                                                                   abs_tol=1e-12)
                                               else f" (should be {six_digits(right[n])})")
                 for n in ("w1", "w2", "b")]
        wrong = self.director.step_with_rule(self.rule) if self.director else None
        text = "With your rule the neuron's gradients are: " + ", ".join(parts) + "."
        if wrong is None:
            self.engine_note.right(text + " The Graph tab shows the whole pass.")
        else:
            self.engine_note.wrong(text + " The Graph tab stops at the first wrong step, "
                                   "in red.")
