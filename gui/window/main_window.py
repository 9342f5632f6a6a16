"""The main window: tabs, the editor and inspector docks, menus, status bar, settings."""
# size: the window's wiring and its program's build; files, menus, tabs are mixins

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QTabWidget,
    QToolButton,
)

from engine import ExpressionError, _gc, parse
from engine.core.stepping import Stepper, gradient_error
from engine.errors import shorten_path
from engine.io.files import read_program
from gui import engine_dialog
from gui import settings as remembered_settings
from gui.graph.editor import PRESETS, EditorPanel
from gui.graph.inspector import Inspector, current_group
from gui.graph.session import Session
from gui.graph.tab import GraphTab
from gui.jobs import process_job, warm_imports, worker
from gui.jobs.disposal import Disposal
from gui.jobs.program_build import BACKGROUND_CHARS, ProgramBuild
from gui.jobs.report_writer import ReportWriter
from gui.jobs.tensorflow_checker import LOADING_SAID, READY, TensorFlowChecker
from gui.tabs.lazy import LazyTabs
from gui.window import recovery
from gui.window.files import APP_NAME, ProgramFiles, _reason
from gui.window.lazy_tabs import WindowTabs
from gui.window.menus import SHORTCUTS, WindowMenus
from gui.window.status import KeepActive, ProgressWords, StatusMemory

DEFAULT_PROGRAM = PRESETS / "01-neuron.expr"
WARM_AFTER_MS = 1500  # after the start's own work: the window is drawn and idle by then
FRAME_H = 32  # about a window manager's title bar, which the window's size leaves out


def default_size() -> tuple[int, int]:
    """Most of the screen, so that a graph like the lesson's neuron fits at a readable
    size: 90% of it, at least 1400 x 860 and at most 1800 x 1000, but never more than
    the screen has (a 1280 x 720 laptop gets all of it). The offscreen platform's screen
    is nominal (800 x 600, nothing to fit): a window there has a desktop's size."""
    screen = QGuiApplication.primaryScreen()
    if screen is None:
        return 1400, 860
    room = screen.availableGeometry()
    width = min(1800, max(1400, int(room.width() * 0.9)))
    height = min(1000, max(860, int(room.height() * 0.9)))
    if QGuiApplication.platformName() == "offscreen":
        return width, height
    return min(width, room.width()), min(height, room.height() - FRAME_H)


