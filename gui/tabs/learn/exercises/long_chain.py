"""Exercise 2: a long chain's derivative against calculus."""
# size: its __init__ lays out the exercise's widgets top to bottom, as they show

from __future__ import annotations

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
)

from engine import ExpressionError
from engine.lesson.learn import chain_check
from engine.numbers import scientific
from gui.palette import colour
from gui.tabs.learn.common import Exercise, Feedback, formula_edit, intro_label, six_digits

EMPTY_HINT = "Type a derivative and press Compare"


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
        self.autodiff_curve = item.plot([], [], pen=plots.pg.mkPen(colour("blue"), width=2),
                                        name="autodiff")
        self.hand_curve = item.plot([], [], pen=plots.pg.mkPen(colour("orange"), width=2,
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
        self.diff_curve = diff_item.plot([], [], pen=plots.pg.mkPen(colour("red"), width=2))
        self.worst_marker = diff_item.plot([], [], pen=None, symbol="o", symbolSize=9,
                                           symbolBrush=colour("red"))
        # before the first comparison: no axes (an empty 0-1 range says nothing), a hint
        self.hint = plots.pg.TextItem(EMPTY_HINT, color=colour("plot_hint"),
                                     anchor=(0.5, 0.5))
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
        self.saturated = intro_label(
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
        box.addWidget(intro_label("Work out dy/dx by hand and type it as an expression in x. "
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
        where = (f"the worst point is x = {six_digits(x)}: yours {six_digits(result.hand[i])}, "
                 f"autodiff {six_digits(result.autodiff[i])}, difference {diff:.3g}")
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
