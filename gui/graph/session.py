"""The program being debugged and its stepper, shared by every view of the window."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from engine import Program
from engine.stepping import Stepper


class Session(QObject):
    """Owns the current Program and Stepper; views subscribe to its signals.

    `loaded` fires when a new program replaces the old one; `moved(previous_position)`
    after every change of the stepper's position.
    """

    loaded = Signal()
    moved = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.program: Program | None = None
        self.stepper: Stepper | None = None
        self.source_name = ""
        self.generation = 0  # counts loads, so results for an old program can be told apart
        self.pitfall: str | None = None  # a classic bug the stepper makes, or None

    def load(self, program: Program, source_name: str = "") -> None:
        self.program = program
        self.stepper = Stepper(program.output, self.pitfall)
        self.source_name = source_name
        self.generation += 1
        self.loaded.emit()

    def set_pitfall(self, pitfall: str | None) -> None:
        """Step the same program with a classic bug switched on (None: the real engine)."""
        if pitfall == self.pitfall:
            return
        self.pitfall = pitfall
        if self.program is not None:
            self.stepper = Stepper(self.program.output, pitfall)
            self.loaded.emit()

    def roles(self) -> dict:
        """'input', 'constant' or 'output' for the nodes that have such a role."""
        program = self.program
        roles = {v: "constant" for v in program.values if not v.parents}
        roles.update({v: "input" for v in program.inputs.values()})
        roles[program.output] = "output"
        return roles

    def _move(self, action) -> bool:
        if self.stepper is None:
            return False
        before = self.stepper.position
        action()
        if self.stepper.position != before:
            self.moved.emit(before)
            return True
        return False

    def step(self) -> bool:
        return self._move(self.stepper.step if self.stepper else None)

    def back(self) -> bool:
        return self._move(self.stepper.back if self.stepper else None)

    def reset(self) -> bool:
        return self._move(self.stepper.reset if self.stepper else None)

    def run_to_end(self) -> bool:
        return self._move(self.stepper.run_to_end if self.stepper else None)

    def seek(self, position: int) -> bool:
        return self._move(lambda: self.stepper.seek(position))

    @property
    def at_end(self) -> bool:
        return self.stepper is not None and self.stepper.position == self.stepper.total
