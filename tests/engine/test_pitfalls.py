"""The classic bugs as engine variants: their wrong answers, and where they go wrong."""

import pytest

from engine import parse
from engine.core.engines import CORRECT
from engine.core.pitfalls import NO_SORT, NO_ZERO_GRAD, OVERWRITE, breadth_first_order
from engine.core.stepping import backward_plan, first_wrong_step, gradients_with
from engine.lesson.nn import train_xor
from tests.engine.helpers import NEURON, PRESETS


@pytest.mark.parametrize(("text", "engine", "expected"), [
    ("a = 3; b = a + a", OVERWRITE, {"a": 1.0}),
    ("a = 3; c = a * a", OVERWRITE, {"a": 3.0}),
    ("x = 1.5; b = x*3; c = b*2; d = b + c", NO_SORT, {"x": 3.0}),
    ("x = 1.5; b = x*3; c = b*2; d = b + c", CORRECT, {"x": 9.0}),
])
def test_bug_gives_the_seeds_wrong_answer(text, engine, expected):
    assert gradients_with(parse(text), engine) == expected


def test_variants_leave_the_program_untouched():
    program = parse("a = 3; b = a + a")
    gradients_with(program, OVERWRITE)
    assert all(v.grad == 0.0 for v in program.values)


def test_without_zero_grad_two_passes_double_every_gradient():
    program = parse(NEURON)
    once = gradients_with(program)
    twice = gradients_with(program, NO_ZERO_GRAD, passes=2)
    assert twice == {name: 2 * g for name, g in once.items()}
    assert gradients_with(program, NO_ZERO_GRAD, passes=3)["w2"] == -12.0


def test_first_wrong_step_is_the_premature_one():
    program = parse((PRESETS / "10-no-sort.expr").read_text())
    steps = backward_plan(program.output, NO_SORT)
    index = first_wrong_step(steps)
    assert steps[index].node is program.names["b"]
    assert "not every path had reached it yet" in steps[index].problem
    assert all(not s.problem for s in steps[:index])
    assert first_wrong_step(backward_plan(program.output)) is None


def test_first_wrong_step_of_overwrite_is_the_overwriting_rule():
    program = parse("a = 3; b = a + a")
    steps = backward_plan(program.output, OVERWRITE)
    index = first_wrong_step(steps)
    assert index == 1 and steps[index].node is program.output
    assert "overwrote" in steps[index].problem


def test_correct_engine_with_a_shared_node_has_no_problem_under_no_sort_if_order_allows():
    program = parse("a = 3; b = a * 2; c = b + 1")  # a chain: breadth-first order is fine
    assert first_wrong_step(backward_plan(program.output, NO_SORT)) is None
    assert NO_SORT.rule_order(program.output) == breadth_first_order(program.output)


def test_relu_branch_gradient_is_zero():
    program = parse((PRESETS / "09-relu-branch.expr").read_text())
    assert gradients_with(program) == {"x": 0.0, "w": 0.0}


def test_training_without_zero_grad_goes_astray():
    right = list(train_xor(1500))[-1].loss
    wrong = list(train_xor(1500, zero_grad=False))[-1].loss
    assert right < 0.01 < wrong
