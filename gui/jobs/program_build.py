"""A big program built without freezing the window.

The text is parsed in a child process (`gui.jobs.parse_child`, read by a ProcessWorker);
the window replays its pieces into Values, then makes the Stepper, in a SlicedTask (a
slice of at most SLICE_S per tick), so that it draws frames in between. The old program
stays in the session until the new one is complete; `cancel` (or a new `start`) ends the
child and drops every slice not yet done, so nothing of an old build lands.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator

from PySide6.QtCore import QObject, Signal, Slot

from engine import ExpressionError, Program
from engine.core.engines import Engine
from engine.core.stepping import Stepper, gradient_error, known_steps
from engine.language.program import Instruction, values_in_slices
from gui.graph.session import roles_steps
from gui.jobs.group_child import GROUP_FROM, pack_arrays_steps
from gui.jobs.grouping_job import Grouped, grouped_steps, grouping_answer, grouping_worker
from gui.jobs.parse_child import parse_pieces
from gui.jobs.sliced import WAIT, SlicedTask
from gui.jobs.worker import ProcessWorker

BACKGROUND_CHARS = 20_000  # texts longer than this are built in the background
SLICE_S = 0.012              # work per tick: the window draws in between
POLL_MS = 20                 # while the child parses, look for its records this often
READ_BUDGET_S = 0.010        # unpickling its pieces takes at most this long per look
NODES_PER_SLICE = 2_000
STEPPER_SLICE = 1_000        # the stepper's nodes per step (2,000 took 15-18 ms)


def _role(value, inputs: set) -> str:
    if value._prev:
        return "intermediate"
    return "input" if value in inputs else "constant"


def _told(steps: Generator, text: str) -> Generator[str, None, object]:
    """`steps` yielding `text` after each of its steps; returns what `steps` returns."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value
        yield text


def _gradient_error_steps(program: Program, steps: list, every: int = NODES_PER_SLICE):
    """`gradient_error(program, steps)`, `every` steps at a time (yielding between)."""
    for a in range(0, len(steps), every):
        error = gradient_error(program, steps[a:a + every])
        if error is not None:
            return error
        yield
    return None


