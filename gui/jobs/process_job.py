"""Long engine jobs in a child process, read by the window on its own clock.

A worker thread would share the interpreter lock with the window: every call from Qt
into Python (a table's data, a widget's paint) would wait for the worker to let go, and
the window would draw a frame a second. A child process trains or times on the other
core instead, sends its records in batches, and the window takes them when it draws.
What the child sends is read as frames of plain data (engine/frames.py), without ever
blocking and never unpickled; what the window sends the child (its arguments, requests)
is pickled, as multiprocessing does.
"""
# Qt-free: its child half runs in a child process (tests/test_structure.py).

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import queue
import threading
from collections.abc import Callable
from multiprocessing.reduction import ForkingPickler

from engine import _spawn, boundary
from engine.frames import FrameReader
from gui.jobs.process_child import BATCH_S, KWARGS_TO_FOLLOW, run_generator
from gui.jobs.records import CHILD_RECORDS

_jobs: list[ProcessJob] = []
_context = multiprocessing.get_context("spawn")  # no fork of a process with threads
# Arguments bigger than this go to the child through the pipe, from a thread, after it
# has started: starting a spawned child writes its arguments into a pipe that the child
# reads only once Python is up in it, so big ones would hold the window for that long
# (a quarter of a second for a 20,000-node graph's layout).
INLINE_BYTES = 16_384


