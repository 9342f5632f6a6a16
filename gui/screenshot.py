"""`main.py screenshot`: the real window rendered offscreen to a PNG."""

from __future__ import annotations

import os
import time

TAB_NAMES = ("graph", "rules", "modes", "xor", "pitfalls")


def _wait(busy, seconds: float) -> None:
    """Let the event loop run while `busy()` holds, at most `seconds`."""
    from PySide6.QtWidgets import QApplication

    deadline = time.monotonic() + seconds
    while busy() and time.monotonic() < deadline:
        QApplication.processEvents()
        time.sleep(0.02)
    QApplication.processEvents()


def render(out: str, tab: str = "graph", expr: str | None = None, steps: int = 0,
           size: tuple[int, int] = (1400, 860)) -> bool:
    """Open the window without reading or writing settings, load `expr` (or the seed's
    neuron), take `steps` steps (clamped to the end), show `tab` and save it to `out`."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from gui.app import application
    from gui.jobs.tensorflow_checker import LOADING
    from gui.main_window import MainWindow

    app = application()
    window = MainWindow(expr, remember=False)
    window.resize(*size)
    window.tabs.setCurrentIndex(TAB_NAMES.index(tab))
    window.show()
    QApplication.processEvents()
    window.graph_tab.stop_worker()  # a large graph's layout must land before the picture
    QApplication.processEvents()
    window.graph_tab.view.graph_changed()
    window.session.seek(steps)
    QApplication.processEvents()
    # show each tab as a user sees it once its work is done
    if tab == "modes":
        window.modes_tab.start_sweep()
        _wait(lambda: window.modes_tab.running, 600)
    if tab == "xor":
        window.xor_tab.start()
        _wait(lambda: window.xor_tab.running, 300)
    if tab == "rules":
        _wait(lambda: window.checker.state == LOADING, 120)
    ok = window.grab().save(out)
    window.close()
    app.processEvents()
    return ok
