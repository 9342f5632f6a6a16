"""The drawn pieces of a computation graph: value boxes, op circles and edges.

Built from Qt's own shape and text items (painted in C++), created once per graph and
then only re-labelled and re-coloured as the user steps. Anything not needed yet (an
edge's label, its position on the curve) is made on first use, so that a graph of
thousands of nodes is quick to build.
"""

from __future__ import annotations

from functools import cache

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
LABEL_GROUND = QColor(255, 255, 255, 230)
LABEL_OFFSET = 58.0  # half the gap after a value layer (graph_scene.GAP_AFTER_VALUE)


@cache
def font(size: float, bold: bool = False) -> QFont:
    f = QFont()
    f.setPointSizeF(size)
    f.setBold(bold)
    return f


@cache
def pen(rgba: int, width: float, dashed: bool = False) -> QPen:
    p = QPen(QColor.fromRgba(rgba), width)
    p.setCosmetic(True)
    if dashed:
        p.setStyle(Qt.PenStyle.DashLine)
    return p


def _text(parent: QGraphicsItem, size: float, bold: bool = False) -> QGraphicsSimpleTextItem:
    item = QGraphicsSimpleTextItem(parent)
    item.setFont(font(size, bold))
    item.setBrush(INK)
    return item


class ValueItem(QGraphicsRectItem):
    """A value node: its name, then its value and its gradient, each labelled.

    While labels are hidden (a large graph, zoomed out) texts are only remembered, and
    laid out when they are first shown; `name` may then be a function that gives it.
    """

    def __init__(self, index: int, role: str, name, labels: bool = True):
        super().__init__(-VALUE_W / 2, -VALUE_H / 2, VALUE_W, VALUE_H)
        self.index = index
        self.setBrush(FILL[role])
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.full_name = name
        self.name: QGraphicsSimpleTextItem | None = None
        self.numbers: QGraphicsSimpleTextItem | None = None  # "value = …" / "grad = …"
        self._labels = labels
        self._state = None
        self.set_state("?", "", border=INK, width=1.0, faint=True)

    def _make_texts(self) -> None:
        if callable(self.full_name):  # a title worked out only when first shown
            self.full_name = self.full_name()
        self.name = _text(self, 9.5, bold=True)
        metrics = QFontMetricsF(self.name.font())
        self.name.setText(metrics.elidedText(self.full_name, Qt.TextElideMode.ElideRight,
                                             VALUE_W - 8))
        self.name.setPos(-self.name.boundingRect().width() / 2, -VALUE_H / 2 + 3)
        self.setToolTip(self.full_name)
        self.numbers = _text(self, 8.5)
        self.numbers.setPos(-VALUE_W / 2 + 10, -VALUE_H / 2 + 21)

    def set_state(self, value: str, grad: str, border: QColor, width: float,
                  faint: bool) -> None:
        """Show `value` and `grad` (already formatted; '' for not yet) with this border."""
        state = (value, grad, border.rgba(), width, faint)
        if state == self._state:
            return  # nothing changed: no repaint
        self._state = state
        self.setPen(pen(border.rgba(), width))
        if self._labels:
            self._show_numbers()

    def _show_numbers(self) -> None:
        if self.numbers is None:
            self._make_texts()
        value, grad, _, _, faint = self._state
        self.numbers.setText(f"value = {value}\ngrad = {grad or '·'}")
        self.numbers.setBrush(FAINT if faint else INK)

    def texts(self) -> tuple[str, str, str]:
        """(name, value line, grad line) as displayed: what tests and users read."""
        if self.numbers is None:
            self._make_texts()
            self._show_numbers()
            self.set_labels_visible(self._labels)
        value, grad = self.numbers.text().split("\n")
        return self.name.text(), value, grad

    def set_labels_visible(self, visible: bool) -> None:
        self._labels = visible
        if visible:
            self._show_numbers()
        if self.numbers is not None:
            self.name.setVisible(visible)
            self.numbers.setVisible(visible)


