"""The rules as the inspector writes them: the operands' own names, negative numbers
bracketed, '≈' where the rounded numbers do not work out, round-off named as such."""

from hypothesis import HealthCheck, given, settings

from engine import ExpressionError, parse
from engine.core.explain import expression, formula, roundoff, rule_text, value_text
from tests.engine.helpers import NEURON
from tests.engine.strategies import programs


def rules(text: str, name: str) -> list[str]:
    node = parse(text).names[name]
    return [rule_text(node, i) for i in range(len(node.parents))]


def test_tanh_of_a_negative_number():
    assert rules("z = -1.5\np = tanh(z)", "p") == [
        "d tanh(z)/dz = 1 - tanh(z)^2 = 1 - (-0.905148)^2 = 0.180707"]


def test_cube_of_a_negative_number():
    assert rules("x = -1.5\ny = x**3", "y") == ["d(x^3)/dx = 3·x^2 = 3·(-1.5)^2 = 6.75"]


def test_square_writes_no_power_of_one():
    assert rules("p = 0.0\ny = 1.0\nloss = (p - y)**2", "loss") == [
        "d((p - y)^2)/d(p - y) = 2·(p - y) = 2·(-1) = -2"]


def test_division_uses_the_operands_names():
    assert rules("num = -3\nden = 2\nq = num/den", "q") == [
        "d(num / den)/dnum = 1/den = 1/2 = 0.5",
        "d(num / den)/dden = -num/den^2 = -(-3)/2^2 = 0.75"]
    assert rules("a = 1\nb = -2\nq = a/b", "q") == [
        "d(a / b)/da = 1/b = 1/(-2) = -0.5",
        "d(a / b)/db = -a/b^2 = -1/(-2)^2 = -0.25"]
    # a constant numerator is written as its number
    assert rules("b = 2\nq = 3/b", "q")[1] == "d(3 / b)/db = -3/b^2 = -3/2^2 = -0.75"


def test_negative_exponents_are_bracketed():
    program = parse("x = -2\ny = (x**-1 + 1)*2")
    total = program.output.parents[0]
    assert formula(total.parents[0]) == "x^(-1)" and expression(total) == "x^(-1) + 1"
    assert rules("x = -2\ny = x**-1", "y") == [
        "d(x^(-1))/dx = -1·x^(-2) = -1·(-2)^(-2) = -0.25"]


def test_product_with_a_number_says_it_once():
    assert rules("x = 0.5\ny = 1.2*x", "y") == ["d(1.2 * x)/d1.2 = x = 0.5",
                                                "d(1.2 * x)/dx = 1.2"]


def test_rounded_numbers_that_do_not_work_out_say_approximately():
    # 1 - 0.604368^2 = 0.634739..., the recorded derivative rounds to 0.63474
    text = "z = 0.7\nh = tanh(z)"
    assert rules(text, "h") == ["d tanh(z)/dz = 1 - tanh(z)^2 = 1 - 0.604368^2 ≈ 0.63474"]


def test_function_arguments_get_one_pair_of_brackets():
    assert rules("z = -1.5\ny = log(-z)", "y") == [
        "d log(-z)/d(-z) = 1/(-z) = 1/1.5 = 0.666667"]
    assert rules("z = -1.5\ny = exp(z)", "y") == [
        "d exp(z)/dz = exp(z) = exp(-1.5) = 0.22313"]


def test_the_neurons_z_is_round_off():
    program = parse(NEURON)
    z, p = program.names["z"], program.names["p"]
    assert z.data == 2.7755575615628914e-17
    assert roundoff(z) == (
        "round-off, read it as 0: -0.1 + 0.1 cancel to within 2.8e-16 of their size, the "
        "error left by rounding decimals to binary")
    assert roundoff(p) == "round-off carried from z (≈ 0): tanh(z) would be 0 if z were exactly 0"
    assert value_text(z) == value_text(p) == "≈ 0"
    assert rules(NEURON, "p") == ["d tanh(z)/dz = 1 - tanh(z)^2 = 1 - (2.77556e-17)^2 = 1"]
    # the loss is not round-off: it is 1
    assert roundoff(program.output) == "" and value_text(program.output) == "1"


def test_small_values_that_are_not_round_off():
    program = parse("a = 1e-20\nb = 3e-20\nc = a + b\nd = a*b\ne = 0.1 + 0.2 - 0.3")
    assert roundoff(program.names["c"]) == ""  # tiny, but not beside its operands
    assert roundoff(program.names["d"]) == ""  # a product of tiny numbers is exact enough
    assert value_text(program.names["c"]) == "4e-20"
    assert value_text(program.output) == "≈ 0"  # 5.55e-17 beside 0.3
    # a value carried from round-off through an operation that does not keep 0 is not
    assert roundoff(parse("a = 0.1 + 0.2 - 0.3\nb = exp(a)").output) == ""


def test_big_and_tiny_numbers_in_rules():
    assert rules("x = 1e150\ny = x**2", "y") == ["d(x^2)/dx = 2·x = 2·1e+150 = 2e+150"]
    assert rules("x = 1e-150\ny = 1/x", "y") == [
        "d(1 / x)/d1 = 1/x = 1/1e-150 = 1e+150",
        "d(1 / x)/dx = -1/x^2 = -1/(1e-150)^2 = -1e+300"]


def test_function_rules_bracket_an_expression_argument_once():
    assert rules("a = 1\nb = 2\ny = exp(a - b)", "y") == [
        "d exp(a - b)/d(a - b) = exp(a - b) = exp(-1) = 0.367879"]
    assert rules("a = 1\nb = 2\ny = sigmoid(a - b)", "y")[0].startswith(
        "d sigmoid(a - b)/d(a - b) = s·(1 - s) with s = sigmoid(a - b) = 0.268941")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_every_node_of_any_program_can_be_explained(text):
    try:
        program = parse(text)
    except ExpressionError:
        return
    for node in program.nodes:
        assert formula(node) and expression(node) and value_text(node)
        roundoff(node)
        for i in range(len(node.parents)):
            assert rule_text(node, i).startswith("d")
