"""Running the checks: child processes, a time limit per check, and the report.

The checks run one after another in a child process (spawn: nothing of this process is
copied into it), confined by engine.boundary: its own process group, ended with its
parent, a memory limit. The parent never runs the user's code and never unpickles what
the child sends: it reads plain JSON lines without ever blocking (engine.boundary.
LineReader) and watches the clock. A check that runs past its time limit is killed with its
process and reported as `timeout`; a new child then takes the checks that are left.
A caller drives `CheckRun.poll()`: the command line in a loop, the window on a timer.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from dataclasses import dataclass, field

import engine.checks.engine_check.cases as cases
from engine import _spawn, boundary
from engine.checks.engine_check.child import main as child_main

DEFAULT_TIMEOUT_S = 10.0
STATUSES = ("ok", "wrong", "missing", "error", "timeout")
_context = multiprocessing.get_context("spawn")


class EngineLoadError(Exception):
    """The file cannot be run, or has no such class (one line, no traceback)."""


@dataclass
class CheckRun:
    """Checks the class `class_name` of the file at `path` in child processes.

    `poll()` reads what the child has sent and enforces the time limit; `results` maps
    each finished check to its record, `current` names the check that runs, `done` is
    True at the end, `load_error` holds the reason the file could not be loaded.
    """

    path: str
    class_name: str = "Value"
    timeout_s: float = DEFAULT_TIMEOUT_S
    checks: tuple[str, ...] = cases.CHECKS
    memory_bytes: int | None = boundary.DEFAULT_MEMORY
    results: dict = field(default_factory=dict)
    style: dict | None = None
    output: str = ""
    load_error: str | None = None
    current: str | None = None
    done: bool = False

    def __post_init__(self):
        self._process = None
        self._conn = None
        self._reader = None
        self._started = 0.0
        self._loading = False
        self._start_child()

    # -- the child ------------------------------------------------------------------------

    def _remaining(self) -> list[str]:
        return [c for c in self.checks if c not in self.results]

    def _start_child(self) -> None:
        remaining = self._remaining()
        if not remaining:
            self._finish()
            return
        self._conn, child_end = _context.Pipe(duplex=False)
        self._process = _context.Process(
            target=child_main, daemon=True,
            args=(child_end, self.path, self.class_name, remaining, self.memory_bytes,
                  os.getpid()))
        _spawn.start(self._process)  # the user's script is never run again in it
        child_end.close()
        self._reader = boundary.LineReader(self._conn.fileno())
        self._loading = True
        self.current = None
        self._started = time.monotonic()

    def _kill_child(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            # everything it started goes with it, even what left its group; SIGKILL is
            # not waited for long: the caller may be the window's thread
            boundary.kill_tree(process.pid)
            process.join(0.5)
        self._reader = None
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _finish(self) -> None:
        self._kill_child()
        self.current = None
        self.done = True

    # -- reading it -----------------------------------------------------------------------

    def poll(self, wait_s: float = 0.0) -> list[str]:
        """Read the child's messages (waiting up to `wait_s` for the first) and enforce
        the time limit; returns the names of the checks finished by this call."""
        finished: list[str] = []
        if self.done:
            return finished
        try:
            for message in self._reader.read(wait_s):
                self._handle(message, finished)
                if self.done or self._reader is None:
                    return finished
        except boundary.ProtocolError as e:
            self._broke_protocol(str(e), finished)
            return finished
        except (EOFError, OSError):
            self._child_died(finished)
            return finished
        if time.monotonic() - self._started > self.timeout_s:
            self._time_out(finished)
        return finished

    def _handle(self, message: list, finished: list[str]) -> None:
        _check_message(message, self._remaining())
        kind = message[0]
        if kind == "load_error":
            self.load_error = message[1]
            self.output += message[2]
        elif kind == "loaded":
            self._loading = False
            if self.style is None:
                self.style = message[1]
                self.output += message[2]
        elif kind == "start":
            self.current = message[1]
            self._started = time.monotonic()
        elif kind == "result":
            _, name, record, output = message
            self.results[name] = record
            self.output += output
            finished.append(name)
            self.current = None
            self._started = time.monotonic()
        elif kind == "done":
            self._finish()

    def _child_died(self, finished: list[str]) -> None:
        code = self._process.exitcode if self._process is not None else None
        if self._process is not None:
            self._process.join(0.5)
            code = self._process.exitcode
        if self._loading and self.style is None:
            self.load_error = ("the process running the file ended while loading it "
                               f"(exit code {code})")
            self._finish()
            return
        name = self.current or (self._remaining() or [None])[0]
        self._kill_child()
        if name is not None:
            self.results[name] = {
                "status": "error", "error": f"the process ended (exit code {code})",
                "sentence": (f"the process running this check ended (exit code {code}): "
                             "a crash, a call to exit, or a recursion too deep for the stack")}
            finished.append(name)
        self._start_child()

    def _broke_protocol(self, what: str, finished: list[str]) -> None:
        """The child wrote something that is not the checks' data (the user's code
        found the pipe): the check it was on is an error, a new child takes the rest."""
        if self._loading and self.style is None:
            self._finish()
            self.load_error = f"the process running the file sent {what}, not the checks' data"
            return
        name = self.current or (self._remaining() or [None])[0]
        self._kill_child()
        if name is not None:
            self.results[name] = {
                "status": "error", "error": f"the process sent {what}",
                "sentence": (f"the process running this check sent {what} instead of "
                             "the check's results: your code wrote to the app's pipe")}
            finished.append(name)
        self._start_child()

    def _time_out(self, finished: list[str]) -> None:
        if self._loading and self.current is None and self.style is None:
            self._finish()
            self.load_error = (f"loading the file took longer than {self.timeout_s:g} s: "
                               "it was stopped")
            return
        name = self.current or (self._remaining() or [None])[0]
        self._kill_child()
        if name is not None:  # else every check had its result; only "done" was late
            self.results[name] = {
                "status": "timeout",
                "sentence": f"did not finish within {self.timeout_s:g} s: stopped"}
            finished.append(name)
        self._start_child()

    def cancel(self) -> None:
        """Stop now: the child is ended, the checks not run have no result."""
        self._finish()

    def wait(self, progress=None) -> None:
        """Poll until every check has a result (for the command line and tests);
        `progress(name, record)` is called for each one as it finishes."""
        while not self.done:
            for name in self.poll(0.1):
                if progress is not None:
                    progress(name, self.results[name])

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.is_alive()


_SHAPES = {"load_error": (str, str), "loaded": (dict, str), "start": (str,),
           "result": (str, dict, str), "done": ()}


def _check_message(message: list, remaining: list[str]) -> None:
    """ProtocolError unless `message` is one the child sends, with plain data of the
    right types, about a check that is still to come."""
    kind = message[0]
    shape = _SHAPES.get(kind)
    if shape is None or len(message) != len(shape) + 1 or not all(
            isinstance(v, t) for v, t in zip(message[1:], shape)):
        raise boundary.ProtocolError(f"a message of an unknown form ({kind[:40]!r})")
    if kind in ("start", "result") and message[1] not in remaining:
        raise boundary.ProtocolError("a result for a check that is not running")
    if kind == "result" and message[2].get("status") not in STATUSES:
        raise boundary.ProtocolError("a result without a status")


def finish_report(run: CheckRun) -> dict:
    """The report the command prints with --json: {"engine", "class", "checks",
    "summary"}, each failing behaviour's sentence saying when a rule it uses is wrong.
    Raises EngineLoadError if the file could not be loaded."""
    if run.load_error is not None:
        raise EngineLoadError(run.load_error)
    checks = {name: dict(run.results[name]) for name in run.checks if name in run.results}
    blame(checks, run.style or {})
    summary = {s: sum(1 for r in checks.values() if r["status"] == s) for s in STATUSES}
    summary["total"] = len(checks)
    report = {"engine": run.path, "class": run.class_name, "checks": checks,
              "summary": summary}
    if run.output.strip():
        report["output"] = run.output[-4000:]
    return report


def _culprits(name: str, record: dict, checks: dict, bad: set[str]) -> list[str]:
    """The failing checks that can explain `name`'s failure."""
    if "root_gradient" in bad and checks["root_gradient"].get("sentence", "").startswith("dL/dL"):
        # without dL/dL = 1 nothing else can be told apart: that is the cause
        return [] if name == "root_gradient" else ["root_gradient"]
    if name in cases.USES:
        return [r for r in cases.USES[name] if r in bad]
    return [r for r in record.get("built_on", []) if r in bad and r != name]


