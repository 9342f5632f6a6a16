"""The Learn tab's engine side: a learner's formulas, the multiply rule as an engine,
the chain check, one gradient step, accumulation, framework scripts, counted passes."""

import ast
import importlib.util
import math
import subprocess
import sys

import pytest

from engine import ExpressionError, parse
from engine.core.stepping import Stepper, first_wrong_step, gradients_with
from engine.lesson.learn import chain_check
from engine.lesson.learn.accumulation import accumulate
from engine.lesson.learn.code_export import FRAMEWORKS, script
from engine.lesson.learn.formula import Formula
from engine.lesson.learn.gradient_step import default_parameters, gradient_step, with_inputs
from engine.lesson.learn.multiply_rule import LearnerMultiplyRule, check_multiply_rule
from engine.lesson.learn.passes import PassCount, count_passes
from tests.engine.helpers import NEURON


def test_a_formula_is_read_by_the_language_never_by_eval(no_code_execution):
    with no_code_execution():
        f = Formula("2*a + log(b)", ("a", "b"))
        assert f(3.0, 4.0) == pytest.approx(6.0 + math.log(4.0))
        assert Formula("b", ("a", "b"))(3.0, 4.0) == 4.0
        with pytest.raises(ExpressionError, match="may use only a and b"):
            Formula("__import__", ("a", "b"))


@pytest.mark.parametrize("text, col", [("a +", 4), ("a; b", 2), ("a = 2", 3), ("", 1),
                                       ("a + x", 5)])
def test_a_bad_formula_is_an_error_at_its_own_column(text, col):
    with pytest.raises(ExpressionError) as e:
        Formula(text, ("a", "b"))
    assert e.value.line == 1 and e.value.col == col


def test_a_formula_that_cannot_be_computed_at_a_point_says_so():
    with pytest.raises(ExpressionError, match="log needs a positive number"):
        Formula("log(a)", ("a", "b"))(-1.0, 2.0)


def test_the_product_rule_passes_at_every_point_and_swapped_fails_at_the_lessons():
    right = check_multiply_rule("b", "a")
    assert right.ok and len(right.points) == 12 and right.first_wrong is None
    assert (right.points[0].a, right.points[0].b) == (3.0, 4.0)
    swapped = check_multiply_rule("a", "b")
    assert not swapped.ok
    bad = swapped.first_wrong
    assert (bad.a, bad.b, bad.da, bad.db, bad.right_da, bad.right_db) == (3, 4, 3, 4, 4, 3)
    # written differently but equal: passes (rounding allowed)
    assert check_multiply_rule("b*a/a", "a + 0*b").ok
    assert check_multiply_rule("b", "").error


def test_the_learners_rule_as_the_engine_marks_the_first_wrong_step():
    program = parse(NEURON)
    right = LearnerMultiplyRule("b", "a")
    assert gradients_with(program, right) == gradients_with(program)
    stepper = Stepper(program.output, right)
    assert first_wrong_step(stepper.backward_steps) is None

    swapped = LearnerMultiplyRule("a", "b")
    grads = gradients_with(program, swapped)
    assert (grads["w1"], grads["w2"], grads["b"]) == (-1.0, 0.6, -2.0)
    stepper = Stepper(program.output, swapped)
    i = first_wrong_step(stepper.backward_steps)
    step = stepper.backward_steps[i]
    assert step.node.op == "*"
    assert "a = w2 = -0.3 and b = x2 = 2" in step.problem
    assert "gives -0.3, but the product rule gives 2" in step.problem
    # every step before it is right
    assert all(not s.problem for s in stepper.backward_steps[:i])


def test_the_chain_check_over_a_range():
    good = chain_check.compare(chain_check.LESSON_FUNCTION, chain_check.LESSON_DERIVATIVE,
                               -3, 3)
    assert good.ok and len(good.xs) == 401 and good.skipped == 0
    assert max(abs(d) for d in good.differences) < 1e-12
    forgetful = chain_check.compare(chain_check.LESSON_FUNCTION,
                                    chain_check.FORGETFUL_DERIVATIVE, -3, 3)
    assert not forgetful.ok
    i = forgetful.worst
    assert forgetful.xs[i] == 0.0 and forgetful.differences[i] == pytest.approx(-2.0)
    # the lesson's point: 0.5390038624 both ways
    program = chain_check.one_input_program(chain_check.LESSON_FUNCTION)
    assert chain_check.autodiff_derivative(program, 0.5) == pytest.approx(0.5390038624,
                                                                          abs=1e-10)


def test_a_one_input_program_and_points_that_cannot_be_computed():
    result = chain_check.compare("t = 0.5\ny = log(t)", "1/t", -1, 2, n=31)
    assert result.ok and result.name == "t" and result.skipped == 11
    with pytest.raises(ExpressionError, match="exactly one"):
        chain_check.compare("a = 1.0; b = 2.0; a*b", "1", 0, 1)
    with pytest.raises(ValueError):
        chain_check.compare("x = 1.0; x", "1", 1, 0)


def test_at_x_2_every_candidate_is_zero_to_ten_decimals():
    s = chain_check.saturated_check()
    assert f"{s.autodiff:.10f}" == f"{s.right:.10f}" == f"{s.forgetful:.10f}" == "0.0000000000"
    assert s.autodiff == pytest.approx(s.right, rel=1e-12)


