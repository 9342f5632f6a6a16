"""The program being debugged and its stepper, shared by every view of the window."""

from __future__ import annotations

from collections.abc import Callable, Generator
from types import MappingProxyType

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, Signal

from engine import Program
from engine.checks.engine_check.replay import RecordedEngine, recorded_engine
from engine.core.engines import CORRECT, Engine
from engine.core.stepping import Stepper
from engine.core.value import Value

RESTEP_AT = 5_000  # a program with more nodes gets a new engine's stepper in slices
WALK_PIECE = 8_000  # a paced walk's backward steps between two looks at the event loop


def roles_steps(program: Program, every: int = 5_000) -> Generator[None, None,
                                                                    MappingProxyType]:
    """`Session.roles()` of `program`, made `every` values at a time (yielding between
    slices): returns the read-only mapping."""
    roles = {}
    values = program.values
    for a in range(0, len(values), every):
        roles.update((v, "constant") for v in values[a:a + every] if not v._prev)
        yield
    roles.update((v, "input") for v in program.inputs.values())
    roles[program.output] = "output"
    return MappingProxyType(roles)


def _returned(steps: Generator):
    """What the generator `steps` returns, its remaining steps taken at once."""
    try:
        while True:
            next(steps)
    except StopIteration as stop:
        return stop.value


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
        self.engine: Engine = CORRECT  # the engine the stepper runs (see engine.core.engines)
        # the last user's engine replayed (it runs only the program it was recorded on)
        self.recorded: RecordedEngine | None = None
        self._roles: tuple[Program, MappingProxyType] | None = None  # (for, roles)
        # makes a big program's stepper for a new engine without holding the thread
        self.restep: Callable[[Program], None] | None = None
        # lets go of the programs and steppers replaced (a big one's, a slice at a time)
        self.dispose: Callable[..., None] | None = None
        self._walking = False  # a long walk lets the window's timers in (`seek`)

    @property
    def builtin_engine(self) -> Engine:
        """The engine a new program is stepped with before it is loaded: the session's,
        if it runs the nodes' own rules (the correct engine, a classic bug), else the
        correct one. A user's replayed engine cannot step a new program, and a
        learner's rule is put on as the program loads (`load_prepared`)."""
        return CORRECT if self.engine.own_rules else self.engine

    def load(self, program: Program, source_name: str = "") -> None:
        self._leave_recorded(program)
        self.load_prepared(program, Stepper(program.output, self.engine), source_name)

    def load_recorded(self, replay: dict, engine_name: str) -> str:
        """Load a check's failing case, stepped as the user's engine (named
        `engine_name`) did it (see engine.checks.engine_check.replay); returns a note, '' if
        the replay is exact."""
        program, engine, note = recorded_engine(replay, label=engine_name)
        self.recorded = self.engine = engine
        self.load_prepared(program, Stepper(program.output, engine), engine_name)
        return note

    def _leave_recorded(self, program: Program) -> None:
        if not self.engine.can_step(program):
            self.engine = CORRECT

    def load_prepared(self, program: Program, stepper: Stepper, source_name: str = "",
                      roles: MappingProxyType | None = None) -> None:
        """Load `program` with a stepper made elsewhere (e.g. a slice at a time); one
        made for another engine than the session's is made again here. `roles`: its
        `roles()`, if made elsewhere (`roles_steps`)."""
        self._leave_recorded(program)
        if stepper.output is not program.output or stepper.engine is not self.engine:
            stepper = Stepper(program.output, self.engine)
        old = [o for o in (self.stepper, self.program) if o is not stepper and o is not program]
        self.program = program
        if roles is not None:
            self._roles = (program, roles)
        elif self._roles is not None and self._roles[0] is not program:
            self._roles = None  # made again when first asked for
        self.stepper = stepper
        self.source_name = source_name
        self.generation += 1
        if self.dispose is not None:
            self.dispose(*old)
        del old
        self.loaded.emit()

    def set_engine(self, engine: Engine) -> None:
        """Step the same program with `engine` (see engine.core.engines): the correct one, a
        classic bug, a learner's rule, a user's engine replayed. One that cannot step
        the program (a user's engine recorded on another) changes nothing.

        A program of more than RESTEP_AT nodes is handed to `restep`, if one is set,
        which makes its stepper elsewhere (a slice at a time) and loads it when ready."""
        if engine is self.engine:
            return
        if not engine.can_step(self.program):
            self.loaded.emit()  # the views show the engine that still steps
            return
        self.engine = engine
        if self.program is None:
            return
        # the slices use `builtin_engine`: an engine with rules of its own is made here
        if (not engine.own_rules and self.restep is not None
                and len(self.program.values) > RESTEP_AT):
            self.restep(self.program)
            return
        self.stepper = Stepper(self.program.output, engine)
        self.loaded.emit()

    def roles(self) -> MappingProxyType:
        """'input', 'constant' or 'output' for the nodes that have such a role, read-only.

        Made once per program, the first time it is asked for: every step asks.
        """
        program = self.program
        if self._roles is None or self._roles[0] is not program:
            self._roles = (program, _returned(roles_steps(program, len(program.values) or 1)))
        return self._roles[1]

    def role_of(self, node: Value) -> str:
        """The node's role: 'input', 'constant', 'output' or 'intermediate'."""
        return self.roles().get(node, "intermediate")

    def _move(self, action) -> bool:
        stepper = self.stepper
        if stepper is None or self._walking:
            return False  # (a move asked for by a timer while a long walk lets it in)
        before = stepper.position
        action()
        if self.stepper is stepper and stepper.position != before:
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
        """Take every remaining step (walked in pieces, see `seek`)."""
        return self._move(lambda: self._walk(self.stepper.total))

    def seek(self, position: int, paced: bool = False) -> bool:
        """Walk the stepper to `position`. `paced`: a walk over more than WALK_PIECE
        backward steps (a collapsed group's backward pass at the level shown: 64,000 at
        once in an MLP on 100 samples, 15-90 ms) is taken WALK_PIECE at a time, with the
        window's timers and painting let in between (never the user's input, which waits
        for the end): the caller still finds the stepper there when it returns, and the
        views hear of one move. Every pause leaves the stepper at a position of its own
        (the gradients as its steps up to there leave them)."""
        return self._move(lambda: self._walk(position) if paced
                          else self.stepper.seek(position))

    def _walk(self, position: int) -> None:
        stepper = self.stepper
        n = len(stepper.forward_steps)
        position = max(0, min(position, stepper.total))
        here, there = max(0, stepper.position - n), max(0, position - n)
        if abs(there - here) > WALK_PIECE:
            piece = WALK_PIECE if there > here else -WALK_PIECE
            self._walking = True
            try:
                for mid in range(here + piece, there, piece):
                    stepper.seek(n + mid)
                    QCoreApplication.processEvents(
                        QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
                    if self.stepper is not stepper:
                        return  # another program was loaded meanwhile
            finally:
                self._walking = False
        stepper.seek(position)

    @property
    def at_end(self) -> bool:
        return self.stepper is not None and self.stepper.position == self.stepper.total
