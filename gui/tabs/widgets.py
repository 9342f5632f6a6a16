"""Small pieces the tabs share."""

from __future__ import annotations

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QFrame, QGroupBox, QLabel, QScrollArea, QVBoxLayout, QWidget

from gui.tabs.lazy import Filling


def group_box(title: str, widget: QWidget, parent: QWidget) -> QGroupBox:
    """`widget` in a titled frame."""
    group = QGroupBox(title, parent)
    box = QVBoxLayout(group)
    box.setContentsMargins(4, 4, 4, 4)
    box.addWidget(widget)
    return group


class WrappedLabel(QLabel):
    """A word-wrapped label that asks for the height its lines take at its width: a
    splitter or a scroll area, which do not ask a label its height for a width, would
    otherwise lay what follows over its last lines."""

    def __init__(self, text: str = "", parent=None):
        super().__init__(text, parent)
        self.setWordWrap(True)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def setText(self, text: str) -> None:
        super().setText(text)
        self._fit()

    def _fit(self) -> None:
        old = self.minimumHeight()
        self.setMinimumHeight(0)  # a label's height for a width is never below its minimum
        height = max(self.heightForWidth(self.width()), 0) if self.text() else 0
        self.setMinimumHeight(height if height != old else old)


def put(box, place: QWidget, widget: QWidget) -> None:
    """`widget` where `place` held its room in the layout `box` (its stretch kept)."""
    box.replaceWidget(place, widget)
    place.deleteLater()


def scrolled(widget: QWidget, parent: QWidget) -> QScrollArea:
    """`widget` in a frameless scroll area: in a window smaller than the widget can be
    laid out in, the tab scrolls instead of cutting its text or widening the window."""
    area = QScrollArea(parent)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidgetResizable(True)
    widget.setContentsMargins(4, 4, 4, 4)
    area.setWidget(widget)
    return area


def scrolling_tab(tab: QWidget, layout) -> None:
    """Lay `tab` out with `layout`, in a scroll area (see scrolled) that fills it."""
    inside = QWidget(tab)
    inside.setLayout(layout)
    layout.setContentsMargins(0, 0, 0, 0)
    outer = QVBoxLayout(tab)
    outer.setContentsMargins(0, 0, 0, 0)
    outer.addWidget(scrolled(inside, tab))


class ProgramTab(QWidget):
    """A tab that shows something about the current program, worked out only when the
    tab is visible: a new program marks it stale, showing it refreshes it. While its
    `filling` (gui/tabs/lazy.py) runs, the refresh waits for `filled()`."""

    filling = None  # a Filling while the tab's pieces are being made

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self._stale = True
        session.loaded.connect(self._on_loaded)

    def fill_with(self, steps) -> None:
        """Make the tab's heavier pieces from the generator `steps`, over a few turns."""
        self.filling = Filling(steps, self)
        self.filling.done.connect(self.filled)

    def filled(self) -> None:
        """The tab's last piece is made: show the current program if it is in view."""
        if self._stale and self.isVisible():
            self._refresh_now()

    def refresh(self) -> None:
        """Show the current program (subclasses draw here)."""

    @Slot()
    def _on_loaded(self) -> None:
        self._stale = True
        if self.isVisible():
            self._refresh_now()

    def _refresh_now(self) -> None:
        if self.filling is not None and self.filling.running:
            return  # filled() refreshes it
        self._stale = False
        if self.session.program is not None:
            self.refresh()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._stale:
            self._refresh_now()
