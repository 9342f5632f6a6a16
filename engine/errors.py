"""The one error a user can cause: a program the engine cannot accept."""


class ExpressionError(Exception):
    """A program outside the language, or one whose numbers cannot be computed.

    `message` says what is wrong in words a learner understands; `line` and `col`
    (1-based) point at the offending token. `str()` gives `line L, col C: message`.
    """

    def __init__(self, message: str, line: int = 1, col: int = 1):
        super().__init__(message, line, col)
        self.message = message
        self.line = line
        self.col = col

    def __str__(self) -> str:
        return f"line {self.line}, col {self.col}: {self.message}"
