"""A learner's formula: one expression of the expression language in named variables,
evaluated at any point without `eval`."""

from __future__ import annotations

from engine.errors import ExpressionError
from engine.language import parse

MAX_FORMULA_CHARS = 2_000


# where a formula is first computed, to parse it: the first at which it can be (its
# value at the points the learner asks for is computed anew each time)
PARSE_POINTS = (1.0, 0.5, 2.0, 0.3, 3.7, -0.5, -2.3)


class Formula:
    """`text`, one expression in the variables `names` (e.g. 'b' in a and b).

    Raises ExpressionError when the text is not one expression of the language in those
    variables; its column counts from the start of `text` (line 1)."""

    def __init__(self, text: str, names: tuple[str, ...]):
        self.text = text.strip()
        self.names = tuple(names)
        if not self.text:
            raise ExpressionError("type an expression, e.g. " + " * ".join(self.names))
        if len(self.text) > MAX_FORMULA_CHARS:
            raise ExpressionError(f"the formula is longer than {MAX_FORMULA_CHARS:,} "
                                  "characters")
        for bad in (";", "\n", "\r", "=", "#"):
            at = self.text.find(bad)
            if at >= 0:
                what = "a new line" if bad in "\n\r" else f"'{bad}'"
                raise ExpressionError(f"one expression only: {what} is not part of one",
                                      1, at + 1)
        # the variables are declared as inputs in front of the learner's text, on the
        # same line, so that an error's column is found by subtracting their length; at
        # a point where the formula can be computed (1/(x - 1) cannot be at x = 1)
        first = None
        for point in PARSE_POINTS:
            prefix = "".join(f"{name} = {point!r}; " for name in self.names)
            try:
                self.program = parse(prefix + self.text)
                return
            except ExpressionError as e:
                if first is None:
                    first = (e, len(prefix))
        e, length = first
        message = e.message
        if "is not defined" in message:
            message = (message.split(":")[0] + f"; this formula may use only "
                       f"{_listing(self.names)}")
        raise ExpressionError(message, 1, max(1, e.col - length)) from None

    def __call__(self, *values: float) -> float:
        """The formula's value at `values` (one per name, in order); ExpressionError if
        it cannot be computed there (log of a negative number, division by zero…)."""
        point = dict(zip(self.names, (float(v) for v in values)))
        return self.program.rebuild(**point).output.data

    def __repr__(self) -> str:
        return f"Formula({self.text!r}, {self.names!r})"


def _listing(names: tuple[str, ...]) -> str:
    return " and ".join(names) if len(names) < 3 else ", ".join(names)
