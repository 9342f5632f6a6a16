"""What a screen shows cut: a widget outside its parent, a label, button or box whose text
needs more room than it has, a table column narrower than its text or scrolled out of
sight, a plot bigger than its widget, a plot title wider than its view box, an axis
caption longer than its axis, tick labels cut or on top of each other, a label of a line
outside the plot. Every width is measured with the widget's own font."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QAbstractSpinBox,
    QComboBox,
    QLabel,
    QListView,
    QPlainTextEdit,
    QScrollArea,
    QTableView,
    QTextEdit,
    QWidget,
)

FIND_CHILDREN = Qt.FindChildOption.FindDirectChildrenOnly
SLACK = 1.5  # rounding between font metrics and layouts
PLOT_HEIGHT = 120  # a plot's view box is at least this tall, or its ticks crowd


def _name(w) -> str:
    text = ""
    for read in ("text", "title", "currentText"):
        if hasattr(w, read) and callable(getattr(w, read)):
            try:
                text = str(getattr(w, read)())[:40]
            except TypeError:
                continue
            break
    return f"{type(w).__name__}({w.objectName() or text!r})"


def _scrolled(w: QWidget) -> bool:
    """True when `w` lives inside a scroll area's viewport (it may run past it)."""
    parent = w.parentWidget()
    grand = parent.parentWidget() if parent is not None else None
    return isinstance(grand, QAbstractScrollArea) and grand.viewport() is parent


def _outside(w: QWidget) -> list[str]:
    parent = w.parentWidget()
    if parent is None or w.isWindow() or _scrolled(w):
        return []
    g, room = w.geometry(), parent.rect()
    if g.left() < -1 or g.top() < -1 or g.right() > room.right() + 1 \
            or g.bottom() > room.bottom() + 1:
        return [f"{_name(w)} at {g.getRect()} is outside {_name(parent)} {room.getRect()}"]
    return []


def _overlaps(parent: QWidget) -> list[str]:
    """Two widgets side by side in `parent` that cover each other (a layout given less
    room than it needs stacks them)."""
    if isinstance(parent, QAbstractScrollArea):
        return []  # its viewport, bars and corner are laid out by the area itself
    shown = [c for c in parent.findChildren(QWidget, options=FIND_CHILDREN)
             if c.isVisible() and not c.isWindow()]
    for i, a in enumerate(shown):
        for b in shown[i + 1:]:
            common = a.geometry().intersected(b.geometry())
            if common.width() > 2 and common.height() > 2:
                return [f"{_name(a)} and {_name(b)} overlap in {_name(parent)}"]
    return []


def _label(w: QLabel) -> list[str]:
    if not w.text() or w.pixmap() is not None and not w.pixmap().isNull():
        return []
    room = w.contentsRect()
    if hasattr(w, "shown_lines"):  # a label that lays out its own lines says what it drew
        shown = " ".join(w.shown_lines())
        said_shorter = "…" not in shown and w.toolTip().startswith(w.text())  # on purpose
        return [] if shown == w.text() or said_shorter else [
            f"{_name(w)} shows {shown!r} of {w.text()!r}"]
    if w.wordWrap():
        need = w.heightForWidth(w.width())
        if need > w.height() + SLACK:
            return [f"{_name(w)} needs {need} px of height, has {w.height()}"]
        return []
    need = QLabel.sizeHint(w).width() - (w.width() - room.width())
    if w.textFormat() != 1 and "<" not in w.text():  # plain: the font's own advance
        need = max(w.fontMetrics().horizontalAdvance(line) for line in w.text().split("\n"))
    if need > room.width() + SLACK:
        return [f"{_name(w)} needs {need} px, has {room.width()}"]
    return []


def _button(w: QAbstractButton) -> list[str]:
    text = w.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
    if not text:
        return []
    need = w.fontMetrics().horizontalAdvance(text) + 8  # the bevel and a little margin
    return [f"{_name(w)} needs {need} px, has {w.width()}"] if need > w.width() + SLACK else []


def _combo(w: QComboBox) -> list[str]:
    need = w.fontMetrics().horizontalAdvance(w.currentText()) + 24  # the arrow
    return [f"{_name(w)} needs {need} px, has {w.width()}"] if need > w.width() + SLACK else []


def _spin(w: QAbstractSpinBox) -> list[str]:
    need = w.fontMetrics().horizontalAdvance(w.text()) + 24  # the up-down buttons
    return [f"{_name(w)} needs {need} px, has {w.width()}"] if need > w.width() + SLACK else []


def _table(w: QTableView) -> list[str]:
    problems = []
    header, model = w.horizontalHeader(), w.model()
    if model is None:
        return []
    shown = [c for c in range(model.columnCount()) if not w.isColumnHidden(c)]
    if header.length() > w.viewport().width() + SLACK:
        problems.append(f"{_name(w)}: its columns need {header.length()} px, it shows "
                        f"{w.viewport().width()}")
    cells = w.fontMetrics()
    heads = header.fontMetrics()
    for c in shown:
        texts = [str(model.index(r, c).data() or "") for r in range(model.rowCount())]
        if w.wordWrap():  # a cell may take more lines, if its row is as high as they are
            problems += _wrapped(w, c, texts)
            texts = [word for t in texts for word in t.split(" ")]
        need = max([cells.horizontalAdvance(t) + 8 for t in texts]
                   + [heads.horizontalAdvance(str(model.headerData(c, header.orientation())
                                                  or "")) + 8])
        if need > header.sectionSize(c) + SLACK:
            problems.append(f"{_name(w)} column {c} needs {need} px, has "
                            f"{header.sectionSize(c)}")
    return problems


