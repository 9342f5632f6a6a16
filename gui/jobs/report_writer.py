"""File → Write report: the report computed in a child process, its figures drawn and
the files written here, with a progress bar."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from gui.jobs.process_job import ProcessJob


class ReportWriter(QObject):
    """Writes the report into a folder; `progress(done, total, text)` as it goes, then
    `finished(message)`."""

    progress = Signal(int, int, str)
    finished = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._job: ProcessJob | None = None
        self._folder = ""
        self.timer = QTimer(self)
        self.timer.setInterval(100)
        self.timer.timeout.connect(self._on_tick)

    @property
    def running(self) -> bool:
        return self._job is not None

    def start(self, folder: str, quick: bool = False) -> None:
        if self.running:
            return
        self._folder = folder
        self._job = ProcessJob("engine.report", "build_report", quick=quick)
        self.timer.start()
        self.progress.emit(0, 6, "starting")

    def stop(self) -> None:
        if self._job is not None:
            self._job.stop()
            self._job = None
            self.timer.stop()

    @Slot()
    def _on_tick(self) -> None:
        # here, not at the top: the report needs numpy, which the window's start does not
        from engine.report import ReportData, ReportProgress
        from gui.tabs.report_figures import write_report

        job = self._job
        data = None
        for record in job.drain():
            if isinstance(record, ReportProgress):
                self.progress.emit(record.done, record.total + 1, record.text)
            elif isinstance(record, ReportData):
                data = record
        if not job.finished:
            return
        self._job = None
        self.timer.stop()
        if data is None:
            self.finished.emit(f"The report failed: {job.error or 'no data'}")
            return
        self.progress.emit(5, 6, "drawing the figures")
        try:
            paths = write_report(data, self._folder)
        except OSError as e:
            self.finished.emit(f"Could not write the report in {self._folder}: {e.strerror}")
            return
        self.progress.emit(6, 6, "done")
        self.finished.emit(f"Report written: {paths[0]} and {len(paths) - 1} figures")
