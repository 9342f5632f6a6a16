"""A big graph's groups found without holding the window: the graph packed a slice at
a time, grouped in a child (`gui.jobs.group_child`), its answer read a piece at a time
and made into the arrays the window draws from, in slices again."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Generator
from dataclasses import dataclass
from operator import is_

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from gui.graph.groups.model import GraphArrays, Grouping
from gui.jobs.group_child import (
    GROUPING_RECORDS,
    NODES_PER_SLICE,
    group_pieces,
    pack_arrays_steps,
    unpack_grouping_steps,
    unpack_parents,
)
from gui.jobs.sliced import WAIT, SlicedTask
from gui.jobs.worker import ProcessWorker

POLL_MS = 10
BUSY_AFTER_MS = 500  # a grouping that takes longer shows a progress bar with Cancel
READ_BUDGET_S = 0.008
SLICE_S = 0.012
END_WAIT_S = 2.0  # a child that has sent its answer is given this long to end


@dataclass
class Grouped:
    """A stepper's graph grouped: `nodes` its Values in the grouping's order (node i of
    `arrays` and `grouping`), `expanded` the groups open at first."""

    output: object
    nodes: list
    arrays: GraphArrays
    grouping: Grouping
    expanded: set[int]
    reference: list | None = None  # topological_order's order of the nodes, if known

    def fits(self, stepper) -> bool:
        """Whether `stepper` steps these nodes in this order."""
        steps = stepper.forward_steps
        return (stepper.output is self.output and len(steps) == len(self.nodes)
                and all(map(is_, steps, self.nodes)))


def grouped_steps(output, nodes: list, answer: dict, role_of) -> Generator[None, None, Grouped]:
    """The Grouped that a grouping child's records (`answer`, by name) say of `nodes`
    (`output`'s graph, in the order the child was given it), made a slice at a time;
    `role_of(value)` gives each node's role."""
    (order,), (packed,), (expanded,), (flat, ends) = (
        answer[k] for k in GROUPING_RECORDS)
    grouping = yield from unpack_grouping_steps(packed)
    n = len(order)
    new_nodes, parents, ops, labels, roles = [], [], [], [], []
    for a in range(0, n, NODES_PER_SLICE):
        part = list(map(nodes.__getitem__, order[a:a + NODES_PER_SLICE]))
        new_nodes += part
        parents.extend(unpack_parents(flat, ends, a, a + len(part)))
        ops.extend(v._op for v in part)
        labels.extend(v.label for v in part)
        roles.extend(map(role_of, part))
        yield
    return Grouped(output, new_nodes, GraphArrays(parents, ops, labels, roles, n - 1),
                   grouping, set(expanded))


def grouping_worker(parent) -> ProcessWorker:
    """The child that groups a graph (not started yet): started before the graph is
    packed, so that it is up and has its imports when `give(budget=..., **packed)` gives
    it what `pack_arrays_steps` packed."""
    return ProcessWorker(group_pieces, one_by_one=True, interval_ms=POLL_MS,
                         read_budget_s=READ_BUDGET_S, parent=parent, arguments_later=True)


def grouping_answer(worker: ProcessWorker, records: deque, text=None,
                    wanted: tuple[str, ...] = GROUPING_RECORDS,
                    answer: dict | None = None) -> Generator:
    """The grouping child's records by name, as they come into `records` (yielding
    `text` after each, WAIT while none is there), until those `wanted` have come (into
    `answer`, if given: the records that came before); None if the child ended
    without sending them."""
    answer = {} if answer is None else answer
    while not all(k in answer for k in wanted):
        if records:
            record = records.popleft()
            answer[record[0]] = record[1:]
            yield text
        elif worker.done:
            return None
        else:
            yield WAIT
    return answer


class GroupingFailed(RuntimeError):
    """The grouping's child ended without an answer."""


class GroupingJob(QObject):
    """Groups one stepper's graph at a time: `grouped(Grouped)` or `failed(reason)`;
    `busy(bool)` once it has run for BUSY_AFTER_MS, and at its end."""

    grouped = Signal(object)
    failed = Signal(str)
    busy = Signal(bool)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._busy_due = QTimer(self)  # one shot: a progress bar for a long grouping
        self._busy_due.setSingleShot(True)
        self._busy_due.setInterval(BUSY_AFTER_MS)
        self._busy_due.timeout.connect(self._on_busy_due)
        self._busy_shown = False
        self._task: SlicedTask | None = None
        self._worker: ProcessWorker | None = None
        self._records: deque = deque()

    @property
    def running(self) -> bool:
        return self._task is not None

    def start(self, stepper, roles, budget: int) -> None:
        self.cancel()
        task = self._task = SlicedTask(self._steps(stepper, roles, budget), SLICE_S, self,
                                       expected=(GroupingFailed,))
        task.finished.connect(self._on_finished)
        task.errored.connect(self._on_errored)
        task.start()
        self._busy_due.start()

    def cancel(self) -> None:
        if self._task is not None:
            task, self._task = self._task, None
            task.cancel()
        self._stop_worker()
        self._not_busy()

    @Slot()
    def _on_busy_due(self) -> None:
        self._busy_shown = True
        self.busy.emit(True)

    def _not_busy(self) -> None:
        self._busy_due.stop()
        if self._busy_shown:
            self._busy_shown = False
            self.busy.emit(False)

    def run_to_end(self, timeout_s: float = 300.0) -> None:
        if self._task is not None:
            self._task.run_to_end(timeout_s)

    def _steps(self, stepper, roles, budget: int):
        try:
            nodes = stepper.forward_steps
            records = self._records = deque()
            worker = self._worker = grouping_worker(self)
            worker.yielded.connect(self._on_record)
            worker.finished.connect(self._on_ended)
            worker.start()
            packed = yield from pack_arrays_steps(nodes, roles)
            worker.give(budget=budget, **packed)
            answer = yield from grouping_answer(worker, records)
            if answer is None:
                raise GroupingFailed(worker.job.error
                                     or "the grouping process ended without an answer")
            # it ends by itself (ending it would wait for that), but not past a deadline
            deadline = time.monotonic() + END_WAIT_S
            QTimer.singleShot(int(END_WAIT_S * 1000) + 10, self._on_ended)  # to look again
            while not worker.done and time.monotonic() < deadline:
                yield WAIT
            self._stop_worker()
            grouped = yield from grouped_steps(stepper.output, nodes, answer,
                                               lambda v: roles.get(v, "intermediate"))
            grouped.reference = nodes  # the order it was stepped in: topological_order's
            return grouped
        finally:
            self._stop_worker()

    @Slot(object)
    def _on_record(self, record) -> None:
        self._records.append(record)
        self._on_ended()

    @Slot()
    def _on_ended(self) -> None:
        if self._task is not None:
            self._task.wake()  # for the next record, or to see that none comes

    def _stop_worker(self) -> None:
        if self._worker is not None:
            worker, self._worker = self._worker, None
            worker.cancel()

    @Slot(object)
    def _on_finished(self, grouped) -> None:
        self._task = None
        self._stop_worker()
        self._not_busy()
        self.grouped.emit(grouped)

    @Slot(object)
    def _on_errored(self, error) -> None:
        self._task = None
        self._stop_worker()
        self._not_busy()
        self.failed.emit(str(error))
