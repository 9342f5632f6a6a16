"""The drawn pieces of a computation graph: value boxes, op circles and edges.

Built from Qt's own shape and text items (painted in C++), created once per graph and
then only re-labelled and re-coloured as the user steps.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsSimpleTextItem,
)

VALUE_W, VALUE_H = 116.0, 58.0
OP_D = 30.0

FILL = {
    "input": QColor("#dbeafe"),
    "constant": QColor("#ececec"),
    "intermediate": QColor("#ffffff"),
    "output": QColor("#fef3c7"),
}
INK = QColor("#1f2937")
FAINT = QColor("#9ca3af")
CURRENT = QColor("#ea580c")    # the node whose step was just taken
RECEIVED = QColor("#16a34a")   # a parent that just received a contribution
BACKWARD = QColor("#2563eb")   # gradient flow already applied
WRONG = QColor("#dc2626")
EDGE = QColor("#6b7280")


def _font(size: float, bold: bool = False) -> QFont:
    font = QFont()
    font.setPointSizeF(size)
    font.setBold(bold)
    return font


def _text(parent: QGraphicsItem, size: float, bold: bool = False) -> QGraphicsSimpleTextItem:
    item = QGraphicsSimpleTextItem(parent)
    item.setFont(_font(size, bold))
    item.setBrush(INK)
    return item


class ValueItem(QGraphicsRectItem):
    """A value node: its name, its value and its gradient, each labelled."""

    def __init__(self, index: int, role: str, name: str):
        super().__init__(-VALUE_W / 2, -VALUE_H / 2, VALUE_W, VALUE_H)
        self.index = index
        self.role = role
        self.setBrush(FILL[role])
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.name = _text(self, 9.5, bold=True)
        self.value = _text(self, 8.5)
        self.grad = _text(self, 8.5)
        metrics = QFontMetricsF(self.name.font())
        self.name.setText(metrics.elidedText(name, Qt.TextElideMode.ElideRight, VALUE_W - 8))
        self.setToolTip(name)
        self._place(self.name, -VALUE_H / 2 + 3)
        self._state = None
        self.set_state("?", "", border=INK, width=1.0, faint=True)

    def _place(self, item: QGraphicsSimpleTextItem, top: float) -> None:
        w = item.boundingRect().width()
        item.setPos(-w / 2, top)

    def set_state(self, value: str, grad: str, border: QColor, width: float,
                  faint: bool) -> None:
        """Show `value` and `grad` (already formatted) with the given border."""
        state = (value, grad, border.rgba(), width, faint)
        if state == self._state:
            return  # nothing changed: no repaint
        self._state = state
        self.value.setText(f"value = {value}")
        self.grad.setText(f"grad = {grad}" if grad else "grad = ·")
        ink = FAINT if faint else INK
        self.value.setBrush(ink)
        self.grad.setBrush(INK if grad else FAINT)
        self._place(self.value, -VALUE_H / 2 + 21)
        self._place(self.grad, -VALUE_H / 2 + 38)
        pen = QPen(border, width)
        pen.setCosmetic(width <= 1.0)
        self.setPen(pen)

    def texts(self) -> tuple[str, str, str]:
        """(name, value line, grad line) as displayed: what tests and users read."""
        return self.name.text(), self.value.text(), self.grad.text()

    def set_labels_visible(self, visible: bool) -> None:
        for item in (self.name, self.value, self.grad):
            item.setVisible(visible)


class OpItem(QGraphicsEllipseItem):
    """An operation: a small circle with its symbol."""

    def __init__(self, index: int, symbol: str):
        super().__init__(-OP_D / 2, -OP_D / 2, OP_D, OP_D)
        self.index = index
        self.setBrush(QColor("#f3f4f6"))
        self.setPen(QPen(EDGE, 1.2))
        self.symbol = _text(self, 9.0 if len(symbol) <= 2 else 7.0, bold=True)
        self.symbol.setText(symbol)
        r = self.symbol.boundingRect()
        self.symbol.setPos(-r.width() / 2, -r.height() / 2)
        self._state = None

    def set_active(self, color: QColor | None) -> None:
        state = None if color is None else color.rgba()
        if state == self._state:
            return
        self._state = state
        self.setPen(QPen(EDGE if color is None else color, 1.2 if color is None else 2.5))

    def set_labels_visible(self, visible: bool) -> None:
        self.symbol.setVisible(visible)


class EdgeItem(QGraphicsPathItem):
    """An arrow from `start` to `end`, with an optional label for the gradient it carries."""

    def __init__(self, start: QPointF, end: QPointF, bend: float = 0.0):
        super().__init__()
        self.setZValue(-1)
        dx = max(30.0, (end.x() - start.x()) / 2)
        path = QPainterPath(start)
        c1 = QPointF(start.x() + dx, start.y() + bend)
        c2 = QPointF(end.x() - dx, end.y() + bend)
        path.cubicTo(c1, c2, end)
        # arrow head
        path.moveTo(end)
        path.lineTo(end.x() - 7, end.y() - 4)
        path.moveTo(end)
        path.lineTo(end.x() - 7, end.y() + 4)
        self.setPath(path)
        # the label sits where the curve crosses the middle of the gap, above the line
        self._mid = self._point_at_x(path, (start.x() + end.x()) / 2)
        # the label is a separate top-level item (add `tag` to the scene) drawn above
        # every edge, on a white ground so that no line crosses its text
        self.tag = QGraphicsRectItem()
        self.tag.setZValue(2)
        self.tag.setBrush(QColor(255, 255, 255, 230))
        self.tag.setPen(QPen(Qt.PenStyle.NoPen))
        self.tag.setVisible(False)
        self.label = QGraphicsSimpleTextItem(self.tag)
        self.label.setFont(_font(8.0))
        self._state = None
        self.set_style(EDGE, 1.0, dashed=False)

    @staticmethod
    def _point_at_x(path: QPainterPath, x: float) -> QPointF:
        lo, hi = 0.0, 1.0
        for _ in range(20):  # the curve's x grows along it, so bisect on the percentage
            mid = (lo + hi) / 2
            if path.pointAtPercent(mid).x() < x:
                lo = mid
            else:
                hi = mid
        return path.pointAtPercent(lo)

    def set_style(self, color: QColor, width: float, dashed: bool,
                  label: str = "", bold: bool = False) -> None:
        state = (color.rgba(), width, dashed, label, bold)
        if state == self._state:
            return
        self._state = state
        pen = QPen(color, width)
        pen.setCosmetic(True)
        if dashed:
            pen.setStyle(Qt.PenStyle.DashLine)
        self.setPen(pen)
        self.tag.setVisible(bool(label))
        if label:
            self.label.setText(label)
            self.label.setBrush(color)
            self.label.setFont(_font(8.0, bold))
            r = self.label.boundingRect()
            self.tag.setRect(-1, 0, r.width() + 2, r.height())
            self.tag.setPos(self._mid.x() - r.width() / 2, self._mid.y() - r.height() / 2)

    def label_rect(self) -> QRectF:
        return self.tag.sceneBoundingRect()
