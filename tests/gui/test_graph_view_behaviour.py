"""What the graph view shows: fitted when a graph arrives, readable, following the steps
without cutting a box off, the keyboard on the graph after a build, and the bug engines'
verdict at the end of the pass."""

import pytest
from PySide6.QtCore import QEvent, QRectF, Qt
from PySide6.QtGui import QFont, QKeyEvent
from PySide6.QtWidgets import QApplication

from engine.core.pitfalls import NO_SORT, OVERWRITE
from gui.graph.editor import PRESETS
from gui.graph.tab import wrong_gradients_sentence
from gui.graph.view import READABLE_PX
from gui.window.main_window import MainWindow

SMALL = "x = 2.0\nb = x*3\nc = b*2\nd = b + c\n"
CHAIN = "x = 0.5\na0 = tanh(x)\n" + "".join(f"a{k} = tanh(a{k - 1})\n" for k in range(1, 60))
SHORT_CHAIN = "x = 0.5\n" + "".join(f"a{k} = tanh({'a' + str(k - 1) if k else 'x'})\n"
                                    for k in range(4))
FIVE_LINKS = "x = 0.5\n" + "".join(f"a{k} = tanh({'a' + str(k - 1) if k else 'x'})\n"
                                   for k in range(5))
SEVEN_LINKS = "x = 0.5\n" + "".join(f"a{k} = tanh({'a' + str(k - 1) if k else 'x'})\n"
                                    for k in range(7))
# a long chain whose first rule sends gradients to two inputs far to the left
PRODUCT_CHAIN = "w = 0.3\nu = 2.0\na0 = w*u\n" + "".join(
    f"a{k} = tanh(a{k - 1})\n" for k in range(1, 30))

@pytest.fixture(autouse=True)
def node_by_node(monkeypatch):
    """These tests draw big graphs node by node (View → Group big graphs off), as every
    graph was drawn before big ones were grouped."""
    from gui.graph.expansion import Expansion

    monkeypatch.setattr(Expansion, "group_by_default", False)


def visible(view) -> QRectF:
    """The part of the scene the viewport shows."""
    return view.mapToScene(view.viewport().rect()).boundingRect()


def graph_rect(view) -> QRectF:
    return view.scene().itemsBoundingRect()


def fitted_whole(view) -> bool:
    """The whole graph is on screen, at 100% or filling the view's width or height."""
    rect, scale, port = graph_rect(view), view.scale_factor(), view.viewport().rect()
    fills = (rect.width() * scale > 0.9 * port.width()
             or rect.height() * scale > 0.9 * port.height())
    return visible(view).contains(rect) and (scale == pytest.approx(1.0) or fills)


def on_screen_px(view, points: float) -> float:
    """The pixel height of text of `points` points in the scene at the view's zoom."""
    font = QFont()
    font.setPointSizeF(points)
    return font.pointSizeF() * view.logicalDpiY() / 72.0 * view.transform().m11()


def build(window, text: str) -> None:
    window.editor.editor.setPlainText(text)
    window.editor.build_action.trigger()


def step_boxes(window):
    """(current box, boxes of the parents that received a gradient in this step)."""
    scene = window.graph_tab.scene
    current = window.session.stepper.current
    received = [scene.value_item_of(c.parent) for c in current.contributions
                if c.parent is not current.node]
    return scene.current_item(), [item for item in received if item is not None]


# -- 1. fitted when a graph arrives, and again once the window has its size -------------------

def test_building_a_small_program_fits_it_whole(window, qtbot):
    window.resize(1400, 860)
    qtbot.waitUntil(lambda: window.graph_tab.view.viewport().width() > 900)
    view = window.graph_tab.view
    view.zoom_by(3.0)  # the user zoomed in on the last graph
    build(window, SMALL)
    assert fitted_whole(view)
    assert view.auto_fit
    assert on_screen_px(view, 8.5) >= 9.0 - 1e-9


def test_a_file_given_at_start_is_fitted_once_the_window_is_shown(qtbot, tmp_path):
    path = tmp_path / "small.expr"
    path.write_text(SMALL)
    window = MainWindow(str(path), remember=False)  # as `main.py FILE` makes it
    qtbot.addWidget(window)
    view = window.graph_tab.view
    assert view.viewport().width() < 200  # laid out before it had a size
    window.resize(1400, 860)
    window.show()
    qtbot.waitExposed(window)
    assert view.viewport().width() > 900
    assert fitted_whole(view)  # to the final size, not to the one it had at first
    window.close()


