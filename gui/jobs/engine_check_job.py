"""A user's engine under check (engine.checks.engine_check.CheckRun) as a ProcessWorker's source.

CheckRun runs the file in child processes of its own, one after another (a new one after
a check that hangs past its time limit), which the command line reads in its own loop.
The window reads the same run through a ProcessWorker, as every child job: this adapter
gives it ProcessJob's reading interface. Records: ("running", name) when a check starts,
("result", name, record) when it ends.
"""

from __future__ import annotations

from engine.checks.engine_check import CheckRun


class CheckRunSource:
    """`drain()`, `finished`, `error`, `request_stop()`, `stop()`, `cancel()` over a run."""

    def __init__(self, run: CheckRun):
        self.run = run
        self.error: str | None = None  # a file that cannot be loaded is a result, not this
        self._current: str | None = None

    @property
    def finished(self) -> bool:
        return self.run.done

    def drain(self, limit: int | None = None) -> list:
        """What happened since the last call (never blocks; `limit` is not needed: the
        run's messages are small)."""
        records = [("result", name, self.run.results[name]) for name in self.run.poll(0.0)]
        current = None if self.run.done else self.run.current
        if current != self._current:
            self._current = current
            if current is not None:
                records.append(("running", current))
        return records

    def request_stop(self) -> None:
        self.cancel()

    def stop(self) -> None:
        self.cancel()

    def cancel(self) -> None:
        """End the run's child now."""
        if not self.run.done:
            self.run.cancel()