class ProgramBuild(QObject):
    """Builds one big program at a time in the background.

    `finished(program, stepper)` when it is ready; `failed(error)` with the
    ExpressionError (line and column) or a sentence if the child failed; `progress(text)`
    as it goes; `busy(bool)` when it starts and ends (also on `cancel`).
    """

    finished = Signal(object, object)
    failed = Signal(object)
    progress = Signal(str)
    busy = Signal(bool)

    def __init__(self, engine: Callable[[], Engine], parent=None):
        super().__init__(parent)
        self._engine = engine  # read when the stepper is made: the session's, then
        self._worker: ProcessWorker | None = None
        self._records: deque = deque()  # what the parser sent, not yet replayed
        self._task: SlicedTask | None = None
        self.restepping = False  # the build running only makes a loaded program's stepper
        # set: a big graph is grouped as it is parsed, to fit about budget() units on
        # screen at first (None from it: not grouped)
        self.budget: Callable[[], int | None] | None = None
        self.grouped: Grouped | None = None  # the last build's grouping, if grouped
        self._roles: tuple | None = None  # (program, Session.roles of it) of the last build

    @property
    def running(self) -> bool:
        return self._task is not None

    def start(self, text: str) -> None:
        """Start building `text`, ending any build still running."""
        self.cancel()
        self.restepping = False
        self._records = deque()
        self.grouped = None
        budget = self.budget() if self.budget is not None else None
        worker = self._worker = ProcessWorker(parse_pieces, one_by_one=True, text=text,
                                              group=budget is not None, budget=budget or 0,
                                              interval_ms=POLL_MS,
                                              read_budget_s=READ_BUDGET_S, parent=self)
        worker.yielded.connect(self._on_record)
        worker.finished.connect(self._on_parser_finished)
        self._run(self._stages(worker, text))
        worker.start()
        self.progress.emit(f"Parsing {len(text):,} characters…")

    def restep(self, program: Program, forward_steps: list | None = None,
                reference: list | None = None) -> None:
        """Make `program`'s stepper again (for the session's engine, read now), a slice
        at a time, ending any build still running; `finished` as for a build.
        `forward_steps`: the order to walk the program in, if known (a stepper has it);
        `reference`: topological_order's, if another (a grouping's order was given)."""
        self.cancel()
        self.restepping = True
        self._run(self._stepper_stages(program, f"{len(program.values):,} nodes",
                                       forward_steps, reference))
        self.progress.emit("Preparing the steps…")

    def start_program(self, program: Program, forward_steps: list | None = None) -> None:
        """Make the stepper of `program`, built already (a graph read from Python), a
        slice at a time, ending any build still running; `finished(program, stepper)`
        as for a build. `forward_steps`: a topological order of the output's graph, if
        known (a graph read from Python has its values in one). A graph big enough to be
        grouped (and `budget` says the window groups) is grouped first, in a child, so
        that its stepper is made once, in the grouping's order (`grouped`)."""
        self.cancel()
        self.restepping = False
        self.grouped = None
        what = f"{len(program.values):,} nodes"
        budget = self.budget() if self.budget is not None else None
        if budget is None or forward_steps is None or len(forward_steps) <= GROUP_FROM:
            self._run(self._stepper_stages(program, what, forward_steps))
            self.progress.emit("Preparing the steps…")
            return
        self._records = deque()
        self._run(self._grouped_stages(program, forward_steps, budget))
        self.progress.emit(f"Grouping {what}…")

    def _grouped_stages(self, program: Program, forward_steps: list,
                        budget: int) -> Generator[str | None, None, tuple]:
        """`_stepper_stages` after grouping the graph in a child; if the child fails, the
        stepper walks `forward_steps` and the graph is drawn as the window decides."""
        worker = self._worker = grouping_worker(self)  # up while the graph is packed
        worker.yielded.connect(self._on_record)
        worker.finished.connect(self._on_parser_finished)
        worker.start()
        inputs = set(program.inputs.values())
        text = f"Grouping {len(forward_steps):,} nodes…"
        roles = {}
        for a in range(0, len(forward_steps), NODES_PER_SLICE):
            roles.update((v, _role(v, inputs)) for v in forward_steps[a:a + NODES_PER_SLICE])
            yield text
        roles[program.output] = "output"
        packed = yield from _told(pack_arrays_steps(forward_steps, roles), text)
        worker.give(budget=budget, **packed)
        # while the child groups: the plan in the reference order, whose steps the plan
        # in the grouping's order mostly is (engine.core.stepping.plan_in_slices' known)
        known = yield from _told(known_steps(program.output, self._engine(), forward_steps,
                                             STEPPER_SLICE), text)
        # the stepper is made as soon as the grouping's order has come, while the child
        # sends the groups; if the child fails, the graph is drawn as the window can
        answer = yield from grouping_answer(worker, self._records, text, ("order",))
        walked, reference = forward_steps, None
        if answer is not None:
            walked = list(map(forward_steps.__getitem__, answer["order"][0]))
            reference = forward_steps
        built = yield from self._stepper_stages(program, f"{len(walked):,} nodes", walked,
                                                reference, known)
        # the status goes on from the steps, never back to "Grouping" (a tryout read it
        # as the work starting again)
        text = f"Preparing the steps of {len(walked):,} nodes: 100%, taking the groups…"
        if answer is not None:
            answer = yield from grouping_answer(worker, self._records, text, answer=answer)
        if answer is not None:
            self.grouped = yield from _told(grouped_steps(program.output, forward_steps,
                                                          answer, roles.__getitem__), text)
            self.grouped.reference = forward_steps
        return built

    def cancel(self) -> None:
        """End the build now: the child is ended and nothing of it lands."""
        if self._worker is not None:
            worker, self._worker = self._worker, None
            worker.cancel()
        if self._task is not None:
            self._task.cancel()  # busy(False) from _on_cancelled

    def wait(self, timeout_s: float = 300.0) -> bool:
        """Run the build to its end now (for tests and pictures, never in the window's
        own use); True if no build is left running."""
        if self._task is not None:
            self._task.run_to_end(timeout_s)
        return not self.running

    def _run(self, steps: Generator) -> None:
        task = self._task = SlicedTask(steps, SLICE_S, self,
                                       expected=(ExpressionError, RuntimeError))
        task.progress.connect(self._on_progress)
        task.finished.connect(self._on_finished)
        task.errored.connect(self._on_errored)
        task.cancelled.connect(self._on_cancelled)
        task.start()
        self.busy.emit(True)

    @Slot(object)
    def _on_record(self, record) -> None:
        self._records.append(record)
        if self._task is not None:
            self._task.wake()

    @Slot()
    def _on_parser_finished(self) -> None:
        if self._task is not None:
            self._task.wake()  # to see that nothing more comes

    @Slot(object)
    def _on_progress(self, text) -> None:
        self.progress.emit(text)

    @Slot(object)
    def _on_finished(self, result) -> None:
        self._end()
        self.finished.emit(*result)

    @Slot(object)
    def _on_errored(self, error) -> None:
        self._end()
        self.failed.emit(error if isinstance(error, ExpressionError) else str(error))

    @Slot()
    def _on_cancelled(self) -> None:
        self._task = None
        self.busy.emit(False)

    def _end(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
        self._worker = self._task = None
        self.busy.emit(False)

    def _stages(self, worker: ProcessWorker, text: str) -> Generator[str | None, None, tuple]:
        """The build as a generator: WAIT while waiting for the child, a progress text
        after each step of work; returns (program, stepper). Raises ExpressionError for
        an error in the program and RuntimeError if the child fails."""
        head, instructions, order, grouped = None, [], None, {}
        records = self._records
        while order is None:
            if not records:
                if worker.done:
                    reason = worker.job.error if worker.job is not None else None
                    raise RuntimeError(f"the program could not be parsed: "
                                       f"{reason or 'the parser process ended early'}")
                yield WAIT
                continue
            record = records.popleft()
            if record[0] == "error":
                _, message, line, col = record
                raise ExpressionError(message, line, col)
            if record[0] == "head":
                head = record
            elif record[0] == "order":
                order = record[1]
            elif record[0] == "group":
                grouped[record[1]] = record[2:]
            else:
                instructions.extend(map(Instruction._make, record[2]))
            if head is not None:
                yield f"Reading the parsed program: {len(instructions):,} of {head[1]:,} nodes…"
        _, n, output_index, output_name, names, labels = head
        values = []
        for done in values_in_slices(instructions, labels, {}, values, NODES_PER_SLICE):
            yield f"Building the graph: {done:,} of {n:,} nodes…"
        program = Program(text, instructions, values, names, output_index, output_name)
        forward_steps = reference = list(map(values.__getitem__, order))
        if grouped:  # stepped in the grouping's order: each group's steps are one run
            inputs = set(program.inputs.values())
            self.grouped = yield from grouped_steps(program.output, forward_steps, grouped,
                                                    lambda v: _role(v, inputs))
            self.grouped.arrays.roles[-1] = "output"
            self.grouped.reference = reference
            forward_steps = self.grouped.nodes
        return (yield from self._stepper_stages(program, "", forward_steps, reference))

    def _stepper_stages(self, program: Program, what: str, forward_steps: list | None,
                        reference: list | None = None,
                        known: dict | None = None) -> Generator[str, None, tuple]:
        """The stepper of `program` made in slices, walking `forward_steps` (None: its
        topological order); `reference`: topological_order's, when `forward_steps` is
        another (a grouping's), which the gradients' sums keep to, to the bit. Returns
        (program, stepper). A new program's gradients are checked (ExpressionError for
        one that overflows, as the command line refuses it) and its roles made, in
        slices too (`take_roles`)."""
        of = f" of {what}" if what else ""
        yield f"Preparing the steps{of}…"
        # an order given with no reference is topological_order's (the parse child's, a
        # stepper's): the reference too, so that the stepper need not walk the graph
        slices = Stepper.in_slices(program.output, self._engine(), STEPPER_SLICE,
                                   forward_steps, reference or forward_steps, known)
        while True:
            try:
                done, total = next(slices)
            except StopIteration as stop:
                stepper = stop.value
                break
            yield f"Preparing the steps{of}: {100 * done // max(total, 1)}%…"
        if not self.restepping:
            text = f"Preparing the steps{of}: 100%…"
            error = yield from _told(_gradient_error_steps(program, stepper.backward_steps),
                                     text)
            if error is not None:
                raise error
            self._roles = (program, (yield from _told(roles_steps(program), text)))
        return program, stepper

    def take_roles(self, program: Program):
        """Session.roles of `program` if the last build made them (a read-only mapping),
        else None; let go of here (the program is not kept alive by the build)."""
        roles, self._roles = self._roles, None
        return roles[1] if roles is not None and roles[0] is program else None
