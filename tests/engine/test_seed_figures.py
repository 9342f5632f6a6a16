"""Every figure of the seed page that the engine computes, reproduced exactly."""

import math

import pytest

from engine import Value, parse
from engine.core.engines import CORRECT
from engine.core.pitfalls import NO_SORT, OVERWRITE
from engine.core.stepping import Stepper
from tests.engine.helpers import NEURON


def grads(text, engine=CORRECT):
    program = parse(text)
    Stepper(program.output, engine).run_to_end()
    return {name: leaf.grad for name, leaf in program.inputs.items()}


def test_smallest_check_f_equals_ab_plus_a():
    a, b = Value(3.0), Value(4.0)
    f = a * b + a
    f.backward()
    assert (f.data, a.grad, b.grad) == (15.0, 5.0, 3.0)


def test_smallest_check_through_the_language():
    program = parse("a = 3; b = 4; f = a*b + a")
    program.output.backward()
    assert program.output.data == 15.0
    assert program.inputs["a"].grad == 5.0
    assert program.inputs["b"].grad == 3.0


def test_longer_chain_against_calculus():
    x = Value(0.5, label="x")
    inner = x**3 + 3 * x
    y = inner.tanh()
    y.backward()
    analytic = (1 - math.tanh(0.5**3 + 1.5) ** 2) * (3 * 0.5**2 + 3)
    assert inner.data == 1.625
    assert round(y.data, 6) == 0.925346
    assert x.grad == 0.5390038623799223  # the contract's value, to the bit
    assert f"{x.grad:.10f}" == "0.5390038624"
    assert abs(x.grad - analytic) == 0.0  # the seed's "difference 0.00e+00"


def test_saturated_tanh_has_vacuous_derivative():
    x = Value(2.0)
    y = (x**3 + 3 * x).tanh()
    y.backward()
    assert f"{x.grad:.10f}" == "0.0000000000"


def test_neuron_gradients_and_one_step():
    program = parse(NEURON)
    assert program.output_name == "loss"
    assert program.output.data == 1.0
    program.output.backward()
    g = {n: program.inputs[n].grad for n in ("w1", "w2", "b")}
    assert g == {"w1": -2.0, "w2": -4.0, "b": -2.0}
    stepped = {n: program.inputs[n].data - 0.1 * g[n] for n in g}
    assert [f"{stepped[n]:.6f}" for n in ("w1", "w2", "b")] == ["0.700000", "0.100000", "0.300000"]


@pytest.mark.parametrize(("text", "correct", "overwrite"), [
    ("a = 3; b = a + a", 2.0, 1.0),
    ("a = 3; c = a * a", 6.0, 3.0),
])
def test_gradients_accumulate(text, correct, overwrite):
    assert grads(text)["a"] == correct
    assert grads(text, OVERWRITE)["a"] == overwrite


def test_doubled_twice():
    assert grads("a = 3; b = a + a; c = b + b")["a"] == 4.0


def test_no_sort_pitfall_on_the_designs_example():
    text = "x = 1.5; b = x*3; c = b*2; d = b + c"
    assert grads(text)["x"] == 9.0
    assert grads(text, NO_SORT)["x"] == 3.0


def test_relu_derivative_at_zero_is_zero():
    x = Value(0.0)
    x.relu().backward()
    assert x.grad == 0.0
