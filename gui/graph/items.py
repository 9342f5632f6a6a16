"""The drawn pieces of a computation graph: value boxes, op circles and edges.

Built from Qt's own shape and text items (painted in C++), created once per graph and
then only re-labelled and re-coloured as the user steps. Anything not needed yet (an
edge's label, its position on the curve) is made on first use, so that a graph of
thousands of nodes is quick to build.
"""
# size: every drawn piece of the graph shares its fonts, pens, texts and their fitting here

from __future__ import annotations

import re
from functools import cache

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsSimpleTextItem,
)

from gui.graph.box_numbers import continued, fewer_digits, is_exact
from gui.palette import colour, stroke

VALUE_W, VALUE_H = 112.0, 58.0
OP_D = 30.0

# the theme's colours (gui/palette.py), shared: they change in place with the theme
FILL = {role: colour(role) for role in ("input", "constant", "intermediate", "output")}
INK = colour("ink")
FAINT = colour("faint")
CURRENT = colour("current")    # the node whose step was just taken
RECEIVED = colour("received")  # a parent that just received a contribution
BACKWARD = colour("backward")  # gradient flow already applied
WRONG = colour("wrong")
EDGE = colour("edge")
LABEL_GROUND = colour("label_ground")
LABEL_PT = 8.5  # edge labels: as large as the text in the boxes


@cache
def font(size: float, bold: bool = False) -> QFont:
    f = QFont()
    f.setPointSizeF(size)
    f.setBold(bold)
    return f


@cache
def pen(rgba: int, width: float, dashed: bool = False) -> QPen:
    p = QPen(QColor.fromRgba(rgba), width * stroke())  # wider for a projector
    p.setCosmetic(True)
    if dashed:
        p.setStyle(Qt.PenStyle.DashLine)
    return p


@cache
def metrics_of(size: float) -> QFontMetricsF:
    return QFontMetricsF(font(size))


def fitted(lines: list[str], size: float, room: float) -> str:
    """`lines` in a box's text of `size` points, each cut with '…' to `room` pixels (a
    rounded number's digits first: box_numbers.fewer_digits)."""
    metrics = metrics_of(size)
    lines = [fewer_digits(line, metrics.horizontalAdvance, room) for line in lines]
    return "\n".join(line if metrics.horizontalAdvance(line) <= room
                     else metrics.elidedText(line, Qt.TextElideMode.ElideRight, room)
                     for line in lines)


def _text(parent: QGraphicsItem, size: float, bold: bool = False) -> QGraphicsSimpleTextItem:
    item = QGraphicsSimpleTextItem(parent)
    item.setFont(font(size, bold))
    item.setBrush(INK)
    return item



_PATH = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[[^\[\]]*\])*")
_TOKEN = re.compile(r"\.?[A-Za-z_]\w*|\[[^\[\]]*\]")  # a path's steps: `.w`, `[1]`


def elided(metrics: QFontMetricsF, title: str, width: float) -> str:
    """`title` cut to `width` with '…': a name made of a path (`model.layers[0].w[1]`)
    keeps the whole steps at its end, which tell its siblings apart (`…neurons[3].w[1]`,
    never `…urons[3].w[1]`); a formula keeps its start, cut after a whole word where one
    ends in its second half (`relu((Σ 16 terms + b) × …`, never `… × c + c) × 1…`)."""
    if metrics.horizontalAdvance(title) <= width:
        return title
    if _PATH.fullmatch(title) is not None and ("." in title or "[" in title):
        steps = _TOKEN.findall(title)
        tail = ""
        for step in reversed(steps[1:]):
            longer = step + tail
            if metrics.horizontalAdvance("…" + longer.lstrip(".")) > width:
                break
            tail = longer
        if tail:
            return "…" + tail.lstrip(".")
        return metrics.elidedText(steps[-1].lstrip("."), Qt.TextElideMode.ElideRight, width)
    structured = _cut_outermost(metrics, title, width)
    if structured:
        return structured
    cut = metrics.elidedText(title, Qt.TextElideMode.ElideRight, width)
    kept = cut[:-1]
    if title[len(kept)].isalnum() and kept[-1:].isalnum():  # cut inside a word
        end = max((k for k, c in enumerate(kept) if not c.isalnum()), default=-1)
        if end >= len(kept) // 2:  # after the last whole word: `… more: inputs[3]–…`
            return kept[:end + 1].rstrip() + "…"
    return cut

