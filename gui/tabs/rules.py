"""The Rules tab: every rule proven, why autodiff is not a finite difference, and the
current program checked against TensorFlow."""
# size: __init__ lays out the tab's widgets top to bottom, in the order they show

from __future__ import annotations

import math

from PySide6.QtCore import Qt, QTimer, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from engine.checks.tensorflow_check import INSTALL_HINT, snippet_applies
from engine.lesson.rules import rule_errors
from engine.numbers import count, not_finite, number, scientific
from engine.numbers import exact as exact_digits
from gui.graph.session import Session
from gui.jobs.tab_child import IN_PLACE_NODES, StepLesson, step_lesson, step_lesson_of
from gui.jobs.tensorflow_checker import IDLE, LOADING, UNAVAILABLE, TensorFlowChecker
from gui.jobs.tensorflow_checker import MAX_NODES as TF_NODES
from gui.jobs.worker import ProcessWorker
from gui.palette import hex_of
from gui.tabs import plots
from gui.tabs.ranked_table import Column, RankedTable
from gui.tabs.widgets import ProgramTab, WrappedLabel, put, scrolled

MAX_LESSON_NODES = 5_000  # the step-size lesson rebuilds the program 26 times


def sci(x) -> str:
    return "—" if x is None else (not_finite(x) or scientific(x))


def num(x) -> str:
    return "—" if x is None else (not_finite(x) or number(x, 8))


WHY = ("These errors belong to the central difference, not to the engine: with a step of "
       "1e-6 a central difference is only accurate to about 1e-10 (its truncation error "
       "grows with h², its round-off error with 1/h). Autograd applies each rule exactly, "
       "so against the calculus column its error is 0. The chain and the shared node are "
       "where a wrong engine would show up.")


