"""A small drawing of the 2-hidden-1 network: each edge coloured by its weight's sign and
as wide as its size, as TensorFlow Playground draws them."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QWidget

from engine.nn import unpack

POSITIVE = QColor("#2563eb")
NEGATIVE = QColor("#ea580c")


class NetworkView(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.parameters: tuple[float, ...] = ()
        self.hidden = 2
        self.setMinimumSize(220, 160)
        self.setToolTip("Blue edges are positive weights, orange negative; "
                        "width grows with the weight's size")

    def sizeHint(self) -> QSize:
        return QSize(260, 200)

    def set_parameters(self, parameters: Sequence[float], hidden: int) -> None:
        self.parameters, self.hidden = tuple(parameters), hidden
        self.update()

    def _positions(self) -> list[list[QPointF]]:
        w, h = self.width(), self.height()
        columns = []
        for k, count in enumerate((2, self.hidden, 1)):
            x = 30 + k * (w - 60) / 2
            step = (h - 40) / max(count, 1)
            columns.append([QPointF(x, 20 + step * (i + 0.5)) for i in range(count)])
        return columns

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor("white"))
        columns = self._positions()
        if self.parameters:
            layers = unpack(self.parameters, self.hidden)
            largest = max(1e-9, max(abs(p) for p in self.parameters))
            for (weights, _), left, right in zip(layers, columns, columns[1:]):
                for j, end in enumerate(right):
                    for i, start in enumerate(left):
                        wij = float(weights[j, i])
                        color = POSITIVE if wij >= 0 else NEGATIVE
                        width = 0.5 + 6.0 * min(1.0, abs(wij) / largest)
                        painter.setPen(QPen(color, width))
                        painter.drawLine(start, end)
        painter.setPen(QPen(QColor("#374151"), 1.2))
        painter.setBrush(QColor("#f3f4f6"))
        names = (["x1", "x2"], [f"h{i + 1}" for i in range(self.hidden)], ["out"])
        for column, labels in zip(columns, names):
            for point, label in zip(column, labels):
                painter.drawEllipse(point, 13, 13)
                painter.drawText(QRectF(point.x() - 13, point.y() - 13, 26, 26),
                                 Qt.AlignmentFlag.AlignCenter, label)
        painter.end()
