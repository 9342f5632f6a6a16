"""Exercises 1-3: the multiply rule, a long chain against calculus, accumulation."""
# size: each exercise's __init__ lays out its widgets top to bottom, as they show

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
)

from engine import ExpressionError, parse
from engine.language import FUNCTIONS
from engine.lesson.learn import chain_check
from engine.lesson.learn.accumulation import CASES, ENGINES, accumulate
from engine.lesson.learn.multiply_rule import LearnerMultiplyRule, check_multiply_rule
from engine.numbers import scientific
from engine.core.stepping import gradients_with
from gui.graph.editor import PRESETS
from gui.tabs.learn.common import Exercise, Feedback, formula_edit, number
from gui.tabs.learn.director import NEURON

INTRO_STYLE = "color: #374151;"
EMPTY_HINT = "Type a derivative and press Compare"


def _intro(text: str, parent) -> QLabel:
    label = QLabel(text, parent)
    label.setWordWrap(True)
    label.setStyleSheet(INTRO_STYLE)
    return label


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
        box.addWidget(_intro("Type the two local derivatives of a product as expressions in "
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
        got = ", ".join("cannot be computed" if math.isnan(v) else number(v)
                        for v in (bad.da, bad.db))
        self.feedback.wrong(f"Not yet: at a = {number(bad.a)}, b = {number(bad.b)} your "
                            f"rule gives {got}; the product rule gives "
                            f"{number(bad.right_da)} and {number(bad.right_db)}. Hint: if "
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
        parts = [f"{n} {number(yours[n])}" + ("" if math.isclose(yours[n], right[n],
                                                                   rel_tol=1e-9,
                                                                   abs_tol=1e-12)
                                               else f" (should be {number(right[n])})")
                 for n in ("w1", "w2", "b")]
        wrong = self.director.step_with_rule(self.rule) if self.director else None
        text = "With your rule the neuron's gradients are: " + ", ".join(parts) + "."
        if wrong is None:
            self.engine_note.right(text + " The Graph tab shows the whole pass.")
        else:
            self.engine_note.wrong(text + " The Graph tab stops at the first wrong step, "
                                   "in red.")


class ChainExercise(Exercise):
    """Exercise 2: the learner's derivative of a one-input program against autodiff
    over a range of x, both curves and their difference plotted."""

    key = "chain"

    def __init__(self, director, parent=None):
        super().__init__(director, parent)
        from gui.tabs import plots  # pyqtgraph: only once the Learn tab is made

        self.comparison: chain_check.ChainComparison | None = None
        self.function = formula_edit("a program with one input, or an expression in x",
                                     "The function: tanh(x**3 + 3*x) as in the lesson, or "
                                     "any program with one input", self)
        self.function.setText(chain_check.LESSON_FUNCTION)
        self.derivative = formula_edit("your dy/dx, an expression in x",
                                       "Your derivative, worked out by hand (chain rule)",
                                       self)
        self.lo, self.hi = QDoubleSpinBox(self), QDoubleSpinBox(self)
        for spin, value in ((self.lo, -3.0), (self.hi, 3.0)):
            spin.setRange(-1000.0, 1000.0)
            spin.setDecimals(2)
            spin.setValue(value)
            spin.setToolTip("The range of x compared (401 points)")
        self.compare = QPushButton("Compare over the range", self)
        self.compare.setToolTip("Autodiff against your derivative at 401 points (Enter)")
        self.compare.clicked.connect(self.run_compare)
        self.derivative.returnPressed.connect(self.run_compare)
        self.function.returnPressed.connect(self.run_compare)
        self.feedback = Feedback(self)
        self.plot = plots.plot_widget(self)
        self.plot.setMinimumHeight(220)
        item = self.plot.getPlotItem()
        plots.style(item)
        item.addLegend(offset=(10, 10))
        item.setLabel("bottom", "x")
        item.setLabel("left", "dy/dx")
        self.autodiff_curve = item.plot([], [], pen=plots.pg.mkPen("#2563eb", width=2),
                                        name="autodiff")
        self.hand_curve = item.plot([], [], pen=plots.pg.mkPen("#ea580c", width=2,
                                                              style=Qt.PenStyle.DashLine),
                                    name="yours")
        self.diff_plot = plots.plot_widget(self)
        self.diff_plot.setMinimumHeight(140)
        diff_item = self.diff_plot.getPlotItem()
        plots.style(diff_item)
        diff_item.setLabel("left", "yours − autodiff")
        diff_item.setXLink(item)
        for axis in (item.getAxis("left"), diff_item.getAxis("left")):
            axis.setWidth(64)  # the same width, so that the two x axes line up
        self.diff_curve = diff_item.plot([], [], pen=plots.pg.mkPen("#dc2626", width=2))
        self.worst_marker = diff_item.plot([], [], pen=None, symbol="o", symbolSize=9,
                                           symbolBrush="#dc2626")
        # before the first comparison: no axes (an empty 0-1 range says nothing), a hint
        self.hint = plots.pg.TextItem(EMPTY_HINT, color="#6b7280", anchor=(0.5, 0.5))
        item.addItem(self.hint, ignoreBounds=True)
        self.hint.setPos(0.5, 0.5)
        for plot_item in (item, diff_item):
            plot_item.setXRange(0, 1, padding=0)
            plot_item.setYRange(0, 1, padding=0)
            plot_item.showGrid(x=False, y=False)
            for side in ("left", "bottom"):
                plot_item.hideAxis(side)
        item.legend.hide()
        saturated = chain_check.saturated_check()
        self.saturated = _intro(
            f"Why x = 2 proves nothing: there autodiff gives {saturated.autodiff:.10f} "
            f"({scientific(saturated.autodiff, 2)}), the right formula "
            f"{saturated.right:.10f}, and a formula that forgets the (3x² + 3) factor "
            f"{saturated.forgetful:.10f} ({scientific(saturated.forgetful, 2)}). Where every "
            "answer prints as 0, agreeing is no evidence: compare where the derivative is "
            "not flat.", self)
        form = QFormLayout()
        form.addRow("y =", self.function)
        form.addRow("dy/dx =", self.derivative)
        span = QHBoxLayout()
        span.addWidget(QLabel("x from", self))
        span.addWidget(self.lo)
        span.addWidget(QLabel("to", self))
        span.addWidget(self.hi)
        span.addWidget(self.compare)
        span.addStretch(1)
        box = QVBoxLayout(self)
        box.addWidget(_intro("Work out dy/dx by hand and type it as an expression in x. "
                             "The app differentiates the function by autodiff at every x of "
                             "the range and plots both, and their difference below.", self))
        box.addLayout(form)
        box.addLayout(span)
        box.addWidget(self.feedback)
        box.addWidget(self.plot)
        box.addWidget(self.diff_plot)
        box.addWidget(self.saturated)

    @Slot()
    def run_compare(self) -> bool:
        try:
            result = chain_check.compare(self.function.text(), self.derivative.text(),
                                         self.lo.value(), self.hi.value())
        except ExpressionError as e:
            self.feedback.wrong(f"Cannot compare yet: {e.message}.")
            return False
        except ValueError as e:
            self.feedback.wrong(f"Cannot compare yet: {e}.")
            return False
        self.comparison = result
        self._show_axes()
        self.autodiff_curve.setData(result.xs, result.autodiff)
        self.hand_curve.setData(result.xs, result.hand)
        self.diff_curve.setData(result.xs, result.differences)
        skipped = (f" ({result.skipped} points where the function or your formula cannot "
                   "be computed were left out.)" if result.skipped else "")
        if not result.xs:
            self.worst_marker.setData([], [])
            self.feedback.wrong("Neither could be computed anywhere in this range." )
            return False
        i = result.worst
        x, diff = result.xs[i], result.differences[i]
        self.worst_marker.setData([x], [diff])
        where = (f"the worst point is x = {number(x)}: yours {number(result.hand[i])}, "
                 f"autodiff {number(result.autodiff[i])}, difference {diff:.3g}")
        if result.ok:
            self.feedback.right(f"Your derivative agrees with autodiff at all "
                                f"{len(result.xs)} points; {where}, which is rounding."
                                + skipped)
            self.mark_solved()
            return True
        self.feedback.wrong(f"Not the same function: {where}." + skipped)
        return False


    def _show_axes(self) -> None:
        """The plots as they are once there is something to plot (the first time)."""
        if not self.hint.isVisible():
            return
        self.hint.hide()
        for widget in (self.plot, self.diff_plot):
            plot_item = widget.getPlotItem()
            for side in ("left", "bottom"):
                plot_item.showAxis(side)
            plot_item.showGrid(x=True, y=False, alpha=0.25)
            plot_item.enableAutoRange()
        self.plot.getPlotItem().legend.show()


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
        row = QHBoxLayout()
        for widget in (QLabel("Program:", self), self.case, QLabel("engine rule:", self),
                       self.engine, QLabel("a's gradient will be", self), self.prediction,
                       self.reveal, self.show_step):
            row.addWidget(widget)
        row.addStretch(1)
        box = QVBoxLayout(self)
        box.addWidget(_intro("a = 3. Predict a's gradient before you look: a reaches the "
                             "output along two paths. Try all four combinations.", self))
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
        paths = ", then ".join(f"{number(d.contribution)} ({number(d.before)} → "
                               f"{number(d.after)})" for d in result.deliveries)
        how = ("each added to what a held" if engine == "+="
               else "the second overwriting the first")
        text = (f"a received {paths}, {how}: its gradient is {number(result.gradient)}.")
        if math.isclose(guess, result.gradient):
            self.right.add((case, engine))
            self.predicted_right.emit(case, engine)
            self.feedback.right(f"Right, {number(guess)}. " + text)
            ok = True
        else:
            self.feedback.wrong(f"You predicted {number(guess)}. " + text)
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