def test_resizing_the_window_fits_the_graph_again(window, qtbot):
    # the window cannot be much narrower than 1,400 px: grow it instead
    window.resize(1400, 860)
    view = window.graph_tab.view
    qtbot.waitUntil(lambda: view.viewport().width() < 1100)
    build(window, SEVEN_LINKS)
    assert not visible(view).contains(graph_rect(view))  # too wide to read whole
    assert on_screen_px(view, 8.5) == pytest.approx(READABLE_PX)
    window.resize(1700, 900)
    qtbot.waitUntil(lambda: view.viewport().width() > 1300)
    assert fitted_whole(view)
    assert on_screen_px(view, 8.5) > READABLE_PX + 1e-6
    window.resize(1400, 860)
    qtbot.waitUntil(lambda: view.viewport().width() < 1100)
    assert on_screen_px(view, 8.5) == pytest.approx(READABLE_PX)
    assert view.auto_fit


def test_after_the_user_zooms_a_resize_leaves_the_view_alone(window, qtbot):
    window.resize(1400, 860)
    view = window.graph_tab.view
    build(window, SMALL)
    view.zoom_by(1.5)
    zoomed = view.scale_factor()
    assert not view.auto_fit
    window.resize(1700, 900)
    qtbot.waitUntil(lambda: view.viewport().width() > 1300)
    assert view.scale_factor() == pytest.approx(zoomed)
    view.fit()  # Ctrl+0 fits again, and keeps fitting
    assert view.auto_fit


def test_a_preset_is_fitted(window, qtbot):
    window.resize(1400, 860)
    view = window.graph_tab.view
    view.zoom_by(4.0)
    window.open_preset(str(PRESETS / "02-ab-plus-a.expr"))
    assert view.auto_fit
    assert visible(view).contains(graph_rect(view))


def test_the_window_never_opens_bigger_than_a_small_screen(monkeypatch):
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QGuiApplication

    from gui.window import main_window

    class Screen:
        def __init__(self, w, h):
            self.room = QRect(0, 0, w, h)

        def availableGeometry(self):
            return self.room

    monkeypatch.setattr(QGuiApplication, "platformName", staticmethod(lambda: "xcb"))
    for (w, h), expected in (((1280, 720), (1280, 720 - main_window.FRAME_H)),
                             ((1920, 1080), (1728, 972)), ((2560, 1440), (1800, 1000))):
        monkeypatch.setattr(QGuiApplication, "primaryScreen",
                            staticmethod(lambda w=w, h=h: Screen(w, h)))
        assert main_window.default_size() == expected


# -- 2. never smaller than readable ----------------------------------------------------------

def test_a_long_chain_is_shown_readable_from_its_left_end(window, qtbot):
    window.resize(1400, 860)
    view = window.graph_tab.view
    build(window, CHAIN)
    assert graph_rect(view).width() * view.scale_factor() > view.viewport().width()
    # the smallest text (boxes, edge labels: 8.5 pt) is READABLE_PX: no smaller, no larger
    assert on_screen_px(view, 8.5) == pytest.approx(READABLE_PX)
    first = window.graph_tab.scene.value_item_of(window.session.program.inputs["x"])
    assert visible(view).contains(first.sceneBoundingRect())  # where the forward pass starts
    assert visible(view).left() <= graph_rect(view).left() + 1


