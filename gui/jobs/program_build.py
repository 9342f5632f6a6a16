"""A big program built without freezing the window.

The text is parsed in a child process (`gui.jobs.parse_child`); the window reads its
pieces and replays them into Values, then makes the Stepper, a slice of at most
SLICE_S at a time on a zero-interval timer, so that it draws frames in between. The old
program stays in the session until the new one is complete; `cancel` (or a new `start`)
ends the child and drops every slice not yet done, so nothing of an old build lands.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from engine import ExpressionError, Program
from engine.language.program import Instruction, values_in_slices
from engine.stepping import Stepper
from gui.jobs.collector import PausedCollector
from gui.jobs.process_job import ProcessJob

BACKGROUND_CHARS = 20_000  # texts longer than this are built in the background
SLICE_S = 0.012              # work per timer tick: the window draws in between
POLL_MS = 20                 # while the child parses, look for its records this often
NODES_PER_SLICE = 2_000


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

    def __init__(self, pitfall: Callable[[], str | None], parent=None):
        super().__init__(parent)
        self._pitfall = pitfall  # read when the stepper is made: the session's, then
        self._job: ProcessJob | None = None
        self._work: Generator | None = None
        self._collector = PausedCollector()  # paused while a graph is made
        self.restepping = False  # the build running only makes a loaded program's stepper
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._on_tick)

    @property
    def running(self) -> bool:
        return self._work is not None

    def start(self, text: str) -> None:
        """Start building `text`, ending any build still running."""
        self.cancel()
        self.restepping = False
        self._job = ProcessJob("gui.jobs.parse_child", "parse_pieces", one_by_one=True,
                               text=text)
        self._work = self._stages(self._job, text)
        self._timer.start(POLL_MS)
        self.busy.emit(True)
        self.progress.emit(f"Parsing {len(text):,} characters…")

    def restep(self, program: Program, forward_steps: list | None = None) -> None:
        """Make `program`'s stepper again (for the session's pitfall, read now), a slice
        at a time, ending any build still running; `finished` as for a build.
        `forward_steps`: the program's topological order, if known (a stepper has it)."""
        self.cancel()
        self.restepping = True
        self._work = self._stepper_stages(program, f"{len(program.values):,} nodes",
                                          forward_steps)
        self._timer.start(0)
        self.busy.emit(True)
        self.progress.emit("Preparing the steps…")

    def cancel(self) -> None:
        """End the build now: the child is ended and nothing of it lands."""
        if self._job is not None:
            self._job.cancel()
            self._job = None
        if self._work is not None:
            self._work.close()
            self._work = None
            self._timer.stop()
            self._resume_collector()
            self.busy.emit(False)

    def wait(self, timeout_s: float = 300.0) -> bool:
        """Run the build's slices until it is done (for tests and pictures, never in the
        window's own use); True if no build is left running."""
        deadline = time.monotonic() + timeout_s
        while self.running and time.monotonic() < deadline:
            self._on_tick()
            if self.running:
                time.sleep(0.005)
        return not self.running

    @Slot()
    def _on_tick(self) -> None:
        if self._work is None:
            return
        deadline = time.perf_counter() + SLICE_S
        text, state = None, ""
        # every object made from here on lives on in the new graph: the collector would
        # only rescan it, a tenth of a second at a time, so it is kept out until the end
        self._pause_collector()
        try:
            while time.perf_counter() < deadline:
                state = next(self._work)
                if state is None:  # waiting for the child
                    break
                text = state
        except StopIteration as stop:
            # the first collection after the pause scans the whole new graph once (a
            # fifth of a second at 200,000 nodes): in a tick of its own, after the load
            self._end(resume_collector=False)
            self.finished.emit(*stop.value)
            QTimer.singleShot(0, self, self._resume_collector)
            return
        except ExpressionError as e:
            self._end()
            self.failed.emit(e)
            return
        except RuntimeError as e:
            self._end()
            self.failed.emit(str(e))
            return
        self._timer.setInterval(POLL_MS if state is None else 0)
        if text is not None:
            self.progress.emit(text)

    def _end(self, resume_collector: bool = True) -> None:
        if self._job is not None:
            self._job.cancel()
        self._job = self._work = None
        self._timer.stop()
        if resume_collector:
            self._resume_collector()
        self.busy.emit(False)

    def _stages(self, job: ProcessJob, text: str) -> Generator[str | None, None, tuple]:
        """The build as a generator: None while waiting for the child, a progress text
        after each slice of work; returns (program, stepper). Raises ExpressionError for
        an error in the program and RuntimeError if the child fails."""
        head, instructions, order = None, [], None
        while order is None:
            records = job.drain(limit=1)
            if not records:
                if job.finished:
                    raise RuntimeError(f"the program could not be parsed: "
                                       f"{job.error or 'the parser process ended early'}")
                yield None
                continue
            for record in records:
                if record[0] == "error":
                    _, message, line, col = record
                    raise ExpressionError(message, line, col)
                if record[0] == "head":
                    head = record
                elif record[0] == "order":
                    order = record[1]
                else:
                    instructions.extend(map(Instruction._make, record[2]))
            if head is not None:
                yield f"Reading the parsed program: {len(instructions):,} of {head[1]:,} nodes…"
        _, n, output_index, output_name, names, labels = head
        values = []
        for done in values_in_slices(instructions, labels, {}, values, NODES_PER_SLICE):
            yield f"Building the graph: {done:,} of {n:,} nodes…"
        program = Program(text, instructions, values, names, output_index, output_name)
        forward_steps = list(map(values.__getitem__, order))
        return (yield from self._stepper_stages(program, "", forward_steps))

    def _stepper_stages(self, program: Program, what: str,
                        forward_steps: list | None) -> Generator[str, None, tuple]:
        """The stepper of `program` made in slices, its topological order given or not;
        returns (program, stepper)."""
        of = f" of {what}" if what else ""
        yield f"Preparing the steps{of}…"
        slices = Stepper.in_slices(program.output, self._pitfall(), NODES_PER_SLICE,
                                   forward_steps)
        while True:
            try:
                done, total = next(slices)
            except StopIteration as stop:
                return program, stop.value
            yield f"Preparing the steps{of}: {100 * done // max(total, 1)}%…"

    def _pause_collector(self) -> None:
        self._collector.pause()

    @Slot()
    def _resume_collector(self) -> None:
        self._collector.resume()
