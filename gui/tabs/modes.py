"""The Modes tab: forward mode against reverse mode, timed in a child process."""
# size: __init__ lays out the tab's widgets top to bottom, in the order they show

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from engine.lesson.modes import (
    SIZES,
    SweepProgress,
    SweepRow,
    break_even_words,
    passes_table,
    timing_sweep,
)
from engine.numbers import count, scientific
from gui.jobs.worker import ProcessWorker
from gui.tabs import plots
from gui.tabs.lazy import Filling
from gui.tabs.ranked_table import Column, RankedTable
from gui.tabs.widgets import group_box, put

INTRO = ("The function is the lesson's neuron with N inputs, L(w) = (tanh(Σ wᵢxᵢ + b) − y)², "
         "differentiated with respect to its N weights. Reverse mode builds the graph once and "
         "makes one backward pass; forward mode makes one pass of dual numbers per weight. "
         "Both use the same rules in plain Python, so the ratio is the modes' alone. "
         "The times are measured on this machine, the median of a few runs at each size: "
         "other programs running make them noisy (a jump at one size is usually that).")


class ModesTab(QWidget):
    status = Signal(str)

    def __init__(self, parent=None, sizes=SIZES, repeats: int = 3):
        super().__init__(parent)
        self.sizes, self.repeats = sizes, repeats
        self.rows: list[SweepRow] = []
        self._worker: ProcessWorker | None = None
        self._cancelled = False
        self._error = ""

        self.start = QPushButton("Start", self)
        self.start.setToolTip("Time a full gradient in both modes at every size")
        self.start.clicked.connect(self.start_sweep)
        self.cancel = QPushButton("Cancel", self)
        self.cancel.setToolTip("Stop the sweep; the sizes already timed stay")
        self.cancel.setEnabled(False)
        self.cancel.clicked.connect(self.cancel_sweep)
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 1000)
        self.bar.setFormat("timed: %p%")
        self.bar.setToolTip("How much of the sweep is timed")
        self.bar.hide()  # an empty bar beside Start said nothing (s34 tryout): shown once started
        self.state = QLabel("Press Start to time the sizes " +
                            ", ".join(f"{n:,}" for n in sizes) + ".", self)
        top = QHBoxLayout()
        top.addWidget(self.start)
        top.addWidget(self.cancel)
        top.addWidget(self.bar, 1)
        top.addWidget(self.state, 2)

        self._timing_place, self._ratio_place = QWidget(self), QWidget(self)
        self._table_place, self._passes_place = QWidget(self), QWidget(self)
        charts = QSplitter(Qt.Orientation.Horizontal, self)
        self._timing_group = group_box("Milliseconds per full gradient (log-log)",
                                       self._timing_place, self)
        self._ratio_group = group_box("Cost ratio: forward mode ÷ reverse mode",
                                      self._ratio_place, self)
        charts.addWidget(self._timing_group)
        charts.addWidget(self._ratio_group)

        self.agreement = QLabel(self)
        self.agreement.setWordWrap(True)
        bottom = QSplitter(Qt.Orientation.Horizontal, self)
        measured = QWidget(self)
        box = self._measured = QVBoxLayout(measured)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self._table_place, 1)
        box.addWidget(self.agreement)
        bottom.addWidget(group_box("Measured (click a column to rank)", measured, self))
        self._passes_group = group_box("Passes for one full gradient (arithmetic)",
                                       self._passes_place, self)
        bottom.addWidget(self._passes_group)
        bottom.setSizes([700, 400])

        intro = QLabel(INTRO, self)
        intro.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(intro)
        layout.addLayout(top)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(charts)
        split.addWidget(bottom)
        split.setSizes([480, 300])
        layout.addWidget(split, 1)
        self.filling = Filling(self._fill(), self)

    def _fill(self):
        """The plots and the tables, a turn each (see gui/tabs/rules.py), then the rows."""
        self.timing_plot = plots.plot_widget(self)
        put(self._timing_group.layout(), self._timing_place, self.timing_plot)
        plots.modes_timing(self.timing_plot.getPlotItem(), [])
        yield
        self.ratio_plot = plots.plot_widget(self)
        put(self._ratio_group.layout(), self._ratio_place, self.ratio_plot)
        plots.modes_ratio(self.ratio_plot.getPlotItem(), [])
        yield
        self.table = RankedTable([
            Column("parameters", lambda r: r.n, lambda n: f"{n:,}"),
            Column("forward ms", lambda r: r.forward_ms, lambda x: f"{x:.3f}", log=True),
            Column("reverse ms", lambda r: r.reverse_ms, lambda x: f"{x:.3f}", log=True),
            Column("ratio", lambda r: r.ratio, lambda x: f"{x:.1f}×"),
            Column("max |forward − reverse|", lambda r: r.max_difference,
                   scientific, log=True),
        ], self)
        self.table.setObjectName("modes_table")
        put(self._measured, self._table_place, self.table)
        yield
        self.passes = RankedTable([
            Column("parameters", lambda r: r.parameters, lambda n: f"{n:,}"),
            Column("forward mode", lambda r: r.forward_passes, lambda n: f"{n:,} passes"),
            Column("reverse mode", lambda r: r.reverse_passes,
                   lambda n: f"{n} pass" if n == 1 else f"{n} passes"),
        ], self)
        self.passes.set_rows(passes_table())
        put(self._passes_group.layout(), self._passes_place, self.passes)
        yield
        self._show_rows()

    @property
    def running(self) -> bool:
        return self._worker is not None

    @Slot()
    def start_sweep(self) -> None:
        """Time the sizes in a child process: the measurement is not slowed by the
        window, and the window is not slowed by it."""
        if self.running:
            return
        self.rows = []
        self._show_rows()
        self.bar.setValue(0)
        self.bar.show()
        self._cancelled, self._error = False, ""
        worker = self._worker = ProcessWorker(timing_sweep, interval_ms=50, parent=self,
                                              sizes=tuple(self.sizes), repeats=self.repeats)
        worker.yielded.connect(self._on_record)
        worker.errored.connect(self._on_error)
        worker.finished.connect(self._on_finished)
        worker.start()
        self.start.setEnabled(False)
        self.cancel.setEnabled(True)
        self.state.setText("Starting…")
        self.status.emit("Timing forward mode against reverse mode…")

    @Slot()
    def cancel_sweep(self) -> None:
        if self._worker is not None:
            self._cancelled = True
            self._worker.abort()
            self.state.setText("Cancelling…")

    def stop(self) -> None:
        """End the sweep now (the window is closing)."""
        if self._worker is not None:
            self._cancelled = True
            self._worker.stop()

    @Slot(object)
    def _on_record(self, record) -> None:
        if isinstance(record, SweepProgress):
            self.bar.setValue(int(1000 * record.done / record.total))
            self.state.setText(f"Timing N = {record.n:,}…")
        else:
            self.rows.append(record)
            self._show_rows()

    @Slot(str)
    def _on_error(self, error: str) -> None:
        self._error = error

    @Slot()
    def _on_finished(self) -> None:
        self._worker = None
        self.start.setEnabled(True)
        self.cancel.setEnabled(False)
        completed = not self._cancelled and not self._error
        if completed:
            self.bar.setValue(1000)
            text = f"Done: {count(len(self.rows), 'size')} timed."
        elif self._error:
            text = f"The sweep failed: {self._error}"
        else:
            text = f"Cancelled after {count(len(self.rows), 'size')}."
        self.state.setText(text)
        self.status.emit(f"Modes sweep: {text}")

    def _show_rows(self) -> None:
        self.filling.finish()  # a sweep started at once waits for the plots to be made
        plots.modes_timing(self.timing_plot.getPlotItem(), self.rows)
        plots.modes_ratio(self.ratio_plot.getPlotItem(), self.rows)
        self.table.set_rows(self.rows)
        if not self.rows:
            self.agreement.setText("The two gradients' largest disagreement appears here.")
            return
        worst = max(self.rows, key=lambda r: r.max_difference)
        self.agreement.setText(
            f"The two modes' gradients agree to {scientific(worst.max_difference)} at worst "
            f"(N = {worst.n:,}): this is a difference of cost, not of accuracy. "
            f"{break_even_words(self.rows).sentence}")
