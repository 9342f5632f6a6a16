"""Exercise 1: the learner writes the multiply rule, d(a·b)/da and d(a·b)/db.

The rule is checked at random points against the product rule, and can then stand in
for the engine's own multiply rule while the Graph tab steps a program
(`LearnerMultiplyRule` is an engine, see engine.core.engines: `Stepper(output, rule)`).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from engine.core import ops
from engine.core.engines import OwnRulesEngine
from engine.core.explain import display_name, number
from engine.core.value import Value
from engine.errors import ExpressionError
from engine.lesson.learn.formula import Formula

VARIABLES = ("a", "b")
# the lesson's own point first: a = 3, b = 4 (f = ab + a)
FIXED_POINTS = ((3.0, 4.0),)


def rule_agrees(x: float, y: float) -> bool:
    """Equal but for rounding (a rule written another way may round differently)."""
    return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)


@dataclass(frozen=True)
class PointCheck:
    """The learner's two local derivatives at one point, and the product rule's."""

    a: float
    b: float
    da: float   # nan where the learner's formula cannot be computed
    db: float
    right_da: float
    right_db: float

    @property
    def ok(self) -> bool:
        return rule_agrees(self.da, self.right_da) and rule_agrees(self.db, self.right_db)


@dataclass(frozen=True)
class RuleCheck:
    """The outcome of checking a rule: `points` checked; `first_wrong` is the first
    point where it differs (None if none does); `error` a formula's syntax error."""

    points: tuple[PointCheck, ...] = ()
    error: str = ""

    @property
    def first_wrong(self) -> PointCheck | None:
        return next((p for p in self.points if not p.ok), None)

    @property
    def ok(self) -> bool:
        return not self.error and bool(self.points) and self.first_wrong is None


def _value(formula: Formula, a: float, b: float) -> float:
    try:
        return formula(a, b)
    except ExpressionError:
        return math.nan


def random_points(n: int, seed: int = 0) -> list[tuple[float, float]]:
    """`n` points (a, b): the lesson's first, then uniform in [-5, 5]², rounded to 3
    digits so that a learner can retrace them."""
    rng = random.Random(seed)
    points = list(FIXED_POINTS)
    while len(points) < n:
        points.append((round(rng.uniform(-5, 5), 3), round(rng.uniform(-5, 5), 3)))
    return points[:n]


def check_multiply_rule(da_text: str, db_text: str, n: int = 12,
                        seed: int = 0) -> RuleCheck:
    """Check the learner's d(a·b)/da and d(a·b)/db (texts in a and b) at `n` points."""
    try:
        da, db = Formula(da_text, VARIABLES), Formula(db_text, VARIABLES)
    except ExpressionError as e:
        return RuleCheck(error=e.message)
    return RuleCheck(tuple(PointCheck(a, b, _value(da, a, b), _value(db, a, b), b, a)
                           for a, b in random_points(n, seed)))


@dataclass(frozen=True, eq=False)
class LearnerMultiplyRule(OwnRulesEngine):
    """A learner's multiply rule as an engine: every `*` node's local derivatives come
    from the learner's formulas instead of the engine's, applied in the correct order
    with +=. Raises ExpressionError if either text is not a formula in a and b."""

    da_text: str
    db_text: str
    name: str = "your multiply rule"
    description = ("Your multiply rule in place of the engine's: each * node's local "
                   "derivatives come from your formulas for d(a·b)/da and d(a·b)/db.")
    _formulas: tuple = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "_formulas", (Formula(self.da_text, VARIABLES),
                                               Formula(self.db_text, VARIABLES)))

    def local_grads(self, node: Value) -> tuple[float, ...]:
        """The local derivatives this engine uses for `node`: the learner's for a
        multiplication, the engine's own for every other operation."""
        if node.op != ops.MUL.name:
            return node.local_grads
        da, db = self._formulas
        if len(node.parents) == 2:
            a, b = node.parents[0].data, node.parents[1].data
            return _value(da, a, b), _value(db, a, b)
        # a number folded into the operation: its local derivative is the number
        a, b = node.parents[0].data, node.local_grads[0]
        return (_value(da, a, b),)

    def wrong_local(self, node: Value, i: int, used: float, right: float) -> str:
        """Why the step at `node` is wrong, in words, for its `i`-th parent."""
        first = node.parents[0]
        if len(node.parents) == 2:
            second = node.parents[1]
            b, b_name = second.data, display_name(second, "")
        else:
            b, b_name = node.local_grads[0], ""
        a, a_name = first.data, display_name(first, "")
        a_is = f"a = {a_name} = {a:.6g}" if a_name and a_name != number(a) else f"a = {a:.6g}"
        b_is = f"b = {b_name} = {b:.6g}" if b_name and b_name != number(b) else f"b = {b:.6g}"
        wrt = "a" if i == 0 else "b"
        got = "cannot be computed" if math.isnan(used) else f"gives {used:.6g}"
        return (f"with {a_is} and {b_is}, your d(a·b)/d{wrt} {got}, but the product "
                f"rule gives {right:.6g}")
