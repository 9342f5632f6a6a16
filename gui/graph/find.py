"""Ctrl+F: find a node by name. A line edit over the graph with completion over every
named node's label; Enter opens every group that hides the node, selects it and centres
it at a readable zoom, and gives the keyboard back to the graph (Right steps at once).
Enter on part of a name goes to the first name that contains it, in the completion's
order (again: the next); only a text no name contains is 'no node has that name'."""

from __future__ import annotations

import re

from PySide6.QtCore import QStringListModel, Qt, Signal, Slot
from PySide6.QtWidgets import QCompleter, QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget

from engine.numbers import count
from gui.graph.click_keeps import keep_found_on_click

_NUMBER = re.compile(r"(\d+)")


def natural_order(name: str) -> list[tuple[int, int | str]]:
    """A sort key that puts numbers in a name in their order, not their text's:
    neurons[2] before neurons[10]."""
    return [(0, int(part)) if k % 2 else (1, part.lower())
            for k, part in enumerate(_NUMBER.split(name))]


def frame_found(view, item) -> None:
    """Centre `item` (the box found) in `view`, zoomed in to the readable size first if
    the view is smaller (after Expand to level N, or Ctrl+0 twice, it may be a dot)."""
    if view.scale_factor() < view.readable_scale() * 0.999:
        view.set_zoom(view.readable_scale())
    view.centerOn(item)


class FindBar(QWidget):
    """Hidden until `open()`; `found(name)` when Enter is pressed on a name it knows, or
    on part of one (the first name containing it, then the next); the keyboard then
    goes back to the graph view (the parent's `view`, if it has one)."""

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
        self._last: tuple[str, int] = ("", -1)  # the part typed last, the match gone to
        self.view = getattr(parent, "view", None)  # the graph: the keyboard's after a find
        # a click on the background keeps what was found selected
        self.keeper = keep_found_on_click(self.view) if self.view is not None else None
        self.hide()

    def set_names(self, names: list[str]) -> None:
        """The labels it completes and finds (put in their natural order for completion
        when the bar is first opened: 3,360 names took 40 ms, too long for a graph's
        opening)."""
        self._names = set(names)
        self._sorted = False

    def ordered(self) -> list[str]:
        """The names in the completion's (natural) order."""
        if not self._sorted:
            self.model.setStringList(sorted(self._names, key=natural_order))
            self._sorted = True
        return self.model.stringList()

    def matches(self, text: str) -> list[str]:
        """The names that contain `text` (case ignored, as the completion lists them),
        in the completion's order."""
        part = text.casefold()
        return [name for name in self.ordered() if part in name.casefold()]

    def open(self) -> None:
        self.ordered()
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
        text = self.edit.text().strip()
        self.completer.popup().hide()
        if text in self._names:
            self._last = ("", -1)
            self.note.clear()
            self._go(text)
            return
        matches = self.matches(text) if text else []
        if not matches:
            self.note.setText("no node has that name")
            return
        typed, k = self._last
        k = (k + 1) % len(matches) if typed == text else 0
        self._last = (text, k)
        self.note.setText(f"{k + 1} of {count(len(matches), 'name')} containing {text} "
                          "· Ctrl+F, Enter: the next")
        self._go(matches[k])

    def _go(self, name: str) -> None:
        """Find `name`, then give the keyboard back to the graph."""
        if self.keeper is not None:
            self.keeper.found = name
        self.found.emit(name)
        if self.view is not None:
            self.view.setFocus(Qt.FocusReason.OtherFocusReason)
