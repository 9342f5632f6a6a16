"""The one error a user can cause: a program the engine cannot accept."""

QUOTE_CHARS = 80  # the most of a user's text that a message repeats
MAX_MESSAGE_CHARS = 400  # a message is read, not scrolled


def shorten(text: str, limit: int = QUOTE_CHARS) -> str:
    """`text` as a message quotes it: at most `limit` characters, the cut marked with
    '…' and the full length, so a million-character name gives a one-line message."""
    if len(text) <= limit:
        return text
    return f"{text[:limit - 1]}… ({len(text):,} characters)"


def shorten_path(path: str, limit: int = QUOTE_CHARS) -> str:
    """A file's path as a message quotes it: whole if it is short, else its end after
    '…' (the file's name and the folders nearest it: the name is never what is cut)."""
    return path if len(path) <= limit else f"…{path[-(limit - 1):]}"


class ExpressionError(Exception):
    """A program outside the language, or one whose numbers cannot be computed.

    `message` says what is wrong in words a learner understands; `line` and `col`
    (1-based) point at the offending token. `str()` gives `line L, col C: message`.
    """

    def __init__(self, message: str, line: int = 1, col: int = 1):
        message = shorten(message, MAX_MESSAGE_CHARS)
        super().__init__(message, line, col)
        self.message = message
        self.line = line
        self.col = col

    def __str__(self) -> str:
        return f"line {self.line}, col {self.col}: {self.message}"