class ProcessJob:
    """Runs the generator `function(**kwargs)` in a child process (`function` is the
    module-level function object itself: the child imports it by its name). With
    `one_by_one`, each record comes as a message of its own (for records big enough
    that the window reads them one at a time, see `drain(limit=...)`)."""

    # what the child runs, given (its end of the pipe, function, kwargs, the seconds to
    # gather records into one message)
    child_main = staticmethod(run_generator)

    def __init__(self, function: Callable, *, one_by_one: bool = False,
                 arguments_later: bool = False, **kwargs):
        self._conn, child = _context.Pipe()
        self._outbox: queue.SimpleQueue | None = None  # what the feeder thread sends
        self._feeder: threading.Thread | None = None
        # arguments_later: the child starts now (Python and its imports up) and waits for
        # its arguments, given with `give` once they are made
        payload = None if arguments_later else ForkingPickler.dumps(kwargs)
        inline = payload is not None and len(payload) <= INLINE_BYTES
        self.arguments_follow = not inline  # sent through the pipe once it has started
        # confined: its own process group, ended when this process ends (engine.boundary)
        self.process = _context.Process(target=boundary.confined, daemon=True,
                                        args=(self.child_main, os.getpid(), None, child,
                                              function,
                                              kwargs if inline else KWARGS_TO_FOLLOW,
                                              0.0 if one_by_one else BATCH_S))
        _spawn.start(self.process)  # the user's script is never run again in it
        child.close()
        # what the child sends is read as frames of plain data, never unpickled
        self._reader = FrameReader(self._conn.fileno(), CHILD_RECORDS)
        if payload is not None and not inline:
            self._post(payload)
        self.finished = False
        self.error: str | None = None
        self._reaping = False
        _jobs.append(self)

    def give(self, **kwargs) -> None:
        """The arguments of a job started with `arguments_later` (once)."""
        self._post(ForkingPickler.dumps(kwargs))

    def _post(self, payload: bytes) -> None:
        """Send pickled `payload` to the child without waiting for it to read: a thread
        writes it, after whatever was posted before."""
        if self._outbox is None:
            self._outbox = queue.SimpleQueue()
            self._feeder = threading.Thread(target=self._feed, args=(self._outbox,),
                                            daemon=True, name="process-job-feeder")
            self._feeder.start()
        self._outbox.put(payload)

    def _feed(self, outbox: queue.SimpleQueue) -> None:
        # the write waits for the child to read, with the interpreter lock let go
        while (payload := outbox.get()) is not None:
            try:
                self._conn.send_bytes(payload)
            except (OSError, ValueError):  # the child is gone, or the pipe closed
                return

    def drain(self, limit: int | None = None) -> list:
        """Every record the child has sent since the last call, or those of at most
        `limit` messages (never blocks: frames of plain data, engine.frames)."""
        records = []
        try:
            while not self.finished and (limit is None or limit > 0):
                messages = self._reader.read(0.0, limit)
                if not messages:
                    break
                for message in messages:
                    if limit is not None:
                        limit -= 1
                    self._take(message, records)
                    if self.finished:
                        break
        except boundary.ProtocolError as e:  # never a message of ours: the child is ended
            self.error = f"the worker process sent {e}"
            self._kill()
        except (EOFError, OSError):  # the child is gone without saying goodbye
            self.process.join(0.2)
            self.error = self.error or ("the worker process ended unexpectedly "
                                        f"(exit code {self.process.exitcode})")
            self._end()
        return records

    def _take(self, message: list, records: list) -> None:
        kind = message[0]
        if kind == "batch" and len(message) == 2 and isinstance(message[1], list):
            records.extend(message[1])
        elif kind == "error" and len(message) == 2 and isinstance(message[1], str):
            self.error = message[1]
        elif kind == "end" and len(message) == 1:
            # never waited for here: a child that has said its last word may take a tenth
            # of a second to exit (its heap let go of); the next is_alive() reaps it
            self._end(reap_s=0.0)
        else:
            raise boundary.ProtocolError(f"a message of the wrong shape ({kind[:40]!r})")

    def _kill(self) -> None:
        """End the child and all it started, without waiting for it on this thread."""
        self.cancel()

    @property
    def pending(self) -> bool:
        """A whole message was read from the pipe and is waiting to be drained (the
        pipe itself may have nothing more to say)."""
        return not self.finished and self._reader.pending

    def send(self, message) -> None:
        """Send `message` to a child that reads them (not "stop": see request_stop).
        Never waits for the child: it reads the messages in the order they were sent."""
        self._post(ForkingPickler.dumps(message))

    def request_stop(self) -> None:
        """Ask the child to stop after its current batch; `drain` then sees it finish."""
        if self.process.is_alive():
            self._post(ForkingPickler.dumps("stop"))

    def stop(self, timeout: float = 0.4) -> None:
        """Stop the child now: ask, and end it if it has not stopped within `timeout`."""
        if self.process.is_alive():
            self.request_stop()
            self.process.join(timeout)
            if self.process.is_alive():
                self.process.terminate()
                self.process.join(1.0)
        self.drain()  # what it sent before it stopped
        self._end()

    def cancel(self) -> None:
        """End the child at once, whatever it is doing (for work that cannot stop
        between records, like one long computation); what it sent is dropped. Never
        waits for it: the child and all it started are killed, and a thread waits for
        its end and closes the pipe once the feeder has let go of it."""
        if self.process.is_alive():
            boundary.kill_tree(self.process.pid)
        self._end(reap_s=0.0)
        if self._reaping:
            return
        self._reaping = True
        reaper = threading.Thread(target=self._reap, daemon=True, name="process-job-reaper")
        reaper.start()

    def _reap(self) -> None:
        # the end is waited for on its sentinel, never by waitpid: a second thread in
        # waitpid would make is_alive() answer True for a child already gone; the zombie
        # is reaped by the next is_alive() or multiprocessing.active_children()
        multiprocessing.connection.wait([self.process.sentinel])
        if self._feeder is not None:
            self._feeder.join()  # a write to the dead child fails at once
        self._conn.close()

    def _end(self, reap_s: float = 0.2) -> None:
        if not self.finished:
            self.finished = True
            if self._outbox is not None:
                self._outbox.put(None)  # the feeder ends after what it still has to write
            if reap_s:
                self.process.join(reap_s)  # it is exiting: reap it
            if self in _jobs:
                _jobs.remove(self)


def running() -> list[ProcessJob]:
    return [job for job in _jobs if job.process.is_alive()]


def stop_all(spared=()) -> None:
    """Stop every child job but those in `spared` (another window's)."""
    for job in list(_jobs):
        if not any(job is k for k in spared):
            job.stop()
