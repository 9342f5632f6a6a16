"""Pieces every exercise uses: its frame, a feedback line in green or red."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QGroupBox, QLabel, QLineEdit

from gui.palette import hex_of
from gui.tabs.learn.content import EXERCISE_TITLES

RIGHT, WRONG, NEUTRAL = "right", "error", "soft"  # the palette's (gui/palette.py)


class Exercise(QGroupBox):
    """An exercise's frame. `solved(key)` is emitted the first time it is solved."""

    solved = Signal(str)
    key = ""

    def __init__(self, director, parent=None):
        super().__init__(EXERCISE_TITLES[self.key], parent)
        self.director = director
        self.setObjectName(f"exercise_{self.key}")
        # the title stands out; what is inside keeps the normal weight
        self.setStyleSheet("QGroupBox { font-weight: bold; } "
                           "QGroupBox * { font-weight: normal; }")
        self.is_solved = False

    def mark_solved(self) -> None:
        if not self.is_solved:
            self.is_solved = True
            self.solved.emit(self.key)


class Feedback(QLabel):
    """A line of feedback: `right`, `wrong` or `say` (neutral), with its text kept in
    `plain` for tests and screen readers alike."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.plain = ""
        self.verdict = ""

    def _show(self, text: str, colour: str, verdict: str) -> None:
        self.plain, self.verdict = text, verdict
        body = html.escape(text).replace("\n", "<br>")
        self.setText(f"<span style='color:{hex_of(colour)}'>{body}</span>")

    def right(self, text: str) -> None:
        self._show(text, RIGHT, "right")

    def wrong(self, text: str) -> None:
        self._show(text, WRONG, "wrong")

    def say(self, text: str) -> None:
        self._show(text, NEUTRAL, "")

    def clear(self) -> None:
        """No feedback: an empty line (what it said no longer applies)."""
        self.plain, self.verdict = "", ""
        super().clear()


def formula_edit(placeholder: str, tip: str, parent=None) -> QLineEdit:
    edit = QLineEdit(parent)
    edit.setPlaceholderText(placeholder)
    edit.setToolTip(tip)
    edit.setFont(monospace())
    edit.setClearButtonEnabled(True)
    return edit


def monospace() -> QFont:
    return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)


def six_digits(x: float) -> str:
    """Six significant digits, without '-0'."""
    return "0" if x == 0.0 else f"{x:.6g}"


def intro_label(text: str, parent) -> QLabel:
    """An exercise's opening sentences: wrapped, in the intro's grey."""
    label = QLabel(text, parent)
    label.setWordWrap(True)
    label.setStyleSheet(f"color: {hex_of('soft')};")
    return label
