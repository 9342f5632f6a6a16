"""GUI test set-up: settings in a temporary folder, modal dialogs that never block, and
no test may leave a child process running."""

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path, qapp):
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    # QSettings(organization, application), as the window makes it, ignores the default
    # format and uses the native one: without this its tests wrote the user's own file
    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(tmp_path))
    yield tmp_path


@pytest.fixture(autouse=True)
def dialogs(monkeypatch):
    """Record every message box instead of showing it."""
    shown = []

    def record(kind):
        def show(parent, title, text, *args, **kwargs):
            shown.append((kind, title, text))
            return QMessageBox.StandardButton.Ok
        return show

    for kind in ("warning", "information", "critical", "question"):
        monkeypatch.setattr(QMessageBox, kind, staticmethod(record(kind)))
    monkeypatch.setattr(QMessageBox, "about", staticmethod(record("about")))
    from gui.window import boxes  # the app's plain-text boxes, recorded the same way

    monkeypatch.setattr(boxes, "plain_warning", record("warning"))
    return shown


@pytest.fixture(autouse=True)
def no_child_left(qapp):
    """No test may leave a worker or a child process running."""
    yield
    import multiprocessing
    import threading
    import time

    from engine import _gc
    from gui.jobs import process_job, worker

    qapp.processEvents()
    assert not worker.running_workers(), f"workers left running: {worker.running_workers()}"
    assert _gc.holders() == 0, "a sliced task is left running"
    assert not process_job.running(), f"worker processes left: {process_job.running()}"
    deadline = time.monotonic() + 5.0  # a child told to end may take a moment to exit
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not multiprocessing.active_children(), "child processes left running"
    feeders = [t for t in threading.enumerate() if t.name == "process-job-feeder"]
    for feeder in feeders:  # each ends once its job has ended
        feeder.join(max(0.0, deadline - time.monotonic()))
    assert not any(t.is_alive() for t in feeders), "a job's feeder thread is left"


@pytest.fixture
def window(qtbot):
    from gui.window.main_window import MainWindow

    w = MainWindow(remember=False)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.close()
