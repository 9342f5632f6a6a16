"""What each check builds: small programs in the expression language, several points and
shapes per check, and the 100,000-operation chain.

A case is replayed twice on the same instructions: once through this project's `Value`
(the expected numbers) and once through the user's class in a child process (the
received ones). Numbers inside a case stay plain numbers on the user's side, so
`2 + x` calls the user's `__radd__`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import ops

RULES = tuple(check.name for check in ops.CHECKS)  # one or two per op of the table
BEHAVIOURS = ("accumulation", "topological_order", "root_gradient", "deep_graph")
CHECKS = RULES + BEHAVIOURS

DEEP_CHAIN = 100_000  # operations in deep_graph's chain

# what each check needs the class to have (a missing one makes the check `missing`)
NEEDS = {check.name: (check.method,) for check in ops.CHECKS}
NEEDS.update({"accumulation": ("__add__", "__mul__"), "topological_order": ("__add__", "__mul__"),
              "root_gradient": ("__mul__",), "deep_graph": ("__add__",)})

# the rules a behaviour's graphs are made of: when one of them is wrong, the behaviour
# is reported as failing because of it
USES = {"accumulation": ("add", "mul"), "topological_order": ("add", "mul", "accumulation"),
        "root_gradient": ("mul",), "deep_graph": ("add",)}

# how many fresh copies of each diamond are built: with `_prev` a set, the order a
# wrong walk visits two parents in depends on memory addresses, so one build can be lucky
DIAMOND_BUILDS = 6


@dataclass(frozen=True)
class Case:
    """One graph of a check: `text` in the expression language, `title` in words."""

    check: str
    title: str
    text: str


def _point(names: str, values: tuple[float, ...]) -> str:
    return "; ".join(f"{n} = {v!r}" for n, v in zip(names.split(), values))


def _rule(check: str, formula: str, names: str, points: list[tuple[float, ...]]) -> list[Case]:
    cases = []
    for values in points:
        where = ", ".join(f"{n} = {v!r}" for n, v in zip(names.split(), values))
        cases.append(Case(check, f"{formula} at {where}",
                          f"{_point(names, values)}\nout = {formula}"))
    return cases


def rule_cases(check: str) -> list[Case]:
    """The cases of one rule check: the rule alone at several points, and nested in
    itself, so that the upstream gradient it multiplies by is not 1."""
    cases = []
    for formula, names, points in ops.CHECK_BY_NAME[check].cases:
        cases += _rule(check, formula, names, points)
    return cases


_ACCUMULATION = [
    ("a + a", "a = 3.0\nout = a + a"),
    ("a * a", "a = 3.0\nout = a * a"),
    ("a * b + a", "a = 3.0; b = 4.0\nout = a * b + a"),
    ("a used by two operations: b = a * 2; c = a * 3; b + c",
     "a = 1.5\nb = a * 2\nc = a * 3\nout = b + c"),
]

_DIAMONDS = [
    ("b = x * 3; c = b * 2; b + c", "x = 2.0\nb = x * 3\nc = b * 2\nout = b + c"),
    ("b = x * 3; c = b * 2; c + b", "x = 2.0\nb = x * 3\nc = b * 2\nout = c + b"),
    ("b = x * 3; c = b * 2; d = c * 2; b + d",
     "x = 1.5\nb = x * 3\nc = b * 2\nd = c * 2\nout = b + d"),
    ("b = x * 3; c = b * 2; d = c * 2; d + b",
     "x = 1.5\nb = x * 3\nc = b * 2\nd = c * 2\nout = d + b"),
    ("two diamonds in a row: d = b + b * 3; e = d * 2; d + e",
     "x = 0.5\nb = x * 2\nc = b * 3\nd = b + c\ne = d * 2\nout = d + e"),
    ("b = x * 2; c = b * 3; d = b * c; d + b",
     "x = 0.5\nb = x * 2\nc = b * 3\nd = b * c\nout = d + b"),
]

_ROOTS = [
    ("x * y", "x = 3.0; y = -2.0\nout = x * y"),
    ("the root is a leaf: x", "x = 3.0"),
]


def cases_of(check: str) -> list[Case]:
    """Every case of `check` but deep_graph's chain (see `deep_chain`)."""
    if check in RULES:
        return rule_cases(check)
    if check == "accumulation":
        return [Case(check, title, text) for title, text in _ACCUMULATION]
    if check == "topological_order":
        return [Case(check, title, text) for title, text in _DIAMONDS
                for _ in range(DIAMOND_BUILDS)]
    if check == "root_gradient":
        return [Case(check, title, text) for title, text in _ROOTS]
    if check == "deep_graph":
        return []
    raise ValueError(f"unknown check {check!r}")