class MainWindow(ProgramFiles, WindowMenus, WindowTabs, QMainWindow):
    """The app's window. With `remember=False` it neither reads nor writes settings."""

    def __init__(self, path: str | None = None, remember: bool = True):
        super().__init__()
        self.remember = remember
        # None when the settings file is not a regular file (a FIFO, a link to a device)
        self.settings, self.settings_file, self.settings_problem = (
            remembered_settings.open_settings() if remember else (None, "", None))
        self.recovery = recovery.beside(self.settings_file) if remember else None
        self.file_path: Path | None = None
        self.program_name: str | None = None  # the title's name when no file has one
        self.session = Session(self)
        self.setWindowTitle(APP_NAME)
        self.resize(*default_size())

        self.checker = TensorFlowChecker(self)
        self.graph_tab = GraphTab(self.session, self)
        self.tabs = QTabWidget(self)
        self.status_memory, self.keep_active = StatusMemory(self), KeepActive(self)
        self.tabs.addTab(self.graph_tab, "Graph")
        # the other tabs (and pyqtgraph, numpy) are made the first time they are shown
        self.lazy_tabs = LazyTabs(self.tabs)
        self.lazy_tabs.add("Rules", self._make_rules_tab)
        self.lazy_tabs.add("Modes", self._make_modes_tab)
        self.lazy_tabs.add("XOR", self._make_xor_tab)
        self.lazy_tabs.add("Pitfalls", self._make_pitfalls_tab)
        self.lazy_tabs.add("Learn", self._make_learn_tab)
        self.setCentralWidget(self.tabs)

        self._make_docks_and_status_bar()
        # a big program is parsed in a child process and built in slices
        self.program_build = ProgramBuild(lambda: self.session.builtin_engine, self)
        self.program_build.budget = self.graph_tab.expansion.parse_budget  # grouped as parsed
        self._opening: tuple[Path, str] | None = None  # a file whose build is running
        self.session.restep = self._restep
        self.disposal = Disposal(self)  # old programs let go of a slice at a time
        self.session.dispose = self.disposal.drop

        self.reporter = ReportWriter(self)
        self.reporter.progress.connect(self._on_report_progress)
        self.reporter.finished.connect(self._on_report_finished)
        self._build_menus()
        self._connect()
        self._restore(path)
        if remember:  # the app's own window: the tabs' modules imported while it is idle
            QTimer.singleShot(WARM_AFTER_MS, warm_imports.start_warming)

    def _make_docks_and_status_bar(self) -> None:
        self.editor = EditorPanel(self)
        self.editor.setMinimumWidth(300)
        # the title's [*] shows an asterisk while the text has unsaved changes
        self.editor.editor.document().modificationChanged.connect(self.setWindowModified)
        self.editor_dock = self._dock("Program", "editor_dock", self.editor,
                                      Qt.DockWidgetArea.LeftDockWidgetArea)
        self.inspector = Inspector(self)
        self.inspector_dock = self._dock("Inspector", "inspector_dock", self.inspector,
                                         Qt.DockWidgetArea.LeftDockWidgetArea)
        self.splitDockWidget(self.editor_dock, self.inspector_dock, Qt.Orientation.Vertical)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 0)
        self.progress.setMaximumWidth(160)
        self.progress.hide()
        self.statusBar().addPermanentWidget(self.progress)
        self.progress_words = ProgressWords(self, self.progress)  # what the bar is for
        self.cancel_layout = self._cancel_button(
            "cancel_layout", "Stop laying out the graph: it is not drawn, stepping still works")
        self.cancel_build = self._cancel_button(
            "cancel_build", "Stop building the program: the graph keeps the last program "
            "that built")

    def _connect(self) -> None:
        self.editor.build_requested.connect(self.build)
        self.editor.preset_chosen.connect(self.open_preset)
        self.graph_tab.status.connect(self.show_status)
        self.graph_tab.busy.connect(self._on_layout_busy)
        self.graph_tab.reorder.connect(self._reorder)
        self.cancel_layout.clicked.connect(self.graph_tab.cancel_layout)
        self.cancel_build.clicked.connect(self.cancel_building)
        self.program_build.progress.connect(self.show_status)
        self.program_build.busy.connect(self._on_build_busy)
        self.program_build.finished.connect(self._on_built)
        self.program_build.failed.connect(self._on_build_failed)
        self.graph_tab.selection_changed.connect(self._update_inspector)
        self.session.moved.connect(self._update_inspector)
        self.session.loaded.connect(self._update_inspector)
        self.session.loaded.connect(self._cross_check)
        self.checker.status.connect(
            lambda message: self.status_memory.say(message, supersedes=LOADING_SAID))
        self.checker.busy.connect(
            lambda busy: self.progress_words.show_for(busy, LOADING_SAID + "…"))
        self.checker.changed.connect(self._update_inspector)
        self.tabs.currentChanged.connect(self._on_tab_chosen)

    def _cancel_button(self, name: str, tip: str) -> QToolButton:
        """A Cancel button in the status bar, shown while its background work runs."""
        button = QToolButton(self)
        button.setObjectName(name)
        button.setText("Cancel")
        button.setToolTip(tip)
        button.hide()
        self.statusBar().addPermanentWidget(button)
        return button

    def _dock(self, title: str, name: str, widget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    # -- programs -------------------------------------------------------------------------------

    def _restore(self, path: str | None) -> None:
        text, failed = None, None
        if path is not None:
            try:
                text = read_program(path)
                if not text.strip():
                    raise ExpressionError("the file is empty")
                self.file_path = Path(path)
            except (OSError, ExpressionError) as e:
                text, failed = None, f"Could not open {shorten_path(str(path))}: {_reason(e)}."
        waiting = []  # other windows' recovery copies, kept for later windows
        if self.remember:
            if text is None:  # the newest unsaved program a closed window kept
                text, waiting = self.recovery.claim()
            if self.settings is not None:
                low, high = self.graph_tab.speed.minimum(), self.graph_tab.speed.maximum()
                saved = remembered_settings.read(self.settings, (low, high))
                if saved.geometry is not None:
                    self.restoreGeometry(saved.geometry)
                if saved.state is not None:
                    self.restoreState(saved.state)
                if text is None:
                    text = saved.program
                self.graph_tab.speed.setValue(saved.speed)
                self.graph_tab.constants_as_nodes = saved.constants_as_nodes
                self.constants_action.setChecked(saved.constants_as_nodes)
        shown = "your last program" if text is not None else "the lesson's neuron"
        if text is None:
            text = read_program(DEFAULT_PROGRAM)
        if not self.load_program(text, self.file_path, undoable=False) \
                and self.session.program is None:
            # keep the user's text and its error on screen, but show a working graph
            self.session.load(parse(read_program(DEFAULT_PROGRAM)))
        if failed is not None:
            # stays above the editor until the user edits: never a status that a build's
            # "Built …" replaces at once
            self.editor.show_notice(f"{failed} The editor shows {shown} instead.")
            self.show_status(failed)
        if self.remember:
            self._start_keeping(waiting)

    def load_program(self, text: str, path: Path | str | None = None,
                     name: str | None = None, undoable: bool = True) -> bool:
        """Load a program into the window: `text` into the editor, named after the file
        at `path` or `name` (neither: untitled), built, and the window's title set. With
        `undoable` the text is one edit, which Ctrl+Z in the editor takes back; without,
        the editor starts afresh. Returns what `build` returns: False for a program with
        an error (shown beside the text; the graph keeps the last good program)."""
        self.show_program(text, path, name, undoable)
        return self.build(text)

    def show_program(self, text: str, path: Path | str | None = None,
                     name: str | None = None, undoable: bool = True) -> None:
        """`load_program` without the build: the editor, the name and the title."""
        self._graph_opening = None  # another program replaces a graph being opened
        if undoable:
            self.editor.replace_text(text)
        else:
            self.editor.set_text(text)
        self.file_path = Path(path) if path is not None else None
        self.program_name = name
        self._set_title()

    @Slot(str)
    def build(self, text: str) -> bool:
        """Parse `text` and show its graph; on an error keep the last good graph.

        A text over BACKGROUND_CHARS is built in the background: True when that has
        started (see `wait_for_build`); its error, if any, is shown when it is found."""
        if len(text) > BACKGROUND_CHARS:
            self._build_in_background(text, None)
            return True
        self.program_build.cancel()  # a quick build replaces a running big one
        self._opening = None
        try:
            program = parse(text)
            stepper = self._prepare(program)
        except ExpressionError as e:
            self._show_error(e)
            return False
        self._load(program, stepper)
        return True

    def _prepare(self, program) -> Stepper:
        """The stepper for `program`; ExpressionError if a gradient overflows (not a
        finite number), which the window refuses as the command line does."""
        # a user's replayed engine steps only its own case: a new program gets the
        # classic bug switched on, or none (as Session.load_prepared decides)
        stepper = Stepper(program.output, self.session.builtin_engine)
        error = gradient_error(program, stepper.backward_steps)
        if error is not None:
            raise error
        return stepper

    def _load(self, program, stepper: Stepper) -> None:
        self._graph_opening = None
        self.editor.clear_error()
        self.session.load_prepared(program, stepper)
        self.graph_tab.focus_graph()  # so that Right steps at once

    def _build_in_background(self, text: str, opening: Path | None) -> None:
        self._opening = (opening, text) if opening is not None else None
        self._graph_opening = None
        self.graph_tab.set_building(True)
        self.program_build.start(text)  # ends the build before, if one runs

    def _restep(self, program) -> None:
        """A big program's stepper for the session's new engine, made in slices."""
        if self.program_build.running and not self.program_build.restepping:
            return  # the program being built gets its stepper for the new engine
        self.graph_tab.set_building(True)
        stepper = self.session.stepper  # the same program's: its order is the same
        same = stepper is not None and stepper.output is program.output
        self.program_build.restep(program, stepper.forward_steps if same else None,
                                  self.graph_tab.expansion.reference(stepper) if same else None)

    @Slot(object, object)
    def _reorder(self, program, forward_steps) -> None:
        """A grouped program's stepper made again in the grouping's order (each group's
        steps one run), in slices, and loaded when ready."""
        if program is self.session.program:
            self.graph_tab.set_building(True)
            stepper = self.session.stepper  # walks topological_order's, the reference
            self.program_build.restep(program, forward_steps, stepper.forward_steps)

    @property
    def building(self) -> bool:
        """True while a big program is built in the background."""
        return self.program_build.running

    def wait_for_build(self, timeout_s: float = 300.0) -> bool:
        """Block until a background build has landed or failed (for tests, pictures and
        exports, never in the window's own use); True if none is left running. A big
        graph's grouping is waited for too, and its stepper made in the grouping's order:
        then only its drawing is left (`graph_tab.wait_for_layout`)."""
        done = self.program_build.wait(timeout_s)
        if done and self.graph_tab.expansion.running:
            self.graph_tab.expansion.job.run_to_end(timeout_s)  # may make the stepper again
            done = self.program_build.wait(timeout_s)
        return done

    @Slot()
    def cancel_building(self) -> None:
        """The user's Cancel: the build ends; the graph keeps the last program."""
        if self.program_build.running:
            restepping = self.program_build.restepping
            self.program_build.cancel()
            self._opening = None
            if restepping:  # back to the engine whose stepper the session still has
                self.graph_tab.show_engine(self.session.stepper.engine)
            self.graph_tab.set_building(False)
            self.show_status("Cancelled: the graph and its steps are as they were"
                             if restepping else
                             "Build cancelled: the graph shows the last program that built")
            self._graph_not_opened("cancelled")

    @Slot(bool)
    def _on_build_busy(self, busy: bool) -> None:
        self.progress_words.show_for(busy, "Building the program…")
        self.cancel_build.setVisible(busy)

    @Slot(object, object)
    def _on_built(self, program, stepper) -> None:
        if program is self.session.program:  # the same program, stepped with a new bug
            self.graph_tab.set_building(False)
            self.session.load_prepared(program, stepper, self.session.source_name)
            self.graph_tab.focus_graph()
            return
        # its gradients were checked by the build (an overflow is refused as the command
        # line refuses it: `failed`), and its roles made, in slices
        self.graph_tab.set_building(False)
        self._graph_opening = None  # opened: its title and note stay
        if self._opening is not None:
            path, text = self._opening
            self._opening = None
            self.show_program(text, path)
        self.editor.clear_error()
        if self.program_build.grouped is not None:  # grouped by the parser's child
            self.graph_tab.expansion.give(self.program_build.grouped)
            self.program_build.grouped = None
        self.session.load_prepared(program, stepper,
                                   roles=self.program_build.take_roles(program))
        self.graph_tab.focus_graph()

    @Slot(object)
    def _on_build_failed(self, error) -> None:
        self.graph_tab.set_building(False)
        opening, self._opening = self._opening, None
        if self._graph_opening is not None:  # a graph read from Python: no text to mark
            self._graph_not_opened(f"not opened ({getattr(error, 'message', error)})")
        elif not isinstance(error, ExpressionError):
            self.show_status(f"The program was not built: {error}")
        elif opening is not None:
            path, text = opening
            if self._open_anyway(path, error):
                self.show_program(text, path)
                self._show_error(error)
        else:
            self._show_error(error)
        if self.session.program is None:  # at start-up: show a working graph
            self.session.load(parse(read_program(DEFAULT_PROGRAM)))

    def _show_error(self, e: ExpressionError) -> None:
        self.editor.show_error(e)
        self.show_status(f"Error at line {e.line}, col {e.col}: {e.message}")

    @Slot(str)
    def open_preset(self, path: str) -> None:
        """Load a preset (or a Pitfalls example) as one edit: Ctrl+Z brings back the text
        it replaced."""
        self.load_program(Path(path).read_text(encoding="utf-8"))

    def write_report(self, folder: str, quick: bool = False) -> None:
        self.reporter.start(folder, quick)

    @Slot(int, int, str)
    def _on_report_progress(self, done: int, total: int, text: str) -> None:
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.progress_words.show_for(True, "Writing the report…")
        self.show_status(f"Writing the report: {text}…")

    @Slot(str)
    def _on_report_finished(self, message: str) -> None:
        self.progress_words.show_for(False, "Writing the report…")
        self.progress.setRange(0, 0)
        self.show_status(message)

    @Slot(bool)
    def _on_layout_busy(self, busy: bool) -> None:
        """A layout past half a second: a progress bar, and Cancel beside it."""
        self.progress_words.show_for(busy, "Laying out the graph…")
        self.cancel_layout.setVisible(busy)

    # -- status, inspector, help ------------------------------------------------------------

    @Slot(str)
    def show_status(self, message: str) -> None:
        self.status_memory.say(message)  # kept for the tab in front (gui/window/status.py)

    @Slot()
    def _cross_check(self) -> None:
        """Once TensorFlow is loaded, every new program is checked against it."""
        if self.checker.state == READY:  # so the Rules tab exists
            self.rules_tab.request_check()

    @Slot(int)
    def _on_tab_chosen(self, index: int) -> None:
        """The Graph tab chosen: the graph has the keyboard, so that Right steps."""
        if self.tabs.widget(index) is self.graph_tab:
            self.graph_tab.focus_graph()

    @Slot()
    def _update_inspector(self) -> None:
        scene = self.graph_tab.scene
        stepper = self.session.stepper
        selected = scene.selectedItems()
        group = scene.group_at(selected[0]) if selected else None
        if not selected:  # stepping: a collapsed group's step is described as the group
            group = current_group(self.graph_tab.expansion.levels())
        if group is not None:  # a collapsed group: what it is, holds, takes and gives
            self.inspector.show_group(group, self.graph_tab.expansion.shown)
            return
        node = scene.node_at(selected[0]) if selected else None
        if node is None and stepper is not None:
            current = stepper.current
            node = getattr(current, "node", current)
        role = self.session.role_of(node) if node is not None else ""
        tf_grad = None
        if node is not None and role == "input":
            tf_grad = self.checker.gradient_of(self.session.generation, node.label)
        # a grouped graph's contributions are summed by the group that sent them
        self.inspector.show_node(node, stepper, role, tf_grad,
                                 levels=self.graph_tab.expansion.levels())

    @Slot()
    def show_shortcuts(self) -> None:
        rows = "".join(f"<tr><td><b>{k}</b></td><td>{v}</td></tr>" for k, v in SHORTCUTS)
        QMessageBox.information(self, "Keyboard shortcuts", f"<table>{rows}</table>")

    @Slot(bool)
    def _on_constants(self, on: bool) -> None:
        self.graph_tab.set_constants_as_nodes(on)
        self.show_status("Constants drawn as nodes" if on
                         else "Constants written into their operations")

    @Slot()
    def show_about(self) -> None:
        QMessageBox.about(self, f"About {APP_NAME}",
                          f"<h3>{APP_NAME}</h3><p>See reverse-mode automatic differentiation "
                          "happen: the graph, each step of the forward and backward passes, "
                          "and every gradient checked.</p>")

    def closeEvent(self, event) -> None:
        if not self._may_close():
            event.ignore()
            return
        self.theme_menu.detach()
        self.graph_tab.timer.stop()
        self.program_build.cancel()
        self.graph_tab.stop_layout()
        for name in ("Modes", "XOR", "Pitfalls", "Learn"):
            if self.lazy_tabs.made(name):
                self.lazy_tabs.tab(name).stop()
        self.reporter.stop()
        engine_dialog.stop_checks(self)
        self.checker.stop()
        # any other child job: none outlives the window, but another window's go on
        others = [w for w in QApplication.topLevelWidgets()
                  if isinstance(w, MainWindow) and w is not self and w.isVisible()]
        kept = worker.stop_workers(spared=others)
        process_job.stop_all(spared=[w.job for w in kept])
        self.disposal.finish()
        self.graph_tab.tidy.finish()
        _gc.unsettle()  # a big graph kept out of the collector's sight goes with the window
        if self.remember and self.settings is not None:
            remembered_settings.write(self.settings, self.saveGeometry(), self.saveState(),
                                      self.graph_tab.speed.value(),
                                      self.graph_tab.constants_as_nodes)
        self._stop_keeping()
        super().closeEvent(event)
