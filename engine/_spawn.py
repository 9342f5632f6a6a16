"""Starting a spawned child without running the user's script again.

A spawned child rebuilds the parent's `__main__` before it runs its target
(multiprocessing.spawn.get_preparation_data: `init_main_from_path` or
`init_main_from_name`), which runs a script that called `debug(loss)` a second time, or
dies with "An attempt has been made to start a new process before the current process
has finished its bootstrapping phase" when the script has no `__main__` guard. The
app's children run functions of its own importable modules and need nothing of the
parent's `__main__`, so every start is made with `__main__` hidden: a bare module with
no `__file__` and no `__spec__`, for the length of `Process.start()` only.
"""

from __future__ import annotations

import sys
import threading
import types
from contextlib import contextmanager

_lock = threading.Lock()  # two starts at once must not put back each other's stand-in


@contextmanager
def main_hidden():
    """For the `with` block, `sys.modules['__main__']` is a bare module (no `__file__`,
    `__spec__` None), so that a spawned child started in it imports no main module."""
    with _lock:
        saved = sys.modules.get("__main__")
        bare = types.ModuleType("__main__")
        bare.__spec__ = None
        sys.modules["__main__"] = bare
        try:
            yield
        finally:
            if saved is None:
                sys.modules.pop("__main__", None)
            else:
                sys.modules["__main__"] = saved


def start(process) -> None:
    """`process.start()` with the parent's `__main__` hidden (see `main_hidden`)."""
    with main_hidden():
        process.start()
