"""Exact values for what mutation testing found unchecked in engine/core/value.py,
engine/core/stepping.py, engine/core/pitfalls.py and engine/numbers.py (mutmut 3, `uv run mutmut
run --max-children 1`, configured in pyproject.toml). Each test names the mutants it
kills. The survivors left are equivalent, for the reasons at the end of this file."""

import math
import sys
from decimal import Decimal, getcontext

import pytest

from engine import parse
from engine.core.engines import CORRECT, OwnRulesEngine
from engine.core.pitfalls import NO_SORT, OVERWRITE, pitfall_named
from engine.core.stepping import (
    Contribution,
    Stepper,
    _final_gradients_in_slices,
    backward_plan,
    first_wrong_step,
    gradient_error,
)
from engine.core.value import Value, sigmoid, topological_order
from engine.numbers import agrees, not_finite, number, operand, product
from tests.engine.helpers import PRESETS
from tests.engine.test_value import deep_graph, stack_walks  # noqa: F401 (a fixture)


def test_every_operation_records_its_name():
    """The op string is what the graph, the inspector and the rules read: a mutant that
    drops it (None) or changes it ('XX+XX', 'TANH') survived every other test."""
    a, b = Value(2.0), Value(4.0)
    made = [a + b, a + 1, a - b, a - 1, a * 3, a / b, a / 2, 1 + a, 1 - a, 3 * a, 2 / a,
            -a, a.tanh(), a.relu(), a.exp(), a.log(), a.sigmoid(), a ** 2, a ** 0.5,
            Value(1.0) ** 1e15, a ** -3]
    assert [v.op for v in made] == [
        "+", "+", "-", "-", "*", "/", "/", "+", "-", "*", "/", "neg", "tanh", "relu",
        "exp", "log", "sigmoid", "**2", "**0.5", "**1000000000000000.0", "**-3"]
    assert (a * b).op == "*"
    assert all(v.label == "" for v in made)


def test_repr_shows_label_and_op_only_when_there_are_some():
    assert repr(Value(0.5)) == "Value(data=0.5, grad=0.0)"
    assert repr(Value(2.0, label="x")) == "Value(data=2.0, grad=0.0, label='x')"
    assert repr(Value(2.0) * 3) == "Value(data=6.0, grad=0.0, op='*')"


def test_a_value_exponent_with_a_base_that_is_not_positive_is_refused_in_words():
    with pytest.raises(ValueError) as info:
        Value(0.0) ** Value(3.0)
    assert str(info.value) == ("x**y with y a Value needs a positive base "
                               "(d(x^y)/dy = x^y·ln x), not 0.0")


def power_gradient(x: float, k: float) -> float:
    v = Value(x)
    (v ** k).backward()
    return v.grad


def test_the_power_rule_around_two_to_the_53():
    """Odd k below 2**53 keeps k - 1 even (kills `abs(k) < 2.0 * 53`); just above 2**53
    k - 1 is not representable (kills `< 2.0**54`)."""
    assert power_gradient(-1.0, 107.0) == 107.0
    assert power_gradient(-1.0, 2.0**53 + 2) == -(2.0**53 + 2)
    assert power_gradient(-1.0, -(2.0**53 + 2)) == 2.0**53 + 2


def test_the_power_rule_for_huge_k_near_one_against_50_digits():
    """x = 1 + 2**-52, k = 2**53 + 2: x**(k-1) is about e**2. Within 4e-16 of the exact
    k * x**(k-1) (kills `k + 1.0`, which is 6e-16 off)."""
    getcontext().prec = 50
    x, k = 1.0 + 2.0**-52, 2.0**53 + 2
    exact = float(Decimal(k) * Decimal(x) ** (int(k) - 1))
    assert power_gradient(x, k) == pytest.approx(exact, rel=4e-16, abs=0)