def _wrapped(w: QTableView, column: int, texts: list[str]) -> list[str]:
    width = w.horizontalHeader().sectionSize(column) - 8
    for row, text in enumerate(texts):
        lines = w.fontMetrics().boundingRect(QRect(0, 0, width, 10_000),
                                             int(Qt.TextFlag.TextWordWrap), text)
        if lines.height() > w.rowHeight(row) + SLACK:
            return [f"{_name(w)} row {row} ({text!r}) needs {lines.height()} px of height, "
                    f"has {w.rowHeight(row)}"]
    return []


def _list(w: QListView) -> list[str]:
    model, metrics, room = w.model(), w.fontMetrics(), w.viewport().width()
    problems = []
    for r in range(model.rowCount() if model is not None else 0):
        text = str(model.index(r, 0).data() or "")
        need = metrics.horizontalAdvance(text) + 8
        if need > room + SLACK:
            problems.append(f"{_name(w)} row {r} ({text!r}) needs {need} px, has {room}")
    return problems


def _scroll(w: QAbstractScrollArea) -> list[str]:
    """No text box, and no tab, hides part of its width behind a horizontal scroll bar
    (scrolling down a tall page is fine)."""
    if isinstance(w, (QTextEdit, QPlainTextEdit, QScrollArea)) \
            and w.horizontalScrollBar().isVisible():
        return [f"{_name(w)} scrolls sideways"]
    return []


def _ticks(axis: pg.AxisItem, view: pg.PlotWidget) -> list[str]:
    """Each tick label inside the widget and clear of the others on its axis."""
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    if specs is None:
        return []
    room = QRectF(view.viewport().rect())
    rects = []
    for rect, _flags, text in specs[2]:
        shown = view.mapFromScene(axis.mapToScene(rect)).boundingRect()
        if not QRectF(shown).adjusted(SLACK, SLACK, -SLACK, -SLACK).intersected(room) \
                == QRectF(shown).adjusted(SLACK, SLACK, -SLACK, -SLACK):
            return [f"{axis.orientation} tick {text!r} is cut by the plot's edge"]
        rects.append((QRectF(shown), text))
    for i, (a, ta) in enumerate(rects):
        for b, tb in rects[i + 1:]:
            overlap = a.intersected(b)
            if overlap.width() > SLACK and overlap.height() > SLACK:
                return [f"{axis.orientation} ticks {ta!r} and {tb!r} overlap"]
    return []


def _plot(w: pg.PlotWidget) -> list[str]:
    plot, problems = w.getPlotItem(), []
    vb = plot.getViewBox()
    size = plot.size()
    room = w.viewport().rect()
    if size.width() > room.width() + SLACK or size.height() > room.height() + SLACK:
        problems.append(f"plot {size.width():.0f}x{size.height():.0f} is bigger than its "
                        f"widget {room.width()}x{room.height()}")
    box = vb.sceneBoundingRect()
    if box.height() < PLOT_HEIGHT:
        problems.append(f"plot's view box is {box.height():.0f} px tall")
    title = plot.titleLabel
    if title.isVisible() and title.text:
        width = title.item.boundingRect().width()
        if width > box.width() + SLACK:
            problems.append(f"title {title.text!r} is {width:.0f} px, its view box "
                            f"{box.width():.0f}")
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        if not axis.isVisible():
            continue
        if axis.label.isVisible() and axis.labelText:
            length = axis.label.boundingRect().width()
            along = box.width() if name == "bottom" else box.height()
            if length > along + SLACK:
                problems.append(f"{name} caption {axis.labelText!r} is {length:.0f} px, "
                                f"its axis {along:.0f}")
        problems += _ticks(axis, w)
    for item in vb.addedItems:
        labels = [getattr(item, "label", None)] if isinstance(item, pg.InfiniteLine) else []
        labels = [label for label in labels if label is not None]
        labels += [item] if isinstance(item, pg.TextItem) else []
        for label in labels:
            if label.isVisible():
                rect = label.sceneBoundingRect()
                if rect.intersected(box) != rect:
                    problems.append(f"label {_text(label)!r} runs out of the plot")
    return problems


def _text(item) -> str:
    return item.textItem.toPlainText()


def cut_texts(root: QWidget) -> list[str]:
    """Everything shown under `root` that is cut, in words ([] when nothing is)."""
    problems = []
    for w in [root, *root.findChildren(QWidget)]:
        if not w.isVisible():
            continue
        problems += _outside(w) + _overlaps(w)
        if isinstance(w, QLabel):
            problems += _label(w)
        elif isinstance(w, QAbstractButton):
            problems += _button(w)
        elif isinstance(w, QComboBox):
            problems += _combo(w)
        elif isinstance(w, QAbstractSpinBox):
            problems += _spin(w)
        elif isinstance(w, QTableView):
            problems += _table(w)
        elif isinstance(w, QListView):
            problems += _list(w)
        elif isinstance(w, pg.PlotWidget):
            problems += _plot(w)
        if isinstance(w, QAbstractScrollArea):
            problems += _scroll(w)
    return problems
