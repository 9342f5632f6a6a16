"""One way to write numbers: zero without a sign, scientific notation past 1e6,
negatives bracketed after an operator, nouns in the right number, '≈' when the shown
factors do not multiply out."""

import pytest

from engine.numbers import agrees, count, exact, number, operand, product, scientific


@pytest.mark.parametrize("x, text", [
    (0.0, "0"), (-0.0, "0"), (-1e-300 * 1e-300, "0"),
    (0.180707, "0.180707"), (6.75, "6.75"), (2.0, "2"), (-2.0, "-2"),
    (999_999.0, "999999"), (1_000_000.0, "1e+06"), (1343001721.278586, "1.343e+09"),
    (2.7755575615628914e-17, "2.77556e-17"), (0.0001, "0.0001"), (0.00009, "9e-05"),
    (float("inf"), "inf"), (float("nan"), "nan"),
])
def test_number(x, text):
    assert number(x) == text


def test_number_at_other_precisions_switches_at_the_same_places():
    assert number(1343001721.278586, 4) == "1.343e+09"
    assert number(1234567.8, 8) == "1.2345678e+06"  # not 1234567.8
    assert number(123456.7, 8) == "123456.7"
    assert number(-0.0, 4) == "0"
    # fewer digits than the whole part has: rounded in place, not in scientific notation
    assert number(5869.081, 3) == "5870" and number(123456.0, 4) == "123500"
    assert number(-999_999.0, 3) == "-1e+06"


@pytest.mark.parametrize("x, text", [
    (0.1, "0.1"), (-2.0, "-2.0"), (-0.0, "0.0"), (0.0, "0.0"),
    (1343001721.278586, "1.343001721278586e+09"), (1e6, "1e+06"),
    (2.7755575615628914e-17, "2.7755575615628914e-17"), (123456.789, "123456.789"),
    (1e20, "1e+20"),
])
def test_exact_keeps_every_digit(x, text):
    assert exact(x) == text
    assert float(text) == x


def test_operand_brackets_negatives():
    assert operand(-1.5) == "(-1.5)" and operand(2.0) == "2" and operand(-0.0) == "0"


@pytest.mark.parametrize("n, noun, text", [
    (1, "input", "1 input"), (0, "input", "0 inputs"), (2, "input", "2 inputs"),
    (1600, "size", "1,600 sizes"), (1, "pass", "1 pass"), (3, "pass", "3 passes"),
])
def test_count(n, noun, text):
    assert count(n, noun, "passes" if noun == "pass" else None) == text


def test_product_says_approximately_when_the_shown_factors_do_not_multiply_out():
    assert product(1.0, -2.0, -2.0) == "1 × (-2) = -2"
    assert product(-0.3, -2.0, 0.6) == "-0.3 × (-2) = 0.6"
    # 0.3333 × 3 is 0.9999 at 4 digits, but the full product is 1
    assert product(1 / 3, 3.0, 1.0, 4) == "0.3333 × 3 ≈ 1"
    assert agrees(0.9999, "1", 4) == "≈" and agrees(0.99999, "1", 4) == "="


@pytest.mark.parametrize("x, digits, text", [
    (0.0, 3, "0"), (-0.0, 3, "0"), (0.0, 2, "0"), (0.5, 3, "5.00e-01"),
    (1.1102230246251565e-16, 3, "1.11e-16"), (1.1102230246251565e-16, 2, "1.1e-16"),
    (-6.11e-10, 3, "-6.11e-10"), (float("inf"), 3, "inf"), (float("nan"), 3, "nan"),
])
def test_scientific_writes_zero_as_0(x, digits, text):
    assert scientific(x, digits) == text
