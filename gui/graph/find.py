"""Ctrl+F: find a node by name. A line edit over the graph with completion over every
named node's label; Enter opens every group that hides the node, selects it and centres
it."""

from __future__ import annotations

import re

from PySide6.QtCore import QStringListModel, Qt, Signal, Slot
from PySide6.QtWidgets import QCompleter, QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget

_NUMBER = re.compile(r"(\d+)")


def natural_order(name: str) -> list[tuple[int, int | str]]:
    """A sort key that puts numbers in a name in their order, not their text's:
    neurons[2] before neurons[10]."""
    return [(0, int(part)) if k % 2 else (1, part.lower())
            for k, part in enumerate(_NUMBER.split(name))]


class FindBar(QWidget):
    """Hidden until `open()`; `found(name)` when Enter is pressed on a name it knows."""

    found = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("find_bar")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("Find:", self))
        self.edit = QLineEdit(self)
        self.edit.setObjectName("find_edit")
        self.edit.setPlaceholderText("a node's name, e.g. layers[0].neurons[3].w[1]")
        self.edit.setClearButtonEnabled(True)
        self.model = QStringListModel(self)
        self.completer = QCompleter(self.model, self)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.completer.setMaxVisibleItems(12)
        self.edit.setCompleter(self.completer)
        self.edit.returnPressed.connect(self._on_enter)
        self.edit.textChanged.connect(self._on_typed)
        layout.addWidget(self.edit, 1)
        self.note = QLabel(self)
        layout.addWidget(self.note)
        close = QToolButton(self)
        close.setText("×")
        close.setToolTip("Close (Esc)")
        close.clicked.connect(self.close_bar)
        layout.addWidget(close)
        self._names: set[str] = set()
        self._sorted = True  # the completer's list is the names' (none yet)
        self.hide()

    def set_names(self, names: list[str]) -> None:
        """The labels it completes and finds (put in their natural order for completion
        when the bar is first opened: 3,360 names took 40 ms, too long for a graph's
        opening)."""
        self._names = set(names)
        self._sorted = False

    def open(self) -> None:
        if not self._sorted:
            self.model.setStringList(sorted(self._names, key=natural_order))
            self._sorted = True
        self.note.clear()
        self.show()
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edit.selectAll()

    @Slot()
    def close_bar(self) -> None:
        self.hide()

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.close_bar()
            return
        super().keyPressEvent(event)

    @Slot(str)
    def _on_typed(self, _text: str) -> None:
        self.note.clear()  # 'no node has that name' said of the query before

    @Slot()
    def _on_enter(self) -> None:
        name = self.edit.text().strip()
        if name in self._names:
            self.note.clear()
            self.found.emit(name)
        else:
            self.note.setText("no node has that name")
