"""The main window's files: open, save, the title, asking before closing, and the file
dialogs of Export and Write report (a mixin of MainWindow)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QTimer, Slot
from PySide6.QtWidgets import QFileDialog, QMessageBox

from engine import ExpressionError, parse
from engine.errors import shorten, shorten_path
from engine.io.files import read_program, write_atomic
from engine.language import MAX_CHARS
from gui import settings as remembered_settings
from gui.graph import export
from gui.graph.session import RESTEP_AT
from gui.jobs.group_child import GROUP_FROM
from gui.jobs.program_build import BACKGROUND_CHARS
from gui.window import boxes

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

    _graph_note = None  # (program, the editor's note) of a graph read from Python
    _graph_opening = None  # (text, path, name) shown before a big graph being opened

    def load_graph(self, program, name: str, text: str | None = None) -> None:
        """Load `program`, made without text (a graph read from Python), titled `name`,
        the editor showing `text` (default: the program's text). A graph of more than
        RESTEP_AT nodes gets its stepper in slices (`ProgramBuild.start_program`), so
        the window keeps drawing; while a big one is read, grouped and drawn, the graph
        area says so (never the last program's graph under the new title). File → Save
        writes the program's text."""
        text = program.source if text is None else text
        before = (self.editor.text(), self.file_path, self.program_name)
        self.show_program(text, name=name, undoable=False)
        self._graph_note = (program, text)  # Save writes program.source instead of a note
        self._graph_opening = before
        n = len(program.values)
        if n > GROUP_FROM:
            self.graph_tab.show_placeholder(
                f"{name}: {n:,} nodes read from Python\n\nPreparing the steps, grouping "
                "and drawing… (the status bar says how far)")
        self._opening = None
        if n <= RESTEP_AT:
            self.program_build.cancel()
            try:
                stepper = self._prepare(program)
            except ExpressionError as e:
                self._graph_not_opened(f"not opened ({e.message})")
                return
            self._graph_opening = None
            self._load(program, stepper)
            return
        self.graph_tab.set_building(True)
        # its values are in a topological order already (parents first, output last)
        self.program_build.start_program(program, list(program.values))

    def _graph_not_opened(self, what: str) -> None:
        """A big graph's opening was cancelled or failed: the window shows the program
        it had again, its text and title too, not a note about the graph."""
        opening, self._graph_opening = self._graph_opening, None
        if self.graph_tab.placeholder:
            self.graph_tab.redraw()
        if opening is not None:
            name = self.program_name
            text, path, program_name = opening
            self.show_program(text, path, program_name, undoable=False)
            self._graph_note = None
            self.show_status(f"{name} was {what}: the window shows the program it had")

    def _open_anyway(self, path, e: ExpressionError) -> bool:
        """Ask whether to open a program with an error, to fix it."""
        answer = QMessageBox.question(
            self, "The program has an error",
            f"{shorten_path(str(path))} has an error at line {e.line}, col {e.col}: {e.message}\n\n"
            "Open it anyway, to fix it? The graph keeps the last program that built.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            self.show_status(f"Did not open {shorten_path(str(path))}; the program is unchanged")
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
            name = shorten_path(str(path))
            boxes.plain_warning(self, "Cannot open", f"{name} cannot be opened:\n{_reason(e)}")
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
        text = self._text_to_save()
        if not self._may_save_long(text):  # asked before the file is chosen
            return False
        path, _ = QFileDialog.getSaveFileName(self, "Save program", str(self._folder()),
                                              "Programs (*.expr)")
        return bool(path) and self._write(Path(path), text)

    def save_to(self, path: Path) -> bool:
        """Write the program to `path`; False if it was not (cannot be written, or too
        long to be opened again and the user chose not to)."""
        text = self._text_to_save()
        return self._may_save_long(text) and self._write(Path(path), text)

    def _text_to_save(self) -> str:
        text = self.editor.text()
        note = self._graph_note  # a graph read from Python: its program
        if note is not None and note[0] is self.session.program and note[1] == text:
            text = note[0].source
        return text

    def _may_save_long(self, text: str) -> bool:
        """A program longer than File → Open and the command line read (a big graph read
        from Python, over about 25,000 nodes): say so, and what keeps it instead, before
        writing it; True to write it all the same."""
        if len(text) <= MAX_CHARS:
            return True
        buttons = QMessageBox.StandardButton
        answer = boxes.plain_warning(
            self, "Too long to be opened again",
            f"As a program, this graph is {len(text):,} characters long. File → Open and "
            f"the command line read programs of at most {MAX_CHARS:,} characters, so this "
            "file could not be opened again.\n\nTo keep the graph, use File → Export graph "
            "as JSON (what is drawn, and every named value with its gradient), or "
            "draw(root, 'graph.json') in your script.\n\nSave the program anyway?",
            buttons.Save | buttons.Cancel, buttons.Cancel)
        if answer != buttons.Save:
            self.show_status(f"Not saved: the program is {len(text):,} characters, over the "
                             f"{MAX_CHARS:,} File → Open reads; File → Export graph as JSON "
                             "keeps the graph")
            return False
        return True

    def _write(self, path: Path, text: str) -> bool:
        try:
            write_atomic(path, text)
        except (OSError, UnicodeEncodeError) as e:
            boxes.plain_warning(self, "Cannot save",
                          f"{shorten_path(str(path))} cannot be written:\n{_reason(e)}")
            return False
        self.editor.set_saved()
        self.file_path, self.program_name = path, None
        self._set_title()
        if len(text) > MAX_CHARS:
            self.show_status(f"Saved {path}: {len(text):,} characters, more than File → Open "
                             f"reads ({MAX_CHARS:,}), so it cannot be opened here again")
        else:
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

    # -- keeping the text for the next start (gui/window/recovery.py) --------------------

    KEEP_AFTER_MS = 2000  # the recovery copy is written this long after the last edit

    def _start_keeping(self, waiting: list[str]) -> None:
        """Keep the text from now on: a recovery copy now, and after each pause in
        editing; say once if the settings or the copy cannot be written, and where other
        windows' copies wait."""
        self._told_keeping = False
        self._keep_timer = QTimer(self)
        self._keep_timer.setSingleShot(True)
        self._keep_timer.setInterval(self.KEEP_AFTER_MS)
        self._keep_timer.timeout.connect(self._keep_now)
        self.editor.editor.textChanged.connect(self._keep_timer.start)
        problem = self.settings_problem
        if problem is None and self.settings is not None:
            self.settings.setValue("speed", self.graph_tab.speed.value())  # a write to try
            problem = remembered_settings.write_problem(self.settings)
        if problem is not None:
            self._say_once(f"Settings cannot be written ({shorten(self.settings_file, 400)}: "
                           f"{problem}): the window's size and options are not remembered")
        self._keep_now()
        if waiting:
            count = len(waiting)
            self.editor.show_notice(
                f"{count:,} more unsaved program{'s' if count > 1 else ''} from other "
                f"windows {'are' if count > 1 else 'is'} kept: "
                f"{shorten(waiting[0])}{' …' if count > 1 else ''} (File → Open).")

    def _say_once(self, message: str) -> None:
        if not self._told_keeping:
            self._told_keeping = True
            self.show_status(message)

    @Slot()
    def _keep_now(self) -> str | None:
        """Write the recovery copy; None when the text is kept, else why not."""
        problem = self.recovery.keep(self.editor.text())
        if problem is not None and len(self.editor.text()) <= MAX_CHARS:
            self._say_once(f"Your unsaved program cannot be kept for the next start: "
                           f"{shorten(problem)}")
        return problem

    def _stop_keeping(self) -> None:
        if self.recovery is not None:
            self._keep_timer.stop()
            self.recovery.release()

    def _may_close(self) -> bool:
        """Ask before closing on unsaved changes that nothing else keeps: a file's
        (the recovery copy is the editor's text, not the file's), or text whose recovery
        copy could not be written (settings off, over MAX_CHARS characters, a folder that
        cannot be written). Save, Discard or Cancel."""
        why = None if self.recovery is None else self._keep_now()
        if not self.editor.modified or (self.file_path is None and self.recovery is not None
                                        and why is None):
            return True
        name = shorten(self.file_path.name, 60) if self.file_path else "The program"
        question = f"{name} has changes that are not saved. Save them?"
        if why is not None and self.file_path is None:
            question = (f"{name} has changes that are not saved, and they cannot be kept "
                        f"for the next start: {shorten(why)}.\n\nSave them?")
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.question(self, "Unsaved changes", question,
                                      buttons.Save | buttons.Discard | buttons.Cancel,
                                      buttons.Save)
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