# a formula's operators, how loosely each binds: the loosest outside brackets is the last
_OPERATORS = ((" + ", 1), (" - ", 1), (" − ", 1), (" × ", 2), (" ÷ ", 2), (" · ", 2),
              ("*", 2), ("/", 2))
_CALL = re.compile(r"[A-Za-z_][\w.]*\(")


def _outermost(title: str) -> tuple[int, int] | None:
    """Where the operator a formula applies last is, (start, end): outside brackets, the
    loosest, the rightmost of those (`a*b + c` → ` + `); None if it has none."""
    depth, best, k = 0, None, 1
    while k < len(title):
        depth += (title[k] in "([") - (title[k] in ")]")
        found = depth == 0 and next((o for o in _OPERATORS if title.startswith(o[0], k)), None)
        if found:
            if best is None or found[1] <= best[2]:
                best = (k, k + len(found[0]), found[1])
            k += len(found[0]) - 1
        k += 1
    return best[:2] if best else None


def _cut_outermost(metrics: QFontMetricsF, title: str, width: float) -> str:
    """A formula cut so that what it computes last stays said: its last operation and
    right operand (`relu(…)*…w[2]`, `relu(… + c) × 100`), or its outermost call with
    its argument cut (`relu(… + …)`); '' if neither fits."""
    fits = metrics.horizontalAdvance
    call = _CALL.match(title)
    if call and title.endswith(")") and _outermost(title) is None:
        room = width - fits(call[0] + ")")
        inner = title[call.end():-1]
        cut = _operand_cut(metrics, inner, room)
        return f"{call[0]}{cut})" if fits(f"{call[0]}{cut})") <= width else ""
    at = _outermost(title)
    if at is None:
        return ""
    left, symbol, right = title[:at[0]], title[at[0]:at[1]], title[at[1]:]
    if _outermost(right) is not None or " " in right and not right.startswith("("):
        return ""  # not an operand ('× 100 and more'): cut as words
    room = width - fits(symbol) - min(fits(left), fits("…w[0]"))  # some room for left
    if fits(right) > room:
        right = _operand_cut(metrics, right, max(room, min(width - fits("…" + symbol),
                                                           fits(_last_name(right)))))
    room = width - fits(symbol + right)
    if room < fits("…"):
        return ""
    first = _outermost(left)
    if first is not None and left[first[0]:first[1]] == symbol and fits(left) > room:
        head = left[:_first_at(left, symbol)]  # a chain: `w1*x1 + … + b`
        for shown in (f"{head}{symbol}…{symbol}{right}", f"{head}{symbol}…"):
            if fits(shown) <= width:
                return shown
    return _operand_cut(metrics, left, room) + symbol + right


def _last_name(path: str) -> str:
    """A path's last named step and what follows: 'model.layers[2].w[12]' → 'w[12]'."""
    steps = _TOKEN.findall(path) if _PATH.fullmatch(path) else []
    named = [k for k, step in enumerate(steps) if not step.startswith("[")]
    return "".join(steps[named[-1]:]).lstrip(".") if named else path


def _first_at(title: str, symbol: str) -> int:
    """Where `symbol` first stands outside brackets in `title`."""
    depth = 0
    for k in range(len(title)):
        depth += (title[k] in "([") - (title[k] in ")]")
        if depth == 0 and k and title.startswith(symbol, k):
            return k
    return len(title)


def _operand_cut(metrics: QFontMetricsF, text: str, width: float) -> str:
    """An operand in `width`: whole, cut by its structure or at a path's step, else '…'
    (never a cut word or an unclosed bracket, `w…` or `relu(`)."""
    if metrics.horizontalAdvance(text) <= width:
        return text
    if _PATH.fullmatch(text) is not None and ("." in text or "[" in text):
        cut = elided(metrics, text, width + metrics.horizontalAdvance("…"))
        if cut.startswith("…") and not cut.startswith("…["):
            return cut[1:]  # `…neurons[0].w[2]`, said as `w[2]` in a formula
        cut = elided(metrics, text, width)
        return cut if cut.startswith("…") else "…"
    return _cut_outermost(metrics, text, width) or "…"


def rounded(x: float, shown: str) -> str:
    """A number as a box shows it: `shown` if it is `x` exactly, else '≈ ', its first
    digits and '…' (a rounded number is never said with '=', and is told from an exact
    one at small text: 'value ≈ 0.9999…' for 0.99998771; see box_numbers.py)."""
    if is_exact(x, shown):
        return shown
    return f"≈ {continued(x)}"


