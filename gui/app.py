"""Starting the app: the QApplication, a last-resort error dialog, the main window."""

from __future__ import annotations

import logging
import sys
import traceback

from engine.assets import asset_path

log = logging.getLogger("autograd_debugger")
ICON = asset_path("icons", "autograd-debugger.svg")


def report_unexpected(kind, value, tb) -> None:
    """An exception nobody caught (in a slot, say): logged with its traceback and shown
    in words, never as a traceback; the app goes on."""
    from PySide6.QtWidgets import QApplication, QMessageBox

    log.error("unexpected error:\n%s", "".join(traceback.format_exception(kind, value, tb)))
    if QApplication.instance() is not None:
        QMessageBox.critical(None, "Unexpected error",
                             f"Something went wrong: {value}\n\nThe app keeps running; "
                             "the details are in the log.")


def _install_excepthook() -> None:
    sys.excepthook = report_unexpected


def application():
    """The QApplication, created once."""
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Autograd Debugger")
    app.setOrganizationName("AutogradDebugger")
    app.setDesktopFileName("autograd-debugger")
    app.setWindowIcon(QIcon(str(ICON)))
    return app


def run_window(path: str | None = None) -> int:
    """Open the window (on `path`, or the lesson's neuron) and run it until it closes."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    app = application()
    _install_excepthook()
    from gui.window.main_window import MainWindow

    window = MainWindow(path)
    window.show()
    return app.exec()
