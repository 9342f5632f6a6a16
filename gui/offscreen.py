"""The window opened offscreen for a picture, an export or an animation: no settings read
or written, the program built and drawn before anything is taken from it."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def graph_window(text: str | None = None, load: Callable | None = None,
                 constants_as_nodes: bool = False) -> Iterator:
    """A MainWindow offscreen with `text` built (a program that parses), or with what
    `load(window)` loads, drawn with constants as nodes or folded, its background work
    finished. The window is closed and deleted afterwards, so the QApplication can go on
    to other work."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    from gui.app import application, quiet_offscreen_notice
    from gui.window.main_window import MainWindow

    if os.environ["QT_QPA_PLATFORM"] == "offscreen":
        quiet_offscreen_notice()
    app = application()
    window = MainWindow(None, remember=False)
    try:
        if load is not None:  # before it is shown, as debug() loads: the same first view
            load(window)      # (its budget is the unshown view's, gui.graph.framing)
            window.show()
        elif text is not None:
            window.show()
            window.editor.set_text(text)
            window.build(text)
        else:
            window.show()
        window.wait_for_build()  # a big program is built in the background
        QApplication.processEvents()
        window.graph_tab.wait_for_layout()  # a large graph's layout must land first
        QApplication.processEvents()
        window.graph_tab.set_constants_as_nodes(constants_as_nodes)
        QApplication.processEvents()
        window.graph_tab.wait_for_layout()
        QApplication.processEvents()
        yield window
    finally:
        window.close()
        window.deleteLater()
        app.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        app.processEvents()