class OpItem(QGraphicsEllipseItem):
    """An operation: a small circle with its symbol (made when labels are first shown)."""

    def __init__(self, index: int, symbol: str, labels: bool = True):
        super().__init__(-OP_D / 2, -OP_D / 2, OP_D, OP_D)
        self.index = index
        self.setBrush(QColor("#f3f4f6"))
        self.setPen(pen(EDGE.rgba(), 1.2))
        self.symbol_text = symbol
        self.symbol: QGraphicsSimpleTextItem | None = None
        self._state = None
        if labels:
            self.set_labels_visible(True)

    def set_active(self, color: QColor | None) -> None:
        state = None if color is None else color.rgba()
        if state == self._state:
            return
        self._state = state
        self.setPen(pen(EDGE.rgba(), 1.2) if color is None else pen(color.rgba(), 2.5))

    def set_labels_visible(self, visible: bool) -> None:
        if visible and self.symbol is None:
            self.symbol = _text(self, 9.0 if len(self.symbol_text) <= 2 else 7.0, bold=True)
            self.symbol.setText(self.symbol_text)
            r = self.symbol.boundingRect()
            self.symbol.setPos(-r.width() / 2, -r.height() / 2)
        if self.symbol is not None:
            self.symbol.setVisible(visible)


def add_arrow(path: QPainterPath, start: QPointF, end: QPointF,
              bend: float = 0.0) -> tuple[QPointF, QPointF, QPointF, QPointF]:
    """Append a curved arrow from `start` to `end` to `path`; returns its control points."""
    dx = max(30.0, (end.x() - start.x()) / 2)
    c1 = QPointF(start.x() + dx, start.y() + bend)
    c2 = QPointF(end.x() - dx, end.y() + bend)
    path.moveTo(start)
    path.cubicTo(c1, c2, end)
    path.moveTo(end)  # the head
    path.lineTo(end.x() - 7, end.y() - 4)
    path.moveTo(end)
    path.lineTo(end.x() - 7, end.y() + 4)
    return start, c1, c2, end


class EdgeItem(QGraphicsPathItem):
    """An arrow from `start` to `end`, with an optional label for the gradient it carries.

    The scene draws every edge in its plain style as one shared path; an EdgeItem is
    made only for an edge that needs a style of its own."""

    def __init__(self, start: QPointF, end: QPointF, bend: float = 0.0):
        super().__init__()
        self.setZValue(-1)
        path = QPainterPath()
        self._controls = add_arrow(path, start, end, bend)
        self.setPath(path)
        self.tag: QGraphicsRectItem | None = None  # the label, made when first needed
        self._state = None
        self.set_style(EDGE, 1.0, dashed=False)

    def set_style(self, color: QColor, width: float, dashed: bool,
                  label: str = "", bold: bool = False) -> None:
        state = (color.rgba(), width, dashed, label, bold)
        if state == self._state:
            return
        self._state = state
        self.setPen(pen(color.rgba(), width, dashed))
        if label and self.tag is None:
            self._make_tag()
        if self.tag is not None:
            self.tag.setVisible(bool(label))
        if label:
            text = self.tag.childItems()[0]
            text.setText(label)
            text.setBrush(color)
            text.setFont(font(8.0, bold))
            r = text.boundingRect()
            mid = self._middle()
            self.tag.setRect(-1, 0, r.width() + 2, r.height())
            self.tag.setPos(mid.x() - r.width() / 2, mid.y() - r.height() / 2)

    def _make_tag(self) -> None:
        # a separate top-level item, above every edge, on a white ground so that no
        # line crosses its text
        self.tag = QGraphicsRectItem()
        self.tag.setZValue(2)
        self.tag.setBrush(LABEL_GROUND)
        self.tag.setPen(QPen(Qt.PenStyle.NoPen))
        QGraphicsSimpleTextItem(self.tag)
        if self.scene() is not None:
            self.scene().addItem(self.tag)

    def _middle(self) -> QPointF:
        """Where the label goes: the middle of the first gap the edge crosses, so that
        on a long edge it stays beside its source instead of over a node on the way."""
        p0, p1, p2, p3 = self._controls
        x = p0.x() + min(LABEL_OFFSET, (p3.x() - p0.x()) / 2)

        def at(t: float) -> QPointF:
            u = 1 - t
            return p0 * (u * u * u) + p1 * (3 * u * u * t) + p2 * (3 * u * t * t) + p3 * (t * t * t)

        lo, hi = 0.0, 1.0
        for _ in range(24):  # x grows along the curve, so bisect on t
            mid = (lo + hi) / 2
            if at(mid).x() < x:
                lo = mid
            else:
                hi = mid
        return at(lo)

    def label_rect(self) -> QRectF:
        return QRectF() if self.tag is None else self.tag.sceneBoundingRect()

    def set_labels_visible(self, visible: bool) -> None:
        if self.tag is not None and self._state and self._state[3]:
            self.tag.setVisible(visible)
