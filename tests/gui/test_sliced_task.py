"""SlicedTask: a generator run a slice at a time on the window's thread, its signals,
WAIT and wake, cancel, and the collector's one pause (held while any task runs, frozen
and unfrozen in pairs, even on an error or a cancel)."""

import gc
import time
import weakref

import pytest
from PySide6.QtCore import QTimer

from engine import _gc
from gui.jobs import sliced as sliced_module
from gui.jobs.sliced import WAIT, SlicedTask


def _events(task: SlicedTask) -> list:
    seen = []
    task.progress.connect(lambda value: seen.append(("progress", value)))
    task.finished.connect(lambda result: seen.append(("finished", result)))
    task.errored.connect(lambda e: seen.append(("errored", type(e).__name__)))
    task.cancelled.connect(lambda: seen.append("cancelled"))
    return seen


def _slow_steps(n: int, step_s: float, log: list):
    for k in range(n):
        time.sleep(step_s)
        log.append((k, gc.isenabled(), gc.get_freeze_count() > 0))
        yield k
    return "done"


def _collector_at_rest() -> bool:
    return gc.isenabled() and gc.get_freeze_count() == 0 and _gc.holders() == 0


class _Clock:
    """A stand-in for the time module: each step below takes `step_s` of it."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_steps_come_a_budget_at_a_time_then_the_result(qtbot, monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(sliced_module, "time", clock)
    log = []

    def steps():
        for k in range(12):
            clock.sleep(0.004)
            log.append(k)
            yield k
        return "done"

    task = SlicedTask(steps(), budget_s=0.010)
    seen = _events(task)
    with qtbot.waitSignal(task.finished, timeout=10_000):
        task.start()
        assert task.running and not log  # the first slice runs from the event loop
    assert log == list(range(12))
    # a slice ends once its budget is spent: after 3 steps of 4 ms, the last of them sent
    assert seen == [("progress", 2), ("progress", 5), ("progress", 8), ("progress", 11),
                    ("finished", "done")]
    assert not task.running


def test_a_slice_ends_before_a_step_like_its_last_would_overrun_the_budget_by_half(
        qtbot, monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(sliced_module, "time", clock)
    took = [0.008, 0.008, 0.002, 0.002, 0.002, 0.002, 0.002, 0.002, 0.008]

    def steps():
        for k, step_s in enumerate(took):
            clock.sleep(step_s)
            yield k
        return "done"

    task = SlicedTask(steps(), budget_s=0.010)
    seen = _events(task)
    with qtbot.waitSignal(task.finished, timeout=10_000):
        task.start()
    # 8 ms, and 8 more would end 6 ms past the budget: one step a slice (not 16 ms);
    # steps of 2 ms go on until the budget is spent, whatever the next one costs
    assert seen == [("progress", 0), ("progress", 1), ("progress", 6), ("progress", 8),
                    ("finished", "done")]


def test_the_collector_is_paused_and_frozen_only_while_a_task_runs(qtbot):
    log = []
    assert _collector_at_rest()
    task = SlicedTask(_slow_steps(5, 0.001, log))
    with qtbot.waitSignal(task.finished, timeout=10_000):
        task.start()
        assert not gc.isenabled() and _gc.holders() == 1
    assert log and all(not enabled and frozen for _, enabled, frozen in log)
    assert _collector_at_rest()


def test_two_tasks_hold_one_pause_until_the_last_ends(qtbot):
    short, long_ = SlicedTask(_slow_steps(2, 0.001, [])), SlicedTask(_slow_steps(30, 0.002, []))
    long_.start()
    with qtbot.waitSignal(short.finished, timeout=10_000):
        short.start()
        assert _gc.holders() == 2
    assert long_.running and not gc.isenabled() and gc.get_freeze_count() > 0
    qtbot.waitUntil(lambda: not long_.running, timeout=10_000)
    assert _collector_at_rest()


class _Cycle:
    def __init__(self):
        self.me = self


def _makes_garbage(refs: list):
    for _ in range(3):
        cycle = _Cycle()  # garbage once dropped: only the collector frees it
        refs.append(weakref.ref(cycle))
        del cycle
        yield


def test_cyclic_garbage_made_during_a_task_is_collected_afterwards(qtbot):
    refs = []
    kept = _Cycle()  # alive before the task: frozen while it runs, then unfrozen
    kept_ref = weakref.ref(kept)
    task = SlicedTask(_makes_garbage(refs))
    with qtbot.waitSignal(task.finished, timeout=10_000):
        task.start()
        del kept  # garbage made of an object frozen during the task
    assert len(refs) == 3 and all(ref() is not None for ref in refs)  # nothing collected
    gc.collect()
    assert all(ref() is None for ref in refs) and kept_ref() is None


def test_an_expected_error_is_reported_and_the_pause_let_go(qtbot):
    def fails():
        yield 1
        raise ValueError("no")

    task = SlicedTask(fails(), expected=(ValueError,))
    seen = _events(task)
    with qtbot.waitSignal(task.errored, timeout=10_000):
        task.start()
    assert seen == [("errored", "ValueError")] and not task.running
    assert _collector_at_rest()


def test_an_unexpected_error_is_raised_as_a_bug_and_the_pause_let_go(qtbot):
    def fails():
        yield 1
        raise KeyError("bug")

    task = SlicedTask(fails())
    seen = _events(task)
    with qtbot.captureExceptions() as raised:
        with qtbot.waitSignal(task.errored, timeout=10_000):
            task.start()
    assert seen == [("errored", "KeyError")]
    assert [type(e[1]) for e in raised] == [KeyError]
    assert _collector_at_rest()


def test_cancel_closes_the_generator_and_lets_go_of_the_pause(qtbot):
    closed = []

    def endless():
        try:
            while True:
                yield None
        finally:
            closed.append(True)

    task = SlicedTask(endless())
    seen = _events(task)
    task.start()
    qtbot.waitUntil(lambda: len(seen) >= 2, timeout=10_000)
    task.cancel()
    assert closed == [True] and seen[-1] == "cancelled" and not task.running
    assert _collector_at_rest()
    task.cancel()  # again: nothing more
    assert seen.count("cancelled") == 1


def test_a_task_that_waits_sleeps_until_woken(qtbot):
    inbox, taken = [], []

    def reader():
        while len(taken) < 3:
            if not inbox:
                yield WAIT
                continue
            taken.append(inbox.pop(0))
            yield len(taken)
        return list(taken)

    task = SlicedTask(reader())
    with qtbot.waitSignal(task.finished, timeout=10_000) as finished:
        task.start()
        qtbot.waitUntil(lambda: task.waiting, timeout=10_000)
        assert not task._timer.isActive()  # asleep: no slice is due
        assert not gc.isenabled()  # and the pause still held
        for k in range(3):
            inbox.append(k)
            task.wake()
            qtbot.waitUntil(lambda: task.waiting or not task.running, timeout=10_000)
    assert finished.args == [[0, 1, 2]]
    assert _collector_at_rest()


def test_run_to_end_takes_every_step_and_lets_waited_for_events_come(qtbot):
    inbox = []

    def reader():
        while not inbox:
            yield WAIT
        return inbox[0]

    task = SlicedTask(reader())
    seen = _events(task)
    task.start()
    QTimer.singleShot(10, lambda: inbox.append("came"))
    task.run_to_end()
    assert seen == [("finished", "came")] and not task.running
    assert _collector_at_rest()


@pytest.mark.parametrize("ending", ["finish", "error", "cancel"])
def test_holds_and_releases_pair_up_however_a_task_ends(qtbot, ending):
    freezes, unfreezes = [], []
    freeze, unfreeze = gc.freeze, gc.unfreeze

    def steps():
        for _ in range(3):
            yield None
        if ending == "error":
            raise ValueError("ends")
        while ending == "cancel":
            yield None

    task = SlicedTask(steps(), expected=(ValueError,))
    try:
        gc.freeze, gc.unfreeze = (lambda: (freezes.append(1), freeze())[1],
                                  lambda: (unfreezes.append(1), unfreeze())[1])
        slices = []
        task.progress.connect(slices.append)
        task.start()
        if ending == "cancel":
            qtbot.waitUntil(lambda: len(slices) >= 2, timeout=10_000)
            task.cancel()
        else:
            qtbot.waitUntil(lambda: not task.running, timeout=10_000)
    finally:
        gc.freeze, gc.unfreeze = freeze, unfreeze
    assert freezes == unfreezes == [1]
    assert _collector_at_rest()


def test_a_task_cancelled_by_an_event_run_to_end_handles_ends_there(qtbot):
    def waits_forever():
        while True:
            yield WAIT

    task = SlicedTask(waits_forever())
    seen = _events(task)
    task.start()
    QTimer.singleShot(10, task.cancel)
    assert task.run_to_end()
    assert seen == ["cancelled"]
    assert _collector_at_rest()


def test_run_to_end_gives_up_after_its_timeout(qtbot):
    def waits_forever():
        while True:
            yield WAIT

    task = SlicedTask(waits_forever())
    task.start()
    assert not task.run_to_end(timeout_s=0.05)
    assert task.running and task.waiting
    task.cancel()
    assert _collector_at_rest()


def test_a_task_that_leaves_much_alive_settles_it_frozen_until_it_is_gone(qtbot,
                                                                          monkeypatch):
    monkeypatch.setattr(_gc, "SETTLE_OBJECTS", 2_000)
    kept = []

    def makes(n):
        kept.extend([k] for k in range(n))  # lists: tracked by the collector
        yield

    task = SlicedTask(makes(20_000))
    with qtbot.waitSignal(task.finished, timeout=10_000):
        task.start()
    assert _gc.settled() and gc.isenabled() and gc.get_freeze_count() > 20_000
    cycle = _Cycle()  # made while settled, not frozen: the collector sees it
    ref = weakref.ref(cycle)
    del cycle
    gc.collect()
    assert ref() is None
    kept.clear()  # the big thing is let go of: the next task's release unfreezes
    task = SlicedTask(makes(10))
    with qtbot.waitSignal(task.finished, timeout=10_000):
        task.start()
    assert not _gc.settled() and gc.get_freeze_count() == 0 and gc.isenabled()
