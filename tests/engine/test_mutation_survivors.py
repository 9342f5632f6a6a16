"""Exact values for what mutation testing found unchecked in engine/value.py and
engine/stepping.py (mutmut 3, `uv run mutmut run --max-children 1`, configured in
pyproject.toml). Each test names the mutants it kills. The survivors left are
equivalent, for the reasons at the end of this file."""

import math
import sys
from decimal import Decimal, getcontext

import pytest

from engine import parse
from engine.stepping import (
    Contribution,
    Stepper,
    backward_plan,
    first_wrong_step,
    gradient_error,
)
from engine.value import Value, sigmoid, topological_order
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


def test_a_value_exponent_is_refused_in_words():
    with pytest.raises(TypeError) as info:
        Value(2.0) ** Value(3.0)
    assert str(info.value) == "the exponent of ** must be a number, not a Value"


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
    for pitfall in ("overwrite", "no-sort"):
        assert backward_plan(program.output, pitfall)[0].contributions == (
            Contribution(program.output, 1.0, 1.0, 1.0, 0.0, 1.0),)


def test_the_words_of_each_bug_with_their_numbers():
    """The correct gradient a step is compared with, and a node's name (kills the
    mutants of `_final_gradients` and `_name`)."""
    program = parse((PRESETS / "10-no-sort.expr").read_text(encoding="utf-8"))
    steps = backward_plan(program.output, "no-sort")
    assert steps[first_wrong_step(steps)].problem == (
        "'b' passed on a gradient of 1, but its gradient is 3: not every path had reached "
        "it yet (no topological sort)")
    x = Value(2.0, label="x")
    y = x * 3.0
    steps = backward_plan(y + y * 2.0, "no-sort")
    assert steps[first_wrong_step(steps)].problem == (
        "this node passed on a gradient of 1, but its gradient is 3: not every path had "
        "reached it yet (no topological sort)")
    y = x * 3.0
    steps = backward_plan((y + y * 2.0) * 5.0, "no-sort")  # upstream gradients other than 1
    assert steps[first_wrong_step(steps)].problem == (
        "this node passed on a gradient of 5, but its gradient is 15: not every path had "
        "reached it yet (no topological sort)")
    program = parse("a = 3; b = a + a")
    steps = backward_plan(program.output, "overwrite")
    assert steps[first_wrong_step(steps)].problem == (
        "'a' had 1 and received 1, but now holds 1: '=' overwrote what '+=' would have kept")


def test_a_stepper_made_in_slices_is_the_stepper():
    program = parse("a = 3; b = a*a; c = b + a")
    made = Stepper.in_slices(program.output, "no-sort", every=1)
    progress = []
    try:
        while True:
            progress.append(next(made))
    except StopIteration as done:
        stepper = done.value
    n = len(stepper.forward_steps)
    assert progress[0] == (n, 3 * n) and progress[-1] == (3 * n, 3 * n)
    assert stepper.output is program.output and stepper.pitfall == "no-sort"
    assert stepper.position == 0
    assert Stepper(program.output, "overwrite").pitfall == "overwrite"


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


# Survivors that are equivalent (no test can tell them from the code):
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
# - `grads.get(node, 0.0)` -> None / 1.0 / no default (plan_in_slices, _final_gradients,
#   _problem): every node in a rule order has received a gradient before its rule runs.
# - _PlanIndex: `range(n - 1, -2, -1)` (zip stops at the shorter), and the `several`
#   cache mutants (`found = None`, `.get(None)`, `several[node] = None`, bounds of
#   `index`): a cache recomputed gives the same positions.
# - `_start`: `position = 1 / None` is overwritten by reset(); `in_slices` `_index = None`
#   is made again when first needed; `order ... and False` gives rule_order(output,
#   None), the same reversed topological order.
# - `received`: `taken < 0` for `<= 0`: with nothing taken, no owner index is below 0.
