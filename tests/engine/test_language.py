"""The expression language as DESIGN.md describes it."""

import pytest

from engine import ExpressionError, parse
from tests.engine.helpers import NEURON


def value_of(text):
    return parse(text).output.data


def test_neuron_inputs_in_declaration_order():
    program = parse(NEURON)
    assert list(program.inputs) == ["w1", "w2", "b", "x1", "x2", "y"]
    assert program.inputs["w2"].data == -0.3
    assert all(v.grad == 0.0 for v in program.values)  # fresh: every gradient 0


@pytest.mark.parametrize(("literal", "number"), [
    ("-0.3", -0.3), ("+2", 2.0), ("1e-3", 0.001), (".5", 0.5), ("7.", 7.0), ("- 4", -4.0),
])
def test_signed_literals_declare_inputs(literal, number):
    program = parse(f"x = {literal}")
    assert program.inputs == {"x": program.output}
    assert program.output.data == number


@pytest.mark.parametrize("rhs", ["--0.9", "(1.5)", "2*3", "tanh(1)", "+-1"])
def test_anything_else_is_an_expression_not_an_input(rhs):
    program = parse(f"x = {rhs}")
    assert program.inputs == {}
    assert program.output.label == "x"


@pytest.mark.parametrize(("text", "value"), [
    ("x = 2; -x**2", -4.0),
    ("2**3**2", 512.0),
    ("2^3^2", 512.0),
    ("x = 2; x**-2**0", 0.5),
    ("x = 7; x - 2 - 1", 4.0),
    ("x = 8; x / 2 / 2", 2.0),
    ("x = 2; 1 + x * 3", 7.0),
    ("x = 2; (1 + x) * 3", 9.0),
    ("x = 2; -x*3", -6.0),
    ("x = 2; +x", 2.0),
    ("x = 2; x**(1+1)", 4.0),
    ("x = 2; x**tanh(0)", 1.0),
    ("x = 3; relu(-x) + relu(x)", 3.0),
    ("x = 0; sigmoid(x) + exp(x) + log(1 + x)", 1.5),
])
def test_precedence_and_associativity_follow_python(text, value):
    assert value_of(text) == value


def test_statements_comments_blank_lines_and_crlf():
    text = "# heading\r\n\r\n   a = 2 ; b = 3  # trailing\r\n\n  c = a*b\r\n"
    program = parse(text)
    assert program.output_name == "c"
    assert program.output.data == 6.0


def test_alias_makes_no_new_node():
    program = parse("x = 2; y = x; z = y * y")
    assert program.names["y"] is program.inputs["x"]
    assert len(program.values) == 2  # x and the product
    program.output.backward()
    assert program.inputs["x"].grad == 4.0


def test_bare_last_expression_is_named_output():
    program = parse("a = 3\na * a")
    assert program.output_name == "output"
    assert program.output.data == 9.0


def test_output_may_be_an_input():
    program = parse("x = 3")
    program.output.backward()
    assert program.output_name == "x"
    assert program.inputs["x"].grad == 1.0


def test_constant_exponent_arithmetic_is_allowed():
    program = parse("k = 2*3\nx = 1.5\ny = x**k")
    program.output.backward()
    assert program.inputs["x"].grad == pytest.approx(6 * 1.5**5, rel=1e-15)


def test_positions_of_nodes():
    program = parse("a = 1\nb = a + 2")
    assert program.position(program.output) == (2, 7)


def test_rebuild_moves_one_input_and_keeps_the_rest():
    program = parse("a = 3; b = 4; f = a*b + a")
    moved = program.rebuild(a=1.0)
    assert moved.output.data == 5.0
    assert program.output.data == 15.0  # the original is untouched
    with pytest.raises(KeyError):
        program.rebuild(f=1.0)


def test_errors_format_as_line_and_column():
    with pytest.raises(ExpressionError) as info:
        parse("a = 1\nb = a +\n")
    e = info.value
    assert (e.line, e.col) == (2, 8)
    assert str(e) == f"line 2, col 8: {e.message}"


@pytest.mark.parametrize("text, position", [
    ("x = 1\ny = x + zz", (2, 9)),        # the unknown name, not the '+' before it
    ("x = 1\ny = tanh(x) * q2", (2, 15)),
    ("zz", (1, 1)),
])
def test_an_undefined_name_is_marked_at_itself(text, position):
    with pytest.raises(ExpressionError) as info:
        parse(text)
    e = info.value
    assert (e.line, e.col) == position
    name = text.split()[-1]
    assert e.message == f"'{name}' is not defined: assign it first (e.g. {name} = 1.0)"


LONG = 999_000


@pytest.mark.parametrize("text", [
    "y = " + "a" * LONG,                             # not defined
    "x = 1\ny = 2 " + "b" * LONG,                   # unexpected after a number
    "y = " + "q" * LONG + "(1)",                     # not a known function
    "x = 1e" + "9" * (LONG - 2),                     # a number too large
    "y = 1\n" + "k" * 499_000 + " = y\n" + "k" * 499_000 + " = 2",  # assigned twice
])
def test_a_huge_token_gives_a_short_message(text):
    """Defect 10: a message quotes at most ~80 characters of what the user typed."""
    with pytest.raises(ExpressionError) as info:
        parse(text)
    message = info.value.message
    assert len(message) < 300
    assert "(999,000 characters)" in message or "(499,000 characters)" in message


def test_a_short_name_is_quoted_whole():
    with pytest.raises(ExpressionError) as info:
        parse("y = " + "a" * 80)
    assert info.value.message.startswith("'" + "a" * 80 + "' is not defined")
    with pytest.raises(ExpressionError) as info:
        parse("y = " + "a" * 81)
    assert info.value.message.startswith("'" + "a" * 79 + "… (81 characters)' is not defined")
