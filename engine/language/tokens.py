"""Splits program text into tokens: (kind, text, offset) tuples.

One regular expression cuts the whole text in C (`findall`); a short loop then
classifies each piece by its first character. A token's line and column are computed
from its offset only when they are needed (`Lines.locate`), which keeps a
million-character text quick to scan.
"""

from __future__ import annotations

import bisect
import re
import unicodedata

from engine.errors import ExpressionError, shorten

NUM, NAME, OP, SEP, END = "number", "name", "operator", "separator", "end"

_PIECE = re.compile(
    r"""[ \t\f]+                                  # blanks
      | \#[^\r\n]*                                # a comment
      | \r\n | \r | \n                            # line ends
      | (?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?      # a number
      | [A-Za-z_][A-Za-z_0-9]*                    # a name
      | \*\* | [-+*/^()=,;]                       # an operator or ';'
      | .                                         # anything else: an error
    """,
    re.VERBOSE | re.ASCII | re.DOTALL,
)
_LINE_END = re.compile(r"\r\n|\r|\n")
_KIND = {c: NUM for c in "0123456789."}
_KIND.update({c: NAME for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"})
_KIND.update({c: OP for c in "*+-/^()=,"})
_KIND.update({c: SEP for c in "\r\n;"})
_SKIP = frozenset(" \t\f#")

Token = tuple  # (kind, text, offset)


class Lines:
    """Turns offsets into 1-based (line, column) pairs for one text."""

    def __init__(self, text: str):
        self.starts = [0] + [m.end() for m in _LINE_END.finditer(text)]

    def locate(self, offset: int) -> tuple[int, int]:
        i = bisect.bisect_right(self.starts, offset) - 1
        return i + 1, offset - self.starts[i] + 1

    def error(self, message: str, token: Token) -> ExpressionError:
        return ExpressionError(message, *self.locate(token[2]))


def describe_token(token: Token) -> str:
    """The token as a message names it."""
    kind, text, _ = token
    if kind == END:
        return "the end of the program"
    if kind == SEP:
        return "';'" if text == ";" else "the end of the line"
    return f"'{shorten(text)}'"


def describe_char(ch: str) -> str:
    """A character named safely: printable ASCII quoted, anything else by code point."""
    if ch == "'":
        return "\"'\" (a quote: the language has no strings)"
    if " " < ch < "\x7f":
        return f"'{ch}'"
    try:
        name = unicodedata.name(ch)
    except ValueError:
        name = "a control or unassigned character"
    return f"U+{ord(ch):04X} ({name})"


def tokenize(text: str, lines: Lines) -> list[Token]:
    """The tokens of `text`: line ends and ';' are SEP, and one END closes the list.

    Raises ExpressionError at the first character that starts no token.
    """
    tokens: list[Token] = []
    append = tokens.append
    kinds = _KIND
    offset = 0
    for piece in _PIECE.findall(text):
        first = piece[0]
        if first not in _SKIP:
            kind = kinds.get(first)
            if kind is None or (first == "." and len(piece) == 1):
                raise lines.error(
                    f"unexpected character {describe_char(first)}: a program uses numbers, "
                    "names of ASCII letters, digits and _, + - * / ** ^ ( ) = , ; "
                    "and # comments", (None, piece, offset))
            append((kind, piece, offset))
        offset += len(piece)
    append((END, "", offset))
    return tokens