def said(what: str, number: str) -> str:
    """'value = 2', 'grad ≈ 6.000…' (rounded), 'value = ?' (not yet), 'grad = ·' (not
    yet)."""
    return f"{what} {number}" if number.startswith("≈") else f"{what} = {number}"


class ValueItem(QGraphicsRectItem):
    """A value node: its name, then its value and its gradient, each labelled.

    While labels are hidden (a large graph, zoomed out) texts are only remembered, and
    laid out when they are first shown; `name` may then be a function that gives it.
    """

    def __init__(self, index: int, role: str, name, labels: bool = True,
                 width: float = VALUE_W, note: str = ""):
        super().__init__(-width / 2, -VALUE_H / 2, width, VALUE_H)
        self.note = note  # a line of its tooltip under the name (why it is a parameter)
        self.index = index
        self.width = width  # wider than VALUE_W for a long title (value_size)
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
        self.name.setText(elided(metrics, self.full_name, self.width - 8))
        self.name.setPos(-self.name.boundingRect().width() / 2, -VALUE_H / 2 + 3)
        self.setToolTip(f"{self.full_name}\n{self.note}" if self.note else self.full_name)
        self.numbers = _text(self, 8.5)
        self.numbers.setPos(-self.width / 2 + 5, -VALUE_H / 2 + 21)

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
        # '≈ 0' (round-off) and '≈ 0.9999…' (rounded) take the place of '='
        self.numbers.setText(fitted([said("value", value), said("grad", grad or "·")], 8.5,
                                    self.width - 10))
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


class OpItem(QGraphicsPathItem):
    """An operation: a circle with its symbol, or a pill when a folded constant makes the
    symbol wide (`× 1.2`). The symbol is made when labels are first shown."""

    def __init__(self, index: int, symbol: str, width: float = OP_D, labels: bool = True):
        super().__init__()
        self.setPath(_op_shape(width))
        self.index = index
        self.setBrush(colour("op"))
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
            self.symbol = _text(self, op_font_size(self.symbol_text), bold=True)
            self.symbol.setText(self.symbol_text)
            r = self.symbol.boundingRect()
            self.symbol.setPos(-r.width() / 2, -r.height() / 2)
        if self.symbol is not None:
            self.symbol.setVisible(visible)


@cache
def _op_shape(width: float) -> QPainterPath:
    path = QPainterPath()
    path.addRoundedRect(QRectF(-width / 2, -OP_D / 2, width, OP_D), OP_D / 2, OP_D / 2)
    return path


VALUE_W_MAX = 180.0  # a value box widens for its title up to this, then cuts it


def value_size(title: str) -> tuple[float, float]:
    """The room a value box needs: VALUE_W, or wider for a title that would be cut."""
    width = QFontMetricsF(font(9.5, True)).horizontalAdvance(title) + 12.0
    return min(VALUE_W_MAX, max(VALUE_W, width)), VALUE_H


def op_font_size(symbol: str) -> float:
    return 9.0 if len(symbol) <= 2 else 8.5


def op_width(symbol: str) -> float:
    """How wide an operation's shape is: a circle, or wider for a long symbol."""
    if len(symbol) <= 2:
        return OP_D
    width = QFontMetricsF(font(op_font_size(symbol), True)).horizontalAdvance(symbol)
    return max(OP_D, width + 16.0)


def label_size(text: str) -> tuple[float, float]:
    """The room an edge label needs, in its widest (bold) form: the labels' characters
    (digits, signs, 'e', '×', '=') have fixed advances, so each is measured once."""
    lines = text.split("\n")
    width = max(sum(_advance(c) for c in line) for line in lines)
    return width + 6.0, _label_metrics().height() * len(lines) + 2.0


@cache
def _label_metrics() -> QFontMetricsF:
    return QFontMetricsF(font(LABEL_PT, True))


@cache
def _advance(char: str) -> float:
    return _label_metrics().horizontalAdvance(char)


def segments_path(segments, path: QPainterPath | None = None) -> QPainterPath:
    """A QPainterPath through `segments` (lines of two points, cubics of four)."""
    path = QPainterPath() if path is None else path
    here = None
    for seg in segments:
        if seg[0] != here:
            path.moveTo(*seg[0])
        if len(seg) == 2:
            path.lineTo(*seg[1])
        else:
            path.cubicTo(*seg[1], *seg[2], *seg[3])
        here = seg[-1]
    return path


