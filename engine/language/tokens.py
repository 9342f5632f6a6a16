"""Splits program text into tokens, each with its 1-based line and column."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from engine.errors import ExpressionError

NUM, NAME, OP, SEP, END = "number", "name", "operator", "separator", "end"

_TOKEN = re.compile(
    r"""
     (?P<ws>[ \t\f]+)
    |(?P<comment>\#[^\r\n]*)
    |(?P<nl>\r\n|\r|\n)
    |(?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
    |(?P<name>[A-Za-z_][A-Za-z_0-9]*)
    |(?P<op>\*\*|[-+*/^()=,])
    |(?P<semi>;)
    """,
    re.VERBOSE | re.ASCII,
)


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    text: str
    line: int
    col: int

    def describe(self) -> str:
        """The token as a message names it."""
        if self.kind == END:
            return "the end of the program"
        if self.kind == SEP:
            return "the end of the line" if self.text != ";" else "';'"
        return f"'{self.text}'"


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


def tokenize(text: str) -> Iterator[Token]:
    """Yield the tokens of `text`, newlines and ';' as SEP, closing with one END.

    Raises ExpressionError at the first character that starts no token.
    """
    line, line_start, pos, n = 1, 0, 0, len(text)
    match = _TOKEN.match
    while pos < n:
        m = match(text, pos)
        if m is None:
            raise ExpressionError(
                f"unexpected character {describe_char(text[pos])}: a program uses "
                "numbers, names of ASCII letters, digits and _, + - * / ** ^ ( ) = , ; "
                "and # comments",
                line, pos - line_start + 1)
        kind = m.lastgroup
        col = pos - line_start + 1
        if kind == "nl":
            yield Token(SEP, "\n", line, col)
            line += 1
            line_start = m.end()
        elif kind == "semi":
            yield Token(SEP, ";", line, col)
        elif kind == "number":
            yield Token(NUM, m.group(), line, col)
        elif kind == "name":
            yield Token(NAME, m.group(), line, col)
        elif kind == "op":
            yield Token(OP, m.group(), line, col)
        pos = m.end()
    yield Token(END, "", line, pos - line_start + 1)
