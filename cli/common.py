"""What every command shares: reading a program and reporting errors the contract's way."""

from __future__ import annotations

import sys

from engine import Program, parse
from engine.files import decode_program, read_program

EXIT_BAD_INPUT = 2
EXIT_NO_TENSORFLOW = 3


class CommandError(Exception):
    """A failure the user can fix, printed as `error: message` with an exit code."""

    def __init__(self, message: str, code: int = EXIT_BAD_INPUT):
        super().__init__(message)
        self.code = code


def read_text(path: str) -> str:
    """The text of `path` ('-' for standard input).

    Raises CommandError if it cannot be read, and ExpressionError (line 1, col 1)
    if it is not a program's text (not UTF-8, binary, too large).
    """
    try:
        if path == "-":
            return decode_program(sys.stdin.buffer.read())
        return read_program(path)
    except OSError as e:
        raise CommandError(f"cannot read {path!r}: {e.strerror or e}") from None


def load_program(path: str) -> Program:
    """Read and parse the program at `path`; CommandError or ExpressionError on failure."""
    return parse(read_text(path))


def fail(message: str, code: int) -> int:
    print(f"error: {message}", file=sys.stderr)
    return code
