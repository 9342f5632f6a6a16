"""File → Check an engine…: a user's autograd engine checked rule by rule.

The file runs only in child processes (engine.checks.engine_check.runner); this dialog reads
their results through a ProcessWorker, so the window keeps drawing while a check hangs. A failing
check's graph opens in the Graph tab, stepped as the user's engine did it.
"""
# size: __init__ lays out the dialog's widgets top to bottom, in the order they show

from __future__ import annotations

import html
import re
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from engine.assets import asset_path
from engine.checks.engine_check import CHECKS, DEFAULT_TIMEOUT_S, CheckRun, finish_report
from engine.checks.engine_check.wording import case_lines
from gui.jobs.engine_check_job import CheckRunSource
from gui.jobs.worker import ProcessWorker
from gui.palette import colour, hex_of

EXAMPLES = asset_path("engines")
POLL_MS = 50
RED = colour("error")  # the theme's (gui/palette.py), changed in place
GREY = colour("muted")


def examples() -> list[Path]:
    """The example engines, one classic bug each."""
    return sorted(EXAMPLES.glob("*.py"))


def plain(text: str) -> str:
    """A sentence for the table: `code` marks (kept for the command line's Markdown-like
    text) become quotes."""
    return re.sub(r"`([^`]*)`", "‘\\1’", text)


def plain_tooltip(text: str) -> str:
    """`text` as a tooltip shows it, whatever it holds: a tooltip that looks like rich
    text is rendered as such, so the user's words (an exception's message, a class
    name: `<img src=…>`) are escaped inside one that is."""
    if not text:
        return ""
    return f"<p style='white-space:pre-wrap'>{html.escape(text)}</p>"


def details(record: dict) -> str:
    """A check's case, expected and received numbers, for a tooltip."""
    lines = [record.get("sentence", ""), *case_lines(record)]
    return "\n".join(line for line in lines if line)


