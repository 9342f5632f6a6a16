"""Properties of the engine over generated programs (the domain where every op is
defined): gradients agree with a central difference, and backward is repeatable."""

import pytest
from hypothesis import assume, given, settings

from engine import ExpressionError, parse
from engine.checks.central_difference import central_difference
from tests.engine.strategies import programs

ATOL, RTOL = 1e-5, 1e-3  # torch.autograd.gradcheck's tolerances


def _parsed(text):
    try:
        return parse(text)
    except ExpressionError:
        assume(False)


def _away_from_kinks(program) -> bool:
    """No relu sits within 1e-3 of its kink, where a finite difference straddles it."""
    return all(abs(v.parents[0].data) > 1e-3 for v in program.values if v.op == "relu")


def check_against_central_difference(text):
    program = _parsed(text)
    assume(_away_from_kinks(program))
    program.output.backward()
    for name, leaf in program.inputs.items():
        fd = central_difference(program, name)
        assume(fd is not None)
        assert abs(leaf.grad - fd) <= ATOL + RTOL * abs(fd), (text, name, leaf.grad, fd)


def check_backward_twice_after_zeroing(text):
    program = _parsed(text)
    program.output.backward()
    first = [v.grad for v in program.values]
    program.zero_grad()
    program.output.backward()
    assert [v.grad for v in program.values] == first  # bit for bit


@settings(max_examples=150)
@given(programs())
def test_gradients_agree_with_a_central_difference(text):
    check_against_central_difference(text)


@settings(max_examples=150)
@given(programs())
def test_backward_twice_after_zeroing_is_bit_identical(text):
    check_backward_twice_after_zeroing(text)


@pytest.mark.slow
@settings(max_examples=10_000)
@given(programs())
def test_gradients_agree_with_a_central_difference_slow(text):
    check_against_central_difference(text)


@pytest.mark.slow
@settings(max_examples=10_000)
@given(programs())
def test_backward_twice_after_zeroing_slow(text):
    check_backward_twice_after_zeroing(text)
