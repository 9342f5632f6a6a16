"""What each check builds: small programs in the expression language, several points and
shapes per check, and the 100,000-operation chain.

A case is replayed twice on the same instructions: once through this project's `Value`
(the expected numbers) and once through the user's class in a child process (the
received ones). Numbers inside a case stay plain numbers on the user's side, so
`2 + x` calls the user's `__radd__`.
"""

from __future__ import annotations

from dataclasses import dataclass

RULES = ("add", "sub", "mul", "div", "pow", "neg", "radd", "rsub", "rmul", "rdiv",
         "tanh", "relu", "exp", "log", "sigmoid")
BEHAVIOURS = ("accumulation", "topological_order", "root_gradient", "deep_graph")
CHECKS = RULES + BEHAVIOURS

DEEP_CHAIN = 100_000  # operations in deep_graph's chain

# what each check needs the class to have (a missing one makes the check `missing`)
NEEDS = {
    "add": ("__add__",), "sub": ("__sub__",), "mul": ("__mul__",), "div": ("__truediv__",),
    "pow": ("__pow__",), "neg": ("__neg__",), "radd": ("__radd__",), "rsub": ("__rsub__",),
    "rmul": ("__rmul__",), "rdiv": ("__rtruediv__",), "tanh": ("tanh",), "relu": ("relu",),
    "exp": ("exp",), "log": ("log",), "sigmoid": ("sigmoid",),
    "accumulation": ("__add__", "__mul__"), "topological_order": ("__add__", "__mul__"),
    "root_gradient": ("__mul__",), "deep_graph": ("__add__",),
}

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
    table = {
        "add": [("x + y", "x y", [(1.5, -2.0), (0.25, 3.0)])],
        "sub": [("x - y", "x y", [(1.5, -2.0), (0.25, 3.0)]),
                ("x - (y - z)", "x y z", [(1.0, 2.0, 0.5)])],
        "mul": [("x * y", "x y", [(3.0, -2.0), (0.5, 4.0), (-1.5, -0.25)]),
                ("(x * y) * z", "x y z", [(1.5, -2.0, 3.0)])],
        "div": [("x / y", "x y", [(3.0, -2.0), (0.5, 4.0)]),
                ("(x / y) / z", "x y z", [(1.5, -2.0, 3.0)])],
        "pow": [("x ** 3", "x", [(1.5,), (-2.0,), (0.5,)]),
                ("x ** 2", "x", [(-1.25,)]),
                ("x ** -1", "x", [(2.0,)]),
                ("x ** 0.5", "x", [(4.0,)]),
                ("(x ** 3) ** 2", "x", [(1.2,)])],
        "neg": [("-x", "x", [(2.5,), (-1.0,)]), ("-(-x)", "x", [(0.75,)])],
        "radd": [("2 + x", "x", [(1.5,), (-3.0,)]), ("2 + (2 + x)", "x", [(0.5,)])],
        "rsub": [("2 - x", "x", [(1.5,), (-3.0,)]), ("2 - (2 - x)", "x", [(0.5,)])],
        "rmul": [("2 * x", "x", [(1.5,), (-3.0,)]), ("2 * (2 * x)", "x", [(0.5,)])],
        "rdiv": [("2 / x", "x", [(4.0,), (-0.5,)]), ("2 / (2 / x)", "x", [(1.5,)])],
        "tanh": [("tanh(x)", "x", [(0.5,), (-1.2,), (2.0,)]),
                 ("tanh(tanh(x))", "x", [(0.8,)])],
        # both sides of the kink, never on it (relu'(0) is a convention, not a bug)
        "relu": [("relu(x)", "x", [(-1.5,), (0.7,), (2.0,)]),
                 ("relu(relu(x))", "x", [(1.3,), (-0.4,)])],
        "exp": [("exp(x)", "x", [(0.5,), (-1.0,)]), ("exp(exp(x))", "x", [(0.3,)])],
        "log": [("log(x)", "x", [(2.0,), (0.5,)]), ("log(log(x))", "x", [(3.0,)])],
        "sigmoid": [("sigmoid(x)", "x", [(0.5,), (-2.0,)]),
                    ("sigmoid(sigmoid(x))", "x", [(1.0,)])],
    }
    cases = []
    for formula, names, points in table[check]:
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
