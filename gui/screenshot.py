"""`main.py screenshot` and `main.py export`: the real window, offscreen, rendered to a PNG
or its graph written as PNG, SVG or JSON."""

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
           size: tuple[int, int] = (1400, 860), theme: str = "light") -> bool:
    """Open the window without reading or writing settings, load `expr` (or the lesson's
    neuron), take `steps` steps (clamped to the end), show `tab` and save it to `out`,
    in the `theme` 'light' or 'dark'."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from gui.theme import applied

    with applied(theme):
        return _render(out, tab, expr, steps, size)


def _render(out: str, tab: str, expr: str | None, steps: int, size: tuple[int, int]) -> bool:
    from PySide6.QtWidgets import QApplication

    from gui.app import application
    from gui.jobs.tensorflow_checker import LOADING
    from gui.window.main_window import MainWindow

    app = application()
    window = MainWindow(expr, remember=False)
    window.resize(*size)
    window.tabs.setCurrentIndex(TAB_NAMES.index(tab))
    window.show()
    QApplication.processEvents()
    window.wait_for_build()  # a big program is built in the background
    QApplication.processEvents()
    window.graph_tab.wait_for_layout()  # a large graph must be drawn before the picture
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
    if tab == "pitfalls":  # its zero_grad runs train in child processes
        _wait(lambda: window.pitfalls_tab.training, 120)
    settle = time.monotonic() + 0.5  # wrapped labels ask for their height, layouts follow
    _wait(lambda: time.monotonic() < settle, 1.0)
    ok = window.grab().save(out)
    window.close()
    app.processEvents()
    return ok


class PictureError(ValueError):
    """The graph cannot be drawn as the picture asked for: the message gives the sizes."""


def export_graph(out: str, text: str, steps: int = 0, constants_as_nodes: bool = False,
                 load=None, theme: str = "light") -> bool:
    """Open the window offscreen without settings, build `text` (a program that parses;
    or call `load(window)`, which loads a program into it), draw constants as nodes or
    folded, take `steps` steps (clamped to the end) and write the graph scene to `out`
    in the `theme` 'light' or 'dark'
    (.png, .svg or .json, written whole or not at all). Returns False if it cannot be
    written; PictureError for a PNG too long to draw (gui.graph.export.picture_problem).
    The window is closed and deleted, so the QApplication can go on to other work."""
    from PySide6.QtWidgets import QApplication

    from gui.graph.export import picture_problem, write_scene
    from gui.offscreen import graph_window
    from gui.theme import applied

    with applied(theme), graph_window(text, load, constants_as_nodes) as window:
        window.session.seek(steps)
        QApplication.processEvents()
        problem = picture_problem(window.graph_tab.scene, out)
        if problem is not None:
            raise PictureError(problem)
        return write_scene(window.graph_tab.scene, out)
