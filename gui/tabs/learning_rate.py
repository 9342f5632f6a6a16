"""The XOR tab's learning-rate box: any float notation, taken only when committed."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QLineEdit

from engine.lesson.nn import MAX_LR, learning_rate


def _shown(value: float) -> str:
    """0.1, 1e-07, 1e+200: short, and exact when typed back in."""
    short = f"{value:g}"
    return short if float(short) == value else repr(value)


class LearningRateBox(QLineEdit):
    """A learning rate typed in any float notation (0.1, 1e-7, 2.5E3) and taken only when
    the typing is committed (Enter, or leaving the box): a half-typed number never
    changes it. Up and Down step a quarter of a decade. A text that is not a positive
    finite number up to MAX_LR is refused: the box shows the value in force again and
    `refused` carries the reason."""

    valueChanged = Signal(float)
    refused = Signal(str)

    def __init__(self, value: float, parent=None):
        super().__init__(parent)
        self._value = value
        self.setText(_shown(value))
        self.editingFinished.connect(self._commit)

    def value(self) -> float:
        return self._value

    def setValue(self, value: float) -> None:
        """Take `value` (clamped to (0, MAX_LR]) as if it had been typed."""
        value = min(float(value), MAX_LR)
        if value > 0:
            self._take(value)

    def _take(self, value: float) -> None:
        self.setText(_shown(value))
        if value != self._value:
            self._value = value
            self.valueChanged.emit(value)

    @Slot()
    def _commit(self) -> None:
        text = self.text()
        if text == _shown(self._value):
            return
        try:
            value = learning_rate(text)
        except ValueError as e:
            self.setText(_shown(self._value))
            self.refused.emit(f"Not changed: {e}. It stays {_shown(self._value)}.")
            return
        self._take(value)

    def keyPressEvent(self, event) -> None:
        steps = {Qt.Key.Key_Up: 1, Qt.Key.Key_Down: -1}.get(event.key())
        if steps is None:
            super().keyPressEvent(event)
            return
        self._commit()
        self.setValue(self._value * 10 ** (steps / 4))
