"""The Pitfalls tab: the classic autograd bugs switched on, beside the right answers."""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from engine.lesson.nn import train_xor
from engine.numbers import count, not_finite, number
from gui.graph.editor import PRESETS
from gui.graph.session import Session
from gui.jobs.tab_child import IN_PLACE_NODES, BugGradients, bug_gradients, bug_gradients_of
from gui.jobs.worker import ProcessWorker
from gui.palette import hex_of
from gui.tabs import plots
from gui.tabs.ranked_table import Column, RankedTable
from gui.tabs.widgets import ProgramTab, put

MAX_NODES = 20_000
TWICE = "2 passes,\nno zero_grad"  # the last column's header, on two lines: narrow
ZERO_GRAD_EPOCHS = 1500  # the lesson's run has collapsed by then; the buggy one has not

LESSON_CASES = (  # the lesson's own examples
    ("a + a", "04-a-plus-a.expr", "= instead of += reports 1, not 2"),
    ("a * a", "05-a-times-a.expr", "= instead of += reports 3, not 6"),
)
OUR_CASES = (  # not on the lesson's page: examples of ours for its other pitfalls
    ("b = x*3; c = b*2; d = b + c", "10-no-sort.expr", "no topological sort reports 3, not 9"),
    ("relu's branch", "09-relu-branch.expr", "a gradient of 0 that is right"),
)
CASES = LESSON_CASES + OUR_CASES

LESSONS = """
<p><b>= instead of +=.</b> A node used twice gets a gradient along each path; with
<code>=</code> the second path overwrites the first. <i>a + a</i> reports 1.0 instead of 2.0,
a silent factor wherever a value is reused. In the Graph tab choose <i>Engine: bug: = instead
of +=</i> and step: the overwriting step turns red.</p>
<p><b>No topological sort.</b> A node must wait until every path has delivered its gradient
before passing it on. Walking the graph breadth-first from the output, <i>b</i> in
<i>d = b + c</i> passes on 1 before <i>c</i> has added its 2: wrong, and stable, so it is hard
to spot. The Graph tab's <i>bug: no topological sort</i> marks the premature step in red.</p>
<p><b>No zero_grad.</b> Gradients accumulate on purpose, so the previous step's survive
unless cleared: two passes report twice the gradient (the last columns), and training with
stale gradients goes astray (the plot).</p>
<p><b>Autodiff is not numerical differentiation.</b> There is no step size: each local
derivative is the exact rule at a point. The Rules tab shows a finite difference's error
rising and falling with its step while autodiff's stays flat.</p>
<p><b>The branch that ran.</b> The graph records the path the computation took. In the
<i>relu's branch</i> example <i>w·x</i> is negative, relu took its flat branch, and
dL/dx = dL/dw = 0: no gradient flows down a road not travelled. That zero is correct.</p>
"""


@dataclass(frozen=True)
class InputRow:
    name: str
    correct: float
    overwrite: float
    no_sort: float
    twice: float  # two passes without zero_grad


def ratio(value: float, correct: float) -> str:
    """value ÷ correct as '2×'; an overflow is named, never shown as nan× or inf×."""
    if not (math.isfinite(value) and math.isfinite(correct)):
        return "overflow: no ratio"
    if correct == 0.0:
        return "—" if value == 0.0 else "∞"
    return f"{number(value / correct, 3)}×"


def _differs(value: float, correct: float) -> bool:
    return abs(value - correct) > 1e-12 * max(1.0, abs(correct))


