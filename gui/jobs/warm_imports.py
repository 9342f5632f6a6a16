"""The tabs' heavy modules (numpy, pyqtgraph: about half a second) imported in a thread
while the window is idle, so that opening Rules, Pitfalls or Modes the first time does not
hold the window for the import.

An import is pure Python and holds the interpreter lock, but a thread lets go of it every
few milliseconds (sys.getswitchinterval), so the window keeps drawing while it runs;
the same import on the window's thread was one gap of its whole length. Only imports:
no widget is made here. A tab opened before the thread is done waits for the import it
needs (Python's import lock), no longer than it would have taken anyway. Qt-free.
"""
# Qt-free: a thread and importlib; tests/test_structure.py imports it alone and finds no Qt.

from __future__ import annotations

import importlib
import threading

MODULES = ("numpy", "pyqtgraph", "gui.tabs.plots", "gui.tabs.rules", "gui.tabs.pitfalls",
           "gui.tabs.modes")
_started: list[threading.Thread] = []


def _import_all(names: tuple[str, ...]) -> None:
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - the tab's own import says why, when it is made
            return


def start_warming(names: tuple[str, ...] = MODULES) -> threading.Thread:
    """Start importing `names` in a daemon thread, once per process; returns it."""
    if not _started:
        thread = threading.Thread(target=_import_all, args=(names,), daemon=True,
                                  name="warm-imports")
        _started.append(thread)
        thread.start()
    return _started[0]
