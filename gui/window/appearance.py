"""View → Theme (light, dark, follow the system), remembered; and the graph drawn again
in the new colours, where the user left the view."""

from __future__ import annotations

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication

from gui import palette, theme

THEME_TIP = {
    "light": "Dark text on light grounds, as printed",
    "dark": "Light text on dark grounds: for a dark room or a dark projector set-up",
    "system": "Light or dark as the desktop asks, and again whenever it changes",
}


def redraw_graph(tab) -> None:
    """Draw the graph tab's graph again (new colours, new strokes), keeping the user's
    zoom and scroll when it is drawn at once (a small graph); a fit stays a fit."""
    if tab.session.stepper is None:
        return
    view = tab.view
    kept = None if view.auto_fit else (view.transform(), view.horizontalScrollBar().value(),
                                       view.verticalScrollBar().value())
    tab.redraw()
    if kept is not None and not tab.laying_out:
        transform, x, y = kept
        view.zoom_by(1.0)  # the user's zoom stays: no fit is redone on a resize
        view.setTransform(transform)
        view.horizontalScrollBar().setValue(x)
        view.verticalScrollBar().setValue(y)


class ThemeMenu(QObject):
    """The Theme submenu of `window`'s View menu: its choice is applied at once, and
    remembered in the window's settings (when the window remembers)."""

    def __init__(self, window, view_menu):
        super().__init__(window)
        self.window = window
        self.choice = theme.chosen(window.settings) if window.remember else palette.theme()
        menu = view_menu.addMenu("&Theme")
        menu.setToolTipsVisible(True)
        self.group = QActionGroup(self)
        self.actions: dict[str, QAction] = {}
        for choice in theme.CHOICES:
            action = QAction(theme.LABELS[choice], self)
            action.setCheckable(True)
            action.setChecked(choice == self.choice)
            action.setStatusTip(THEME_TIP[choice])
            action.setToolTip(THEME_TIP[choice])
            action.triggered.connect(lambda checked=False, c=choice: self.choose(c))
            self.group.addAction(action)
            menu.addAction(action)
            self.actions[choice] = action
        theme.changes().changed.connect(self._on_changed)
        self._attached = True
        hints = QGuiApplication.styleHints()
        if hints is not None and hasattr(hints, "colorSchemeChanged"):
            hints.colorSchemeChanged.connect(self._on_system_changed)
        if window.remember:
            theme.apply(self.choice)

    def choose(self, choice: str) -> None:
        """Use and remember `choice` ('light', 'dark' or 'system')."""
        self.choice = choice
        self.actions[choice].setChecked(True)
        if self.window.remember:
            theme.remember(self.window.settings, choice)
        theme.apply(choice)
        self.window.show_status(f"Theme: {theme.LABELS[choice].replace('&', '').lower()} "
                                f"({palette.theme()} colours)")

    @Slot()
    def _on_system_changed(self, *_) -> None:
        if self.choice == "system":
            theme.apply("system")

    def detach(self) -> None:
        """The window closes: a later theme change must not draw (and lay out, in a
        child) the graph of a window that is gone."""
        if self._attached:
            self._attached = False
            theme.changes().changed.disconnect(self._on_changed)
            hints = QGuiApplication.styleHints()
            if hints is not None and hasattr(hints, "colorSchemeChanged"):
                hints.colorSchemeChanged.disconnect(self._on_system_changed)

    @Slot(str)
    def _on_changed(self, _name: str) -> None:
        redraw_graph(self.window.graph_tab)
        self.window._update_inspector()