def test_sigmoid_on_both_sides_of_zero():
    """Each of the two forms, to the bit (kills `e * (1 + e)`, `e / (1 - e)`,
    `e / (2 + e)`; at 0.9 the forms round differently, which kills `x >= 1.0`)."""
    assert sigmoid(-2.0) == math.exp(-2.0) / (1.0 + math.exp(-2.0)) == 0.11920292202211755
    assert sigmoid(-800.0) == 0.0 and sigmoid(800.0) == 1.0
    assert sigmoid(0.9) == 1.0 / (1.0 + math.exp(-0.9)) == 0.7109495026250039
    assert sigmoid(0.0) == 0.5
    s = Value(-2.0).sigmoid()
    assert s._local == (0.11920292202211755 * (1.0 - 0.11920292202211755),)


def test_relu_of_minus_zero_is_plus_zero():
    """(kills `x if x >= 0.0`, which lets -0.0 through and shows '-0')"""
    assert math.copysign(1.0, Value(-0.0).relu().data) == 1.0


def test_relu_at_zero_has_value_and_derivative_zero():
    """relu'(0) = 0, as in the lesson (kills `1.0 if x >= 0.0`)."""
    x = Value(0.0)
    y = x.relu()
    y.backward()
    assert (y.data, x.grad) == (0.0, 0.0)
    x = Value(-0.5)
    y = x.relu()
    y.backward()
    assert (y.data, x.grad) == (0.0, 0.0)


def test_a_deep_walk_hands_over_exactly_401_levels_down(stack_walks):  # noqa: F811
    """The recursion hands the branch to the stack walk at depth 400: the first node
    walked with a stack is 401 parents below the root (kills `depth + 2`, `depth - 1`,
    and a first call at depth 1)."""
    root = deep_graph(1000, 0)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(10_000)  # room for 400 levels even with mutmut's trampolines
    try:
        topological_order(root)
    finally:
        sys.setrecursionlimit(limit)
    node = root
    for _ in range(401):
        node = node.parents[0]
    assert stack_walks[0] is node
    order = topological_order(root)  # and the stack walk uses the walk's own token
    assert len(order) == 1000 and order[0] is order[1].parents[1] and order[-1] is root


def test_the_seed_step_sends_one():
    program = parse("a = 3; b = a*a")
    steps = backward_plan(program.output)
    assert steps[0].root and steps[0].contributions == (
        Contribution(program.output, 1.0, 1.0, 1.0, 0.0, 1.0),)
    for engine in (OVERWRITE, NO_SORT):
        assert backward_plan(program.output, engine)[0].contributions == (
            Contribution(program.output, 1.0, 1.0, 1.0, 0.0, 1.0),)


def test_the_words_of_each_bug_with_their_numbers():
    """The correct gradient a step is compared with, and a node's name (kills the
    mutants of `_final_gradients_in_slices` and `_name`)."""
    program = parse((PRESETS / "10-no-sort.expr").read_text(encoding="utf-8"))
    steps = backward_plan(program.output, NO_SORT)
    assert steps[first_wrong_step(steps)].problem == (
        "'b' passed on a gradient of 1, but its gradient is 3: not every path had reached "
        "it yet (no topological sort)")
    x = Value(2.0, label="x")
    y = x * 3.0
    steps = backward_plan(y + y * 2.0, NO_SORT)
    assert steps[first_wrong_step(steps)].problem == (
        "this node passed on a gradient of 1, but its gradient is 3: not every path had "
        "reached it yet (no topological sort)")
    y = x * 3.0
    steps = backward_plan((y + y * 2.0) * 5.0, NO_SORT)  # upstream gradients other than 1
    assert steps[first_wrong_step(steps)].problem == (
        "this node passed on a gradient of 5, but its gradient is 15: not every path had "
        "reached it yet (no topological sort)")
    program = parse("a = 3; b = a + a")
    steps = backward_plan(program.output, OVERWRITE)
    assert steps[first_wrong_step(steps)].problem == (
        "'a' had 1 and received 1, but now holds 1: '=' overwrote what '+=' would have kept")


def test_a_stepper_made_in_slices_is_the_stepper():
    program = parse("a = 3; b = a*a; c = b + a")
    made = Stepper.in_slices(program.output, NO_SORT, every=1)
    progress = []
    try:
        while True:
            progress.append(next(made))
    except StopIteration as done:
        stepper = done.value
    n = len(stepper.forward_steps)
    assert progress[0] == (n, 3 * n) and progress[-1] == (3 * n, 3 * n)
    assert stepper.output is program.output and stepper.engine is NO_SORT
    assert stepper.position == 0
    assert Stepper(program.output, OVERWRITE).engine is OVERWRITE


