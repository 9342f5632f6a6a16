"""How every number the app shows is written: one place, so the inspector, the tables,
the graph's labels, the report and the command line agree.

- Zero is `0`, whichever sign it carries (a learner has no use for `-0`), in scientific
  notation too (`scientific`: never `0.00e+00`).
- Past 1e6, and below 1e-4, numbers are written in scientific notation (`1.343e+09`),
  never as ten digits before the point.
- A negative number that follows an operator is bracketed: `1 - (-0.905148)^2`,
  `3·(-1.5)^2`, `0.5 × (-2)`.
"""

from __future__ import annotations

import math

SCI_FROM = 1e6    # from here up, scientific notation
SCI_BELOW = 1e-4  # and below this
ROUNDOFF_OF_SUM = 1e-15  # a sum this small beside its terms is their rounding error


def number(x: float, digits: int = 6) -> str:
    """`x` in at most `digits` significant digits, trailing zeros dropped: '0.180707',
    '6.75', '2', '5870' (5869.081 in 3 digits), '1.343e+09', '2.77556e-17'; '0' for
    either zero; 'inf', '-inf', 'nan'."""
    if x == 0.0:
        return "0"
    if not math.isfinite(x):
        return repr(float(x))
    rounded = f"{x:.{digits - 1}e}"
    exponent = int(rounded[rounded.index("e") + 1:])
    if exponent >= 6 or exponent < -4:
        return _strip_mantissa(rounded)
    if exponent >= digits:  # more whole digits than shown: '5870', not '5.87e+03'
        return f"{float(rounded):.0f}"
    return f"{x:.{digits}g}"


def scientific(x: float, digits: int = 3) -> str:
    """`x` in scientific notation with `digits` significant digits, for errors and
    differences ranked by their size: '5.00e-01', '1.1e-16'; '0' for either zero (not
    '0.00e+00'); 'inf', 'nan'."""
    if x == 0.0:
        return "0"
    if not math.isfinite(x):
        return repr(float(x))
    return f"{x:.{digits - 1}e}"


def not_finite(x: float) -> str | None:
    """What an infinite or not-a-number value means, in words (for the inspector and the
    tables, where a bare 'inf' or 'nan×' would explain nothing); None for a finite one."""
    if math.isnan(x):
        return "nan (not a number: an overflow met ∞ − ∞, 0 × ∞ or ∞ ÷ ∞)"
    if math.isinf(x):
        return f"{'' if x > 0 else '−'}∞ (overflow: too large for a float)"
    return None


def exact(x: float) -> str:
    """`x` with every digit it has (the shortest text that reads back as the same float),
    in scientific notation from 1e6 up and below 1e-4: '0.1', '-2.0',
    '2.7755575615628914e-17', '1.343001721278586e+09'; '0.0' for either zero."""
    x = float(x)
    if x == 0.0:
        return "0.0"
    if not math.isfinite(x) or not SCI_FROM <= abs(x) < 1e16:
        return repr(x)  # repr already writes these in scientific notation
    for places in range(17):
        text = f"{x:.{places}e}"
        if float(text) == x:
            return text
    return repr(x)


def operand(x: float, digits: int = 6) -> str:
    """`number(x)` bracketed if it is negative, for a number that follows an operator
    or is raised to a power: '(-1.5)', '2'."""
    text = number(x, digits)
    return f"({text})" if text.startswith("-") else text


def count(n: int, noun: str, plural: str | None = None) -> str:
    """'1 input', '2 inputs', '1,600 sizes': the count with its noun in the right number."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def product(a: float, b: float, result: float, digits: int = 6) -> str:
    """'a × b = result' as shown at `digits` significant digits, with '≈' instead of '='
    when the numbers as shown do not multiply out to the result as shown (the factors
    were rounded for showing, the result was computed from the full ones)."""
    left, right, out = number(a, digits), operand(b, digits), number(result, digits)
    return f"{left} × {right} {agrees(float(left) * float(right.strip('()')), out, digits)} {out}"


def agrees(computed: float, shown: str, digits: int = 6) -> str:
    """'=' if `computed` (worked out from numbers as shown) is written `shown` at
    `digits` significant digits, else '≈'."""
    return "=" if number(computed, digits) == shown else "≈"


def _strip_mantissa(text: str) -> str:
    mantissa, exponent = text.split("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{exponent}"
