"""What runs inside the TensorFlow worker process: import TensorFlow once, then answer
each cross-check request the window sends.

Importing TensorFlow takes seconds of pure Python: in a thread of the window's process it
would hold the interpreter lock and stall the window (gaps of hundreds of ms). Kept free
of Qt, like process_child, so the child starts quickly.
"""
# Qt-free: runs in a child process; tests/test_structure.py imports it alone and finds no Qt.

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine import ExpressionError
from engine.checks import tensorflow_check as tfc
from engine.frames import send_frame
from gui.jobs.process_child import received_kwargs, send_error


@dataclass(frozen=True)
class CheckResult:
    """The answer for program `generation`: its rows, or why there are none."""

    generation: int
    rows: tuple[tfc.GradientRow, ...] = ()
    float32: dict[str, float] | None = None  # the lesson's float32 snippet, if asked
    error: str = ""
    unavailable: bool = False  # TensorFlow cannot be imported: no later request can work


def answer(load, generation: int, text: str, want_float32: bool) -> CheckResult:
    """Cross-check `text` against TensorFlow, imported by `load()`; errors in words."""
    try:
        load()
        float32 = tfc.lesson_float32() if want_float32 else None
        rows = tfc.cross_check(text)
    except tfc.TensorFlowUnavailable as e:
        return CheckResult(generation, error=str(e), unavailable=True)
    except ExpressionError as e:
        return CheckResult(generation, error=f"The program cannot be checked: {e}")
    except Exception as e:  # noqa: BLE001 - TensorFlow's own failures, shown in words
        return CheckResult(generation, error=f"TensorFlow failed on this program: {e}")
    return CheckResult(generation, tuple(rows), float32)


def serve(conn, load: Callable, kwargs: dict | None, _batch_s: float = 0.0) -> None:
    """Answer requests `(generation, text, want_float32)` from `conn` with `[CheckResult]`,
    TensorFlow imported by `load()`, until the parent sends "stop", goes away, or
    TensorFlow turns out to be unavailable; end with ("end",), as process_child (frames
    of plain data, engine.frames)."""
    fd = conn.fileno()
    try:
        received_kwargs(conn, kwargs)  # none are used
        while True:
            request = conn.recv()
            if request == "stop":
                break
            result = answer(load, *request)
            send_frame(fd, "batch", [result])
            if result.unavailable:
                break
    except (EOFError, OSError):
        return  # the window is gone: nobody to tell
    except BaseException as e:  # noqa: BLE001 - reported to the window in words
        send_error(fd, e)
    try:
        send_frame(fd, "end")
        conn.close()
    except OSError:
        pass