def test_stepping_answers_and_bounds():
    program = parse("a = 3; b = a*a")
    stepper = Stepper(program.output)
    assert stepper.step() is True
    assert stepper.is_revealed(Value(1.0)) is False  # not in this graph
    stepper.seek(-5)
    assert stepper.position == 0
    stepper.seek(10**9)
    assert stepper.position == stepper.total and stepper.step() is False
    assert stepper.back() is True


def test_the_gradient_error_names_the_overflowing_node():
    program = parse("x = 1e-300; c = 1e200; y = x*c*c")
    error = gradient_error(program, backward_plan(program.output))
    assert (error.message, error.line, error.col) == (
        "the gradient with respect to 'x' is too large to represent (it overflows a float)",
        1, 1)
    program = parse("u = 2\nv = 1e-300; c = 1e200; y = u * ((v+0)*c*c)")
    error = gradient_error(program, backward_plan(program.output))
    assert (error.message, error.line, error.col) == (
        "the gradient with respect to v + 0 is too large to represent (it overflows a "
        "float)", 2, 35)  # at the + that made it
    program = parse("a = 3; b = a*a")
    assert gradient_error(program, backward_plan(program.output)) is None


class SwappedMultiply(OwnRulesEngine):
    """An engine variant whose multiply rule hands each factor its own value (the
    learner's classic slip), with the words of `LearnerMultiplyRule.wrong_local`
    reduced to the numbers."""

    def local_grads(self, node):
        return node._local[::-1] if node.op == "*" else node._local

    def wrong_local(self, node, i, used, right):
        return f"{node.op} operand {i}: {used} for {right}"


def test_an_engine_variant_runs_its_own_rules_in_the_correct_order():
    """A variant's rules run in the correct order (kills pitfalls.rule_order mutants 1,
    5-9); the plan applies its rules and says where they depart (kills plan_in_slices
    4, 5, 10, 11, 71, 73, 100-110 and _own_rule_problem's: near zero the tolerance is
    1e-12, not 1)."""
    program = parse("a = 0.5; b = 0; c = a*b; d = c*a")
    a, b = program.inputs["a"], program.inputs["b"]
    d = program.output
    c = d.parents[0]
    assert list(d.parents) == [c, a] and list(c.parents) == [a, b]
    assert SwappedMultiply().rule_order(d) == [d, c, b, a] == topological_order(d)[::-1]
    steps = backward_plan(d, SwappedMultiply())
    assert [s.node for s in steps] == [d, d, c]
    assert [s.problem for s in steps] == [
        "", "* operand 0: 0.0 for 0.5",
        "'c' passed on a gradient of 0, but its gradient is 0.5: a wrong local "
        "derivative earlier in the pass reached it"]
    assert [(x.parent, x.local, x.upstream, x.after) for x in steps[2].contributions] == [
        (a, 0.5, 0.0, 0.5), (b, 0.0, 0.0, 0.0)]  # a kept the 0.5 that d handed it
    steps = backward_plan(parse("a = 0.5; b = 0; c = a*b").output, SwappedMultiply())
    assert steps[1].problem == "* operand 0: 0.5 for 0.0"
    program = parse("a = 3; b = 4; c = a*b; d = c*a")
    steps = backward_plan(program.output, SwappedMultiply())
    assert [s.problem for s in steps] == [
        "", "* operand 0: 12.0 for 3.0",
        "'c' passed on a gradient of 12, but its gradient is 3: a wrong local "
        "derivative earlier in the pass reached it"]
    # c's rule swapped too: a gets its own 3 x 12 = 36 on top of d's 3, b its own 4 x 12
    assert [x.after for x in steps[2].contributions] == [39.0, 48.0]


def test_an_unknown_pitfall_is_refused_with_the_choices():
    """(kills rule_order mutant 13)"""
    with pytest.raises(ValueError) as info:
        pitfall_named("no-zero")
    assert str(info.value) == "unknown pitfall 'no-zero'; choose from overwrite, no-sort"


