"""Presentation mode (F5, View → Present): the graph alone, full screen, its type and
strokes large enough for the back of a room, the step's caption in large type under it,
stepped from a presenter's clicker; Esc leaves and puts the window back as it was.

The type grows with the zoom: the view never shows the graph's smallest text under
`text_px` (24 px on a 1080-pixel-high screen, in proportion on others, never under
MIN_TEXT_PX); a graph wider than that fits is followed step by step, as the window
follows it. The strokes grow by STROKE (gui/palette.set_stroke; the items' pens).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Slot
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import QLabel, QSizePolicy

from engine.core.narration import step_caption
from gui import palette
from gui.graph import items
from gui.graph.view import SMALLEST_TEXT_PT
from gui.window.appearance import redraw_graph

TEXT_PX_AT_1080 = 24.0  # the smallest text in the graph, on a 1080-pixel-high screen
MIN_TEXT_PX = 18.0
CAPTION_SCALE = 1.3     # the caption's type against the graph's smallest
STROKE = 2.0
KEYS = ("Right, Space or Page Down: next step · Left or Page Up: step back · "
        "Home: start again · Esc: leave")
NEXT, BACK = ("Space", "PgDown"), ("PgUp",)


def level_caption(tab, stepper, name: str | None) -> str:
    """The caption of the step just taken, at the level shown (a grouped graph's counter,
    as the Graph tab's phase says it: 'backward 5/6 · inside data_loss'), else
    narration.step_caption's."""
    text = step_caption(stepper, name)
    levels = tab.expansion.levels() if tab.scene.stepper is stepper else None
    if levels is None:
        return text
    if stepper.position == 0:
        n_forward, n_backward = levels.counts()
        return (f"Before any step: {n_forward:,} forward steps compute the values, then "
                f"{n_backward:,} backward steps the gradients, at the level shown")
    progress = tab.expansion.progress(levels)
    unit = levels.current_unit()
    if unit is not None and unit >= 0:  # a box drawn: what it computed or sent
        return f"{progress}: {text.split(': ', 1)[-1]}"
    if stepper.position <= len(stepper.forward_steps):
        return f"{progress}: its forward pass, in one step"
    return f"{progress}: its backward pass, in one step (its parents' edges show what it sent)"


def _alive(widget) -> bool:
    import shiboken6

    return shiboken6.isValid(widget)


def text_px(height: int) -> float:
    """The smallest text of the graph, in pixels, in a window `height` pixels high."""
    return max(MIN_TEXT_PX, TEXT_PX_AT_1080 * height / 1080.0)


class Presentation(QObject):
    """F5 enters, Esc (or F5) leaves; `active` says which. What entering changes (the
    docks, the menu bar, the tab bar, the controls, the window's size and the view's
    zoom) is put back as it was on leaving."""

    def __init__(self, window, view_menu):
        super().__init__(window)
        self.window = window
        self.active = False
        self._saved: dict | None = None
        self.caption: QLabel | None = None
        self.action = QAction("&Present", window)
        self.action.setShortcut(QKeySequence("F5"))
        tip = f"Full screen, large type, for a projector. {KEYS}"
        self.action.setStatusTip(tip)
        self.action.setToolTip(tip)
        self.action.triggered.connect(self.toggle)
        view_menu.addAction(self.action)
        self.keys: list[QAction] = []  # the clicker's keys, live while presenting
        for shortcut, slot in [*((k, self._next) for k in NEXT),
                               *((k, self._back) for k in BACK), ("Esc", self.leave)]:
            key = QAction(window)
            key.setShortcut(QKeySequence(shortcut))
            key.setEnabled(False)
            key.triggered.connect(slot)
            window.addAction(key)
            self.keys.append(key)
        # closing while presenting remembers the window as it was before, not full screen
        window.installEventFilter(self)
        window.tabs.currentChanged.connect(self._on_tab)

    @Slot()
    def toggle(self) -> None:
        if self.active:
            self.leave()
        else:
            self.enter()

    # -- entering ----------------------------------------------------------------------------

    def enter(self) -> None:
        """Present the graph: docks, menus, tabs and controls hidden, full screen."""
        if self.active:
            return
        window, tab = self.window, self.window.graph_tab
        view = tab.view
        play = tab.actions["play"]
        play.setChecked(False)
        self._saved = {
            "state": window.saveState(), "geometry": window.geometry(),
            "full": window.isFullScreen(), "maximized": window.isMaximized(),
            "tab": window.tabs.currentIndex(),
            "fit": view.auto_fit, "transform": view.transform(),
            "scroll": (view.horizontalScrollBar().value(), view.verticalScrollBar().value()),
            "play": play.shortcut(), "legend": tab.legend.font(),
            "hidden": [w for w in self._controls() if w.isVisible()],
            "strokes": not tab.scene.large and tab.scene.shown is None,
            "bars": (view.horizontalScrollBarPolicy(), view.verticalScrollBarPolicy()),
            "tip": view.toolTip(),
        }
        self.active = True
        window.tabs.setCurrentIndex(0)
        for dock in (window.editor_dock, window.inspector_dock):
            dock.hide()
        window.menuBar().hide()
        window.tabs.tabBar().hide()
        for widget in self._saved["hidden"]:
            widget.hide()
        play.setShortcut(QKeySequence())  # Space steps while presenting
        for key in self.keys:
            key.setEnabled(True)
        self._show_caption()
        legend = QFont(tab.legend.font())
        legend.setPixelSize(round(text_px(window.height()) * 0.75))
        tab.legend.setFont(legend)
        view.readable_scale = self._present_scale  # the view's fits keep the type large
        view.setToolTip(KEYS)
        for policy in (view.setHorizontalScrollBarPolicy, view.setVerticalScrollBarPolicy):
            policy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # the clicker moves it, no bar
        view.viewport().installEventFilter(self)
        view.installEventFilter(self)
        if self._saved["strokes"]:  # a small graph is drawn again at once, wider
            palette.set_stroke(STROKE)
            items.pen.cache_clear()
            redraw_graph(tab)
        window.showFullScreen()
        screen = window.screen()
        if screen is not None and not screen.geometry().isEmpty():
            window.setGeometry(screen.geometry())  # where no window manager makes it so
        view.fit(readable=True)
        tab.focus_graph()
        window.show_status(f"Presenting. {KEYS}")

    def _controls(self) -> list:
        """The widgets of the graph tab's row of controls (the step buttons, the speed,
        the engine, the phase): the clicker and the caption take their place."""
        row = self.window.graph_tab.layout().itemAt(0).layout()
        return [row.itemAt(i).widget() for i in range(row.count())
                if row.itemAt(i).widget() is not None]

    def _present_scale(self) -> float:
        view = self.window.graph_tab.view
        px_per_pt = view.logicalDpiY() / 72.0
        # a hair over, so that rounding never leaves the text a hair under
        return (text_px(self.window.height()) + 0.01) / (SMALLEST_TEXT_PT * px_per_pt)

    def _show_caption(self) -> None:
        tab = self.window.graph_tab
        if self.caption is None:
            self.caption = QLabel(tab)
            self.caption.setObjectName("presentation_caption")
            self.caption.setWordWrap(True)
            self.caption.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self.caption.setSizePolicy(QSizePolicy.Policy.Preferred,
                                       QSizePolicy.Policy.Minimum)
            self.caption.setToolTip(KEYS)
            tab.layout().addWidget(self.caption)
            self.window.session.moved.connect(self._update_caption)
            self.window.session.loaded.connect(self._update_caption)
        font = QFont(self.caption.font())
        font.setPixelSize(round(text_px(self.window.height()) * CAPTION_SCALE))
        self.caption.setFont(font)
        self._update_caption()
        self.caption.show()

    @Slot()
    def _update_caption(self, *_) -> None:
        if self.caption is None or not self.active:
            return
        session = self.window.session
        if session.stepper is None:
            self.caption.setText("")
            return
        name = session.program.output_name if session.program is not None else None
        self.caption.setText(level_caption(self.window.graph_tab, session.stepper, name))

    @Slot(int)
    def _on_tab(self, index: int) -> None:
        if self.active and index != 0:  # Ctrl+2 … Ctrl+6: the window, as it was, on that tab
            self.leave()
            self.window.tabs.setCurrentIndex(index)

    # -- the clicker -------------------------------------------------------------------------

    @Slot()
    def _next(self) -> None:
        action = self.window.graph_tab.actions["step"]
        if action.isEnabled():
            action.trigger()

    @Slot()
    def _back(self) -> None:
        action = self.window.graph_tab.actions["back"]
        if action.isEnabled():
            action.trigger()

    def eventFilter(self, watched, event) -> bool:
        """While presenting: the clicker's keys step even where the window's shortcuts
        did not take them (the view has the keyboard); the font grows with the screen."""
        if not self.active:
            return False
        if watched is self.window:
            if event.type() == QEvent.Type.Close:
                self.leave()
            return False
        if event.type() == QEvent.Type.Resize and self.caption is not None:
            font = QFont(self.caption.font())
            font.setPixelSize(round(text_px(self.window.height()) * CAPTION_SCALE))
            self.caption.setFont(font)
        if event.type() == QEvent.Type.KeyPress and event.modifiers() in (
                Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier):
            key = event.key()
            if key in (Qt.Key.Key_Space, Qt.Key.Key_PageDown):
                self._next()
                return True
            if key == Qt.Key.Key_PageUp:
                self._back()
                return True
            if key == Qt.Key.Key_Escape:
                self.leave()
                return True
        return False

    # -- leaving -----------------------------------------------------------------------------

    @Slot()
    def leave(self) -> None:
        """Back to the window as it was before: its size, docks, menus, tabs, controls
        and the view's zoom and scroll (or its fit)."""
        if not self.active:
            return
        window, tab = self.window, self.window.graph_tab
        view, saved = tab.view, self._saved
        self.active = False
        for key in self.keys:
            key.setEnabled(False)
        view.viewport().removeEventFilter(self)
        view.removeEventFilter(self)
        del view.readable_scale  # the class's own again
        view.setToolTip(saved["tip"])
        view.setHorizontalScrollBarPolicy(saved["bars"][0])
        view.setVerticalScrollBarPolicy(saved["bars"][1])
        tab.actions["play"].setShortcut(saved["play"])
        if self.caption is not None:
            self.caption.hide()
        tab.legend.setFont(saved["legend"])
        for widget in saved["hidden"]:
            widget.show()
        window.menuBar().show()
        window.tabs.tabBar().show()
        if saved["maximized"]:
            window.showMaximized()
        elif not saved["full"]:
            window.showNormal()
            window.setGeometry(saved["geometry"])
        window.restoreState(saved["state"])
        window.tabs.setCurrentIndex(saved["tab"])
        if saved["strokes"]:
            palette.set_stroke(1.0)
            items.pen.cache_clear()
            redraw_graph(tab)
        self._restore_view(view, saved)
        # leaving full screen lands in its own time (the window manager's): once it has,
        # the size and the view are put back again
        QTimer.singleShot(0, lambda: self._settle(saved))
        window.show_status("Presentation ended")

    def _settle(self, saved: dict) -> None:
        window = self.window
        if self.active or not _alive(window):
            return
        if not saved["full"] and not saved["maximized"] and window.geometry() != saved["geometry"]:
            window.setGeometry(saved["geometry"])
        window.restoreState(saved["state"])
        self._restore_view(window.graph_tab.view, saved)

    @staticmethod
    def _restore_view(view, saved: dict) -> None:
        if saved["fit"]:
            view.fit(readable=True)
            return
        view.zoom_by(1.0)  # the user's zoom: no fit is redone on a resize
        view.setTransform(saved["transform"])
        view.zoomed.emit(view.scale_factor())
        x, y = saved["scroll"]
        view.horizontalScrollBar().setValue(x)
        view.verticalScrollBar().setValue(y)
