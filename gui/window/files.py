"""The main window's files: open, save, the title, asking before closing, and the file
dialogs of Export and Write report (a mixin of MainWindow)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QFileDialog, QMessageBox

from engine import ExpressionError, parse
from engine.errors import shorten
from engine.io.files import read_program, write_atomic
from gui.graph import export
from gui.jobs.program_build import BACKGROUND_CHARS

APP_NAME = "Autograd Debugger"


def _reason(e: Exception) -> str:
    """Why a file could not be read or written, in words."""
    if isinstance(e, ExpressionError):
        return e.message
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return shorten(str(e))


class ProgramFiles:
    """Open, save and name the window's program (MainWindow's: it needs the editor,
    `file_path`, `program_name`, the build and the status bar)."""

    def _open_anyway(self, path, e: ExpressionError) -> bool:
        """Ask whether to open a program with an error, to fix it."""
        answer = QMessageBox.question(
            self, "The program has an error",
            f"{shorten(str(path))} has an error at line {e.line}, col {e.col}: {e.message}\n\n"
            "Open it anyway, to fix it? The graph keeps the last program that built.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            self.show_status(f"Did not open {shorten(str(path))}; the program is unchanged")
            return False
        return True

    def open_file(self, path: str) -> bool:
        """Open a program file. A file that cannot be read, is not a program's text, is
        empty or does not parse is refused with a message (a program with an error may be
        opened anyway, to fix it, if the user says so); the editor keeps its text."""
        try:  # a FIFO, socket, device or folder is refused without being opened
            text = read_program(path)
            if not text.strip():
                raise ExpressionError("the file is empty")
        except (OSError, ExpressionError) as e:
            name = shorten(str(path))
            QMessageBox.warning(self, "Cannot open", f"{name} cannot be opened:\n{_reason(e)}")
            self.show_status(f"Could not open {name}; the program is unchanged")
            return False
        if len(text) > BACKGROUND_CHARS:
            # parsed once, in the background; the editor and the graph change when it lands
            self._build_in_background(text, Path(path))
            return True
        self.program_build.cancel()
        self._opening = None
        try:
            program, error = parse(text), None  # parsed once: opening builds this
            stepper = self._prepare(program)
        except ExpressionError as e:
            program, error = None, e
            if not self._open_anyway(path, e):
                return False
        self.show_program(text, path)  # one edit: Ctrl+Z brings back what was there
        if program is None:
            self._show_error(error)
        else:
            self._load(program, stepper)
        return True

    @Slot()
    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open program", str(self._folder()),
                                              "Programs (*.expr);;All files (*)")
        if path:
            self.open_file(path)

    @Slot()
    def save(self) -> bool:
        if self.file_path is None:
            return self.save_as()
        return self.save_to(self.file_path)

    @Slot()
    def save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self, "Save program", str(self._folder()),
                                              "Programs (*.expr)")
        return bool(path) and self.save_to(Path(path))

    def save_to(self, path: Path) -> bool:
        text = self.editor.text()
        note = getattr(self, "_graph_note", None)  # a graph read from Python: its program
        if note is not None and note[0] is self.session.program and note[1] == text:
            text = note[0].source
        try:
            write_atomic(path, text)
        except (OSError, UnicodeEncodeError) as e:
            QMessageBox.warning(self, "Cannot save",
                                f"{shorten(str(path))} cannot be written:\n{_reason(e)}")
            return False
        self.editor.set_saved()
        self.file_path, self.program_name = Path(path), None
        self._set_title()
        self.show_status(f"Saved {path}")
        return True

    def _folder(self) -> Path:
        return self.file_path.parent if self.file_path else Path.home()

    def _set_title(self) -> None:
        """'name[*] — Autograd Debugger': Qt shows the [*] as '*' while the text has
        unsaved changes."""
        name = (shorten(self.file_path.name, 60) if self.file_path
                else self.program_name or "untitled")
        self.setWindowTitle(f"{name}[*] — {APP_NAME}")
        self.setWindowModified(self.editor.modified)

    def _may_close(self) -> bool:
        """Ask before closing on unsaved changes that nothing else keeps: a file's
        (the remembered program is the editor's text, not the file's) or, when settings
        are off, any. Save, Discard or Cancel."""
        if not self.editor.modified or (self.file_path is None and self.remember):
            return True
        name = shorten(self.file_path.name, 60) if self.file_path else "The program"
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.question(
            self, "Unsaved changes", f"{name} has changes that are not saved. Save them?",
            buttons.Save | buttons.Discard | buttons.Cancel, buttons.Save)
        if answer == buttons.Cancel:
            return False
        if answer == buttons.Save:
            return self.save()
        return True

    @Slot()
    def export_graph(self, kind: str) -> None:
        path, _ = QFileDialog.getSaveFileName(self, f"Export graph as {kind.upper()}",
                                              str(self._folder() / f"graph.{kind}"),
                                              f"{kind.upper()} (*.{kind})")
        if path:
            ok = export.write_scene(self.graph_tab.scene, path)
            self.show_status(f"Exported {path}" if ok else f"Could not write {path}")

    @Slot()
    def report_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Write the report into",
                                                  str(self._folder()))
        if folder:
            self.write_report(folder)