def in_slices_progress(text: str, engine, every: int):
    made = Stepper.in_slices(parse(text).output, engine, every=every)
    progress = []
    try:
        while True:
            progress.append(next(made))
    except StopIteration as done:
        return progress, done.value


def test_the_progress_of_a_stepper_made_in_slices_step_by_step():
    """Every (done, total) in order, 3 nodes and 3 steps: 0 while a bug's correct
    gradients are worked out (kills plan_in_slices 21), half a node per start slice in
    whole numbers (Stepper.in_slices 54, 56, 57, 70, and _start_in_slices 11, which
    only shows with slices of 2), and one yield per slice of the index (_PlanIndex._fill
    59, 62, 63, 65; in_slices 63)."""
    text = "a = 3; b = a*a; c = b + a"
    progress, stepper = in_slices_progress(text, NO_SORT, 1)
    assert progress == [(3, 9)] * 4 + [(4, 9), (5, 9), (6, 9), (6, 9)] + [(7, 9)] * 19 + [
        (9, 9)]
    assert all(type(done) is int for done, _ in progress)
    assert (len(stepper.forward_steps), len(stepper.backward_steps)) == (3, 3)
    progress, _ = in_slices_progress(text, NO_SORT, 2)
    assert progress == [(3, 9)] * 3 + [(5, 9), (6, 9)] + [(7, 9)] * 12 + [(9, 9)]
    assert all(type(done) is int for done, _ in progress)
    progress, _ = in_slices_progress(text, CORRECT, 2)
    assert progress == [(3, 9), (5, 9), (6, 9)] + [(7, 9)] * 12 + [(9, 9)]


def test_the_words_of_the_progress_at_each_phase():
    """(kills Stepper.progress mutants 4-9)"""
    stepper = Stepper(parse("a = 3; b = a*a; c = b + a").output)
    texts = []
    for _ in range(stepper.total + 1):
        texts.append(stepper.progress())
        stepper.step()
    assert texts == ["ready: 3 forward and 3 backward steps", "forward 1/3", "forward 2/3",
                     "forward 3/3", "backward 1/3", "backward 2/3", "backward 3/3 (done)"]
    stepper = Stepper(parse("a = 3").output)
    assert stepper.progress() == "ready: 1 forward and 1 backward step"


def test_seek_between_any_two_positions_is_stepping_one_at_a_time():
    """Every gradient after seek(p) then seek(q) is what step() makes at q, both ways,
    with a node used twice so that the order of undoing matters (kills Stepper.seek
    mutants 23, 33, 34, 37-39, 41-43)."""
    program = parse("a = 3; b = a*a; c = b + a; d = c*b")
    stepper = Stepper(program.output)
    nodes = stepper.forward_steps
    at = [[n.grad for n in nodes]]
    while stepper.step():
        at.append([n.grad for n in nodes])
    program.zero_grad()
    program.output.backward()
    assert at[-1] == [n.grad for n in nodes]
    for n in nodes:
        n.grad = 0.0
    for p in range(stepper.total + 1):
        for q in range(stepper.total + 1):
            stepper.seek(p)
            stepper.seek(q)
            assert [n.grad for n in nodes] == at[q], (p, q)


def test_numbers_at_other_precisions_and_their_defaults():
    """A negative exponent read whole at 3 digits (kills number mutant 19); operand,
    product and agrees at 6 digits by default and at the digits asked for (kills
    operand 1, 6; product 1, 10, 14, 20; agrees 1)."""
    assert number(0.00001234, 3) == "1.23e-05"
    assert operand(0.1234567) == "0.123457" and operand(-0.1234567, 3) == "(-0.123)"
    assert product(0.1234567, 2.0, 0.2469134) == "0.123457 × 2 ≈ 0.246913"
    assert product(1 / 3, 1 / 3, 1 / 9, 4) == "0.3333 × 0.3333 = 0.1111"
    assert product(1.4, 1.4, 1.96, 2) == "1.4 × 1.4 = 2"  # 1.96 shown in 2 digits is 2
    assert agrees(0.1234567, "0.123457") == "="


