"""Message boxes that show their words as written: a file name or an error message may
hold `<img src=…>` or `<a href=…>`, which a box in Qt's automatic text format would
render (and make clickable)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox


def plain_warning(parent, title: str, text: str,
                  buttons=QMessageBox.StandardButton.Ok,
                  default=QMessageBox.StandardButton.NoButton):
    """QMessageBox.warning with `text` as plain text; returns the button pressed."""
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    if default != QMessageBox.StandardButton.NoButton:
        box.setDefaultButton(default)
    return QMessageBox.StandardButton(box.exec())
