"""A click on the graph's background keeps the selection (a node found, a box clicked):
QGraphicsView's hand drag clears it on a click that selects nothing, so a user who
found a node with Ctrl+F and clicked the graph to give it the keyboard lost the node.
A click on another box still selects that box; a drag pans and keeps the selection."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt


class _KeepSelection(QObject):
    """On the view's viewport: a left press on no item remembers what is selected;
    its release selects it again if the view's release cleared it."""

    def __init__(self, view):
        super().__init__(view)
        self.view = view
        self._kept: list = []

    def eventFilter(self, _watched, event) -> bool:
        kind = event.type()
        if kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
            empty = self.view.itemAt(event.position().toPoint()) is None
            self._kept = self.view.scene().selectedItems() if empty else []
        elif (kind == QEvent.Type.MouseButtonRelease and self._kept
              and event.button() == Qt.MouseButton.LeftButton):
            kept, self._kept = self._kept, []
            scene = self.view.scene()
            self.view.viewportEvent(event)  # the view's own release: it may clear
            if not scene.selectedItems() and all(item.scene() is scene for item in kept):
                for item in kept:
                    item.setSelected(True)
            return True
        return False


def keep_selection_on_click(view) -> None:
    """Keep `view`'s selection through a click on its background (see the docstring)."""
    view.viewport().installEventFilter(_KeepSelection(view))