class PitfallsTab(ProgramTab):
    preset_requested = Signal(str)  # a preset's path, to open in the editor
    _with_zero: ProcessWorker | None = None  # the run that zeroes its gradients
    _gradients: ProcessWorker | None = None  # the table's child, for the current program

    def __init__(self, session: Session, parent=None):
        super().__init__(session, parent)
        self._zero_grad_drawn, self._runs = False, {}  # each run's worker: its losses

        cases = QHBoxLayout()
        for heading, group in (("The lesson's cases:", LESSON_CASES),
                               ("Our examples:", OUR_CASES)):
            cases.addWidget(QLabel(heading, self))
            for title, file, tip in group:
                button = QPushButton(title, self)
                button.setToolTip(f"Open this program: {tip}")
                button.clicked.connect(lambda checked=False, f=file: self._open(f))
                cases.addWidget(button)
            cases.addSpacing(12)
        cases.addStretch(1)

        self._table_place, self._plot_place = QWidget(self), QWidget(self)
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        left = QGroupBox("Your program under each bug (red: a wrong gradient)", self)
        box = self._left = QVBoxLayout(left)
        box.addWidget(self._table_place, 1)
        box.addWidget(self.summary)

        self.zero_note = QLabel(self)
        self.zero_note.setWordWrap(True)
        right = QGroupBox(f"XOR for {ZERO_GRAD_EPOCHS} epochs, with and without zero_grad",
                          self)
        box = self._right = QVBoxLayout(right)
        box.addWidget(self._plot_place, 1)
        box.addWidget(self.zero_note)

        lessons = QLabel(LESSONS, self)
        lessons.setWordWrap(True)
        lessons.setTextFormat(Qt.TextFormat.RichText)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(left)
        split.addWidget(right)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(cases)
        layout.addWidget(split, 1)
        layout.addWidget(lessons)
        self.fill_with(self._fill())

    def _fill(self):
        """The table, then the plot, a turn each (see RulesTab)."""
        self.table = RankedTable([
            Column("input", lambda r: r.name),
            Column("correct", lambda r: r.correct, _num),
            Column("= for +=", lambda r: r.overwrite, _num,
                   wrong=lambda r: _differs(r.overwrite, r.correct),
                   tip="The gradient if each rule wrote = instead of +="),
            Column("ratio", lambda r: ratio(r.overwrite, r.correct),
                   wrong=lambda r: _differs(r.overwrite, r.correct)),
            Column("no sort", lambda r: r.no_sort, _num,
                   wrong=lambda r: _differs(r.no_sort, r.correct),
                   tip="The gradient if rules ran in breadth-first order from the output"),
            Column("ratio ", lambda r: ratio(r.no_sort, r.correct),
                   wrong=lambda r: _differs(r.no_sort, r.correct)),
            Column(TWICE, lambda r: r.twice, _num,
                   wrong=lambda r: _differs(r.twice, r.correct),
                   tip="The gradient after two backward passes without zero_grad between"),
        ], self, whole=True)  # every column seen: the plot beside takes what is left
        self.table.setObjectName("pitfall_table")
        put(self._left, self._table_place, self.table)
        yield
        self.zero_plot = plots.plot_widget(self)
        put(self._right, self._plot_place, self.zero_plot)
        yield

    def filled(self) -> None:
        super().filled()
        if self.isVisible() and not self._zero_grad_drawn:
            self._draw_zero_grad()

    def _open(self, file: str) -> None:
        self.preset_requested.emit(str(PRESETS / file))

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._zero_grad_drawn and not self.filling.running:
            self._draw_zero_grad()

    def refresh(self) -> None:
        """The table for the current program: worked out here up to IN_PLACE_NODES
        nodes, else in a child process (four passes: a second at 20,000 nodes), the
        table empty and the summary saying "computing…" meanwhile."""
        program = self.session.program
        self._end_gradients()
        n = len(program.values)
        if n > MAX_NODES:
            self.table.set_rows([])
            self.summary.setText(f"This program has {n:,} nodes; the comparison runs "
                                 f"programs of up to {MAX_NODES:,}.")
            return
        if n <= IN_PLACE_NODES:
            self._show_gradients(bug_gradients(program))
            return
        self.table.set_rows([])
        self.summary.setText(f"computing… (each input's gradient under each bug: four "
                             f"backward passes of {n:,} nodes, in a child process)")
        worker = self._gradients = ProcessWorker(bug_gradients_of, interval_ms=None,
                                                 parent=self, text=program.source)
        worker.yielded.connect(self._on_gradients)
        worker.errored.connect(self._on_gradients_failed)
        worker.start()

    @property
    def computing(self) -> bool:
        """The table's gradients are being worked out in a child process."""
        return self._gradients is not None and self._gradients.running

    @Slot()
    def _on_loaded(self) -> None:
        self._end_gradients()  # a new program: the old one's child is not wanted, shown or not
        super()._on_loaded()

    def _end_gradients(self) -> None:
        if self._gradients is not None:
            worker, self._gradients = self._gradients, None
            worker.cancel()  # an older program's: what it would send is not wanted

    @Slot(object)
    def _on_gradients(self, grads: BugGradients) -> None:
        if self.sender() is self._gradients:
            self._show_gradients(grads)

    @Slot(str)
    def _on_gradients_failed(self, error: str) -> None:
        if self.sender() is self._gradients:
            self.summary.setText(f"The gradients could not be worked out: {error}")

    def _show_gradients(self, grads: BugGradients) -> None:
        rows = [InputRow(*row) for row in zip(grads.names, grads.correct, grads.overwrite,
                                              grads.no_sort, grads.twice)]
        self.table.set_rows(rows)
        wrong = {
            "= for +=": sum(_differs(r.overwrite, r.correct) for r in rows),
            "no sort": sum(_differs(r.no_sort, r.correct) for r in rows),
        }
        self.summary.setText(
            f"Of {count(len(rows), 'input')}, {_get(wrong['= for +='])} a wrong gradient "
            f"with = for +=, {_get(wrong['no sort'])} without the topological sort; without "
            "zero_grad every nonzero gradient is doubled after two passes.")

    @property
    def training(self) -> bool:
        """The zero_grad runs are still being trained (in child processes)."""
        return any(worker.running for worker in self._runs)

    def stop(self) -> None:
        """End the children: the zero_grad runs', the table's (the window closes)."""
        self._end_gradients()
        for worker in list(self._runs):
            worker.cancel()

    def _draw_zero_grad(self) -> None:
        """Train both runs in child processes (a second of pure Python: on the window's
        thread it held the window when the tab first opened); drawn when both are in."""
        self._zero_grad_drawn = True
        self.zero_note.setText(f"Training both runs, {ZERO_GRAD_EPOCHS} epochs each…")
        for zero_grad in (True, False):
            worker = ProcessWorker(train_xor, interval_ms=50, parent=self,
                                   epochs=ZERO_GRAD_EPOCHS, zero_grad=zero_grad)
            self._runs[worker] = []
            if zero_grad:
                self._with_zero = worker
            worker.yielded.connect(self._on_epoch)
            worker.errored.connect(self._on_run_failed)
            worker.finished.connect(self._on_run_finished)
        for worker in list(self._runs):
            worker.start()

    @Slot(object)
    def _on_epoch(self, epoch) -> None:
        self._runs[self.sender()].append(epoch.loss)

    @Slot(str)
    def _on_run_failed(self, error: str) -> None:
        self.zero_note.setText(f"The runs could not be trained: {error}")

    @Slot()
    def _on_run_finished(self) -> None:
        if self.training or any(len(losses) < ZERO_GRAD_EPOCHS
                                for losses in self._runs.values()):
            return  # the other run is still training, or a run failed (its note says)
        with_zero = self._runs[self._with_zero]
        without = next(v for w, v in self._runs.items() if w is not self._with_zero)
        plots.two_losses(self.zero_plot.getPlotItem(), with_zero, without)
        self.zero_note.setText(
            f"<span style='color:{hex_of('blue')}'>—</span> zero_grad every epoch: loss "
            f"{with_zero[-1]:.4f} after {ZERO_GRAD_EPOCHS} epochs. "
            f"<span style='color:{hex_of('red')}'>—</span> never zeroed: each update uses the sum "
            f"of all earlier gradients, loss {without[-1]:.4f}. Same seed, same learning rate.")


def _get(n: int) -> str:
    return f"{n:,} gets" if n == 1 else f"{n:,} get"


def _num(x: float) -> str:
    return not_finite(x) or number(x, 8)