class EngineCheckDialog(QDialog):
    """Pick a file and a class, run the checks, read the table, open a failing case."""

    open_case = Signal(object, str)  # the replay record of a failing case, the file's name

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Check an engine")
        self.resize(980, 700)
        self.run: CheckRun | None = None
        self.report: dict | None = None
        self._records: dict[str, dict] = {}

        self.path = QLineEdit(self)
        self.path.setObjectName("engine_path")
        self.path.setPlaceholderText("a Python file defining your Value class")
        self.path.textChanged.connect(self._on_path)
        browse = QPushButton("Browse…", self)
        browse.clicked.connect(self._on_browse)
        self.examples = QComboBox(self)
        self.examples.setObjectName("engine_examples")
        self.examples.addItem("Examples: one classic bug each…", "")
        for path in examples():
            self.examples.addItem(path.name, str(path))
        self.examples.setToolTip("Small engines written for this app, each with one "
                                 "classic bug, to see what a diagnosis looks like")
        self.examples.currentIndexChanged.connect(self._on_example)
        row = QHBoxLayout()
        row.addWidget(QLabel("Engine file:", self))
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        row.addWidget(self.examples)

        self.class_name = QLineEdit("Value", self)
        self.class_name.setObjectName("engine_class")
        self.class_name.setMaximumWidth(160)
        self.timeout = QDoubleSpinBox(self)
        self.timeout.setRange(0.5, 600.0)
        self.timeout.setValue(DEFAULT_TIMEOUT_S)
        self.timeout.setSuffix(" s")
        self.timeout.setToolTip("How long one check may run before it is stopped")
        self.check_button = QPushButton("Check", self)
        self.check_button.setObjectName("check_button")
        self.check_button.setDefault(True)
        self.check_button.clicked.connect(self._on_check)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setObjectName("cancel_check")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, len(CHECKS))
        self.progress.setValue(0)
        self.progress.setFormat("%v of %m checks")
        row2 = QHBoxLayout()
        row2.addWidget(QLabel("Class:", self))
        row2.addWidget(self.class_name)
        row2.addWidget(QLabel("Time limit per check:", self))
        row2.addWidget(self.timeout)
        row2.addWidget(self.check_button)
        row2.addWidget(self.progress, 1)
        row2.addWidget(self.cancel_button)

        note = QLabel("The file is executed as Python, in a separate process (code under "
                      "<code>if __name__ == \"__main__\":</code> does not run), and each "
                      "check is stopped after its time limit. Check only code you trust.",
                      self)
        note.setWordWrap(True)
        note.setStyleSheet(f"color: {hex_of('muted')};")
        self.status = QLabel(self)
        self.status.setObjectName("check_status")
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # it quotes the user's file

        self.table = QTableWidget(len(CHECKS), 3, self)
        self.table.setObjectName("check_table")
        self.table.setHorizontalHeaderLabels(["Check", "Status", "What is wrong"])
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(
            self.table.fontMetrics().lineSpacing() + 6)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.cellDoubleClicked.connect(self._on_double_click)
        for r, name in enumerate(CHECKS):
            self.table.setItem(r, 0, QTableWidgetItem(name))
            self.table.setItem(r, 1, QTableWidgetItem(""))
            self.table.setItem(r, 2, QTableWidgetItem(""))

        self.graph_button = QPushButton("Step this case in the Graph tab", self)
        self.graph_button.setObjectName("graph_button")
        self.graph_button.setToolTip("Open the failing case's graph, stepped by your engine: "
                                     "its local derivatives beside the right ones")
        self.graph_button.setEnabled(False)
        self.graph_button.clicked.connect(self._on_graph)
        close = QPushButton("Close", self)
        close.clicked.connect(self.close)
        bottom = QHBoxLayout()
        bottom.addWidget(self.graph_button)
        bottom.addStretch(1)
        bottom.addWidget(close)

        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addLayout(row2)
        layout.addWidget(note)
        layout.addWidget(self.status)
        layout.addWidget(self.table, 1)
        # the selected check's case and numbers, in full
        self.details = QLabel("Select a check to see its case and its numbers.", self)
        self.details.setObjectName("check_details")
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.PlainText)  # the user's errors, as written
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.details)
        layout.addLayout(bottom)

        self._worker: ProcessWorker | None = None

    # -- running ----------------------------------------------------------------------------

    def start(self, path: str, class_name: str = "Value",
              timeout_s: float | None = None) -> None:
        """Check the class `class_name` of the file at `path` (ending a check that runs)."""
        self.cancel(quiet=True)
        self.path.setText(path)
        self.class_name.setText(class_name)
        if timeout_s is not None:
            self.timeout.setValue(timeout_s)
        self.report = None
        self._records = {}
        self.table.clearSelection()
        for r in range(len(CHECKS)):
            self._show_row(r, "", "", None)
        if not Path(path).is_file():
            self._say(f"{path} is not a file.", error=True)
            return
        self.run = CheckRun(path, class_name.strip() or "Value", self.timeout.value())
        self.progress.setValue(0)
        self.check_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self._say(f"Checking {Path(path).name}…")
        worker = self._worker = ProcessWorker(source=CheckRunSource(self.run),
                                              interval_ms=POLL_MS, parent=self)
        worker.yielded.connect(self._on_record)
        worker.finished.connect(self._on_finished)
        worker.start()

    @property
    def running(self) -> bool:
        return self.run is not None and not self.run.done

    @Slot()
    def cancel(self, quiet: bool = False) -> None:
        """Stop the checks now: the child process is ended."""
        if self._worker is not None:
            worker, self._worker = self._worker, None
            done = len(self.run.results)
            worker.cancel()
            if not quiet:
                self._say(f"Cancelled after {done} of {len(CHECKS)} checks.")
        self.check_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    @Slot(object)
    def _on_record(self, record: tuple) -> None:
        if record[0] == "result":
            _, name, result = record
            self._records[name] = result
            self._show(name, result)
            self.progress.setValue(len(self.run.results))
        elif not self.run.done:  # ("running", name)
            self.table.item(CHECKS.index(record[1]), 1).setText("running…")

    @Slot()
    def _on_finished(self) -> None:
        if self.sender() is not self._worker:
            return  # cancelled
        self._worker = None
        self.check_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self._finish()

    def _finish(self) -> None:
        run = self.run
        if run.load_error is not None:
            self._say(f"{Path(run.path).name} cannot be checked: {run.load_error}", error=True)
            return
        self.report = finish_report(run)
        for name, record in self.report["checks"].items():
            self._records[name] = record
            self._show(name, record)
        s = self.report["summary"]
        failing = s["wrong"] + s["error"] + s["timeout"]
        words = (f"{s['ok']} ok, {s['wrong']} wrong, {s['missing']} missing, {s['error']} "
                 f"error, {s['timeout']} timeout.")
        if failing:
            words += " Select a wrong check and step its case in the Graph tab."
        self._say(f"{Path(run.path).name}, class {run.class_name}: {words}", error=failing > 0)
        self._update_buttons()

    # -- the table --------------------------------------------------------------------------

    def _say(self, text: str, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet(f"color: {hex_of('error')};" if error else "")

    def _show(self, name: str, record: dict) -> None:
        status = record["status"]
        sentence = "" if status == "ok" else record.get("sentence", "")
        color = None if status == "ok" else GREY if status == "missing" else RED
        self._show_row(CHECKS.index(name), status, sentence, color, details(record))

    def _show_row(self, r: int, status: str, sentence: str, color, tip: str = "") -> None:
        for c, text in ((1, status), (2, plain(sentence))):
            item = self.table.item(r, c)
            item.setText(text)
            item.setToolTip(plain_tooltip(plain(tip)))
            item.setForeground(QBrush(color) if color is not None else QBrush())
        self.table.item(r, 0).setForeground(QBrush(color) if color is not None else QBrush())
        self.table.resizeRowToContents(r)

    def status_of(self, name: str) -> str:
        """The status shown for check `name` ('' before it has run)."""
        return self.table.item(CHECKS.index(name), 1).text()

    def sentence_of(self, name: str) -> str:
        return self.table.item(CHECKS.index(name), 2).text()

    def _selected(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        return CHECKS[rows[0].row()] if rows else None

    @Slot()
    def _update_buttons(self) -> None:
        name = self._selected()
        record = self._records.get(name) if name else None
        self.details.setText(f"{name}: {plain(details(record)).replace(chr(10), ' · ')}"
                             if record else "Select a check to see its case and its numbers.")
        self.graph_button.setEnabled(bool(record and record.get("replay")
                                          and self.report is not None))

    def select(self, name: str) -> None:
        self.table.selectRow(CHECKS.index(name))

    @Slot()
    def _on_graph(self) -> None:
        name = self._selected()
        record = self._records.get(name) if name else None
        if record and record.get("replay") and self.report is not None:
            self.open_case.emit(record["replay"], Path(self.run.path).name)

    @Slot(int, int)
    def _on_double_click(self, row: int, _column: int) -> None:
        self.select(CHECKS[row])
        self._on_graph()

    @Slot()
    def _on_browse(self) -> None:
        start = self.path.text() or str(EXAMPLES)
        path, _ = QFileDialog.getOpenFileName(self, "Check an engine", start,
                                              "Python files (*.py);;All files (*)")
        if path:
            self.path.setText(path)

    @Slot(str)
    def _on_path(self, text: str) -> None:
        """The Examples box names the example being checked, or none."""
        index = max(self.examples.findData(str(Path(text).resolve())) if text else 0, 0)
        self.examples.blockSignals(True)
        self.examples.setCurrentIndex(index)
        self.examples.blockSignals(False)

    @Slot(int)
    def _on_example(self, index: int) -> None:
        path = self.examples.itemData(index)
        if path:
            self.path.setText(path)
            self.class_name.setText("Value")

    @Slot()
    def _on_check(self) -> None:
        self.start(self.path.text().strip(), self.class_name.text().strip(),
                   self.timeout.value())

    def closeEvent(self, event) -> None:
        self.cancel(quiet=True)
        super().closeEvent(event)


def open_dialog(window) -> EngineCheckDialog:
    """Show the window's engine-check dialog (made once), connected to its Graph tab."""
    dialog = getattr(window, "engine_dialog", None)
    if dialog is None:
        dialog = EngineCheckDialog(window)
        dialog.open_case.connect(lambda replay, name: (dialog.hide(),
                                                       show_case(window, replay, name)))
        window.engine_dialog = dialog
    dialog.show()
    return dialog


def show_case(window, replay: dict, engine_name: str) -> None:
    """Load a failing case into the window's Graph tab, stepped by the user's engine."""
    note = window.session.load_recorded(replay, engine_name)
    replaced = window.editor.text() != replay["text"]
    window.editor.replace_text(replay["text"])  # Ctrl+Z brings back what was there
    window.editor.clear_error()
    window.tabs.setCurrentIndex(0)
    window.graph_tab.focus_graph()
    undo = (" The editor now holds the case (Ctrl+Z in the editor brings your text back)."
            if replaced else "")
    window.show_status(f"Stepping with {engine_name}: press Right to step; the first step "
                       "that departs from the correct engine turns red. File → Check an "
                       "engine… shows the table again." + undo + (f" {note}" if note else ""))


def stop_checks(window) -> None:
    """End a running check (the window closes)."""
    dialog = getattr(window, "engine_dialog", None)
    if dialog is not None:
        dialog.cancel(quiet=True)
