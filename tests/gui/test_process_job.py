"""A child process given big arguments: they follow through the pipe, from a thread, so
that starting it never waits for the child's Python to come up and read them."""

import time

from gui.jobs.process_job import INLINE_BYTES, ProcessJob


def _records(job: ProcessJob, timeout_s: float = 60.0) -> list:
    records, deadline = [], time.monotonic() + timeout_s
    while not job.finished and time.monotonic() < deadline:
        records += job.drain()
        time.sleep(0.01)
    return records


def test_small_arguments_start_the_child_and_big_ones_follow_through_the_pipe():
    small = ProcessJob("itertools", "repeat", object="x" * 100, times=2)
    big_text = "".join(chr(97 + k % 26) for k in range(4 * INLINE_BYTES))
    big = ProcessJob("itertools", "repeat", object=big_text, times=2)
    try:
        assert not small.arguments_follow and big.arguments_follow
        assert _records(small) == ["x" * 100] * 2
        assert _records(big) == [big_text] * 2
        assert small.error is None and big.error is None
    finally:
        small.cancel()
        big.cancel()


def test_a_child_cancelled_before_it_read_its_big_arguments_leaves_nothing_behind():
    job = ProcessJob("itertools", "repeat", object=b"\0" * (64 * INLINE_BYTES), times=1)
    job.cancel()
    assert job.finished and not job.process.is_alive()
    job._feeder.join(2.0)
    assert not job._feeder.is_alive()
