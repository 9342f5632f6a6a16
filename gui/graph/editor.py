"""The expression editor: monospace text with line numbers, a Build button, presets,
and an error shown at its line and column without touching what the user typed."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect, QSize, Qt, Signal, Slot
from PySide6.QtGui import (
    QAction,
    QFontDatabase,
    QKeySequence,
    QPainter,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
    QTextOption,
)
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from engine import ExpressionError
from engine.assets import asset_path
from gui.palette import colour, hex_of
from gui.theme import styled

PRESETS = asset_path("presets")


def list_presets(folder: Path = PRESETS) -> list[tuple[str, Path]]:
    """(title, path) for every preset, in file-name order; the title is the first
    comment line, or the file's name."""
    presets = []
    for path in sorted(folder.glob("*.expr")):
        first = path.read_text(encoding="utf-8").split("\n", 1)[0].strip()
        title = first.lstrip("#").strip() if first.startswith("#") else path.stem
        presets.append((title, path))
    return presets


def token_end(line: str, start: int) -> int:
    """Where the token starting at `start` in `line` ends: after a whole name (`foo`,
    `w_1`) or number (`1.5e-3`), else after one character."""
    end = start
    if end < len(line) and (line[end].isalnum() or line[end] in "_."):
        while end < len(line) and (line[end].isalnum() or line[end] in "_."):
            end += 1
            if line[end - 1] in "eE" and end < len(line) and line[end] in "+-" \
                    and line[start].isdigit():
                end += 1
        return end
    return start + 1


class _LineNumbers(QWidget):
    def __init__(self, editor: CodeEditor):
        super().__init__(editor)
        self.editor = editor

    def sizeHint(self) -> QSize:
        return QSize(self.editor.gutter_width(), 0)

    def paintEvent(self, event) -> None:
        self.editor.paint_gutter(event)


