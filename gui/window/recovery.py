"""The unsaved text of each window, kept for the next start: one recovery copy per window.

A window writes its text (atomically: a temporary file renamed over the copy) into a
folder beside the settings, under a name of its own (`PID-TOKEN.expr`), while it is edited
and when it closes; two windows never share a copy, so neither overwrites the other's
program. At the next start a window takes over the newest copy no live window owns (its
writer has ended), renamed to its own name, and shows it; the others wait for the next
windows, and the first window says where they are. Qt-free.
"""
# Qt-free: plain files; tests/test_structure.py imports it alone and finds no Qt.

from __future__ import annotations

import os
import re
import secrets

from engine.errors import ExpressionError
from engine.io.files import process_alive, read_program, write_atomic
from engine.language import MAX_CHARS

FOLDER = "recovery"  # beside the settings file
_NAME = re.compile(r"(\d+)-[0-9a-f]{12}\.expr")
_owned: set[str] = set()  # the copies this process's windows own


def _reason(e: Exception) -> str:
    if isinstance(e, ExpressionError):
        return e.message
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return str(e)


def beside(settings_file: str) -> RecoveryCopy:
    """A new window's copy, in the folder FOLDER beside the settings file."""
    folder = os.path.dirname(os.path.abspath(settings_file)) if settings_file else None
    return RecoveryCopy(None if folder is None else os.path.join(folder, FOLDER))


class RecoveryCopy:
    """A window's recovery copy in `folder` (None: nothing can be kept, for `why`)."""

    def __init__(self, folder: str | None, why: str = ""):
        self.folder = folder
        self.why = why
        self.name = f"{os.getpid()}-{secrets.token_hex(6)}.expr"
        _owned.add(self.name)

    @property
    def path(self) -> str | None:
        return None if self.folder is None else os.path.join(self.folder, self.name)

    def keep(self, text: str) -> str | None:
        """Write `text` as this window's copy; None when it is kept, else why it is not
        (too long to be opened again, the folder cannot be written, ...). A text with
        nothing in it needs no copy: the copy is removed."""
        if self.folder is None:
            return self.why or "nothing can be written beside the settings"
        if len(text) > MAX_CHARS:
            return (f"it is {len(text):,} characters long, over the {MAX_CHARS:,} a "
                    "program may have")
        try:
            if not text.strip():
                self.drop()
                return None
            os.makedirs(self.folder, exist_ok=True)
            write_atomic(self.path, text)
        except (OSError, UnicodeEncodeError) as e:
            return f"{self.path} cannot be written: {_reason(e)}"
        return None

    def drop(self) -> None:
        """Remove this window's copy (nothing of it is left to keep)."""
        if self.path is not None:
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass

    def release(self) -> None:
        """The window closes: its copy, if any, waits for a later window."""
        _owned.discard(self.name)

    def orphans(self) -> list[str]:
        """The paths of the copies no live window owns, newest first."""
        if self.folder is None:
            return []
        try:
            names = os.listdir(self.folder)
        except OSError:
            return []
        found = []
        for name in names:
            match = _NAME.fullmatch(name)
            if match is None or name in _owned:
                continue
            pid = int(match.group(1))
            if pid != os.getpid() and process_alive(pid):
                continue  # another running app's window
            path = os.path.join(self.folder, name)
            try:
                found.append((os.lstat(path).st_mtime, path))
            except OSError:
                continue
        return [path for _, path in sorted(found, reverse=True)]

    def claim(self) -> tuple[str | None, list[str]]:
        """Take over the newest copy no live window owns: its text (None if there is
        none that reads as a program's text) and the paths of the copies still waiting."""
        waiting = self.orphans()
        while waiting:
            path = waiting.pop(0)
            try:
                os.rename(path, self.path)  # another start may take it first: then no file
                text = read_program(self.path)
            except FileNotFoundError:
                continue
            except (OSError, ExpressionError):
                continue  # not a program's text (a damaged copy): left as it is
            if text.strip():
                return text, waiting
        return None, []