def test_what_a_number_that_is_not_finite_means():
    """(not_finite had no test among the fast engine tests)"""
    assert not_finite(float("nan")) == "nan (not a number: an overflow met ∞ − ∞, 0 × ∞ or ∞ ÷ ∞)"
    assert not_finite(float("inf")) == "∞ (overflow: too large for a float)"
    assert not_finite(-float("inf")) == "−∞ (overflow: too large for a float)"
    assert not_finite(1.0) is None and not_finite(0.0) is None


def test_the_gradient_error_finds_an_overflow_anywhere_in_a_step():
    """A sum of finite contributions that overflows (kills gradient_error mutant 1), an
    overflow that is not a step's first contribution (4), an unnamed node written 2
    levels deep (14, 15), and a node the program has no place for, shown at the
    operation that used it (18, 19)."""
    program = parse("x = 1e-10; c = 1e308; y = x*c + x*c")
    error = gradient_error(program, backward_plan(program.output))
    assert (error.message, error.line, error.col) == (
        "the gradient with respect to 'x' is too large to represent (it overflows a float)",
        1, 1)
    program = parse("x = 1e-300; c = 1e200; y = c*x*c")
    error = gradient_error(program, backward_plan(program.output))
    assert (error.message, error.line, error.col) == (
        "the gradient with respect to 'x' is too large to represent (it overflows a float)",
        1, 1)
    program = parse("u = 2\nv = 1e-300; c = 1e200; y = u * ((((v+0)*1)+0)*c*c)")
    error = gradient_error(program, backward_plan(program.output))
    assert (error.message, error.line, error.col) == (
        "the gradient with respect to (…)*1 + 0 is too large to represent (it overflows a "
        "float)", 2, 43)

    class LeavesUnplaced:  # as for a constant folded into its operation
        def position(self, node):
            if not node.parents:
                raise KeyError(node)
            return (7, 3) if node.op == "*" and node.parents[0].op == "*" else (8, 4)

    x = Value(1e-300, label="x")
    y = x * Value(1e200) * Value(1e200)
    error = gradient_error(LeavesUnplaced(), backward_plan(y))
    assert (error.message, error.line, error.col) == (
        "the gradient with respect to 'x' is too large to represent (it overflows a float)",
        8, 4)


class NearlyRight(OwnRulesEngine):
    """A variant whose zero local derivatives come out as 1e-13, as a rule written
    another way may round: within the 1e-12 allowed, so no step is marked."""

    def local_grads(self, node):
        return tuple(x + 1e-13 if x == 0.0 else x for x in node._local)

    def wrong_local(self, node, i, used, right):
        return f"{node.op} operand {i}: {used} for {right}"


def test_a_variant_that_rounds_differently_near_zero_is_not_marked():
    """d = a*c with a = 0: d hands c an upstream of 1e-13 where the correct one is 0, and
    uses a local of 1e-13 where the right one is 0 (kills _own_rule_problem mutants 15
    and 32, which drop abs_tol, and 43, which returns 'XXXX' for a right step)."""
    program = parse("a = 0; b = 2; c = b*a; d = a*c")
    steps = backward_plan(program.output, NearlyRight())
    assert [s.problem for s in steps] == ["", "", ""]
    assert steps[2].contributions[0].upstream == 1e-13
    assert first_wrong_step(steps) is None


def test_the_final_gradients_on_the_side():
    """Every node's gradient by the correct pass, the nodes' own `grad` untouched, a node
    at a time (kills the mutants of _final_gradients_in_slices)."""
    program = parse("a = 3; b = a*a; c = b + a")
    a, c = program.inputs["a"], program.output
    b = c.parents[0]
    a.grad = 5.0
    grads = {}
    slices = sum(1 for _ in _final_gradients_in_slices(c, grads, 1))
    assert grads == {c: 1.0, b: 1.0, a: 7.0} and slices == 3
    assert (a.grad, b.grad, c.grad) == (5.0, 0.0, 0.0)


