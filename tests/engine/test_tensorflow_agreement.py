"""Our gradients against TensorFlow's tf.GradientTape on the same programs."""

import pytest
from hypothesis import HealthCheck, assume, given, settings

from engine import ExpressionError, parse
from engine.checks.tensorflow_check import cross_check, gradients, lesson_float32
from tests.engine.helpers import NEURON
from tests.engine.strategies import programs

pytest.importorskip("tensorflow")


def test_the_lessons_neuron_float64_is_exact():
    rows = {r.name: r for r in cross_check(NEURON)}
    assert [rows[n].tensorflow for n in ("w1", "w2", "b")] == [-2.0, -4.0, -2.0]
    assert all(r.difference == 0.0 for r in rows.values())  # the lesson's 0.00e+00


def test_the_lessons_float32_snippet():
    assert lesson_float32() == {"w1": -2.0, "w2": -4.0, "b": -2.0}


def test_input_the_output_ignores_gets_zero():
    assert gradients(parse("a = 1; b = 2; c = a * 3")) == {"a": 3.0, "b": 0.0}


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(programs())
def test_random_programs_agree_with_tensorflow_float64(text):
    try:
        rows = cross_check(text)
    except ExpressionError:
        assume(False)
    for r in rows:
        assert abs(r.ours - r.tensorflow) <= 1e-12 * max(1.0, abs(r.ours)), (text, r)


def test_zeroth_power_at_zero_is_where_tensorflow_gives_nan():
    """d(x**0)/dx at 0: ours is 0 (x**0 is the constant 1), TensorFlow's is nan."""
    rows = {r.name: r for r in cross_check("a = 0.0\nv = a**0 + a")}
    assert rows["a"].ours == 1.0
    assert rows["a"].tensorflow != rows["a"].tensorflow  # nan



# the ops added through the op table: TensorFlow float64 agrees to a few ulps
NEW_OPS = [
    "x = 0.5\ny = sin(x)", "x = -2.0\ny = sin(x * x)", "x = 0.5\ny = cos(x)",
    "x = 40.0\ny = cos(x)", "x = 4.0\ny = sqrt(x)", "x = 0.01\ny = sqrt(x*x + 1)",
    "x = -1.5\ny = abs(x)", "x = 0.7\ny = abs(x) * abs(-x)", "x = 0.0\ny = abs(x) + x",
    "x = 1.5; y = 2.5\nout = x**y", "x = 0.5; y = -1.5\nout = x**y",
    "x = 3.0; y = 0.0\nout = x**y", "x = 1.5\nout = 2**x", "x = -0.5\nout = 10**x",
    "x = 1.3\nout = x**x", "x = 0.2\nout = x**x", "x = 2.0; y = 3.0\nout = x**(y*y)",
    "x = 1.2; y = 0.3\nout = sqrt(abs(sin(x) * cos(y))) ** (x + y)",
]


@pytest.mark.parametrize("text", NEW_OPS)
def test_the_new_ops_agree_with_tensorflow_float64(text):
    rows = cross_check(text)
    assert rows
    for r in rows:
        assert r.ours == pytest.approx(r.tensorflow, rel=1e-14, abs=1e-15), (text, r)
