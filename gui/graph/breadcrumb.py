"""The line above a grouped graph that says where you are: the open groups that hold the
selected (or current) unit, outermost first, each a link that closes the picture back
to it."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QLabel

ROOT = "graph"


class Breadcrumb(QLabel):
    """`graph › layers[0] › neurons[3]`; clicking a group emits `collapse(group id)`."""

    collapse = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("breadcrumb")
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.linkActivated.connect(self._on_link)
        self.setToolTip("The groups open around the selected box (or the current step): "
                        "click one to close the picture back to it")
        self.path: list[tuple[int, str]] = []
        self.hide()

    def show_path(self, path: list[tuple[int, str]], here: str = "") -> None:
        """Show `path` [(group id, title)…], outermost first, then `here` (the unit)."""
        self.path = list(path)
        links = [escape(ROOT)] + [f"<a href='{g}'>{escape(title)}</a>" for g, title in path]
        if here:
            links.append(f"<b>{escape(here)}</b>")
        self.setText(" › ".join(links))
        self.show()

    def words(self) -> str:
        """The breadcrumb as plain text, as a user reads it."""
        return " › ".join([ROOT, *(title for _, title in self.path)])

    @Slot(str)
    def _on_link(self, link: str) -> None:
        self.collapse.emit(int(link))
