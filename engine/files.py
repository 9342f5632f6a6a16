"""Reading and writing program files: strict UTF-8 in, atomic replacement out."""

from __future__ import annotations

import os
import tempfile

from engine.errors import ExpressionError
from engine.language import MAX_CHARS


def decode_program(data: bytes) -> str:
    """The text of a program file's bytes; ExpressionError (line 1, col 1) if it is not
    UTF-8 text or is larger than the language allows. A leading BOM is dropped."""
    if len(data) > 4 * MAX_CHARS:
        raise ExpressionError(f"the file is {len(data):,} bytes long; a program is at most "
                              f"{MAX_CHARS:,} characters")
    if b"\x00" in data:
        raise ExpressionError("the file holds NUL bytes: it looks binary, not a program")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ExpressionError(
            f"the file is not UTF-8 text (byte {e.start + 1} is not valid UTF-8)") from None
    return text.removeprefix("\ufeff")


def read_program(path: str | os.PathLike) -> str:
    """The text of the program file at `path`.

    Raises OSError if it cannot be read and ExpressionError if it is not a program's text.
    """
    with open(path, "rb") as f:
        data = f.read(4 * MAX_CHARS + 1)
    return decode_program(data)


def write_atomic(path: str | os.PathLike, text: str) -> None:
    """Write `text` (UTF-8) to `path` so that a crash leaves the old file or the new one:
    a temporary file beside it is written, flushed and synced, then renamed over it."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(prefix=".~", suffix=".expr.tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if os.path.exists(path):
            os.chmod(temporary, os.stat(path).st_mode & 0o777)
        else:
            os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