def add_head(path: QPainterPath, end: tuple[float, float]) -> None:
    """An arrow head at `end`, pointing right (every edge enters its target level)."""
    x, y = end
    path.moveTo(x - 7, y - 4)
    path.lineTo(x, y)
    path.lineTo(x - 7, y + 4)


class EdgeItem:
    """An edge drawn in a style of its own, over the shared paths that draw every edge
    plainly: a few short path items (so that a repaint near one end does not redraw the
    whole of a long edge) and, once it carries a gradient, a label in the space the
    layout kept for it."""

    def __init__(self, scene, pieces: list[QPainterPath], label_center):
        self.pieces = []
        for piece in pieces:
            item = QGraphicsPathItem(piece)
            item.setZValue(-1)
            scene.addItem(item)
            self.pieces.append(item)
        self.scene = scene
        self.label_center = label_center
        self.tag: QGraphicsRectItem | None = None  # the label, made when first needed
        self._state = None
        self._labels_visible = True

    def set_style(self, color: QColor, width: float, dashed: bool,
                  label: str = "", bold: bool = False, tip: str = "") -> None:
        state = (color.rgba(), width, dashed, label, bold, tip)
        if state == self._state:
            return
        self._state = state
        p = pen(color.rgba(), width, dashed)
        for item in self.pieces:
            item.setPen(p)
            item.setToolTip(tip)
        if label and self.tag is None and self.label_center is not None:
            self._make_tag()
        if self.tag is not None:
            self.tag.setVisible(bool(label) and self._labels_visible)
            self.tag.setToolTip(tip)
            if label:
                text = self.tag.childItems()[0]
                text.setText(label)
                text.setBrush(color)
                text.setFont(font(LABEL_PT, bold))
                r = text.boundingRect()
                x, y = self.label_center
                self.tag.setRect(-2, -1, r.width() + 4, r.height() + 2)
                self.tag.setPos(x - r.width() / 2, y - r.height() / 2)

    @property
    def label(self) -> str:
        return self._state[3] if self._state else ""

    def _make_tag(self) -> None:
        # above every edge, on a white ground: the edge it belongs to runs under it
        self.tag = QGraphicsRectItem()
        self.tag.setZValue(2)
        ground = QColor(LABEL_GROUND)  # the theme's, opaque: no edge shows through a text
        ground.setAlpha(255)
        self.tag.setBrush(ground)
        self.tag.setPen(QPen(Qt.PenStyle.NoPen))
        QGraphicsSimpleTextItem(self.tag)
        self.scene.addItem(self.tag)

    def label_rect(self) -> QRectF:
        if self.tag is None or not self.label:
            return QRectF()
        return self.tag.sceneBoundingRect()

    def set_labels_visible(self, visible: bool) -> None:
        self._labels_visible = visible
        if self.tag is not None:
            self.tag.setVisible(visible and bool(self.label))


GROUP_FILL = colour("group")
GROUP_W_MIN, GROUP_W_MAX = 150.0, 250.0
STACK_OFFSET = 5.0  # a stack is drawn as boxes behind boxes, this far apart


def group_size(title: str, stack: bool) -> tuple[float, float]:
    """The room a collapsed group's box needs: its title, within limits."""
    width = QFontMetricsF(font(9.5, True)).horizontalAdvance(title) + 18.0
    extra = 2 * STACK_OFFSET if stack else 0.0
    return min(GROUP_W_MAX, max(GROUP_W_MIN, width)) + extra, VALUE_H + extra


TYPICAL = "≈ -0.1234…"  # a number as a box shows it, in 4 digits, for laying out its lines


def outputs_said(outputs: int, members: int) -> str:
    """What a box of many outputs says under its count instead of one value: how many of
    its values are used outside it, or that all are (its count already says how many)."""
    return ("all values used outside" if outputs >= members
            else f"{outputs:,} values used outside")


def outputs_meant(said: str, members: int) -> str:
    """`outputs_said`'s words explained, for the box's tooltip."""
    first = said.split(" ", 1)[0]
    if first == "all":
        return f"All {members:,} of its values are used by boxes outside it."
    return f"{first} of its values are used by boxes outside it."


