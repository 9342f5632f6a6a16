"""`main.py screenshot`: the real window rendered offscreen to a PNG."""

from __future__ import annotations

import os
import time

TAB_NAMES = ("graph", "rules", "modes", "xor", "pitfalls")


def render(out: str, tab: str = "graph", expr: str | None = None, steps: int = 0,
           size: tuple[int, int] = (1400, 860)) -> bool:
    """Open the window without reading or writing settings, load `expr` (or the seed's
    neuron), take `steps` steps (clamped to the end), show `tab` and save it to `out`."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from gui.app import application
    from gui.main_window import MainWindow
    from gui.tensorflow_checker import LOADING

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
    if tab == "modes":  # a finished sweep, as a user would see it after pressing Start
        window.modes_tab.start_sweep()
        deadline = time.monotonic() + 600
        while window.modes_tab.running and time.monotonic() < deadline:
            QApplication.processEvents()
            time.sleep(0.05)
        QApplication.processEvents()
    if tab == "xor":  # a finished run of the default settings
        window.xor_tab.start()
        deadline = time.monotonic() + 300
        while window.xor_tab.running and time.monotonic() < deadline:
            QApplication.processEvents()
            time.sleep(0.02)
        QApplication.processEvents()
    if tab == "rules":  # show the TensorFlow check finished, as a user would see it
        deadline = time.monotonic() + 120
        while window.checker.state == LOADING and time.monotonic() < deadline:
            QApplication.processEvents()
            time.sleep(0.05)
        QApplication.processEvents()
    ok = window.grab().save(out)
    window.close()
    app.processEvents()
    return ok
