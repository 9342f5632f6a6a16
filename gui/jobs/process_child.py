"""What runs inside a worker process: an engine generator, its records sent in batches.

Kept free of Qt (the `gui` package imports nothing by itself), so a spawned child
starts quickly and never touches a window.
"""
# Qt-free: runs in a child process; tests/test_structure.py imports it alone and finds no Qt.

from __future__ import annotations

import time
from collections.abc import Callable

from engine.frames import send_frame

BATCH_S = 0.02  # at most this long between two sends
KWARGS_TO_FOLLOW = None  # given for kwargs too big to start with: they come through conn


def received_kwargs(conn, kwargs: dict | None) -> dict:
    """`kwargs`, or the ones the parent sends first through `conn` (see ProcessJob)."""
    return conn.recv() if kwargs is KWARGS_TO_FOLLOW else kwargs


def run_generator(conn, function: Callable, kwargs: dict | None,
                  batch_s: float = BATCH_S) -> None:
    """Iterate `function(**kwargs)` (a module-level generator function: it reaches the
    child pickled by its name, and the child imports it), sending frames of plain data
    (engine.frames) through `conn`'s file: ("batch", records) at most `batch_s` apart
    (0: each record on its own), ("error", text) if it failed; stop when the parent sends
    anything; always end with ("end",). A function with a `warm_up` attribute (a
    function of no arguments) has it called first when its arguments are to follow."""
    fd = conn.fileno()
    batch = []
    try:
        warm_up = getattr(function, "warm_up", None)
        if kwargs is KWARGS_TO_FOLLOW and warm_up is not None:
            warm_up()  # what its work imports, while the arguments are still being made
        kwargs = received_kwargs(conn, kwargs)
        generator = function(**kwargs)
        last = time.monotonic()
        for record in generator:
            batch.append(record)
            now = time.monotonic()
            if now - last >= batch_s:
                send_frame(fd, "batch", batch)
                batch, last = [], now
                if conn.poll():
                    break  # the parent asked us to stop
        send_frame(fd, "batch", batch)
    except BaseException as e:  # noqa: BLE001 - reported to the window in words
        try:
            if batch:
                send_frame(fd, "batch", batch)  # what came before the error
        except Exception:  # noqa: BLE001 - the batch itself was the trouble: the error says
            pass
        send_error(fd, e)
    finally:
        send_frame(fd, "end")
        conn.close()


def send_error(fd: int, e: BaseException) -> None:
    """Tell the parent in words why the child's work failed."""
    send_frame(fd, "error", f"{type(e).__name__}: {e}")