def blame(checks: dict, style: dict) -> None:
    """Add to each failing check that another failing check can explain which one it
    is: a behaviour's graphs are made of add and mul; a rule may be built on others in
    the user's class (sub as x + (-y), neg as x * -1: seen by the methods it called);
    and without dL/dL = 1 every gradient is zero."""
    bad = {name for name, r in checks.items() if r["status"] in ("wrong", "error")}
    found = {name: _culprits(name, r, checks, bad) for name, r in checks.items()
             if r["status"] == "wrong"}
    for name, culprits in found.items():
        record = checks[name]
        # a culprit that fails because of another is not the cause
        roots = [c for c in culprits if not found.get(c)]
        culprits = roots or culprits
        if culprits:
            names = " and ".join(culprits)
            verb = "is" if len(culprits) == 1 else "are"
            record["because"] = culprits
            if culprits == ["root_gradient"]:
                why = "dL/dL is never set to 1 (see root_gradient)"
            elif name in cases.USES:
                them = "them" if verb == "are" else "it"
                why = f"{names} {verb} wrong and its graphs rely on {them}"
            else:
                why = f"{names} {verb} wrong and your engine builds {name} on {names}"
            what = record.get("what") or record["sentence"]
            record["sentence"] = f"fails because {why}: {what}"
