"""Small pieces the tabs share."""

from __future__ import annotations

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QGroupBox, QVBoxLayout, QWidget


def group_box(title: str, widget: QWidget, parent: QWidget) -> QGroupBox:
    """`widget` in a titled frame."""
    group = QGroupBox(title, parent)
    box = QVBoxLayout(group)
    box.setContentsMargins(4, 4, 4, 4)
    box.addWidget(widget)
    return group


class ProgramTab(QWidget):
    """A tab that shows something about the current program, worked out only when the
    tab is visible: a new program marks it stale, showing it refreshes it."""

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self._stale = True
        session.loaded.connect(self._on_loaded)

    def refresh(self) -> None:
        """Show the current program (subclasses draw here)."""

    @Slot()
    def _on_loaded(self) -> None:
        self._stale = True
        if self.isVisible():
            self._refresh_now()

    def _refresh_now(self) -> None:
        self._stale = False
        if self.session.program is not None:
            self.refresh()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._stale:
            self._refresh_now()
