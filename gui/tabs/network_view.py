"""A small drawing of the 2-hidden-1 network: each edge coloured by its weight's sign and
as wide as its size, as TensorFlow Playground draws them, with a legend that says so."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import QWidget

from engine.lesson.nn import unpack
from gui.palette import colour

POSITIVE = colour("blue")  # the theme's (gui/palette.py), changed in place
NEGATIVE = colour("orange")
LEGEND_H = 56  # pixels at the bottom for the legend
THIN, THICK = 0.5, 6.5  # edge widths for a weight of 0 and for the largest weight


class NetworkView(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.parameters: tuple[float, ...] = ()
        self.hidden = 2
        self.setMinimumSize(220, 160 + LEGEND_H)
        self.setToolTip("Blue edges are positive weights, orange negative; an edge's width "
                        "grows with its weight's size, the widest being the largest weight "
                        "now. Biases are not drawn.")

    def sizeHint(self) -> QSize:
        return QSize(260, 200 + LEGEND_H)

    def set_parameters(self, parameters: Sequence[float], hidden: int) -> None:
        self.parameters, self.hidden = tuple(parameters), hidden
        self.update()

    def _positions(self) -> list[list[QPointF]]:
        w, h = self.width(), self.height() - LEGEND_H
        columns = []
        for k, count in enumerate((2, self.hidden, 1)):
            x = 30 + k * (w - 60) / 2
            step = (h - 40) / max(count, 1)
            columns.append([QPointF(x, 20 + step * (i + 0.5)) for i in range(count)])
        return columns

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), colour("plot_ground"))
        columns = self._positions()
        largest = None
        if self.parameters:
            layers = unpack(self.parameters, self.hidden)
            largest = max(1e-9, max(float(abs(w).max()) for w, _ in layers))
            for (weights, _), left, right in zip(layers, columns, columns[1:]):
                for j, end in enumerate(right):
                    for i, start in enumerate(left):
                        wij = float(weights[j, i])
                        color = POSITIVE if wij >= 0 else NEGATIVE
                        width = THIN + (THICK - THIN) * min(1.0, abs(wij) / largest)
                        painter.setPen(QPen(color, width))
                        painter.drawLine(start, end)
        painter.setPen(QPen(colour("axis"), 1.2))
        painter.setBrush(colour("op"))
        names = (["x1", "x2"], [f"h{i + 1}" for i in range(self.hidden)], ["out"])
        for column, labels in zip(columns, names):
            for point, label in zip(column, labels):
                painter.drawEllipse(point, 13, 13)
                painter.drawText(QRectF(point.x() - 13, point.y() - 13, 26, 26),
                                 Qt.AlignmentFlag.AlignCenter, label)
        self._paint_legend(painter, largest)
        painter.end()

    def _paint_legend(self, painter: QPainter, largest: float | None) -> None:
        """Three lines at the bottom: what the colours mean, and what the widths mean."""
        top = self.height() - LEGEND_H + 4
        left = 8
        text_color = colour("axis")
        gray = colour("grey")
        rows = (((POSITIVE, 4.0, "weight > 0"), (NEGATIVE, 4.0, "weight < 0")),
                ((gray, THIN, "|weight| ≈ 0"),),
                ((gray, THICK, "the largest |weight|" if largest is None
                  else f"|weight| = {largest:.3g}, the largest"),))
        for r, row in enumerate(rows):
            y = top + 8 + r * 17
            x = left
            for color, width, text in row:
                painter.setPen(QPen(color, width))
                painter.drawLine(QPointF(x, y), QPointF(x + 22, y))
                painter.setPen(text_color)
                rect = QRectF(x + 27, y - 8, self.width() - x - 30, 16)
                painter.drawText(rect, Qt.AlignmentFlag.AlignVCenter, text)
                x += 27 + painter.fontMetrics().horizontalAdvance(text) + 14
