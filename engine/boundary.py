"""The boundary around a child process that runs a user's code.

What crosses it is plain data: one JSON array per line (`send`, `LineReader`), read with
a deadline and a size limit, never unpickled, so nothing the child writes can run code
in this process or block it. The child is confined before the user's code runs
(`confine`): a process group of its own, a signal when its parent dies, its orphaned
descendants kept under it, and a limit on its memory. Ending it (`kill_tree`) ends every
process it started, even those that left its group.

Linux is the platform these promises are made on (prctl, /proc); elsewhere `confine`
does what the platform allows (a group of its own, the memory limit).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import select
import signal
import sys

MAX_LINE = 32 * 1024 * 1024   # bytes of one message: more is not the checks' data
READ_CHUNK = 1 << 16
READ_BUDGET = 4 * 1024 * 1024  # bytes read per call, so a flood cannot hold a caller
DEFAULT_MEMORY = 4 * 1024 ** 3  # bytes of address space a child may use
_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36


class ProtocolError(Exception):
    """The child sent something that is not a message of the protocol."""


# -- the child's side ---------------------------------------------------------------------


def send(fd: int, *message) -> None:
    """Write `message` (plain data: lists, dicts, str, numbers, None) as one JSON line."""
    data = (json.dumps(list(message)) + "\n").encode()
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _end_descendants(signum, _frame) -> None:
    """The parent died (or asked): end everything started here, then this process."""
    kill_tree(os.getpid(), include_self=False)
    os._exit(128 + signum)


def confine(memory_bytes: int | None, parent_pid: int) -> None:
    """Called in the child before any user code runs: its own process group; SIGTERM
    when the parent dies (ending every descendant, then itself); orphaned descendants
    reparented here, so that ending the tree finds them; at most `memory_bytes` of
    address space (None: no limit). Exits at once if the parent is already gone."""
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        signal.signal(signal.SIGTERM, _end_descendants)
        signal.signal(signal.SIGHUP, _end_descendants)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    if os.getppid() != parent_pid:  # the parent died before the signal was asked for
        os._exit(1)
    if memory_bytes:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = memory_bytes if hard == resource.RLIM_INFINITY else min(memory_bytes, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


# -- the parent's side --------------------------------------------------------------------


class LineReader:
    """Reads the child's JSON lines from the pipe's read end `fd` without ever blocking:
    `read(wait_s)` waits at most `wait_s` for data, takes what is there (up to
    READ_BUDGET bytes) and returns the whole messages; EOFError once the child's end is
    closed and every whole message was returned; ProtocolError for a line that is not a
    JSON array, or longer than MAX_LINE."""

    def __init__(self, fd: int):
        self.fd = fd
        os.set_blocking(fd, False)
        self._buffer = bytearray()
        self._eof = False
        self._broken: ProtocolError | None = None  # raised after the messages before it

    def read(self, wait_s: float = 0.0) -> list[list]:
        if self._broken is not None:
            raise self._broken
        if not self._eof:
            ready, _, _ = select.select([self.fd], [], [], max(0.0, wait_s))
            budget = READ_BUDGET
            while ready and budget > 0:
                try:
                    chunk = os.read(self.fd, READ_CHUNK)
                except BlockingIOError:
                    break
                if not chunk:
                    self._eof = True
                    break
                self._buffer += chunk
                budget -= len(chunk)
        messages = self._messages()
        if self._eof and not messages:
            raise EOFError
        return messages

    def _messages(self) -> list[list]:
        """The whole messages in the buffer; a line that breaks the protocol is raised
        at once if it comes first, else on the next read (the messages before it count)."""
        messages: list[list] = []
        try:
            self._parse(messages)
        except ProtocolError as e:
            if not messages:
                raise
            self._broken = e
        return messages

    def _parse(self, messages: list[list]) -> None:
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                if len(self._buffer) > MAX_LINE:
                    raise ProtocolError(f"a message longer than {MAX_LINE:,} bytes")
                return
            line = bytes(self._buffer[:end])
            del self._buffer[:end + 1]
            try:
                message = json.loads(line)
            except (UnicodeDecodeError, json.JSONDecodeError):
                raise ProtocolError("something that is not a JSON line") from None
            if not (isinstance(message, list) and message and isinstance(message[0], str)):
                raise ProtocolError("a JSON line that is not a message")
            messages.append(message)


def descendants(pid: int) -> list[int]:
    """Every process below `pid` (children, theirs, ...), read from /proc; [] where
    there is no /proc."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces and brackets, so split after it
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 1:
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def kill_tree(pid: int, include_self: bool = True) -> None:
    """SIGKILL every descendant of `pid` and its process group (and `pid` itself)."""
    targets = descendants(pid)
    if include_self:
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)  # a confined child leads its own group
        targets.append(pid)
    for target in targets:
        with contextlib.suppress(OSError):
            os.kill(target, signal.SIGKILL)


def confined(main, parent_pid: int, memory_bytes: int | None, *args) -> None:
    """A spawned child's entry point: `confine` this process (its own group, ended with
    its parent and its descendants with it; at most `memory_bytes`), then `main(*args)`.
    Every child the app starts runs through it (gui/jobs/process_job.py, draw())."""
    confine(memory_bytes, parent_pid)
    main(*args)

