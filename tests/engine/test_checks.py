"""The proofs: every rule against calculus and a central difference, the step-size
lesson, and the high-precision reference."""

import math

import pytest

from engine import parse
from engine.checks.central_difference import STEP_SIZES, central_difference, step_size_errors
from engine.checks.reference import reference_derivative
from engine.lesson.rules import CASES, TOLERANCE, rule_errors, worst
from tests.engine.helpers import NEURON


def test_every_rule_agrees_with_a_central_difference_within_1e_9():
    rows = rule_errors()
    assert [r.name for r in rows] == [c.name for c in CASES]
    assert len(rows) == 18  # sixteen rules, a chain, a shared node
    for r in rows:
        assert r.error_fd < TOLERANCE, r
        assert r.error_fd > 0.0  # a finite difference is never exact: the check is real
        assert r.error_analytic <= 1e-15 * max(1.0, abs(r.analytic)), r
    assert worst(rows).name == "power (cube)"
    assert f"{worst(rows).error_fd:.2e}" == "6.11e-10"


def test_seed_chain_case_matches_the_page():
    chain = next(r for r in rule_errors() if r.name.startswith("chain"))
    assert f"{chain.autograd:.10f}" == f"{chain.analytic:.10f}" == "0.5390038624"


def test_reference_derivative_is_exact_to_float_precision():
    program = parse("x = 0.5\ny = tanh(x**3 + 3*x)")
    exact = (1 - math.tanh(1.625) ** 2) * 3.75
    assert reference_derivative(program, "x") == pytest.approx(exact, rel=2e-16)
    neuron = parse(NEURON)
    assert [reference_derivative(neuron, n) for n in ("w1", "w2", "b")] == [-2.0, -4.0, -2.0]


def test_reference_covers_every_operation():
    program = parse("a = 0.7\nb = -1.3\ny = sigmoid(a)*exp(b) - log(a)/relu(a) + tanh(b)**2 "
                    "+ a**0.5 - -b")
    program.output.backward()
    for name, leaf in program.inputs.items():
        assert reference_derivative(program, name) == pytest.approx(leaf.grad, rel=1e-14)


def test_step_size_errors_fall_then_rise():
    program = parse("x = 0.5\ny = tanh(x**3 + 3*x)")
    reference = reference_derivative(program, "x")
    rows = step_size_errors(program, "x", reference)
    assert [r.h for r in rows] == list(STEP_SIZES)
    errors = {r.h: r.error for r in rows}
    assert errors[1e-1] > errors[1e-3] > errors[1e-5]   # truncation error falls
    assert errors[1e-12] > errors[1e-9] > errors[1e-6]  # round-off error rises
    assert min(errors.values()) > 0.0


def test_central_difference_outside_the_domain_is_none():
    program = parse("x = 1e-7\ny = log(x)")
    assert central_difference(program, "x", h=1e-6) is None
    assert step_size_errors(program, "x", 1e7)[0].error is None
