"""Presentation mode: the graph alone in large type and wide strokes, the step's caption
under it, a clicker's keys, and Esc putting the window back as it was."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QApplication, QGraphicsSimpleTextItem, QToolButton, QWidget

from engine.core.narration import step_caption
from gui import palette
from gui.graph import items
from gui.window import presentation
from tests.engine.helpers import NEURON

CHAIN = "x = 0.5\n" + "".join(f"a{k} = tanh({'a' + str(k - 1) if k else 'x'})\n"
                             for k in range(40))


@pytest.fixture
def shown(window, qtbot):
    window.load_program(NEURON)
    yield window
    window.presentation.leave()


def _text_px(window) -> list[tuple[float, str]]:
    """Every text of the graph drawn now, as (its height in pixels on screen, text)."""
    view = window.graph_tab.view
    zoom = view.transform().m11()
    px_per_pt = view.logicalDpiY() / 72.0
    return [(item.font().pointSizeF() * px_per_pt * zoom, item.text())
            for item in window.graph_tab.scene.items()
            if isinstance(item, QGraphicsSimpleTextItem) and item.isVisible() and item.text()]


def _present(window, size):
    window.presentation.enter()
    QApplication.processEvents()
    window.resize(*size)  # the offscreen screen is smaller than a projector's
    QApplication.processEvents()


def _whole(view) -> bool:
    return view.mapToScene(view.viewport().rect()).boundingRect().contains(
        view.scene().graph_rect())


def test_at_1920_by_1080_the_neuron_is_whole_at_the_largest_scale_that_fits(shown):
    # the neuron does not fit at 24-px type: it is fitted whole, its type as large as
    # that allows (larger than in the window), not cut at both ends (issue 22)
    before = _text_px(shown)
    assert min(px for px, _ in before) < 10  # the window's own size: small type
    _present(shown, (1920, 1080))
    assert shown.presentation.active
    for _ in range(16):  # into the backward pass: the edges' labels are drawn too
        shown.presentation._next()
    QApplication.processEvents()
    sizes = _text_px(shown)
    labels = [t for _, t in sizes if "×" in t]
    assert labels and len(sizes) > len(before)
    view = shown.graph_tab.view
    assert _whole(view) and view.scale_factor() < view.readable_scale()
    assert min(px for px, _ in sizes) > 1.4 * min(px for px, _ in before)
    caption = shown.presentation.caption
    assert caption.isVisible()
    assert caption.text() == step_caption(shown.session.stepper, "loss")
    assert caption.text().startswith("backward 3/8")
    assert QFontInfo(caption.font()).pixelSize() >= 30
    assert not shown.editor_dock.isVisible() and not shown.inspector_dock.isVisible()
    assert not shown.menuBar().isVisible() and not shown.tabs.tabBar().isVisible()
    assert not shown.findChild(QToolButton, "step_button").isVisible()


def test_at_1280_by_720_the_type_is_in_proportion_and_never_small(shown):
    _present(shown, (1280, 720))
    assert presentation.text_px(720) == presentation.MIN_TEXT_PX == 18.0
    # the neuron: whole, at the largest scale that fits (issue 22)
    assert _whole(shown.graph_tab.view) and min(px for px, _ in _text_px(shown)) >= 8.5
    shown.load_program(CHAIN)  # a graph that cannot fit: at the presentation's size
    QApplication.processEvents()
    assert not _whole(shown.graph_tab.view)
    assert min(px for px, _ in _text_px(shown)) >= 18.0
    assert presentation.text_px(2160) == 48.0


def test_the_strokes_are_wider_and_back_after(shown):
    session = shown.session
    session.seek(1)
    box = shown.graph_tab.scene.current_item()
    normal = box.pen().widthF()
    assert box.pen().color().rgba() == palette.colour("current").rgba()
    _present(shown, (1920, 1080))
    box = shown.graph_tab.scene.current_item()
    assert box.pen().widthF() == pytest.approx(normal * presentation.STROKE)
    plain = [i for i in shown.graph_tab.scene.items() if getattr(i, "pen", None)
             and i.pen().color().rgba() == palette.colour("edge").rgba()]
    assert plain and min(i.pen().widthF() for i in plain) >= presentation.STROKE
    shown.presentation.leave()
    QApplication.processEvents()
    assert palette.stroke() == 1.0
    assert shown.graph_tab.scene.current_item().pen().widthF() == pytest.approx(normal)
    assert items.pen(palette.colour("edge").rgba(), 1.0).widthF() == 1.0


def test_a_clicker_steps_forward_and_back_and_space_does_not_play(shown, qtbot):
    _present(shown, (1920, 1080))
    view = shown.graph_tab.view
    session = shown.session
    for key, position in ((Qt.Key.Key_Space, 1), (Qt.Key.Key_PageDown, 2),
                          (Qt.Key.Key_Right, 3), (Qt.Key.Key_PageUp, 2),
                          (Qt.Key.Key_Left, 1), (Qt.Key.Key_Space, 2)):
        qtbot.keyClick(view, key)
        assert session.stepper.position == position, key
    assert not shown.graph_tab.timer.isActive()
    assert shown.presentation.caption.text().startswith("forward 2/13")
    assert "Esc" in shown.presentation.action.statusTip()
    assert "Page Down" in shown.presentation.action.toolTip()
    assert "Esc" in view.toolTip() and "Esc" in shown.statusBar().currentMessage() + \
        shown.presentation.caption.toolTip()
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert not shown.presentation.active
    assert "Esc" not in view.toolTip()
    # Space is Play again
    assert shown.graph_tab.actions["play"].shortcut().toString() == "Space"


def test_esc_restores_the_docks_the_sizes_and_the_zoom(shown, qtbot):
    shown.resize(1600, 900)
    QApplication.processEvents()
    view = shown.graph_tab.view
    view.zoom_by(1.25)  # the user's own zoom and scroll
    view.horizontalScrollBar().setValue(view.horizontalScrollBar().maximum() // 2)
    shown.tabs.setCurrentIndex(2)
    QApplication.processEvents()
    shown.tabs.setCurrentIndex(0)
    QApplication.processEvents()
    before = {"zoom": view.transform().m11(), "x": view.horizontalScrollBar().value(),
              "dock": shown.editor_dock.width(), "inspector": shown.inspector_dock.height(),
              "size": shown.size(), "graph": shown.graph_tab.view.width()}
    assert before["x"] > 0
    _present(shown, (1920, 1080))
    assert view.transform().m11() > before["zoom"]
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    qtbot.wait(20)
    after = {"zoom": view.transform().m11(), "x": view.horizontalScrollBar().value(),
             "dock": shown.editor_dock.width(), "inspector": shown.inspector_dock.height(),
             "size": shown.size(), "graph": shown.graph_tab.view.width()}
    assert after == before
    assert shown.editor_dock.isVisible() and shown.inspector_dock.isVisible()
    assert shown.menuBar().isVisible() and shown.tabs.tabBar().isVisible()
    assert not shown.presentation.caption.isVisible()
    assert shown.findChild(QToolButton, "step_button").isVisible()


def test_a_fitted_view_is_fitted_again_after(shown, qtbot):
    view = shown.graph_tab.view
    assert view.auto_fit
    zoom = view.transform().m11()
    _present(shown, (1920, 1080))
    shown.presentation.toggle()  # F5 again leaves too
    qtbot.wait(20)
    assert not shown.presentation.active and view.auto_fit
    assert view.transform().m11() == pytest.approx(zoom)


def test_closing_while_presenting_remembers_the_window_as_it_was(qtbot):
    from PySide6.QtCore import QSettings

    from gui import settings as remembered
    from gui.window.main_window import MainWindow

    first = MainWindow()
    qtbot.addWidget(first)
    first.show()
    first.resize(1300, 800)
    QApplication.processEvents()
    geometry, state = first.saveGeometry(), first.saveState()
    first.presentation.enter()
    QApplication.processEvents()
    first.close()
    assert not first.presentation.active
    saved = remembered.read(QSettings("AutogradDebugger", "AutogradDebugger"), (1, 30))
    second = MainWindow()
    qtbot.addWidget(second)
    second.show()
    QApplication.processEvents()
    assert saved.state == state  # the docks as they were
    restored = []
    for blob in (geometry, saved.geometry):  # the size as it was, not the screen's
        widget = QWidget()
        qtbot.addWidget(widget)
        widget.restoreGeometry(blob)
        restored.append((widget.geometry(), widget.isFullScreen()))
    assert restored[0] == restored[1] and not restored[1][1]
    assert second.editor_dock.isVisible() and second.inspector_dock.isVisible()
    assert second.menuBar().isVisible() and not second.isFullScreen()
    second.close()


def test_another_tab_leaves_the_presentation(shown):
    _present(shown, (1920, 1080))
    shown.tabs.setCurrentIndex(3)
    assert not shown.presentation.active and shown.tabs.currentIndex() == 3
    assert shown.editor_dock.isVisible() and shown.tabs.tabBar().isVisible()