class RulesTab(ProgramTab):
    """The tab's frame is made at once; its plots and tables piece by piece after it
    (`filling`, gui/tabs/lazy.py): each is a few tens of milliseconds to make and draw
    the first time, too much for one turn of the event loop."""

    _lesson_job: ProcessWorker | None = None  # the step-size lesson's child, if any

    def __init__(self, session: Session, checker: TensorFlowChecker, parent=None):
        super().__init__(session, parent)
        self.checker = checker
        self.rows = rule_errors()

        # left: the rules
        self._rule_plot_place, self._rule_table_place = QWidget(self), QWidget(self)
        why = WrappedLabel(WHY, self)
        left = QGroupBox("Every rule, checked three ways (click a column to rank by it)", self)
        box = QVBoxLayout(left)
        box.setContentsMargins(4, 4, 4, 4)  # each pixel goes to the tables' columns
        box.addWidget(self._rule_plot_place, 3)
        box.addWidget(why)
        box.addWidget(self._rule_table_place, 2)
        self._left = box

        # right, top: the step-size lesson
        self.input_box = QComboBox(self)
        self.input_box.setToolTip("The input whose derivative is checked")
        self.input_box.currentTextChanged.connect(self._on_input)
        self._step_plot_place = QWidget(self)
        self.step_note = WrappedLabel("", self)
        lesson = QGroupBox("Why autodiff is not numerical differentiation", self)
        box = self._lesson = QVBoxLayout(lesson)
        box.setContentsMargins(4, 4, 4, 4)
        row = QHBoxLayout()
        row.addWidget(QLabel("Derivative with respect to:", self))
        row.addWidget(self.input_box, 1)
        box.addLayout(row)
        box.addWidget(self._step_plot_place, 1)
        box.addWidget(self.step_note)

        # right, bottom: TensorFlow
        self.tf_status = WrappedLabel("", self)
        self.tf_status.setObjectName("tf_status")
        self.tf_button = QPushButton("Check against TensorFlow", self)
        self.tf_button.setToolTip("Run this program under tf.GradientTape in float64")
        self.tf_button.clicked.connect(self.request_check)
        self._tf_table_place = QWidget(self)
        self.float32 = WrappedLabel("", self)
        tf_group = QGroupBox("The same program under TensorFlow (float64)", self)
        box = self._tf = QVBoxLayout(tf_group)
        box.setContentsMargins(4, 4, 4, 4)
        row = QHBoxLayout()
        row.addWidget(self.tf_status, 1)
        row.addWidget(self.tf_button)
        box.addLayout(row)
        box.addWidget(self._tf_table_place, 1)
        box.addWidget(self.float32)

        right = QSplitter(Qt.Orientation.Vertical, self)
        right.addWidget(lesson)
        right.addWidget(tf_group)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(left)
        split.addWidget(right)
        split.setChildrenCollapsible(False)
        # the rule table's six columns need more room than TensorFlow's four
        split.setSizes([600, 370])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scrolled(split, self))
        self.fill_with(self._fill())

    def _fill(self):
        """The plots and tables, one a turn, in the order they show."""
        # 18 rows and more, each name readable, under a title of up to two lines
        self.rule_plot = plots.plot_widget(self, minimum_height=340)
        put(self._left, self._rule_plot_place, self.rule_plot)
        yield
        plots.rule_bars(self.rule_plot.getPlotItem(), self.rows)
        yield
        self.rule_table = RankedTable([
            Column("rule", lambda r: r.name),
            Column("autograd", lambda r: r.autograd, num),
            Column("calculus", lambda r: r.analytic, num, tip=""),
            Column("central diff.", lambda r: r.central, num,
                   tip="(f(x+h) − f(x−h)) / 2h with h = 1e-6"),
            Column("|ag − cd|", lambda r: r.error_fd, sci, log=True,
                   tip="|autograd − central difference|: the bars above"),
            Column("|ag − calc.|", lambda r: r.error_analytic, sci, log=True,
                   tip="|autograd − calculus|"),
        ], self, wrap=0, whole=True)
        self.rule_table.setObjectName("rule_table")
        self.rule_table.set_rows(self.rows)
        put(self._left, self._rule_table_place, self.rule_table)
        yield
        self.step_plot = plots.plot_widget(self, minimum_height=190)
        put(self._lesson, self._step_plot_place, self.step_plot)
        yield
        self.tf_table = RankedTable([
            Column("input", lambda r: r.name),
            Column("ours", lambda r: r.ours, num),
            Column("TensorFlow", lambda r: r.tensorflow, num, tip="tf.GradientTape, float64"),
            Column("|difference|", lambda r: r.difference, sci, log=True),
        ], self, whole=True)
        self.tf_table.setObjectName("tf_table")
        put(self._tf, self._tf_table_place, self.tf_table)
        self.checker.changed.connect(self._show_tensorflow)
        self._show_tensorflow()
        yield

    def filled(self) -> None:
        super().filled()  # the lesson drawn; TensorFlow's child started a turn later
        QTimer.singleShot(0, self._first_check)

    @Slot()
    def _first_check(self) -> None:
        if self.isVisible() and self.checker.state == IDLE:
            self.request_check()  # the first time TensorFlow is needed

    # -- the current program --------------------------------------------------------------------

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.checker.state == IDLE and not self.filling.running:
            self.request_check()  # the first time TensorFlow is needed

    def refresh(self) -> None:
        program = self.session.program
        current = self.input_box.currentText()
        self.input_box.blockSignals(True)
        self.input_box.clear()
        self.input_box.addItems(list(program.inputs))
        if current in program.inputs:
            self.input_box.setCurrentText(current)
        self.input_box.blockSignals(False)
        self._draw_lesson()
        self._show_float32()

    @Slot(str)
    def _on_input(self, _name: str) -> None:
        self._draw_lesson()

    def _draw_lesson(self) -> None:
        """The lesson for the chosen input: worked out here up to IN_PLACE_NODES nodes,
        else in a child process (26 rebuilds and a 50-digit evaluation: a third of a
        second at 5,000 nodes), the note saying "computing…" meanwhile."""
        program = self.session.program
        name = self.input_box.currentText()
        plot = self.step_plot.getPlotItem()
        self._end_lesson()
        if not name:
            plot.clear()
            self.step_note.setText("This program has no inputs to differentiate.")
            return
        n = len(program.values)
        if n > MAX_LESSON_NODES:
            plot.clear()
            self.step_note.setText(f"This program has {n:,} nodes; the step-size "
                                   f"comparison runs programs of up to "
                                   f"{MAX_LESSON_NODES:,}.")
            return
        if n <= IN_PLACE_NODES:
            self._show_lesson(step_lesson(program, name))
            return
        plot.clear()
        self.step_note.setText(f"computing… (d{program.output_name}/d{name} exactly, and a "
                               f"central difference at each of 13 steps: {n:,} nodes, in "
                               "a child process)")
        worker = self._lesson_job = ProcessWorker(step_lesson_of, interval_ms=None,
                                                  parent=self, text=program.source,
                                                  name=name)
        worker.yielded.connect(self._on_lesson)
        worker.errored.connect(self._on_lesson_failed)
        worker.start()

    @property
    def computing(self) -> bool:
        """The step-size lesson is being worked out in a child process."""
        return self._lesson_job is not None and self._lesson_job.running

    @Slot()
    def _on_loaded(self) -> None:
        self._end_lesson()  # a new program: the old one's child is not wanted, shown or not
        super()._on_loaded()

    def _end_lesson(self) -> None:
        if self._lesson_job is not None:
            worker, self._lesson_job = self._lesson_job, None
            worker.cancel()  # for another program or input: what it sends is not wanted

    @Slot(object)
    def _on_lesson(self, lesson: StepLesson) -> None:
        if self.sender() is self._lesson_job:
            self._show_lesson(lesson)

    @Slot(str)
    def _on_lesson_failed(self, error: str) -> None:
        if self.sender() is self._lesson_job:
            self.step_note.setText(f"The step-size lesson could not be worked out: {error}")

    def _show_lesson(self, lesson: StepLesson) -> None:
        exact, ours, rows, name = lesson.exact, lesson.ours, list(lesson.rows), lesson.name
        plots.step_size_curve(self.step_plot.getPlotItem(), rows, abs(ours - exact), name)
        valid = [r for r in rows if r.error is not None]
        best = min(valid, key=lambda r: r.error) if valid else None
        best_text = (f"The best step, h = {best.h:.0e}, still leaves an error of "
                     f"{scientific(best.error, 2)}. " if best else "")
        error = abs(ours - exact)
        floor = (f" (drawn at {plots.FLOOR:.0e}, the bottom of the plot)"
                 if error < plots.FLOOR else "")
        self.step_note.setText(
            f"<span style='color:{hex_of('blue')}'>●—</span> the central difference's error for "
            f"each step h; <span style='color:{hex_of('red')}'>- -</span> autodiff's error, "
            f"{'exactly 0' if error == 0 else scientific(error, 2)}{floor}, the same for every h "
            f"(it has no step). {best_text}Large steps suffer truncation error, small ones "
            f"round-off. Exact d{self.session.program.output_name}/d{name} = "
            f"{exact_digits(exact)}, from 50-digit arithmetic.")

    # -- TensorFlow ---------------------------------------------------------------------

    @Slot()
    def request_check(self) -> None:
        program = self.session.program
        if program is not None:
            n = len(program.values)  # a big graph read from Python is refused unwritten
            self.checker.check(self.session.generation, program.source if n <= TF_NODES else "", n)

    @Slot()
    def _show_tensorflow(self) -> None:
        checker = self.checker
        state = checker.state
        self.tf_button.setEnabled(state not in (LOADING, UNAVAILABLE))
        if state == UNAVAILABLE:
            self.tf_status.setText(f"TensorFlow could not be imported, so this check is off; "
                                   f"everything else works. To turn it on, {INSTALL_HINT}.")
            self.tf_table.set_rows([])
            self.float32.clear()
            return
        if state == IDLE:
            self.tf_status.setText("TensorFlow is loaded the first time this tab opens.")
        elif state == LOADING:
            self.tf_status.setText("Loading TensorFlow (first time only, a few seconds)…")
        elif checker.message:
            self.tf_status.setText(checker.message)
        elif checker.generation == self.session.generation:
            differences = [r.difference for r in checker.rows]
            finite = [d for d in differences if math.isfinite(d)]
            worst = sci(max(finite, default=0.0))
            if len(finite) < len(differences):
                worst += (f"; {len(differences) - len(finite)} not computable (a gradient "
                          "overflowed: not a finite number)")
            self.tf_status.setText(f"{count(len(checker.rows), 'input')}; largest difference "
                                   f"{worst}.")
        else:
            self.tf_status.setText("Press the button to check this program.")
        self.tf_table.set_rows(checker.rows if checker.generation == self.session.generation
                               else [])
        self._show_float32()

    def _show_float32(self) -> None:
        """The lesson's float32 snippet, under the one program it is about: its neuron."""
        g = self.checker.float32
        program = self.session.program
        if g is None or program is None or not snippet_applies(program):
            self.float32.clear()
            self.float32.hide()
            return
        self.float32.setText(
            "The lesson's own snippet on this neuron (TensorFlow's default float32): "
            f"dL/dw1 = {g['w1']:.8f}, dL/dw2 = {g['w2']:.8f}, dL/db = {g['b']:.8f}.")
        self.float32.show()

