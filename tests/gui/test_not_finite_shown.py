"""Defect 7: an infinite or not-a-number value is never shown bare; it says why."""

import math

from engine import parse
from engine.core.stepping import Stepper, gradient_error
from engine.core.value import Value
from engine.numbers import exact, not_finite, number
from gui.graph.inspector import describe_node
from gui.tabs import pitfalls, rules

INF = "∞ (overflow: too large for a float)"
NAN = "nan (not a number: an overflow met ∞ − ∞, 0 × ∞ or ∞ ÷ ∞)"


def test_numbers_say_what_they_mean():
    assert [not_finite(x) for x in (math.inf, -math.inf, math.nan, 1e308, 0.0)] == [
        INF, "−" + INF, NAN, None, None]
    # the compact forms (graph labels, plots) stay short; the inspector and tables explain
    assert (number(math.inf), exact(math.nan)) == ("inf", "nan")


def test_the_issue_program_is_found_before_it_is_shown():
    program = parse("x = 1e-300; c = 1e200; y = x*c*c")
    stepper = Stepper(program.output)
    error = gradient_error(program, stepper.backward_steps)
    assert (error.line, error.col) == (1, 1)
    assert error.message == ("the gradient with respect to 'x' is too large to represent "
                             "(it overflows a float)")
    assert gradient_error(parse("a = 3; b = a*a"), Stepper(parse("a = 3; b = a*a").output)
                          .backward_steps) is None


def test_the_inspector_names_an_infinite_gradient_and_difference():
    x, c = Value(1e-300, label="x"), Value(1e200, label="c")
    y = x * c * c
    stepper = Stepper(y)
    stepper.run_to_end()
    html = describe_node(x, stepper, "input", tf_grad=math.inf)
    assert f"<td><b>gradient</b></td><td>{INF}</td>" in html
    assert ("<td><b>tf.GradientTape</b></td><td>" + INF + " (the whole backward pass, in "
            "TensorFlow; difference not computable: " + NAN + ")</td>") in html
    assert "inf<" not in html and ">nan" not in html and "nan×" not in html


def test_tables_name_an_overflow():
    assert pitfalls.ratio(math.inf, math.inf) == "overflow: no ratio"  # was 'nan×'
    assert pitfalls.ratio(math.nan, 2.0) == "overflow: no ratio"
    assert pitfalls.ratio(4.0, 2.0) == "2×"
    assert pitfalls.ratio(0.0, 0.0) == "—" and pitfalls.ratio(1.0, 0.0) == "∞"
    assert pitfalls._num(math.inf) == INF and pitfalls._num(2.5) == "2.5"
    assert rules.sci(math.nan) == NAN  # the TensorFlow difference, was 'nan'
    assert rules.sci(1.5e-10) == "1.50e-10" and rules.sci(0.0) == "0"
    assert rules.num(-math.inf) == "−" + INF and rules.num(None) == "—"