class GroupItem(QGraphicsPathItem):
    """A collapsed group: its title, how many nodes it stands for ('× 100' for a stack,
    drawn as a pile of boxes), and its output's value and gradient once known."""

    def __init__(self, group: int, title: str, members: int, instances: int,
                 size: tuple[float, float], tip: str):
        super().__init__()
        self.group = group
        self.title = title
        width, height = size
        extra = 2 * STACK_OFFSET if instances else 0.0
        w, h = width - extra, height - extra
        rect = QRectF(-width / 2, -height / 2 + extra, w, h)
        path = QPainterPath()
        path.addRoundedRect(rect, 8, 8)
        self.setPath(path)
        self.setBrush(GROUP_FILL)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.tip = tip if tip.startswith(title) else f"{title}\n{tip}"  # uncut
        self.setToolTip(self.tip)
        self.members = members
        for k in (2, 1) if instances else ():  # the pile behind
            back = QPainterPath()
            back.addRoundedRect(rect.translated(k * STACK_OFFSET, -k * STACK_OFFSET), 8, 8)
            behind = QGraphicsPathItem(back, self)
            behind.setBrush(GROUP_FILL.darker(100 + 6 * k))
            behind.setPen(pen(EDGE.rgba(), 1.0))
            behind.setFlag(QGraphicsItem.GraphicsItemFlag.ItemStacksBehindParent)
        self.name = _text(self, 9.5, bold=True)
        metrics = QFontMetricsF(self.name.font())
        self.name.setText(elided(metrics, title, w - 10))
        self.name.setPos(rect.center().x() - self.name.boundingRect().width() / 2,
                         rect.top() + 3)
        count = f"× {instances:,} · " if instances else ""
        self.count = f"{count}{members:,} nodes"
        self.numbers = _text(self, 8.5)
        self.numbers.setPos(rect.left() + 6, rect.top() + 21)
        self.room = w - 12  # the numbers' width, clear of both borders
        self._state = None
        self.set_state("?", "", INK, 1.0, True)

    def set_state(self, value: str, grad: str, border: QColor, width: float,
                  faint: bool, numbers: bool = True) -> None:
        """The box's look; without `numbers` (a group of many outputs) `value` is said
        beside the count instead of a value and a gradient."""
        state = (value, grad, border.rgba(), width, faint, numbers)
        if state == self._state:
            return
        self._state = state
        self.setPen(pen(border.rgba(), width))
        self.numbers.setBrush(FAINT if faint else INK)
        if not numbers:
            self.numbers.setText(fitted([self.count, value], 8.5, self.room))
            self.setToolTip(f"{self.tip}\n{outputs_meant(value, self.members)}")
            return
        self.setToolTip(self.tip)
        grad, value = said("grad", grad or "·"), said("value", value)  # as a value box says
        if value == "value = ?":
            self.numbers.setText(fitted([self.count, grad], 8.5, self.room))
            return
        # the first that fits: the count beside the value, the value beside the gradient,
        # or the value and the gradient alone (the count is in the tooltip); chosen for a
        # 4-digit value and gradient, not these, so that boxes alike are laid out alike
        # (losses[8] and losses[9] both with their count or both without)
        def ways(value: str, grad: str) -> tuple[list[str], ...]:
            return ([f"{self.count}   {value}", grad], [self.count, f"{value} · {grad}"],
                    [value, grad])
        advance = metrics_of(8.5).horizontalAdvance
        typical = ways(said("value", TYPICAL), said("grad", TYPICAL))
        way = next((k for k, w in enumerate(typical) if max(map(advance, w)) <= self.room), 2)
        self.numbers.setText(fitted(ways(value, grad)[way], 8.5, self.room))

    def texts(self) -> tuple[str, str]:
        """(title, numbers) as displayed."""
        return self.name.text(), self.numbers.text()

    def set_labels_visible(self, visible: bool) -> None:
        self.name.setVisible(visible)
        self.numbers.setVisible(visible)


def junction_item(tip: str) -> QGraphicsPathItem:
    """The dot where a bundle of edges meets (gui/graph/bundles.py)."""
    path = QPainterPath()
    path.addEllipse(QRectF(-4.0, -4.0, 8.0, 8.0))
    item = QGraphicsPathItem(path)
    item.setBrush(EDGE)
    item.setPen(Qt.PenStyle.NoPen)
    item.setToolTip(tip)
    return item