# Survivors that are equivalent (no test can tell them from the code), with the names
# the code had at those runs: the `pitfall` argument is now `engine` (an engines.Engine);
# `_problem` is pitfalls._ClassicBug.problem, `_own_rule_problem` and `_close` are
# engines.OwnRulesEngine.problem and Engine.agrees, `rule_order` is Engine.rule_order
# (NoSort's in pitfalls.py), and `_start` is folded into Stepper.__init__.
# (first pass: value.py and stepping.py as far as mutant 160)
#
# value.py
# - `abs(k) <= 2.0**53` for `<`: at k = 2**53, k - 1 is exact, and both branches give
#   k * x**(k-1) with the sign of x (k - 1 odd).
# - `k - 2.0` for `k - 1.0` in the huge-k branch: k - 1 is not representable there;
#   k - 1.0 and k - 2.0 round to floats within 2 of it, and both results are within an
#   ulp or two of the exact derivative (at 2**53 + 4 the mutant is even the closer).
# - sigmoid `x > 0.0` for `x >= 0.0` and relu `x >= 0.0` for its value: at x = 0 both
#   forms give 0.5, and relu(0) is 0 either way.
# - `_mark = ""` for None: a walk's token is a fresh object(), never "".
# - `label = None` for "": caught by test_every_operation_records_its_name.
# - `_format_exponent` `abs(k) <= 1e15` / `< 1e15 + 1`: killed by the 1e15 case above.
# - (none left of `_visit`'s depth mutants: mutmut's trampolines put several frames on
#   the stack per call, so test_a_deep_walk_hands_over_exactly_401_levels_down raises the
#   recursion limit to reach depth 400 under mutmut too.)
#
# stepping.py
# - `every` 5_000 -> 5001, `plan_in_slices(..., )`: the size of a slice, not its result.
# - `correct = ... if pitfall or True`: the correct gradients are computed and unused.
# - `grads.get(node, 0.0)` -> None / 1.0 / no default (plan_in_slices, _final_gradients_in_slices,
#   _problem): every node in a rule order has received a gradient before its rule runs.
# - _PlanIndex: `range(n - 1, -2, -1)` (zip stops at the shorter), and the `several`
#   cache mutants (`found = None`, `.get(None)`, `several[node] = None`, bounds of
#   `index`): a cache recomputed gives the same positions.
# - `_start`: `position = 1 / None` is overwritten by reset(); `in_slices` `_index = None`
#   is made again when first needed; `order ... and False` gives rule_order(output,
#   None), the same reversed topological order.
# - `received`: `taken < 0` for `<= 0`: with nothing taken, no owner index is below 0.
#
# Second pass (stepping.py whole, pitfalls.py, numbers.py; 805 mutants):
#
# stepping.py
# - `_final_gradients_in_slices(..., forward_steps)` -> None / dropped (plan_in_slices
#   16, 20; in_slices 25, 31): the same topological order is found again.
# - `correct.get(node, 0.0)` -> None / 1.0 / no default (_problem, _own_rule_problem):
#   the correct pass has put every node reachable from the output into `correct`.
# - `_own_rule_problem`'s `isclose` without `rel_tol=1e-9` (14, 31): 1e-9 is isclose's
#   own default.
# - `_PlanIndex._fill` `range(b - 1, a - 2, -1)` (88): zip stops at the shorter.
# - `positions`: `index(node, k + 1)` with no end or `last + 2` (17, 22): the next
#   occurrence after k is never past `last`, the last one.
# - `seek`: `range(there)` for `range(here, there)` (27): re-applying the earlier steps
#   in order leaves each parent with the `after` of its latest step below `there`, as
#   before, and the undo loop then undoes the same steps.
#
# pitfalls.py: none left.
#
# numbers.py
# - number: `rindex("e")` (16): a finite `:e` string has one 'e'. `exponent < -5` (25):
#   at exponent -5, `:{digits}g` also writes '9e-05', the same rounded mantissa.
# - not_finite: `x >= 0`, `x > 1` (8, 9): x is +inf or -inf there.
# - exact: `abs(x) <= 1e16` (12): at 1e16 the loop finds '1e+16', which is repr(1e16);
#   `1e+16` (13) is the same literal; `range(18)` and `repr(None)` after the loop (16,
#   20): 17 significant digits always read back, so the loop returns by `places` 16.
# - `strip('XX()XX')`, `rstrip('XX0XX')`, `rstrip('XX.XX')` (product 25, _strip_mantissa
#   12, 13): strip takes a set of characters, and a number has no X.
