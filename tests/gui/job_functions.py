"""Generator functions for the worker tests, run in child processes (importable there:
a child gets a function by its module and name). Qt-free."""

import os
import time


def numbers(n: int, then_fail: bool = False):
    """0, 1, ..., n-1; then a ValueError if `then_fail`."""
    yield from range(n)
    if then_fail:
        raise ValueError(f"failed after {n}")


def endless(pause_s: float = 0.001):
    """The child's process id, then 1, 2, 3, ... until it is stopped."""
    yield os.getpid()
    k = 0
    while True:
        k += 1
        time.sleep(pause_s)
        yield k


def dies():
    """Yields once, then the process ends without a word."""
    yield "before"
    os._exit(3)
