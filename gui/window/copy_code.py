"""File → Copy as TensorFlow / PyTorch / JAX code: the graph's program as a script that
prints its gradients, put on the clipboard."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QGuiApplication

from engine.lesson.learn.code_export import FRAMEWORKS, TITLES, script


class CodeCopier(QObject):
    """One action per framework; `copy(framework)` also returns the script."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.actions = {}
        for framework in FRAMEWORKS:
            action = QAction(f"Copy as {TITLES[framework]} code", window)
            action.setStatusTip(f"Put a runnable {TITLES[framework]} script on the "
                                "clipboard that computes this program and prints its "
                                "gradients, to compare with the app's")
            action.triggered.connect(lambda checked=False, f=framework: self.copy(f))
            self.actions[framework] = action

    def copy(self, framework: str) -> str:
        """The script for the graph's program ('' with a message if there is none)."""
        program = self.window.session.program
        if program is None:
            return ""
        try:
            text = script(program, framework)
        except ValueError as e:
            self.window.show_status(str(e))
            return ""
        QGuiApplication.clipboard().setText(text)
        self.window.show_status(f"Copied a {TITLES[framework]} script for "
                                f"{program.output_name} ({len(text.splitlines())} lines): "
                                "paste it into a file and run it with python")
        return text
