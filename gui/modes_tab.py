"""The Modes tab: forward mode against reverse mode, timed in a worker thread."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from engine.modes import SIZES, Progress, SweepRow, break_even, passes_table, timing_sweep
from gui import plots, threads
from gui.ranked_table import Column, RankedTable

INTRO = ("The function is the seed's neuron with N inputs, L(w) = (tanh(Σ wᵢxᵢ + b) − y)², "
         "differentiated with respect to its N weights. Reverse mode builds the graph once and "
         "makes one backward pass; forward mode makes one pass of dual numbers per weight. "
         "Both use the same rules in plain Python, so the ratio is the modes' alone.")


class SweepWorker(QObject):
    """Drives `timing_sweep` in its own thread; stops between yields when asked."""

    progress = Signal(float, float, int)  # done, total, size being timed
    row = Signal(object)                  # a SweepRow (a frozen record: a copy)
    finished = Signal(bool)               # True if it ran to the end

    def __init__(self, sizes, repeats: int):
        super().__init__()
        self.sizes, self.repeats = tuple(sizes), repeats
        self.abort = False  # set from the GUI thread; read between yields

    @Slot()
    def work(self) -> None:
        completed = True
        try:
            for record in timing_sweep(self.sizes, self.repeats):
                if self.abort:
                    completed = False
                    break
                if isinstance(record, Progress):
                    self.progress.emit(record.done, record.total, record.n)
                else:
                    self.row.emit(record)
        finally:
            self.finished.emit(completed)


class ModesTab(QWidget):
    status = Signal(str)

    def __init__(self, parent=None, sizes=SIZES, repeats: int = 3):
        super().__init__(parent)
        self.sizes, self.repeats = sizes, repeats
        self.rows: list[SweepRow] = []
        self._worker: SweepWorker | None = None
        self._thread = None

        self.start = QPushButton("Start", self)
        self.start.setToolTip("Time a full gradient in both modes at every size")
        self.start.clicked.connect(self.start_sweep)
        self.cancel = QPushButton("Cancel", self)
        self.cancel.setToolTip("Stop the sweep; the sizes already timed stay")
        self.cancel.setEnabled(False)
        self.cancel.clicked.connect(self.cancel_sweep)
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 1000)
        self.bar.setFormat("%p%")
        self.state = QLabel("Press Start to time the sizes " +
                            ", ".join(f"{n:,}" for n in sizes) + ".", self)
        top = QHBoxLayout()
        top.addWidget(self.start)
        top.addWidget(self.cancel)
        top.addWidget(self.bar, 1)
        top.addWidget(self.state, 2)

        self.timing_plot = plots.plot_widget(self)
        self.ratio_plot = plots.plot_widget(self)
        plots.modes_timing(self.timing_plot.getPlotItem(), [])
        plots.modes_ratio(self.ratio_plot.getPlotItem(), [])
        charts = QSplitter(Qt.Orientation.Horizontal, self)
        charts.addWidget(self._group("Milliseconds per full gradient (log-log)",
                                     self.timing_plot))
        charts.addWidget(self._group("Cost ratio: forward mode ÷ reverse mode",
                                     self.ratio_plot))

        self.table = RankedTable([
            Column("parameters", lambda r: r.n, lambda n: f"{n:,}"),
            Column("forward ms", lambda r: r.forward_ms, lambda x: f"{x:.3f}", log=True),
            Column("reverse ms", lambda r: r.reverse_ms, lambda x: f"{x:.3f}", log=True),
            Column("ratio", lambda r: r.ratio, lambda x: f"{x:.1f}×"),
            Column("max |forward − reverse|", lambda r: r.max_difference,
                   lambda x: f"{x:.2e}", log=True),
        ], self)
        self.table.setObjectName("modes_table")
        self.agreement = QLabel(self)
        self.agreement.setWordWrap(True)
        self.passes = RankedTable([
            Column("parameters", lambda r: r.parameters, lambda n: f"{n:,}"),
            Column("forward mode", lambda r: r.forward_passes, lambda n: f"{n:,} passes"),
            Column("reverse mode", lambda r: r.reverse_passes,
                   lambda n: f"{n} pass" if n == 1 else f"{n} passes"),
        ], self)
        self.passes.set_rows(passes_table())
        bottom = QSplitter(Qt.Orientation.Horizontal, self)
        measured = QWidget(self)
        box = QVBoxLayout(measured)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.table, 1)
        box.addWidget(self.agreement)
        bottom.addWidget(self._group("Measured (click a column to rank)", measured))
        bottom.addWidget(self._group("Passes for one full gradient (arithmetic)", self.passes))
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
        self._show_rows()

    def _group(self, title: str, widget: QWidget) -> QGroupBox:
        group = QGroupBox(title, self)
        box = QVBoxLayout(group)
        box.setContentsMargins(4, 4, 4, 4)
        box.addWidget(widget)
        return group

    @property
    def running(self) -> bool:
        return self._worker is not None

    @Slot()
    def start_sweep(self) -> None:
        if self.running:
            return
        self.rows = []
        self._show_rows()
        self.bar.setValue(0)
        worker = SweepWorker(self.sizes, self.repeats)
        worker.progress.connect(self._on_progress)
        worker.row.connect(self._on_row)
        worker.finished.connect(self._on_finished)
        self._worker = worker
        self._thread = threads.start(worker)
        self.start.setEnabled(False)
        self.cancel.setEnabled(True)
        self.state.setText("Timing…")
        self.status.emit("Timing forward mode against reverse mode…")

    @Slot()
    def cancel_sweep(self) -> None:
        if self._worker is not None:
            self._worker.abort = True
            self.state.setText("Cancelling…")

    def stop(self) -> None:
        """Cancel and wait for the worker (the window is closing)."""
        self.cancel_sweep()
        threads.stop(self._thread)

    @Slot(float, float, int)
    def _on_progress(self, done: float, total: float, n: int) -> None:
        self.bar.setValue(int(1000 * done / total))
        self.state.setText(f"Timing N = {n:,}…")

    @Slot(object)
    def _on_row(self, row: SweepRow) -> None:
        self.rows.append(row)
        self._show_rows()

    @Slot(bool)
    def _on_finished(self, completed: bool) -> None:
        self._worker = self._thread = None
        self.start.setEnabled(True)
        self.cancel.setEnabled(False)
        if completed:
            self.bar.setValue(1000)
        text = (f"Done: {len(self.rows)} sizes timed." if completed
                else f"Cancelled after {len(self.rows)} sizes.")
        self.state.setText(text)
        self.status.emit(f"Modes sweep: {text}")

    def _show_rows(self) -> None:
        plots.modes_timing(self.timing_plot.getPlotItem(), self.rows)
        plots.modes_ratio(self.ratio_plot.getPlotItem(), self.rows)
        self.table.set_rows(self.rows)
        if not self.rows:
            self.agreement.setText("The two gradients' largest disagreement appears here.")
            return
        worst = max(self.rows, key=lambda r: r.max_difference)
        even = break_even(self.rows)
        even_text = (f" Forward mode stops being cheaper at about N = {even:.3g}."
                     if even is not None else "")
        self.agreement.setText(
            f"The two modes' gradients agree to {worst.max_difference:.2e} at worst "
            f"(N = {worst.n:,}): this is a difference of cost, not of accuracy.{even_text}")
