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


OFFSCREEN_NOTICE = "This plugin does not support propagateSizeHints()"
_previous_handler = None


def quiet_offscreen_notice() -> None:
    """Keep the offscreen platform's notice that it cannot propagate size hints (said
    on every window it shows) off standard error, where a command's own words go; every
    other Qt message goes where it went."""
    from PySide6.QtCore import qInstallMessageHandler

    global _previous_handler

    def handler(mode, context, message: str) -> None:
        if message.strip() == OFFSCREEN_NOTICE:
            return
        if _previous_handler is not None:
            _previous_handler(mode, context, message)
        else:
            sys.stderr.write(message + "\n")

    _previous_handler = qInstallMessageHandler(handler)


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
