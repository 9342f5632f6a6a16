"""Reading and writing program files: strict UTF-8 in, atomic replacement out.

Everything read is bounded (MAX_FILE_BYTES), and only regular files are opened: a FIFO,
a socket or a device could block forever or never end, so they are refused before
`open` is called."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
import time

from engine.errors import ExpressionError
from engine.language import MAX_CHARS

MAX_FILE_BYTES = 4 * MAX_CHARS  # UTF-8 takes at most 4 bytes a character
TEMP_PREFIX, TEMP_SUFFIX = ".~", ".tmp"
STALE_TEMP_SECONDS = 60.0  # a save takes milliseconds; an older temp file was abandoned


class NotARegularFile(OSError):
    """The path names a folder, a FIFO, a socket or a device: it is not opened."""


class ReadError(OSError):
    """A file could not be read: the errno, reason and file name of the OSError that said
    why, in a class of its own so that a message can say "cannot read", not "cannot write"."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _refuse(mode: int, path) -> NotARegularFile:
    code = errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL
    return NotARegularFile(code, f"it is {_kind(mode)}, not a regular file", os.fspath(path))


def check_regular(path: str | os.PathLike) -> None:
    """Return if `path` is a regular file (links followed); raise NotARegularFile (an
    OSError whose strerror says what it is) if not, OSError if it cannot be looked at."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise _refuse(mode, path)


def decode_program(data: bytes) -> str:
    """The text of a program file's bytes; ExpressionError (line 1, col 1) if it is not
    UTF-8 text or is larger than the language allows. A leading BOM is dropped."""
    if len(data) > MAX_FILE_BYTES:
        raise ExpressionError(f"the text is more than {MAX_FILE_BYTES:,} bytes long; a "
                              f"program is at most {MAX_CHARS:,} characters")
    if b"\x00" in data:
        raise ExpressionError("the file holds NUL bytes: it looks binary, not a program")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ExpressionError(
            f"the file is not UTF-8 text (byte {e.start + 1} is not valid UTF-8)") from None
    return text.removeprefix("\ufeff")


def read_stream(stream) -> str:
    """The program text of a binary stream (standard input), reading at most one byte
    more than MAX_FILE_BYTES, so an endless stream costs bounded memory and ends in an
    ExpressionError. OSError if it cannot be read."""
    return decode_program(stream.read(MAX_FILE_BYTES + 1))


def read_program(path: str | os.PathLike) -> str:
    """The text of the program file at `path`.

    Raises NotARegularFile, without opening it, for a folder, FIFO, socket or device,
    ReadError (an OSError) if it cannot be read, and ExpressionError if it is not a
    program's text.
    """
    try:
        check_regular(path)
        # non-blocking, in case it was swapped for a FIFO since the check; checked again
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
        fd = os.open(path, flags)
        with os.fdopen(fd, "rb") as f:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                raise _refuse(mode, path)
            data = f.read(MAX_FILE_BYTES + 1)
    except (NotARegularFile, ReadError):
        raise
    except OSError as e:
        raise ReadError(e.errno, e.strerror or str(e), e.filename or os.fspath(path)) from e
    return decode_program(data)


def _temp_name_parts(target: str) -> tuple[str, str]:
    """The prefix and suffix of the temporary files that replace `target`."""
    return f"{TEMP_PREFIX}{os.path.basename(target)}.{os.getpid()}.", TEMP_SUFFIX


def process_alive(pid: int) -> bool:
    """True if a process `pid` runs (this one, or one that is not ours included)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, but not ours; or a platform without signals
        return True
    return True


def remove_stale_temporaries(target: str | os.PathLike) -> list[str]:
    """Delete the temporary files a crashed save of `target` left beside it: named
    `.~NAME.PID.*.tmp`, written by a process that no longer runs, and untouched for a
    minute (so a save under way elsewhere is never disturbed). Returns what was removed."""
    target = os.fspath(target)
    folder = os.path.dirname(os.path.abspath(target))
    start = f"{TEMP_PREFIX}{os.path.basename(target)}."
    removed = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    now = time.time()
    for name in names:
        if not (name.startswith(start) and name.endswith(TEMP_SUFFIX)):
            continue
        pid = name[len(start):].split(".", 1)[0]
        if not pid.isdigit() or process_alive(int(pid)):
            continue
        path = os.path.join(folder, name)
        try:
            info = os.lstat(path)
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime > STALE_TEMP_SECONDS:
                os.unlink(path)
                removed.append(path)
        except OSError:
            continue
    return removed


def write_atomic(path: str | os.PathLike, text: str | bytes) -> None:
    """Write `text` (UTF-8; bytes as they are) to `path` so that a crash leaves the old
    file or the new one: a temporary file beside it is written, flushed and synced, then
    renamed over it.

    A symbolic link is followed: its target is replaced and the link stays. The
    temporary file is removed if anything fails, and ones a crash left behind are
    cleaned up (see remove_stale_temporaries). Raises OSError (NotARegularFile if
    `path` is a folder, FIFO, socket or device)."""
    target = os.path.realpath(os.fspath(path))
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        raise _refuse(mode, path)
    folder = os.path.dirname(target)
    remove_stale_temporaries(target)
    prefix, suffix = _temp_name_parts(target)
    fd, temporary = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=folder)
    try:
        binary = isinstance(text, bytes)
        with (os.fdopen(fd, "wb") if binary else
              os.fdopen(fd, "w", encoding="utf-8", newline="")) as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temporary, stat.S_IMODE(mode) if mode is not None else 0o644)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