def test_one_gradient_step_on_the_lessons_neuron():
    program = parse(NEURON)
    assert default_parameters(program) == ["w1", "w2", "b"]
    step = gradient_step(program, 0.1, ["w1", "w2", "b"])
    assert step.gradients == {"w1": -2.0, "w2": -4.0, "b": -2.0}
    assert step.after == {"w1": 0.7, "w2": 0.1, "b": 0.3}
    assert step.loss_before == 1.0
    assert step.loss_after == pytest.approx((math.tanh(1.2) - 1.0) ** 2)
    text = with_inputs(program, step.after)
    assert "w1 = 0.7; w2 = 0.1; b = 0.3" in text
    assert text.replace("w1 = 0.7; w2 = 0.1; b = 0.3", "w1 = 0.5; w2 = -0.3; b = 0.1") == NEURON
    assert parse(text).output.data == step.loss_after
    # the program itself is untouched
    assert program.inputs["w1"].data == 0.5 and program.inputs["w1"].grad == 0.0


def test_a_step_keeps_signs_and_refuses_a_bad_rate():
    program = parse("p = +2\nq = p*p\n")
    step = gradient_step(program, 1.5, ["p"])  # 2 - 1.5*4 = -4
    assert with_inputs(program, step.after) == "p = -4.0\nq = p*p\n"
    with pytest.raises(ValueError):
        gradient_step(program, math.nan, ["p"])
    with pytest.raises(KeyError):
        gradient_step(program, 0.1, ["q"])


@pytest.mark.parametrize("case, engine, paths, gradient", [
    ("a + a", "+=", [1.0, 1.0], 2.0), ("a + a", "=", [1.0, 1.0], 1.0),
    ("a * a", "+=", [3.0, 3.0], 6.0), ("a * a", "=", [3.0, 3.0], 3.0)])
def test_accumulation_with_and_without_plus_equals(case, engine, paths, gradient):
    result = accumulate(case, engine)
    assert [d.contribution for d in result.deliveries] == paths
    assert result.gradient == gradient
    assert result.position_before == result.total_steps - 1


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_every_script_is_python_naming_every_input(framework):
    program = parse(NEURON)
    text = script(program, framework)
    ast.parse(text)
    assert "names = ['w1', 'w2', 'b', 'x1', 'x2', 'y']" in text
    assert "float64" in text or "x64" in text
    # names that would clash with Python or the script are renamed
    odd = script(parse("lambda = 2.0; tf = lambda * 3; tf + tanh(1.0)"), framework)
    ast.parse(odd)
    assert "lambda_" in odd and "tf_ = lambda_ * 3.0" in odd


@pytest.mark.skipif(importlib.util.find_spec("tensorflow") is None,
                    reason="TensorFlow is not installed")
def test_the_tensorflow_script_prints_the_apps_gradients(tmp_path):
    program = parse(NEURON)
    path = tmp_path / "neuron_tf.py"
    path.write_text(script(program, "tensorflow"))
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                         timeout=300, cwd=tmp_path).stdout
    ours = gradients_with(program)
    for name, grad in ours.items():
        assert f"dloss/d{name} = {grad!r}" in out


def test_the_passes_are_counted():
    records = list(count_passes(40))
    result = records[-1]
    assert isinstance(result, PassCount)
    assert (result.n, result.forward_passes, result.reverse_passes) == (40, 40, 1)
    assert result.max_difference < 1e-12
    assert result.forward_ms > 0 and result.reverse_ms > 0
    with pytest.raises(ValueError):
        list(count_passes(0))


def test_a_big_program_is_compared_at_fewer_points():
    chain = "x = 0.1\n" + "".join(f"a{i} = tanh(a{i - 1})\n" if i else "a0 = tanh(x)\n"
                                 for i in range(5_000))
    program = chain_check.one_input_program(chain)
    result = chain_check.compare(chain, "0*x", -1, 1)
    assert len(result.xs) == chain_check.NODE_BUDGET // len(program.values) < 401


def test_the_learners_rule_carries_the_right_local_derivative_beside_its_own():
    program = parse(NEURON)
    stepper = Stepper(program.output, LearnerMultiplyRule("a", "b"))
    w2x2 = next(v for v in program.values if v.op == "*" and v.parents[0].label == "w2")
    assert stepper.local_derivatives(w2x2) == ((-0.3, 2.0), (2.0, -0.3))
    step = next(s for s in stepper.backward_steps if s.node is w2x2)
    assert [(c.local, c.right) for c in step.contributions] == [(-0.3, 2.0), (2.0, -0.3)]
    # a rule that agrees (written another way) has no 'right' beside it
    stepper = Stepper(program.output, LearnerMultiplyRule("b*a/a", "a"))
    assert stepper.local_derivatives(w2x2) == ((2.0, None), (-0.3, None))
    # the correct engine: the node's own
    assert Stepper(program.output).local_derivatives(w2x2) == ((2.0, None), (-0.3, None))


def test_a_formula_undefined_at_one_point_is_still_taken():
    from engine.lesson.learn.formula import Formula

    pole = Formula("1/(x - 1)", ("x",))  # undefined at x = 1, where it used to be parsed
    assert pole(3.0) == 0.5 and pole(0.0) == -1.0
    assert Formula("log(a - 1) * b", ("a", "b"))(2.0, 3.0) == 0.0
