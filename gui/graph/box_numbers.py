"""A rounded number as a box writes it, told from an exact one at any text size.

A box shows 4 significant digits. One that is not exactly its value is written with the
digits it begins with and '…' after them, as a decimal that goes on is written
(`0.9999…` for 0.99998771, `6.000…` for 6.0000246, `-1.263…`, `1.234…e-05`), and '≈'
before it. At 6-pixel text '≈ 1' and '= 1' looked alike (the tryout of session 33);
'≈ 0.9999…' is longer and ends in dots, which stay visible. The digits shown are the
value's own, never rounded up: 36.99998771 is `36.99…`, not `37.00…`.
"""
# Qt-free: plain text, tested without a window.

from __future__ import annotations

import math
from decimal import ROUND_DOWN, Decimal

BOX_DIGITS = 4  # the significant digits a box shows (spec.short, value_text(node, 4))
GOES_ON = "…"   # after the digits of a number that has more


def continued(x: float, digits: int = BOX_DIGITS) -> str:
    """`x`'s first `digits` significant digits (cut, not rounded) followed by '…', in the
    notation engine.numbers.number uses for it: '0.9999…', '6.000…', '12345…' (more
    whole digits than `digits`: all of them), '1.234…e-05'. `x` finite and not zero."""
    d = Decimal(x)  # the float's exact value
    sign, d = ("-" if d < 0 else ""), d.copy_abs()
    e = d.adjusted()  # the exponent of its first digit
    cut = d.quantize(Decimal(1).scaleb(e - digits + 1), rounding=ROUND_DOWN)
    if e >= 6 or e < -4:  # scientific, as number() writes it
        mantissa = cut.scaleb(-e)
        return f"{sign}{mantissa:.{digits - 1}f}{GOES_ON}e{e:+03d}"
    if e >= digits - 1:
        return f"{sign}{int(d)}{GOES_ON}"
    return f"{sign}{cut:.{digits - 1 - e}f}{GOES_ON}"


def is_exact(x: float, shown: str) -> bool:
    """True if `shown` (a box's text of `x`) is `x` exactly, or says itself how it is
    not ('≈ 0' for round-off), or `x` is not finite."""
    return shown.startswith("≈") or not math.isfinite(x) or float(shown) == x


def fewer_digits(line: str, width, room: float) -> str:
    """`line` with digits taken from the end of its cut number's fraction (the ones just
    before '…') while `width(line)` is over `room`: 'grad ≈ -1.127…e-06' becomes
    'grad ≈ -1.12…e-06' in a narrow box, still the value's own first digits (an elided
    end would cut the exponent). Whole digits are never taken (37037… is not 3703…).
    Unchanged if it has no such number or fits already."""
    at = line.find(GOES_ON)
    point = line.rfind(".", 0, at)
    if at < 0 or point < 0 or not line[point + 1:at].isdigit():
        return line
    while width(line) > room and at > point + 1:
        at -= 1
        line = line[:at] + line[at + 1:]
    if at == point + 1 and width(line) > room:
        line = line[:point] + line[at:]  # '-1.…e-06' → '-1…e-06'
    return line
