"""A table whose rows re-rank when a column header is clicked, each numeric cell with a
bar drawn from its value: the lesson's "measured table, ranked"."""

from __future__ import annotations

import math

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QRectF,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
)

from gui.palette import colour

SORT_ROLE = Qt.ItemDataRole.UserRole
BAR_ROLE = Qt.ItemDataRole.UserRole + 1  # the bar's length, 0..1, or None for no bar
DISPLAY, TOOLTIP = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole
BACKGROUND, ALIGNMENT = Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.TextAlignmentRole
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_ROOT = QModelIndex()
WRONG_BACKGROUND = colour("wrong_row")  # the theme's (gui/palette.py), changed in place


class Column:
    """A column: its header, how to read a row, how to show it, and its bar's scale."""

    def __init__(self, header: str, read, fmt=str, log: bool = False, tip: str = "",
                 wrong=None):
        self.header, self.read, self.fmt, self.log, self.tip = header, read, fmt, log, tip
        self.wrong = wrong  # row -> True when the cell shows a wrong number


class RankedModel(QAbstractTableModel):
    """Rows of any records, shown through `columns`. Bars span each column's smallest to
    largest value (on a log scale for `log` columns); both ends come from the data."""

    def __init__(self, columns: list[Column], parent=None):
        super().__init__(parent)
        self.columns = columns
        self.rows: list = []
        self._ranges: list[tuple[float, float] | None] = []
        self._cells: list[list[dict | None]] = []  # per row, per column: role -> answer

    def set_rows(self, rows: list) -> None:
        """Show `rows`. Returns nothing; rows of the same count are updated in place
        (no reset, so a live table stays cheap to refresh)."""
        same_shape = len(rows) == len(self.rows) and self.rows
        if not same_shape:
            self.beginResetModel()
        self.rows = list(rows)
        self._ranges = [self._range(c) for c in self.columns]
        self._cells = [[None] * len(self.columns) for _ in self.rows]
        if same_shape:
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(len(self.rows) - 1, len(self.columns) - 1))
        else:
            self.endResetModel()

    def _scaled(self, column: Column, value) -> float | None:
        if not isinstance(value, (int, float)) or isinstance(value, bool) \
                or not math.isfinite(value):
            return None
        if column.log:
            return math.log10(value) if value > 0 else None
        return abs(value)

    def _range(self, column: Column) -> tuple[float, float] | None:
        values = [self._scaled(column, column.read(r)) for r in self.rows]
        values = [v for v in values if v is not None]
        return (min(values), max(values)) if values else None

    def rowCount(self, parent=_ROOT) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=_ROOT) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section, orientation, role=DISPLAY):
        if orientation == Qt.Orientation.Horizontal:
            if role == DISPLAY:
                return self.columns[section].header
            if role == TOOLTIP:
                return self.columns[section].tip or None
        return None

    def data(self, index: QModelIndex, role=DISPLAY):
        # a view asks each cell for a dozen roles each time it sizes a column or a row:
        # what a cell shows is worked out once per cell (`_cells`), then only looked up
        if not index.isValid():
            return None
        row, column = index.row(), index.column()
        cells = self._cells[row]
        cell = cells[column]
        if cell is None:
            cell = cells[column] = self._cell(self.rows[row], column)
        return cell.get(role)

    def _cell(self, record, c: int) -> dict:
        """Every role the cell in column `c` of `record` answers, and its answer."""
        column = self.columns[c]
        value = column.read(record)
        cell = {DISPLAY: column.fmt(value),
                SORT_ROLE: value if value is not None else float("-inf")}
        if column.wrong is not None and column.wrong(record):
            cell[BACKGROUND] = WRONG_BACKGROUND
        if isinstance(value, (int, float)):
            cell[ALIGNMENT] = RIGHT
        scaled, span = self._scaled(column, value), self._ranges[c]
        if scaled is not None and span is not None:
            lo, hi = span
            if hi != lo:  # every row alike: a bar would say nothing
                if column.log:  # a decade of room below the smallest, so it still shows
                    lo -= 1.0
                if hi != lo:
                    cell[BAR_ROLE] = (scaled - lo) / (hi - lo)
        return cell


