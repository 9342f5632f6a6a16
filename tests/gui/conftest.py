"""GUI test set-up: settings in a temporary folder, modal dialogs that never block, and
no test may leave a thread running."""

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
    return shown


@pytest.fixture(autouse=True)
def no_threads_left(qapp):
    yield
    from gui.jobs import process_job, threads

    qapp.processEvents()
    assert not threads.running(), f"threads left running: {threads.running()}"
    assert not process_job.running(), f"worker processes left: {process_job.running()}"


@pytest.fixture
def window(qtbot):
    from gui.main_window import MainWindow

    w = MainWindow(remember=False)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.close()