def test_a_large_graph_starts_readable_and_labels_boxes_as_they_come_into_view(window, qtbot):
    from gui.graph.spec import LARGE

    n = LARGE + 100
    text = "x = 0.5\na0 = tanh(x)\n" + "".join(f"a{k} = tanh(a{k - 1})\n" for k in range(1, n))
    build(window, text)
    qtbot.waitUntil(lambda: len(window.graph_tab.scene.value_items) == n + 1, timeout=20_000)
    scene, view = window.graph_tab.scene, window.graph_tab.view
    assert scene.labels_visible
    assert on_screen_px(view, 8.5) == pytest.approx(READABLE_PX)
    far = scene.value_items[n // 2]
    assert far.name is None  # nowhere near the screen: no texts made
    window.session.seek(n // 2 + 1)  # the forward pass reaches it
    view.follow_step()
    assert visible(view).contains(far.sceneBoundingRect())
    assert far.name is not None and far.name.isVisible()
    assert far.texts()[1] != "value = ?"


# -- 3. stepping never cuts a box off ---------------------------------------------------------

def test_every_step_shows_its_box_and_the_parents_it_feeds(window, qtbot):
    window.resize(1400, 860)
    tab, view = window.graph_tab, window.graph_tab.view
    build(window, PRODUCT_CHAIN)
    n_forward = len(window.session.stepper.forward_steps)
    checked = 0
    while tab.actions["step"].isEnabled():
        tab.actions["step"].trigger()
        shown = visible(view)
        if window.session.stepper.position <= n_forward:
            assert shown.contains(tab.scene.current_item().sceneBoundingRect())
            continue
        current, received = step_boxes(window)
        assert shown.contains(current.sceneBoundingRect())
        for box in received:
            assert shown.contains(box.sceneBoundingRect()), box.texts()
        checked += len(received)
    assert checked >= 30  # the last step sent gradients to w and u, at the far left


def test_when_the_parents_do_not_fit_the_view_zooms_out_only_as_much_as_needed(window, qtbot):
    window.resize(1400, 860)
    tab, view = window.graph_tab, window.graph_tab.view
    build(window, PRODUCT_CHAIN)
    view.zoom_by(3.2 / view.scale_factor())  # a box ~400 px wide: a0, its op, w, u cannot fit
    zoomed = view.scale_factor()
    tab.actions["end"].trigger()  # the last step: a0 = w*u sends to w and u
    current, received = step_boxes(window)
    assert current.texts()[0] == "a0" and len(received) == 2
    shown = visible(view)
    for box in (current, *received):
        assert shown.contains(box.sceneBoundingRect())
    assert view.readable_scale() <= view.scale_factor() < zoomed  # out, not below READABLE_PX
    # no further out than needed: at a tenth more zoom they would not all fit with the margin
    everything = current.sceneBoundingRect()
    for item in view.step_items():
        everything = everything.united(item.sceneBoundingRect())
    port = view.viewport().rect()
    needed = min((port.width() - 48) / everything.width(),
                 (port.height() - 48) / everything.height())
    assert view.scale_factor() == pytest.approx(max(needed, view.readable_scale()), rel=0.01)


def test_when_the_parents_do_not_fit_at_a_readable_size_the_current_box_wins(window, qtbot):
    window.resize(1400, 860)
    view = window.graph_tab.view
    build(window, CHAIN + "y = a59 * a0\n")  # y's rule sends to a59 and, far left, a0
    n_forward = len(window.session.stepper.forward_steps)
    window.session.seek(n_forward + 2)  # the root's step, then y's rule
    current, received = step_boxes(window)
    assert current.texts()[0] == "y" and len(received) == 2
    shown = visible(view)
    assert shown.contains(current.sceneBoundingRect())
    assert not all(shown.contains(box.sceneBoundingRect()) for box in received)
    assert view.scale_factor() == pytest.approx(view.readable_scale())  # never below READABLE_PX


def test_step_items_are_the_current_box_its_op_and_receiving_parents(window):
    tab, view = window.graph_tab, window.graph_tab.view
    build(window, SMALL)
    assert view.step_items() == []
    tab.actions["end"].trigger()
    scene, names = tab.scene, window.session.program.names
    items = view.step_items()
    assert items[0] is scene.value_item_of(names["b"])   # b = x*3: its rule came last
    assert scene.value_item_of(names["x"]) in items


# -- 4. the keyboard goes to the graph after a build -------------------------------------------

def test_after_a_build_right_steps_at_once(window, qtbot):
    window.editor.editor.setFocus()
    qtbot.waitUntil(window.editor.editor.hasFocus)
    build(window, SMALL)
    view = window.graph_tab.view
    qtbot.waitUntil(view.hasFocus)
    assert QApplication.focusWidget() is view
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Right)
    assert window.session.stepper.position == 1


def test_a_step_key_that_reaches_the_view_steps_instead_of_scrolling(window, qtbot):
    # as in a window that no window manager activated: the shortcut does not fire and
    # the key goes straight to the view
    build(window, CHAIN)
    view = window.graph_tab.view
    for key in (Qt.Key.Key_Right, Qt.Key.Key_Right, Qt.Key.Key_Left):
        QApplication.sendEvent(view, QKeyEvent(QEvent.Type.KeyPress, key,
                                               Qt.KeyboardModifier.NoModifier))
    assert window.session.stepper.position == 1


def test_a_failed_build_keeps_the_keyboard_in_the_editor(window, qtbot):
    editor = window.editor.editor
    editor.setFocus()
    qtbot.waitUntil(editor.hasFocus)
    build(window, "x = 1\ny = log(x - 1)\n")
    assert editor.hasFocus()
    assert QApplication.focusWidget() is editor


def test_opening_a_preset_or_a_file_gives_the_keyboard_to_the_graph(window, qtbot, tmp_path):
    view = window.graph_tab.view
    window.editor.editor.setFocus()
    qtbot.waitUntil(window.editor.editor.hasFocus)
    window.open_preset(str(PRESETS / "02-ab-plus-a.expr"))
    qtbot.waitUntil(view.hasFocus)
    path = tmp_path / "small.expr"
    path.write_text(SMALL)
    window.editor.editor.setFocus()
    qtbot.waitUntil(window.editor.editor.hasFocus)
    assert window.open_file(str(path))
    qtbot.waitUntil(view.hasFocus)


# -- 5. a bug engine's verdict at the end, without moving the graph ----------------------------

def test_the_end_of_a_buggy_pass_says_which_gradients_are_wrong(window, qtbot):
    tab, view = window.graph_tab, window.graph_tab.view
    build(window, SMALL.replace("\n", "; "))
    tab.engine_box.setCurrentIndex(tab.engine_box.findData(NO_SORT))
    QApplication.processEvents()  # the layout the rebuild asked for is done before measuring
    geometry = view.geometry()
    assert not tab.problem.isVisible()
    total = window.session.stepper.total
    seen_at = []
    while tab.actions["step"].isEnabled():
        tab.actions["step"].trigger()
        if tab.problem.isVisible():
            seen_at.append(window.session.stepper.position)
        QApplication.processEvents()  # the step's layout requests are delivered: none moves it
        assert view.geometry() == geometry
    assert seen_at and seen_at[-1] == total
    text = tab.problem.text()
    assert "At the end: x has gradient 3 with this bug; the correct gradient is 9." in text
    tab.actions["reset"].trigger()
    QApplication.processEvents()
    assert not tab.problem.isVisible()
    assert view.geometry() == geometry


def test_the_overwrite_bug_names_its_wrong_gradient_too(window, qtbot):
    tab = window.graph_tab
    tab.engine_box.setCurrentIndex(tab.engine_box.findData(OVERWRITE))
    build(window, "a = 3.0\nb = a + a\n")
    tab.actions["end"].trigger()
    assert tab.problem.isVisible()
    assert "a has gradient 1 with this bug; the correct gradient is 2." in tab.problem.text()


def test_no_verdict_under_the_correct_engine_or_when_the_bug_does_not_bite(window):
    tab = window.graph_tab
    build(window, SMALL)
    tab.actions["end"].trigger()
    assert not tab.problem.isVisible()
    tab.engine_box.setCurrentIndex(tab.engine_box.findData(NO_SORT))
    build(window, "x = 2.0\ny = tanh(x*3)\n")  # a chain: every order is topological
    tab.actions["end"].trigger()
    assert not tab.problem.isVisible()


def test_wrong_gradients_sentence():
    assert wrong_gradients_sentence({"x": 3.0}, {"x": 9.0}) == (
        "At the end: x has gradient 3 with this bug; the correct gradient is 9.")
    assert wrong_gradients_sentence({"x": 0.1 + 0.2, "y": 1.0}, {"x": 0.3, "y": 1.0}) == ""
    many = wrong_gradients_sentence({k: 1.0 for k in "abcdef"}, {k: 2.0 for k in "abcdef"})
    assert many.startswith("At the end, these gradients are wrong with this bug: a has 1 "
                           "(correct: 2); b has 1")
    assert many.endswith("2 more inputs too.")


def test_zoom_in_works_after_fitting_a_huge_graph_whole(window, qtbot):
    from gui.graph.spec import LARGE

    n = LARGE + 100
    text = "x = 0.5\na0 = tanh(x)\n" + "".join(f"a{k} = tanh(a{k - 1})\n" for k in range(1, n))
    build(window, text)
    qtbot.waitUntil(lambda: len(window.graph_tab.scene.value_items) == n + 1, timeout=20_000)
    view = window.graph_tab.view
    view.fit()  # Ctrl+0: the whole graph, far below the 2% the wheel zooms out to
    tiny = view.scale_factor()
    assert tiny < 0.02
    view.zoom_by(1.25)
    assert view.scale_factor() == pytest.approx(tiny * 1.25)
    view.zoom_by(0.8)  # back out to the whole graph
    assert view.scale_factor() == pytest.approx(tiny)
    view.zoom_by(0.8)  # but no further
    assert view.scale_factor() == pytest.approx(tiny)
