"""The main window's menus (a mixin of MainWindow) and the shortcuts they list."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence

from gui import engine_dialog
from gui.tabs.learn.gradient_step import GradientStepper
from gui.window.animation_export import export_animation
from gui.window.appearance import ThemeMenu
from gui.window.copy_code import CodeCopier
from gui.window.presentation import Presentation

TABS = ("graph", "rules", "modes", "xor", "pitfalls", "learn")
SHORTCUTS = [
    ("Right", "Step"), ("Left", "Step back"), ("Space", "Play / pause"),
    ("Home", "Reset"), ("End", "Run to end"), ("Ctrl+Enter", "Build the program"),
    ("Ctrl+O / Ctrl+S", "Open / save a program"), ("Ctrl+R", "Write the report"),
    ("Ctrl+0", "Fit the graph"), ("Ctrl+K", "Show constants as nodes, or folded"),
    ("Ctrl+= / Ctrl+-", "Zoom in / out"), ("Ctrl+1 … Ctrl+6", "Switch tab"),
    ("Ctrl+G", "Apply one gradient step"),
    ("Double-click / + / −", "Open a group / open the selected group / close its group"),
    ("Alt+0 … Alt+4", "Collapse every group / expand to level N"),
    ("Alt+Home", "Back to a grouped graph's first view"),
    ("Ctrl+F", "Find a node by name"),
    ("Alt+PgUp / Alt+PgDown", "Learn: previous / next section"),
    ("F5", "Present: the graph full screen in large type; Right, Space or Page Down "
           "steps, Left or Page Up steps back, Esc leaves"),
    ("F1", "This list"), ("Ctrl+Q", "Quit"),
]


class WindowMenus:
    """File, Step, View and Help (MainWindow's: they call its slots)."""

    def _action(self, menu, text: str, slot, shortcut: str | None = None,
                tip: str = "") -> QAction:
        action = menu.addAction(text)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.setStatusTip(tip)
        action.triggered.connect(slot)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file = bar.addMenu("&File")
        self._action(file, "&Open…", self.open_dialog, "Ctrl+O", "Open a .expr program")
        self._action(file, "&Save", self.save, "Ctrl+S", "Save the program")
        self._action(file, "Save &as…", self.save_as, "Ctrl+Shift+S", "Save under a new name")
        file.addSeparator()
        file.addMenu(self.editor.presets_menu)
        file.addSeparator()
        self._action(file, "Export graph as &PNG…", lambda: self.export_graph("png"),
                     tip="Save the graph as it is drawn now")
        self._action(file, "Export graph as S&VG…", lambda: self.export_graph("svg"),
                     tip="Save the graph as a scalable drawing")
        self._action(file, "Export graph as &JSON…", lambda: self.export_graph("json"),
                     tip="Save every node's box and every edge's path and label, "
                         "in scene coordinates")
        self._action(file, "Export &animation…", lambda: export_animation(self),
                     tip="The whole pass as a GIF or an MP4 for slides: a frame per step, "
                         "captioned")
        self._action(file, "Check an &engine…", lambda: engine_dialog.open_dialog(self),
                     tip="Check your own micrograd-style autograd engine rule by rule")
        self._action(file, "Write &report…", self.report_dialog, "Ctrl+R",
                     "Recompute every table of the lesson into a folder (Markdown + PNG)")
        self.code_copier = CodeCopier(self)
        for action in self.code_copier.actions.values():
            file.addAction(action)
        file.addSeparator()
        self._action(file, "&Quit", self.close, "Ctrl+Q")
        step = bar.addMenu("&Step")
        step.addAction(self.editor.build_action)
        step.addSeparator()
        for key in ("step", "back", "play", "reset", "end"):
            step.addAction(self.graph_tab.actions[key])
        step.addSeparator()
        self.gradient_stepper = GradientStepper(self)
        step.addAction(self.gradient_stepper.action)
        self._view_menu(bar.addMenu("&View"))
        help_menu = bar.addMenu("&Help")
        self._action(help_menu, "&Keyboard shortcuts", self.show_shortcuts, "F1")
        self._action(help_menu, "&About", self.show_about)

    def _fit_graph(self) -> None:
        self.show_status(self.graph_tab.view.fit_pressed())  # again: the whole graph

    def _view_menu(self, view) -> None:
        """Zoom, constants, groups, docks, presentation and theme, the tabs."""
        self._action(view, "&Fit graph", self._fit_graph,
                     "Ctrl+0", "Zoom to show the whole graph, or as much of it as is "
                     "readable (again: all of it)")
        self._action(view, "Zoom &in", lambda: self.graph_tab.view.zoom_step(True), "Ctrl+=")
        self._action(view, "Zoom &out", lambda: self.graph_tab.view.zoom_step(False), "Ctrl+-")
        self.constants_action = QAction("Show &constants as nodes", self)
        self.constants_action.setCheckable(True)
        self.constants_action.setShortcut(QKeySequence("Ctrl+K"))
        self.constants_action.setStatusTip(
            "Draw each number in the program as a box of its own, with its gradient, "
            "instead of writing it into its operation (× 1.2)")
        self.constants_action.toggled.connect(self._on_constants)
        view.addAction(self.constants_action)
        self._group_menu(view)
        view.addAction(self.editor_dock.toggleViewAction())
        view.addAction(self.inspector_dock.toggleViewAction())
        view.addSeparator()
        self.presentation = Presentation(self, view)
        self.theme_menu = ThemeMenu(self, view)
        view.addSeparator()
        for i in range(len(TABS)):
            self._action(view, f"{self.tabs.tabText(i)} tab",
                         lambda checked=False, i=i: self.tabs.setCurrentIndex(i), f"Ctrl+{i + 1}")

    def _group_menu(self, view) -> None:
        """A grouped graph's entries in View: find, open, close, expand to level N."""
        view.addSeparator()
        groups = self.graph_tab.expansion.actions
        for key in ("group", "find", "expand", "collapse", "first"):
            view.addAction(groups[key])
        levels = view.addMenu("Expand to &level")
        for key, action in groups.items():
            if key.startswith("level"):
                levels.addAction(action)
        view.addSeparator()