class CodeEditor(QPlainTextEdit):
    """A plain-text editor with a line-number gutter and one error marker."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        # long lines wrap: a comment or an expression wider than the dock is read whole,
        # and an edit at a long line's end never leaves its start scrolled out of sight
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.setTabStopDistance(4 * self.fontMetrics().horizontalAdvance(" "))
        self.gutter = _LineNumbers(self)
        self.error_line = 0
        self.blockCountChanged.connect(self._update_gutter_width)
        self.updateRequest.connect(self._update_gutter)
        self._update_gutter_width()

    def gutter_width(self) -> int:
        digits = len(str(max(1, self.blockCount())))
        return 10 + self.fontMetrics().horizontalAdvance("9") * max(2, digits)

    @Slot()
    def _update_gutter_width(self) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    @Slot(QRect, int)
    def _update_gutter(self, rect: QRect, dy: int) -> None:
        if dy:
            self.gutter.scroll(0, dy)
        else:
            self.gutter.update(0, rect.y(), self.gutter.width(), rect.height())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        r = self.contentsRect()
        self.gutter.setGeometry(QRect(r.left(), r.top(), self.gutter_width(), r.height()))

    def gutter_numbers(self, bottom: int) -> list[tuple[int, int]]:
        """(line number, y of its top in the viewport) for each visible line down to
        `bottom`. A wrapped line takes several rows, and its number sits on the first."""
        numbers = []
        block = self.firstVisibleBlock()
        offset = self.contentOffset()
        while block.isValid():
            top = round(self.blockBoundingGeometry(block).translated(offset).top())
            if top > bottom:
                break
            if block.isVisible():
                numbers.append((block.blockNumber() + 1, top))
            block = block.next()
        return numbers

    def paint_gutter(self, event) -> None:
        painter = QPainter(self.gutter)
        painter.fillRect(event.rect(), colour("gutter"))
        height = self.fontMetrics().height()
        for number, top in self.gutter_numbers(event.rect().bottom()):
            painter.setPen(colour("error") if number == self.error_line
                           else colour("gutter_text"))
            painter.drawText(0, top, self.gutter.width() - 5, height,
                             Qt.AlignmentFlag.AlignRight, str(number))
        painter.end()

    def mark_error(self, line: int, col: int) -> None:
        """Underline the token at (line, col) and tint its line; the text is untouched."""
        self.error_line = line
        doc = self.document()
        block = doc.findBlockByNumber(max(0, min(line, doc.blockCount()) - 1))
        start = block.position() + max(0, min(col - 1, block.length() - 1))
        line_sel = QTextEdit.ExtraSelection()
        line_sel.format.setBackground(colour("error_line"))
        line_sel.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        line_sel.cursor = QTextCursor(block)
        token_sel = QTextEdit.ExtraSelection()
        fmt = QTextCharFormat()
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
        fmt.setUnderlineColor(colour("wrong"))
        fmt.setBackground(colour("error_mark"))
        token_sel.format = fmt
        cursor = QTextCursor(doc)
        cursor.setPosition(start)
        offset = start - block.position()  # the whole token: a name or number, else one char
        end = min(block.position() + token_end(block.text(), offset), doc.characterCount() - 1)
        cursor.setPosition(max(end, start), QTextCursor.MoveMode.KeepAnchor)
        token_sel.cursor = cursor
        self.setExtraSelections([line_sel, token_sel])
        self.gutter.update()

    def clear_error(self) -> None:
        self.error_line = 0
        self.setExtraSelections([])
        self.gutter.update()


class EditorPanel(QWidget):
    """The editor, the Build button, the presets menu and the error message."""

    build_requested = Signal(str)
    preset_chosen = Signal(str)  # a preset's path

    def __init__(self, parent=None):
        super().__init__(parent)
        self.editor = CodeEditor(self)
        self.editor.setToolTip("Type a program; Ctrl+Enter builds its graph")
        self.build_action = QAction("Build", self)
        self.build_action.setShortcuts([QKeySequence("Ctrl+Return"), QKeySequence("Ctrl+Enter")])
        self.build_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.build_action.setToolTip("Build the graph of this program (Ctrl+Enter)")
        self.build_action.setStatusTip("Parse the program and draw its graph")
        self.build_action.triggered.connect(self._on_build)
        build = QPushButton("Build (Ctrl+Enter)", self)
        build.setObjectName("build_button")
        build.setToolTip(self.build_action.toolTip())
        build.clicked.connect(self.build_action.trigger)
        self.presets_menu = QMenu("Presets", self)
        for title, path in list_presets():
            action = self.presets_menu.addAction(title)
            action.setData(str(path))
            action.setStatusTip(f"Load {path.name}")
            action.triggered.connect(self._on_preset)
        presets = QToolButton(self)
        presets.setText("Presets")
        presets.setToolTip("Load one of the built-in programs")
        presets.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        presets.setMenu(self.presets_menu)
        self.error = QLabel(self)
        self.error.setObjectName("error")
        self.error.setWordWrap(True)
        self.error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        styled(self.error, lambda: f"color: {hex_of('error')};")
        self.error.hide()
        # a notice that stays until the user edits (e.g. a file given at start that
        # could not be opened): a build's status message does not replace it
        self.notice = QLabel(self)
        self.notice.setObjectName("notice")
        self.notice.setWordWrap(True)
        self.notice.setTextFormat(Qt.TextFormat.PlainText)  # it may quote a file's name
        self.notice.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        styled(self.notice, lambda: f"color: {hex_of('notice')}; "
               f"background: {hex_of('notice_ground')}; padding: 4px;")
        self.notice.hide()
        self.editor.textChanged.connect(self.notice.hide)
        buttons = QHBoxLayout()
        buttons.addWidget(build)
        buttons.addWidget(presets)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.notice)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.error)
        layout.addLayout(buttons)

    def text(self) -> str:
        return self.editor.toPlainText()

    def set_text(self, text: str) -> None:
        """Replace the text as a fresh start: the undo history is cleared and the
        document counts as unmodified."""
        self.editor.setPlainText(text)
        self.editor.document().setModified(False)
        self.clear_error()

    def replace_text(self, text: str, clean: bool = True) -> None:
        """Replace the text as one edit that Ctrl+Z undoes, so typed work replaced by a
        preset, an example or a file is never lost. With `clean` the new text counts as
        unmodified (undoing makes the document modified again); without, it is an edit
        of the program like any other (a gradient step's new inputs)."""
        if text != self.text():
            cursor = QTextCursor(self.editor.document())
            cursor.beginEditBlock()
            cursor.select(QTextCursor.SelectionType.Document)
            cursor.insertText(text)
            cursor.endEditBlock()
            self.editor.moveCursor(QTextCursor.MoveOperation.Start)
        if clean:
            self.editor.document().setModified(False)
        self.clear_error()

    @property
    def modified(self) -> bool:
        """Whether the text changed since it was last set, replaced or saved."""
        return self.editor.document().isModified()

    def set_saved(self) -> None:
        self.editor.document().setModified(False)

    def show_notice(self, text: str) -> None:
        """A message above the editor that stays until the text is edited."""
        self.notice.setText(text)
        self.notice.show()

    def show_error(self, error: ExpressionError) -> None:
        self.editor.mark_error(error.line, error.col)
        self.error.setText(f"Line {error.line}, col {error.col}: {error.message}\n"
                           "The graph shows the last program that built.")
        self.error.show()

    def clear_error(self) -> None:
        self.editor.clear_error()
        self.error.clear()
        self.error.hide()

    @Slot()
    def _on_build(self) -> None:
        self.build_requested.emit(self.text())

    @Slot()
    def _on_preset(self) -> None:
        self.preset_chosen.emit(self.sender().data())
