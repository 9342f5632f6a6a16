"""A graph `debug()` cannot read leaves no window behind; micrograd's own class is named
once."""

from __future__ import annotations

import micrograd.engine as mg
import pytest
from PySide6.QtWidgets import QApplication

from engine.io.graph_import import GraphImportError
from gui import debug
from gui.window.main_window import MainWindow


def _open_windows() -> list:
    return [w for w in QApplication.topLevelWidgets()
            if isinstance(w, MainWindow) and w.isVisible()]


def test_a_graph_that_cannot_be_read_raises_and_leaves_no_window(qtbot):
    class Odd:  # a micrograd-style node with an op this engine does not know
        def __init__(self, data, prev=(), op=""):
            self.data, self.grad, self._prev, self._op = data, 0.0, set(prev), op
            self._backward = lambda: None

    before = _open_windows()
    out = Odd(1.0, (Odd(2.0), Odd(3.0)), "@@")
    with pytest.raises(GraphImportError):
        debug(out, block=False)
    qtbot.waitUntil(lambda: _open_windows() == before, timeout=5000)



def test_micrograds_own_class_is_named_once_a_users_own_by_its_model():
    from engine.io.graph_import import import_graph

    x = mg.Value(2.0)
    assert import_graph(x * x).described() == "micrograd's Value (micrograd.engine.Value)"
