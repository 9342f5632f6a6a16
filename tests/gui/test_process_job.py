"""A child process given big arguments: they follow through the pipe, from a thread, so
that starting it never waits for the child's Python to come up and read them. The child
is given the function object: a rename is seen where it is imported."""

import itertools

from gui.jobs.process_job import INLINE_BYTES, ProcessJob
from tests.gui.job_functions import numbers, warmed_first


def _records(job: ProcessJob) -> list:
    """Every record, reading until the child says it has ended (drain never blocks:
    this waits on the pipe itself)."""
    records = []
    while not job.finished:
        job._conn.poll(60.0)
        records += job.drain()
    return records


def test_small_arguments_start_the_child_and_big_ones_follow_through_the_pipe():
    small = ProcessJob(itertools.repeat, object="x" * 100, times=2)
    big_text = "".join(chr(97 + k % 26) for k in range(4 * INLINE_BYTES))
    big = ProcessJob(itertools.repeat, object=big_text, times=2)
    try:
        assert not small.arguments_follow and big.arguments_follow
        assert _records(small) == ["x" * 100] * 2
        assert _records(big) == [big_text] * 2
        assert small.error is None and big.error is None
    finally:
        small.cancel()
        big.cancel()


def test_the_child_runs_the_function_it_was_given_and_reports_its_error():
    job = ProcessJob(numbers, n=3, then_fail=True)
    try:
        assert _records(job) == [0, 1, 2]
        assert job.error == "ValueError: failed after 3"
    finally:
        job.cancel()


def test_a_child_cancelled_before_it_read_its_big_arguments_leaves_nothing_behind():
    job = ProcessJob(itertools.repeat, object=b"\0" * (64 * INLINE_BYTES), times=1)
    job.cancel()  # killed at once, reaped by a thread of its own (never waited for here)
    assert job.finished
    job.process.join(5.0)
    assert not job.process.is_alive()
    job._feeder.join(2.0)
    assert not job._feeder.is_alive()


def test_a_child_started_before_its_arguments_warms_up_then_runs_them():
    """`arguments_later`: the child starts at once (the window packs a big graph
    meanwhile), runs its function's `warm_up` while it waits, and works when given."""
    job = ProcessJob(warmed_first, arguments_later=True)
    try:
        assert job.arguments_follow and job.process.is_alive()
        assert job.drain() == []  # nothing to do before its arguments
        job.give(n=3)
        assert _records(job) == [True, 0, 1, 2]
        assert job.error is None
    finally:
        job.cancel()


def test_a_function_with_a_warm_up_given_its_arguments_at_once_does_not_run_it():
    job = ProcessJob(warmed_first, n=2)
    try:
        assert _records(job) == [False, 0, 1]
    finally:
        job.cancel()
