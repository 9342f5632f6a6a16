"""Worker threads: one worker object per long job, moved to its own QThread.

Every thread started here is remembered until it finishes, so the window can stop them
all when it closes and the tests can fail any test that leaves one running.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QThread

_threads: list[QThread] = []


def start(worker: QObject) -> QThread:
    """Run `worker.work` in a new thread; the thread quits when `worker.finished` fires."""
    thread = QThread()
    thread.worker = worker  # the worker lives as long as its thread is remembered
    worker.moveToThread(thread)
    thread.started.connect(worker.work)
    worker.finished.connect(thread.quit)
    _threads.append(thread)
    thread.start()
    return thread


def running() -> list[QThread]:
    """Threads started here that have not finished."""
    _threads[:] = [t for t in _threads if not t.isFinished()]
    return [t for t in _threads if t.isRunning()]


def stop_all(timeout_ms: int = 5000) -> bool:
    """Stop every running thread; True if all have stopped."""
    return all([stop(t, timeout_ms) for t in running()])


def stop(thread: QThread | None, timeout_ms: int = 5000) -> bool:
    """Ask `thread` to quit and wait for it; True if it has stopped."""
    if thread is None:
        return True
    thread.quit()
    return thread.wait(timeout_ms)
