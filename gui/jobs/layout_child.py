"""What runs inside the warm layout process: the layout imported once, then each picture
the window asks for laid out and sent back in pieces, until the window says stop.

Started when a grouped picture is first drawn, it is ready before the first group is
opened, so that opening one costs the layout alone, not the start of a process and the
import of the layout's modules (a few hundred ms) each time. Kept free of Qt, like
process_child, so the child starts quickly.
"""
# Qt-free: runs in a child process; tests/test_structure.py imports it alone and finds no Qt.

from __future__ import annotations

from collections.abc import Callable

from engine.frames import send_frame
from gui.jobs.process_child import received_kwargs, send_error

READY = "ready"  # the first record: the layout is imported, requests are answered now
FAILED = "failed"  # a request's record (FAILED, reason) instead of its pieces


def serve_layouts(conn, layout: Callable, kwargs: dict | None, _batch_s: float = 0.0) -> None:
    """Answer requests `(ticket, packed)` from `conn`, each with the records of
    `layout(**packed)` (gui.graph.layout.transfer.layout_packed) as messages
    `[(ticket, record)]`, or `[(ticket, (FAILED, reason))]`, until the parent sends
    "stop" or goes away; first `[(0, READY)]`, last ("end",), as process_child (frames
    of plain data, engine.frames)."""
    fd = conn.fileno()
    try:
        received_kwargs(conn, kwargs)  # none are used
        send_frame(fd, "batch", [(0, READY)])
        while True:
            request = conn.recv()
            if request == "stop":
                break
            ticket, packed = request
            try:
                for record in layout(**packed):
                    send_frame(fd, "batch", [(ticket, record)])
            except Exception as e:  # noqa: BLE001 - reported to the window in words
                failed = (FAILED, f"{type(e).__name__}: {e}")
                send_frame(fd, "batch", [(ticket, failed)])
    except (EOFError, OSError):
        return  # the window is gone: nobody to tell
    except BaseException as e:  # noqa: BLE001 - reported to the window in words
        send_error(fd, e)
    try:
        send_frame(fd, "end")
        conn.close()
    except OSError:
        pass
