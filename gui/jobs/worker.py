"""A child process's records as Qt signals, read on the worker's own clock.

The one way the window runs work in a child process (training, the timing sweep, the
report, parsing and laying out a big program, TensorFlow, a user's engine under check).
In superqt's style (`superqt.utils.GeneratorWorker`): `started`, then `yielded(record)`
for each record the child's generator yields, in order, then `errored(message)` if it
failed or `aborted()` if it was stopped early, and last `finished()`, always, once.

The child is a ProcessJob (spawn, big arguments through the pipe from a thread, records
gathered into batches); the worker looks at its pipe every `interval_ms` (None: whenever
the pipe has something, for a child that is mostly idle), reading for at
most `read_budget_s` per look, so that unpickling big records never holds the window
long. Every worker started is known until it finishes: `stop_workers()` (the window
closes) ends them all.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QSocketNotifier, QTimer, Signal, Slot

from gui.jobs.process_job import ProcessJob

_workers: list[ProcessWorker] = []


class ProcessWorker(QObject):
    """Runs the generator function `function(**kwargs)` in a child process.

    `function` is the module-level function object (the child imports it by its name,
    so a rename is seen where it is imported). `one_by_one`: each record is a message of
    its own (big records, read one per look within the budget); `child_main`: what the
    child runs instead of iterating a generator (a server, see TensorFlowChecker);
    `source`: an object read instead of a ProcessJob (it has ProcessJob's `drain`,
    `finished`, `error`, `request_stop`, `stop` and `cancel`). Call `start()`.
    """

    started = Signal()
    yielded = Signal(object)
    errored = Signal(str)
    aborted = Signal()
    finished = Signal()

    def __init__(self, function: Callable | None = None, *, interval_ms: int | None = 30,
                 read_budget_s: float | None = None, one_by_one: bool = False,
                 child_main: Callable | None = None, source=None, parent=None, **kwargs):
        super().__init__(parent)
        self._function, self._kwargs = function, kwargs
        self._one_by_one, self._child_main = one_by_one, child_main
        self._budget_s = read_budget_s
        self.job = source  # the ProcessJob (or source) once started
        self._aborting = False
        self.done = False
        self._timer = QTimer(self)
        # None: no clock; the pipe is waited on (a child idle for minutes costs nothing)
        self._on_pipe = interval_ms is None
        self._notifier: QSocketNotifier | None = None
        self._timer.setSingleShot(self._on_pipe)
        self._timer.setInterval(0 if self._on_pipe else interval_ms)
        self._timer.timeout.connect(self._on_tick)

    @property
    def running(self) -> bool:
        """Started and not yet finished."""
        return self.job is not None and not self.done

    def start(self) -> ProcessWorker:
        """Start the child (unless a source was given) and the reading; returns self."""
        if self.job is None:
            job_class = ProcessJob
            if self._child_main is not None:
                job_class = type("ServingJob", (ProcessJob,),
                                 {"child_main": staticmethod(self._child_main)})
            self.job = job_class(self._function, one_by_one=self._one_by_one, **self._kwargs)
        _workers.append(self)
        if self._on_pipe and hasattr(self.job, "_conn"):
            self._notifier = QSocketNotifier(self.job._conn.fileno(),
                                             QSocketNotifier.Type.Read, self)
            self._notifier.activated.connect(self._on_tick)
        self._timer.start()
        self.started.emit()
        return self

    def give(self, **kwargs) -> None:
        """The child's arguments, if it was made with `arguments_later=True` (it started
        without them, to be ready when they come)."""
        self.job.give(**kwargs)

    def send(self, message) -> None:
        """Send `message` to a child that reads them (a server)."""
        self.job.send(message)

    def abort(self) -> None:
        """Ask the child to stop after its current batch; what it sent until then is
        still `yielded`, then `aborted` and `finished`."""
        if self.running:
            self._aborting = True
            self.job.request_stop()

    def stop(self) -> None:
        """Stop the child now (the window closes): what it had sent is `yielded`, then
        `aborted` and `finished`, before this returns."""
        if self.running:
            self._aborting = True
            self.job.stop()
            self._on_tick()

    def cancel(self) -> None:
        """End the child at once; what it sent and did not yet yield is dropped. Then
        `aborted` and `finished`."""
        if self.running:
            self._aborting = True
            self.job.cancel()
            self._end(None)

    @Slot()
    def _on_tick(self) -> None:
        self._read(self._budget_s)

    def _read(self, budget_s: float | None) -> None:
        if not self.running:
            return
        job = self.job
        deadline = None if budget_s is None else time.perf_counter() + budget_s
        while True:
            records = job.drain(limit=None if deadline is None else 1)
            for record in records:
                self.yielded.emit(record)
                if self.done:
                    return  # a slot cancelled it
            if job.finished or not records or deadline is None \
                    or time.perf_counter() >= deadline:
                break
        if job.finished:
            self._end(job.error)
        elif self._on_pipe and getattr(job, "pending", False):
            self._timer.start()  # read but not yet drained: the pipe will not say so again

    def _end(self, error: str | None) -> None:
        self.done = True
        self._timer.stop()
        if self._notifier is not None:
            self._notifier.setEnabled(False)  # its pipe is closed once the child is reaped
            self._notifier = None
        if self in _workers:
            _workers.remove(self)
        if error:
            self.errored.emit(error)
        elif self._aborting:
            self.aborted.emit()
        self.finished.emit()


def running_workers() -> list[ProcessWorker]:
    """The workers started and not yet finished."""
    return list(_workers)


def stop_workers(spared=()) -> list[ProcessWorker]:
    """Stop every worker now (a window closes), except those whose QObject parents lead
    to one of `spared` (the other windows still open: a notebook's second `debug()`);
    returns the workers spared."""
    kept = [w for w in _workers if _owned_by(w, spared)]
    for worker in list(_workers):
        if not any(worker is k for k in kept):
            worker.stop()
    return kept


def _owned_by(obj, owners) -> bool:
    while obj is not None:
        if any(obj is owner for owner in owners):
            return True
        obj = obj.parent()
    return False
