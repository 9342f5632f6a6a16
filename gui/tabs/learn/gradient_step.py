"""Step → Apply one gradient step: w ← w − η·dL/dw on the program's inputs, for any
program; the editor gets the new values and the graph is built again."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
)

from engine import ExpressionError
from engine.lesson.learn.gradient_step import (
    GradientStep,
    default_parameters,
    gradient_step,
    with_inputs,
)


def describe_step(step: GradientStep, output: str) -> str:
    """'One step at η = 0.1: w1 0.5 → 0.7, …; loss 1 → 0.0276708.'"""
    moved = ", ".join(f"{n} {step.before[n]:.6g} → {step.after[n]:.6g}" for n in step.after)
    return (f"One gradient step at η = {step.eta:g}: {moved}; {output} "
            f"{step.loss_before:.6g} → {step.loss_after:.6g}.")


class StepDialog(QDialog):
    """Asks for η and the inputs to update (those that look like data unticked)."""

    def __init__(self, program, eta: float, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Apply one gradient step")
        self.eta = QDoubleSpinBox(self)
        self.eta.setDecimals(4)
        self.eta.setRange(0.0001, 100.0)
        self.eta.setSingleStep(0.01)
        self.eta.setValue(eta)
        self.eta.setToolTip("The learning rate η: each input moves by −η × its gradient")
        self.names = QListWidget(self)
        self.names.setToolTip("The inputs the step updates: the parameters. Inputs that "
                              "are data (x…, y…, target…) are unticked at first")
        chosen = set(default_parameters(program))
        for name in program.inputs:
            item = QListWidgetItem(name, self.names)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if name in chosen
                               else Qt.CheckState.Unchecked)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(QLabel(f"w ← w − η · d{program.output_name}/dw, for the ticked "
                           "inputs:", self))
        form.addRow("η:", self.eta)
        form.addRow("Update:", self.names)
        form.addRow(buttons)

    def chosen(self) -> list[str]:
        return [self.names.item(i).text() for i in range(self.names.count())
                if self.names.item(i).checkState() == Qt.CheckState.Checked]


class GradientStepper(QObject):
    """The Step menu's action and what it does to `window` (the MainWindow)."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.eta = 0.1
        self.last: GradientStep | None = None
        self.action = QAction("Apply one &gradient step…", window)
        self.action.setShortcut(QKeySequence("Ctrl+G"))
        self.action.setStatusTip("Move the ticked inputs one step against their gradients "
                                 "(w ← w − η·dL/dw) and show the output before and after")
        self.action.triggered.connect(self.ask)

    @Slot()
    def ask(self) -> None:
        program = self.window.session.program
        if program is None or not self._ready(program):
            return
        dialog = StepDialog(program, self.eta, self.window)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.eta = dialog.eta.value()
            self.apply(self.eta, dialog.chosen())

    def _ready(self, program) -> bool:
        if self.window.building or self.window.editor.text() != program.source:
            QMessageBox.information(self.window, "Apply one gradient step",
                                    "The editor's text is not the program the graph shows. "
                                    "Build it first (Ctrl+Enter), then take the step.")
            return False
        return True

    def apply(self, eta: float, names: list[str]) -> GradientStep | None:
        """Take the step on the graph's program and build the result; None (with a
        message) if there is nothing to step or the new point cannot be computed."""
        program = self.window.session.program
        if program is None:
            return None
        if not names:
            self.window.show_status("No input ticked: the gradient step changed nothing")
            return None
        try:
            step = gradient_step(program, eta, names)
        except (ExpressionError, ValueError) as e:
            QMessageBox.warning(self.window, "Apply one gradient step",
                                f"The step cannot be taken: {e}")
            return None
        text = with_inputs(program, step.after)
        # an edit of the program: Ctrl+Z takes the step back, and the title marks it
        self.window.editor.replace_text(text, clean=False)
        self.window.build(text)
        self.last = step
        self.window.show_status(describe_step(step, program.output_name))
        return step
