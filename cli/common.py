"""What every command shares: reading a program, checking where output goes, and
reporting errors the contract's way (one line on standard error, an exit code)."""

from __future__ import annotations

import os
import stat
import sys

from engine import Program
from engine.errors import shorten
from engine.io.files import check_regular, read_program, read_stream

EXIT_FAILED = 1         # the command ran and found something wrong (train diverged)
EXIT_BAD_INPUT = 2      # a bad program, file or argument
EXIT_NO_TENSORFLOW = 3  # --tf without TensorFlow
EXIT_CANNOT_WRITE = 4   # the output cannot be written (a bad --out, a full disk, an
                        # encoding that cannot print a character)
EXIT_INTERRUPTED = 130  # Ctrl+C
EXIT_PIPE_CLOSED = 141  # the reader of standard output went away (128 + SIGPIPE), silent


class CommandError(Exception):
    """A failure the user can fix, printed as `error: message` with an exit code."""

    def __init__(self, message: str, code: int = EXIT_BAD_INPUT):
        super().__init__(message)
        self.code = code


def quoted_path(path: str) -> str:
    """A path as a message quotes it: repr'd, at most ~80 characters."""
    return repr(shorten(str(path)))


def read_text(path: str) -> str:
    """The text of `path` ('-' for standard input, read up to the same limit as a file).

    Raises CommandError if it cannot be read or is not a regular file (a FIFO, socket or
    device is refused without being opened), and ExpressionError (line 1, col 1) if it
    is not a program's text (not UTF-8, binary, too large).
    """
    try:
        if path == "-":
            if sys.stdin is None:
                raise CommandError("cannot read standard input: it is closed")
            return read_stream(sys.stdin.buffer)
        return read_program(path)
    except OSError as e:
        raise CommandError(f"cannot read {quoted_path(path)}: {e.strerror or e}") from None


def check_input(path: str) -> None:
    """CommandError unless `path` is '-' or a regular file (nothing is opened)."""
    if path == "-":
        return
    try:
        check_regular(path)
    except OSError as e:
        raise CommandError(f"cannot read {quoted_path(path)}: {e.strerror or e}") from None


def check_output_file(path: str) -> None:
    """CommandError (EXIT_CANNOT_WRITE) unless a file can be written at `path`: its
    folder exists and is writable, and the path is not a folder, FIFO or device
    (writing to a FIFO would wait for a reader forever). Checked before the work."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as e:
        raise CommandError(f"cannot write {quoted_path(path)}: {e.strerror or e}",
                           EXIT_CANNOT_WRITE) from None
    if mode is not None and not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise CommandError(f"cannot write {quoted_path(path)}: it is {kind}", EXIT_CANNOT_WRITE)
    _check_writable_folder(folder, f"cannot write {quoted_path(path)}")


def check_output_folder(folder: str) -> None:
    """Make `folder` if missing and prove a file can be written in it; CommandError
    (EXIT_CANNOT_WRITE) if not. Used before work that takes long."""
    where = f"cannot write into {quoted_path(folder)}"
    try:
        os.makedirs(folder, exist_ok=True)
    except FileExistsError:
        raise CommandError(f"{where}: it is a file, not a folder", EXIT_CANNOT_WRITE) from None
    except OSError as e:
        raise CommandError(f"{where}: {e.strerror or e}", EXIT_CANNOT_WRITE) from None
    _check_writable_folder(folder, where)


def _check_writable_folder(folder: str, where: str) -> None:
    import tempfile

    if not os.path.isdir(folder):
        raise CommandError(f"{where}: the folder {quoted_path(folder)} does not exist",
                           EXIT_CANNOT_WRITE)
    try:  # os.access ignores read-only mounts; a real file does not
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        raise CommandError(f"{where}: {e.strerror or e}", EXIT_CANNOT_WRITE) from None


def check_steps(steps: int, option: str = "--steps") -> None:
    """CommandError unless `steps` is 0 or more (a large number means to the end)."""
    if steps < 0:
        raise CommandError(f"{option}: a number of steps, 0 or more (a large number means "
                           f"to the end), not {steps}")


def check_path_given(path: str, option: str) -> None:
    """CommandError for an empty path (it names no file: the current folder's nothing)."""
    if not path:
        raise CommandError(f"{option}: the path is empty")


def load_program(path: str) -> Program:
    """Read the program at `path` and check it as the window does (engine.core.acceptance:
    it parses, and every value and gradient is finite); CommandError or ExpressionError
    on failure."""
    from engine.core.acceptance import accepted

    return accepted(read_text(path))


def fail(message: str, code: int) -> int:
    """Print `error: message` on standard error (if it can be printed at all) and return
    `code`."""
    try:
        print(f"error: {message}", file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass  # standard error is closed or full: the exit code still tells
    return code
