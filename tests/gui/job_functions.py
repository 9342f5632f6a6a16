"""Generator functions for the worker tests, run in child processes (importable there:
a child gets a function by its module and name). Qt-free."""

import os
import time
from dataclasses import dataclass


def numbers(n: int, then_fail: bool = False):
    """0, 1, ..., n-1; then a ValueError if `then_fail`."""
    yield from range(n)
    if then_fail:
        raise ValueError(f"failed after {n}")


_WARMED: list[float] = []


def _warm() -> None:
    _WARMED.append(time.monotonic())


def warmed_first(n: int):
    """Whether `warm_up` ran in this child before the arguments came (it waits for
    them), then 0, 1, ..., n-1."""
    yield bool(_WARMED) and _WARMED[0] < time.monotonic()
    yield from range(n)


warmed_first.warm_up = _warm


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


# -- hostile children (issue 26 item 1): each writes to the pipe behind the frames' back --

class RunsWhereUnpickled:
    """Pickled, it runs `touch PATH` in the process that unpickles it."""

    def __init__(self, path: str):
        self.path = path

    def __reduce__(self):
        return (os.system, (f"touch {self.path}",))


def _pipe():
    """The child's end of the pipe, found as a user's code could find it."""
    import sys

    return sys._getframe(2).f_locals["conn"]  # run_generator's: it iterates this generator


def sends_a_pickle(path: str):
    """A pickle whose unpickling runs a command, sent up the pipe, then a record."""
    _pipe().send(RunsWhereUnpickled(path))
    yield "after"


def sends_a_header_only():
    """A length header promising 100 bytes, and nothing after it, for a minute."""
    import struct

    os.write(_pipe().fileno(), struct.pack("!i", 100))
    time.sleep(60)
    yield "never"


@dataclass(frozen=True)
class NotListed:
    """A record class the parent's list (gui/jobs/records.py) does not name."""

    command: str


def sends_an_unlisted_record():
    """A record of a class the parent does not make (engine.frames refuses it)."""
    yield NotListed("touch /tmp/never")


def no_tensorflow():
    """The TensorFlow child's loader when TensorFlow cannot be imported."""
    from engine.checks.tensorflow_check import TensorFlowUnavailable

    raise TensorFlowUnavailable("TensorFlow is not installed (a test's stand-in)")
