"""After the session-33 tryout of debug() on micrograd's MLP and a microgpt step: what
Ctrl+0 said of the view is taken back once the user zooms or pans, a leaf of a model's
state (`state_dict['wte'][5][3]`) is a parameter and says why, a rounded number is told
from an exact one at small text, a group opened keeps its place among its siblings, and
an edge's label sits on its edge after Find opened what hid a node."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QAction

CHAIN = "x = 0.5\na1 = tanh(x)\n" + "".join(f"a{i} = tanh(a{i - 1})\n" for i in range(2, 51))


def _action(window, keys: str) -> QAction:
    return next(a for a in window.findChildren(QAction) if a.shortcut().toString() == keys)


def _chain_window(window, qtbot):
    window.resize(1280, 720)
    qtbot.waitUntil(lambda: window.size().toTuple() == (1280, 720), timeout=5_000)
    window.editor.set_text(CHAIN)
    window.build(CHAIN)
    assert window.wait_for_build() and window.graph_tab.wait_for_layout()
    qtbot.wait(20)
    return window.graph_tab.view


def test_what_ctrl_0_said_goes_once_the_user_zooms(window, qtbot):
    view = _chain_window(window, qtbot)
    status = window.statusBar()
    _action(window, "Ctrl+0").trigger()
    said = status.currentMessage()
    assert said.startswith("Fitted: as much as is readable") or said.startswith("Already")
    view.follow_step()  # the view following the steps is still Ctrl+0's fit
    assert status.currentMessage() == said
    _action(window, "Ctrl+=").trigger()  # the user zooms in: no longer that fit
    assert status.currentMessage() == ""
    window.status_memory._on_tab(0)  # nor put back when the tab comes back
    assert status.currentMessage() == ""


def test_what_ctrl_0_said_goes_once_the_user_pans(window, qtbot):
    view = _chain_window(window, qtbot)
    status = window.statusBar()
    _action(window, "Ctrl+0").trigger()
    _action(window, "Ctrl+0").trigger()  # twice: the whole graph
    from gui.graph.zoom_steps import WHOLE_SAID

    assert status.currentMessage() == WHOLE_SAID
    _action(window, "Ctrl+=").trigger()
    _action(window, "Ctrl+0").trigger()
    said = status.currentMessage()
    assert said.startswith("Fitted")
    port = view.viewport()
    start = QPoint(port.width() // 2, port.height() // 2)
    qtbot.mousePress(port, Qt.MouseButton.LeftButton, pos=start)
    for k in range(1, 6):  # a drag to the left pans the view
        qtbot.mouseMove(port, start - QPoint(40 * k, 0))
    qtbot.mouseRelease(port, Qt.MouseButton.LeftButton, pos=start - QPoint(200, 0))
    assert not view.auto_fit
    assert status.currentMessage() == ""
    _action(window, "Ctrl+0").trigger()  # said again by a new Ctrl+0
    assert status.currentMessage().startswith("Fitted")
    view.zoom_by(1.15, QPointF(100, 100))
    assert status.currentMessage() == ""
