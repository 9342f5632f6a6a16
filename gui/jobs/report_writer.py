"""File → Write report: the report computed in a child process, its figures drawn and
the files written here, with a progress bar."""

from __future__ import annotations

import errno
import os
import secrets
import shutil
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot

from gui.jobs.worker import ProcessWorker

REPORT_FILES = ("report.md", "rules.png", "modes.png", "xor.png")


def write_report_staged(data, folder: str | os.PathLike) -> list[Path]:
    """The report's files (REPORT_FILES) for a ReportData, written whole into `folder`:
    first into a temporary folder beside it, then moved into place only once every file
    is written (a new or empty `folder` is the temporary one renamed; an existing one
    gets each file replaced). Returns their paths; OSError (its filename `folder`) if
    any could not be written, and then nothing of this report is left anywhere."""
    from gui.tabs.report_figures import write_report

    given, folder = Path(folder), Path(os.path.abspath(folder))
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = folder.parent / f".~{folder.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    staging.mkdir()
    try:
        try:
            written = {path.name for path in write_report(data, staging)}
            missing = [name for name in REPORT_FILES if name not in written]
            if missing:  # a figure QImage could not save (a full disk, say)
                raise OSError(errno.EIO, f"{missing[0]} could not be written")
            try:
                os.rename(staging, folder)  # all at once, when `folder` is new or empty
            except OSError:
                for name in REPORT_FILES:
                    os.replace(staging / name, folder / name)
        except OSError as e:
            raise OSError(e.errno, e.strerror or str(e), str(folder)) from e
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return [given / name for name in REPORT_FILES]


class ReportWriter(QObject):
    """Writes the report into a folder; `progress(done, total, text)` as it goes, then
    `finished(message)`."""

    progress = Signal(int, int, str)
    finished = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._worker: ProcessWorker | None = None
        self._folder = ""
        self._data = None
        self._error = ""

    @property
    def running(self) -> bool:
        return self._worker is not None

    def start(self, folder: str, quick: bool = False) -> None:
        if self.running:
            return
        # here, not at the top: the report needs numpy, which the window's start does not
        from engine.lesson.report import build_report

        self._folder, self._data, self._error = folder, None, ""
        worker = self._worker = ProcessWorker(build_report, interval_ms=100, parent=self,
                                              quick=quick)
        worker.yielded.connect(self._on_record)
        worker.errored.connect(self._on_error)
        worker.finished.connect(self._on_finished)
        worker.start()
        self.progress.emit(0, 6, "starting")

    def stop(self) -> None:
        if self._worker is not None:
            worker, self._worker = self._worker, None
            worker.finished.disconnect(self._on_finished)  # the window closes: no files
            worker.stop()

    @Slot(object)
    def _on_record(self, record) -> None:
        from engine.lesson.report import ReportData, ReportProgress

        if isinstance(record, ReportProgress):
            self.progress.emit(record.done, record.total + 1, record.text)
        elif isinstance(record, ReportData):
            self._data = record

    @Slot(str)
    def _on_error(self, error: str) -> None:
        self._error = error

    @Slot()
    def _on_finished(self) -> None:
        self._worker = None
        if self._data is None:
            self.finished.emit(f"The report failed: {self._error or 'no data'}")
            return
        self.progress.emit(5, 6, "drawing the figures")
        try:
            paths = write_report_staged(self._data, self._folder)
        except OSError as e:
            self.finished.emit(f"Could not write the report in {self._folder}: {e.strerror}")
            return
        self.progress.emit(6, 6, "done")
        self.finished.emit(f"Report written: {paths[0]} and {len(paths) - 1} figures")
