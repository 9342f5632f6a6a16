"""Runs the TensorFlow cross-check in a child process and reports by signals.

Importing TensorFlow takes seconds of pure Python. In a thread of the window's process it
would hold the interpreter lock and stall the window (gaps of hundreds of ms), so one
child process (gui/jobs/tensorflow_child.py) imports it once and then answers each
check; a ProcessWorker reads its answers. The child gets the program's text (it parses
its own copy) and sends back plain records. Closing the window stops it, as every
worker.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal, Slot

from engine.checks import tensorflow_check as tfc
from engine.io.naming import identifier
from gui.jobs.tensorflow_child import CheckResult, serve
from gui.jobs.worker import ProcessWorker

MAX_NODES = 20_000  # TensorFlow runs one eager op per node: larger programs take too long
POLL_MS = 30        # how often the window looks for an answer
LOADING_SAID = "Loading TensorFlow"  # how the status bar begins while it loads

IDLE, LOADING, READY, UNAVAILABLE = "idle", "loading", "ready", "unavailable"


class TensorFlowChecker(QObject):
    """Cross-checks programs against TensorFlow, one job at a time, newest wins.

    `state` is 'idle' (TensorFlow never asked for), 'loading', 'ready' or 'unavailable'.
    `status(str)` says what is happening; `results(generation, rows)` delivers the rows
    for the program of that generation; `changed()` fires after any of these.
    """

    status = Signal(str)
    busy = Signal(bool)
    results = Signal(int, object)
    changed = Signal()

    # the function the child imports TensorFlow with (a test swaps in one that fails)
    loader = staticmethod(tfc.load)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.state = IDLE
        self.message = ""
        self.float32: dict[str, float] | None = None
        self.generation = -1        # the program the last rows belong to
        self.rows: list[tfc.GradientRow] = []
        self._worker: ProcessWorker | None = None  # the child that imports TensorFlow
        self._running: int | None = None  # the generation being checked
        self._pending: tuple[int, str] | None = None
        self._error = ""  # why the child failed, if it did

    def check(self, generation: int, text: str, nodes: int) -> None:
        """Cross-check program `generation` (its text, its node count)."""
        if self.state == UNAVAILABLE:
            return
        if nodes > MAX_NODES:
            self.generation, self.rows = generation, []
            self.message = (f"This program has {nodes:,} nodes; the TensorFlow check runs "
                            f"programs of up to {MAX_NODES:,}.")
            self.changed.emit()
            return
        if self._running is not None:
            self._pending = (generation, text)
            return
        self._start(generation, text)

    def stop(self) -> None:
        """Stop the child (TensorFlow is imported again by the next check)."""
        self._running, self._pending = None, None
        if self._worker is not None:
            worker, self._worker = self._worker, None
            worker.stop()

    def _start(self, generation: int, text: str) -> None:
        if self.state == IDLE:
            self.state = LOADING
            self.status.emit(LOADING_SAID + " for the cross-check (first time only, "
                             "a few seconds)…")
            self.busy.emit(True)
            self.changed.emit()
        if self._worker is None:
            worker = self._worker = ProcessWorker(self.loader, child_main=serve,
                                                  interval_ms=POLL_MS, parent=self)
            worker.yielded.connect(self._on_result)
            worker.errored.connect(self._on_error)
            worker.finished.connect(self._on_finished)
            worker.start()
        self._running = generation
        self._worker.send((generation, text, self.float32 is None))

    @Slot(str)
    def _on_error(self, error: str) -> None:
        self._error = error

    @Slot()
    def _on_finished(self) -> None:
        if self.sender() is not self._worker:
            return  # stopped: nothing was due
        self._worker = None
        if self._running is not None:
            # the child died (or failed) before it answered
            reason = self._error or "it ended"
            self._error = ""
            self._on_result(CheckResult(self._running,
                                        error=f"TensorFlow's process failed: {reason}",
                                        unavailable=self.state == LOADING))

    @Slot(object)
    def _on_result(self, result: CheckResult) -> None:
        if result.unavailable:
            self.state = UNAVAILABLE
            self.status.emit("TensorFlow is not available; everything else works")
            self.busy.emit(False)
        elif self.state == LOADING:
            self.state = READY
            if not result.error:
                self.status.emit("TensorFlow loaded: gradients checked against "
                                 "tf.GradientTape")
            self.busy.emit(False)
        if result.float32 is not None:
            self.float32 = result.float32
        self.generation, self.rows, self.message = (result.generation, list(result.rows),
                                                    result.error)
        if not result.error:
            self.results.emit(result.generation, self.rows)
        self.changed.emit()
        self._running = None
        if self._pending is not None and self.state != UNAVAILABLE:
            generation, text = self._pending
            self._pending = None
            self._start(generation, text)

    def gradient_of(self, generation: int, name: str) -> float | None:
        """TensorFlow's gradient for input `name` of program `generation`, if known."""
        if generation != self.generation:
            return None
        # a graph read from Python names an input `model.layers[0].w[1]`; its program's
        # text, which TensorFlow's process parses, `model_layers_0_w_1`
        spelled = identifier(name)
        for row in self.rows:
            if row.name == name or row.name == spelled:
                return row.tensorflow
        return None
