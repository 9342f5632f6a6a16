"""A click on the graph's background keeps the node Ctrl+F found selected: QGraphicsView's
hand drag clears the selection on a click that selects nothing, so a user who found a
node and clicked the graph (to give it the keyboard, or to pan a little) lost the node.
A click on another box still selects that box; a click on the background with any other
selection clears it as before (the way back to the inspector following the steps)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt


class KeepFound(QObject):
    """On the view's viewport: a left press on no item while the node named `found` is
    what is selected remembers it; its release selects it again if the view's release
    cleared it."""

    def __init__(self, view):
        super().__init__(view)
        self.view = view
        self.found = ""  # the name of the node found last
        self._kept: list = []

    def _found_selected(self) -> list:
        scene = self.view.scene()
        selected = scene.selectedItems()
        if len(selected) != 1 or not self.found:
            return []
        node = scene.node_at(selected[0])
        return selected if node is not None and node.label == self.found else []

    def eventFilter(self, _watched, event) -> bool:
        kind = event.type()
        if kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
            empty = self.view.itemAt(event.position().toPoint()) is None
            self._kept = self._found_selected() if empty else []
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


def keep_found_on_click(view) -> KeepFound:
    """Keep the node found selected through a click on `view`'s background (set the
    returned keeper's `found` to its name)."""
    keeper = KeepFound(view)
    view.viewport().installEventFilter(keeper)
    return keeper
