"""ProcessWorker: a child's records as signals, in superqt's order (started, yielded...,
errored or aborted, finished), abort and stop that end the child, and a window that
leaves no child behind when it closes."""

import multiprocessing
import os

import pytest

from gui.jobs import process_job, worker
from gui.jobs.worker import ProcessWorker
from tests.gui.job_functions import dies, endless, numbers


def _events(w: ProcessWorker) -> list:
    seen = []
    w.started.connect(lambda: seen.append("started"))
    w.yielded.connect(lambda record: seen.append(record))
    w.errored.connect(lambda message: seen.append(("errored", message)))
    w.aborted.connect(lambda: seen.append("aborted"))
    w.finished.connect(lambda: seen.append("finished"))
    return seen


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie until reaped: multiprocessing reaps it in active_children
    return any(child.pid == pid for child in multiprocessing.active_children())


def test_signals_come_in_order_each_record_once(qtbot):
    w = ProcessWorker(numbers, n=500, interval_ms=5)
    seen = _events(w)
    with qtbot.waitSignal(w.finished, timeout=60_000):
        w.start()
    assert seen == ["started", *range(500), "finished"]
    assert not w.running and w not in worker.running_workers() and not process_job.running()


def test_an_error_in_the_child_comes_after_what_it_yielded(qtbot):
    w = ProcessWorker(numbers, n=3, then_fail=True)
    seen = _events(w)
    with qtbot.waitSignal(w.finished, timeout=60_000):
        w.start()
    assert seen == ["started", 0, 1, 2, ("errored", "ValueError: failed after 3"), "finished"]


def test_a_child_that_dies_is_an_error_not_a_hang(qtbot):
    w = ProcessWorker(dies, one_by_one=True)  # each record sent as it comes
    seen = _events(w)
    with qtbot.waitSignal(w.finished, timeout=60_000):
        w.start()
    assert seen[:2] == ["started", "before"] and seen[-1] == "finished"
    assert seen[2][0] == "errored" and "exit code 3" in seen[2][1]


def test_abort_stops_the_child_after_what_it_sent(qtbot):
    w = ProcessWorker(endless, interval_ms=5)
    seen = _events(w)
    w.start()
    qtbot.waitUntil(lambda: len(seen) > 20, timeout=60_000)
    pid = seen[1]
    assert _alive(pid)
    with qtbot.waitSignal(w.finished, timeout=10_000):
        w.abort()
    assert seen[-2:] == ["aborted", "finished"]
    counted = seen[2:-2]
    assert counted == list(range(1, len(counted) + 1))  # nothing lost, nothing twice
    qtbot.waitUntil(lambda: not _alive(pid), timeout=5_000)


@pytest.mark.parametrize("end", ["stop", "cancel"])
def test_stop_and_cancel_end_the_child(qtbot, end):
    """stop() ends it before it returns (the window closes); cancel() kills it and never
    waits for it on the window's thread (issue 26): it is gone soon after."""
    w = ProcessWorker(endless, interval_ms=5)
    seen = _events(w)
    w.start()
    qtbot.waitUntil(lambda: len(seen) > 2, timeout=60_000)
    pid = seen[1]
    getattr(w, end)()
    assert seen[-2:] == ["aborted", "finished"] and not w.running
    if end == "cancel":
        qtbot.waitUntil(lambda: not w.job.process.is_alive(), timeout=10_000)
    assert not w.job.process.is_alive()
    assert not _alive(pid)


def test_closing_the_window_leaves_no_child_process(qtbot, tmp_path):
    from gui.window.main_window import MainWindow

    window = MainWindow(remember=False)
    qtbot.addWidget(window)
    window.show()
    window.xor_tab.epochs.setValue(10**7)
    window.xor_tab.start()
    window.modes_tab.start_sweep()
    window.write_report(str(tmp_path))
    qtbot.waitUntil(lambda: len(multiprocessing.active_children()) >= 3, timeout=60_000)
    pids = [child.pid for child in multiprocessing.active_children()]
    window.close()
    assert not worker.running_workers() and not process_job.running()
    assert not multiprocessing.active_children()
    assert not any(_alive(pid) for pid in pids)
    assert not (tmp_path / "report.md").exists()


def test_closing_one_window_leaves_another_windows_children_running(qtbot):
    """Two windows in one process (two `debug(..., block=False)` in a notebook): closing
    the first stopped every child of the process, the second window's too."""
    from gui.window.main_window import MainWindow

    first, second = MainWindow(remember=False), MainWindow(remember=False)
    for w in (first, second):
        qtbot.addWidget(w)
        w.show()
    theirs = ProcessWorker(endless, interval_ms=5, parent=second)
    mine = ProcessWorker(endless, interval_ms=5, parent=first)
    seen = _events(theirs)
    theirs.start()
    mine.start()
    qtbot.waitUntil(lambda: len(seen) > 2, timeout=60_000)
    first.close()
    assert not mine.running and theirs.running and theirs.job.process.is_alive()
    assert worker.running_workers() == [theirs]
    second.close()
    assert not theirs.running and not process_job.running()
