"""A check's case and numbers in words, for the command line's text report and the
window's table: 'expected: value 0.462117; d out/dx = 0.786448'."""

from __future__ import annotations

from engine.numbers import number


def _shown(x) -> str:
    """A number as the report prints it; what the engine left undefined (None, a
    non-number, JSON's null for a NaN) as 'none'."""
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return number(x)
    return "none"


def case_numbers(side: dict | None, names=None) -> str:
    """'value 0.462117; d out/dx = 0.786448' for one side of a case (the expected or
    the received), its gradients in the order of `names` (default: its own); a root
    gradient that is not 1 (dL/dL never set) is added."""
    side = side or {}
    grads = side.get("grads") or {}
    parts = [f"d out/d{n} = {_shown(grads.get(n))}" for n in (names or grads)]
    if "root_grad" in side and side["root_grad"] != 1.0:
        parts.append(f"d out/d out = {_shown(side['root_grad'])}")
    return f"value {_shown(side.get('value'))}; " + ", ".join(parts)


def case_lines(record: dict) -> list[str]:
    """A wrong check's case, expected and received numbers and error, one line each."""
    lines = []
    if record.get("case"):
        lines.append(f"case: {record['case']}")
    expected = record.get("expected")
    if expected:
        names = list(expected.get("grads") or {})
        lines.append(f"expected: {case_numbers(expected, names)}")
        if record.get("received"):
            lines.append(f"received: {case_numbers(record['received'], names)}")
    if record.get("error"):
        lines.append(f"error: {record['error']}")
    return lines
