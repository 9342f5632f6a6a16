"""Runs the TensorFlow cross-check off the GUI thread and reports by signals.

Importing TensorFlow takes seconds and cannot be interrupted, so the job runs in a
daemon Python thread: the window never waits for it, not even when it closes. The job
gets the program's text (it parses its own copy) and sends back plain records.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Signal, Slot

from engine import ExpressionError
from engine import tensorflow_check as tfc

MAX_NODES = 20_000  # TensorFlow runs one eager op per node: larger programs take too long

IDLE, LOADING, READY, UNAVAILABLE = "idle", "loading", "ready", "unavailable"


class _Bridge(QObject):
    """Lives in the GUI thread; the job thread emits through it (queued to the GUI)."""

    finished = Signal(int, object, object)  # generation, rows, float32 results
    failed = Signal(int, str, bool)         # generation, message, TensorFlow unavailable


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

    def __init__(self, parent=None):
        super().__init__(parent)
        self.state = IDLE
        self.message = ""
        self.float32: dict[str, float] | None = None
        self.generation = -1        # the program the last rows belong to
        self.rows: list[tfc.GradientRow] = []
        self._running = False
        self._pending: tuple[int, str] | None = None
        self._bridge = _Bridge(self)
        self._bridge.finished.connect(self._on_finished)
        self._bridge.failed.connect(self._on_failed)

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
        if self._running:
            self._pending = (generation, text)
            return
        self._start(generation, text)

    def _start(self, generation: int, text: str) -> None:
        self._running = True
        if self.state == IDLE:
            self.state = LOADING
            self.status.emit("Loading TensorFlow for the cross-check (first time only, "
                             "a few seconds)…")
            self.busy.emit(True)
            self.changed.emit()
        want_float32 = self.float32 is None
        job = threading.Thread(target=_run, args=(self._bridge, generation, text, want_float32),
                               name="tensorflow-check", daemon=True)
        job.start()

    @Slot(int, object, object)
    def _on_finished(self, generation: int, rows, float32) -> None:
        first = self.state != READY
        self.state = READY
        if float32 is not None:
            self.float32 = float32
        self.generation, self.rows, self.message = generation, rows, ""
        if first:
            self.status.emit("TensorFlow loaded: gradients checked against tf.GradientTape")
            self.busy.emit(False)
        self.results.emit(generation, rows)
        self.changed.emit()
        self._next()

    @Slot(int, str, bool)
    def _on_failed(self, generation: int, message: str, unavailable: bool) -> None:
        if unavailable:
            self.state = UNAVAILABLE
            self.status.emit("TensorFlow is not available; everything else works")
            self.busy.emit(False)
        elif self.state == LOADING:
            self.state = READY
            self.busy.emit(False)
        self.generation, self.rows, self.message = generation, [], message
        self.changed.emit()
        self._next()

    def _next(self) -> None:
        self._running = False
        if self._pending is not None and self.state != UNAVAILABLE:
            generation, text = self._pending
            self._pending = None
            self._start(generation, text)

    def gradient_of(self, generation: int, name: str) -> float | None:
        """TensorFlow's gradient for input `name` of program `generation`, if known."""
        if generation != self.generation:
            return None
        for row in self.rows:
            if row.name == name:
                return row.tensorflow
        return None


def _run(bridge: _Bridge, generation: int, text: str, want_float32: bool) -> None:
    """The job: in its own thread, never touching a widget."""
    try:
        try:
            float32 = tfc.seed_float32() if want_float32 else None
            rows = tfc.cross_check(text)
        except tfc.TensorFlowUnavailable as e:
            bridge.failed.emit(generation, str(e), True)
        except ExpressionError as e:
            bridge.failed.emit(generation, f"The program cannot be checked: {e}", False)
        except Exception as e:  # noqa: BLE001 - TensorFlow's own failures, shown in words
            bridge.failed.emit(generation, f"TensorFlow failed on this program: {e}", False)
        else:
            bridge.finished.emit(generation, rows, float32)
    except RuntimeError:
        pass  # the window closed while TensorFlow worked: nobody is listening any more