class BarDelegate(QStyledItemDelegate):
    """Paints a bar along the foot of a number's cell, its length from BAR_ROLE (below
    the digits, never behind them), and keeps PADDING px either side of a cell's text
    (a number never touches the cell's edge)."""

    COLOR = colour("highlight_row")
    BAR_PX = 4
    PADDING = 4

    def paint(self, painter, option, index) -> None:
        share = index.data(BAR_ROLE)
        if share is not None:
            rect = QRectF(option.rect).adjusted(2, 0, -2, -1)
            rect.setTop(rect.bottom() - self.BAR_PX)
            rect.setWidth(max(1.0, rect.width() * share))
            painter.fillRect(rect, self.COLOR)
        padded = QStyleOptionViewItem(option)
        padded.rect = option.rect.adjusted(self.PADDING, 0, -self.PADDING, 0)
        super().paint(painter, padded, index)

    def sizeHint(self, option, index):
        size = super().sizeHint(option, index)
        size.setWidth(size.width() + 2 * self.PADDING)
        size.setHeight(max(size.height(), option.fontMetrics.height() + self.BAR_PX + 4))
        return size


def two_line_width(texts, metrics: QFontMetrics) -> int:
    """The narrowest width at which every text of `texts` fits on at most two lines,
    broken at a space."""
    def widest(parts):
        return max(metrics.horizontalAdvance(p) for p in parts)

    def narrowest(text: str) -> int:
        words = text.split(" ")
        return min([widest([text])] + [widest([" ".join(words[:i]), " ".join(words[i:])])
                                       for i in range(1, len(words))])

    return max((narrowest(t) for t in texts), default=0)


class RankedTable(QTableView):
    """A sortable table view with bars, over a RankedModel. With `wrap` the column of that
    index is as narrow as two lines allow (a long name breaks onto a second line), so
    that the numbers beside it keep their room."""

    def __init__(self, columns: list[Column], parent=None, wrap: int | None = None,
                 whole: bool = False):
        super().__init__(parent)
        self.wrap, self.whole = wrap, whole  # whole: never narrower than its columns
        self._widths: tuple[int, int] | None = None  # the wrapped column's on one, two lines
        self.source = RankedModel(columns, self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.source)
        self.proxy.setSortRole(SORT_ROLE)
        self.setModel(self.proxy)
        self.setItemDelegate(BarDelegate(self))
        self.setSortingEnabled(True)
        self.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # the rows' own order first
        self.verticalHeader().hide()
        self.setAlternatingRowColors(True)
        self.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.setWordWrap(False)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.horizontalHeader().setToolTip("Click a column to rank the rows by it")

    def set_rows(self, rows: list) -> None:
        count = self.source.rowCount()
        self.source.set_rows(rows)
        self._widths = None
        if self.wrap is not None:
            self._narrow(self.wrap, fit=len(rows) != count)
        elif len(rows) != count:
            self.resizeRowsToContents()
        if self.whole:
            self.setMinimumWidth(self.columns_width())

    def columns_width(self) -> int:
        """The width that shows every column whole, with a vertical scroll bar."""
        header = self.horizontalHeader()
        widths = [header.sectionSize(c) if c == self.wrap and self.wrap is not None
                  else max(self.sizeHintForColumn(c), header.sectionSizeHint(c))
                  for c in range(header.count())]
        if self.wrap is not None and self.wrap < len(widths):
            texts = self.column_texts(self.wrap)
            widths[self.wrap] = min(widths[self.wrap], two_line_width(texts, self.fontMetrics())
                                    + 2 * self.style().pixelMetric(
                                        QStyle.PixelMetric.PM_FocusFrameHMargin) + 6)
        return (sum(widths) + 2 * self.frameWidth()
                + self.verticalScrollBar().sizeHint().width())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.wrap is not None:
            self._narrow(self.wrap)

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._widths = None  # measured again in the new font

    def _narrow(self, column: int, fit: bool = False) -> None:
        """`column` on one line where the table has the room, else on two at most, as
        narrow as that allows; with `fit` (new rows), the rows' heights fitted anyway."""
        self.setWordWrap(True)
        header = self.horizontalHeader()
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
        if self._widths is None:  # from the font's metrics, once per set of rows
            texts, metrics = self.column_texts(column), self.fontMetrics()
            # the cell's padding each side, as the delegate lays it out
            pad = 2 * (self.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin)
                       + 1) + 4
            head = header.fontMetrics().horizontalAdvance(
                str(self.source.columns[column].header))
            least = head + 2 * pad + 12  # and the sort arrow
            one_line = max([metrics.horizontalAdvance(t) for t in texts] + [0]) + pad
            self._widths = (max(one_line, least),
                            max(two_line_width(texts, metrics) + pad, least))
        one_line, two_lines = self._widths
        others = sum(header.sectionSizeHint(c) for c in range(header.count()) if c != column)
        width = two_lines if others + one_line > self.viewport().width() else one_line
        if width != header.sectionSize(column):
            header.resizeSection(column, width)
            fit = True
        if fit:
            self.resizeRowsToContents()

    def column_texts(self, column: int) -> list[str]:
        """The cells of `column` in the order shown."""
        return [self.proxy.index(r, column).data() for r in range(self.proxy.rowCount())]
