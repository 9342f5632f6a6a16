"""The ops added through the op table alone: sin, cos, sqrt, abs and an exponent of **
that depends on an input. Each is checked the ways every op is: its gradient against
calculus and the 50-digit reference, its domain errors at their line and column, its
inspector formula, forward mode, code export, graph import and its Rules-tab row."""

from __future__ import annotations

import math

import pytest

from engine import ExpressionError, Value, parse
from engine.checks.central_difference import central_difference
from engine.checks.reference import reference_derivative
from engine.core.explain import expression, formula, op_symbol, rule_text
from engine.core.forward_mode import Dual, program_jvp
from engine.io.graph_import import import_graph
from engine.lesson.learn.code_export import script
from engine.lesson.rules import rule_errors

# (program, input, d out/d input by calculus)
GRADIENTS = [
    ("x = 0.5\ny = sin(x)", "x", math.cos(0.5)),
    ("x = -2.0\ny = sin(x)", "x", math.cos(-2.0)),
    ("x = 3.0\ny = sin(x*x)", "x", math.cos(9.0) * 6.0),
    ("x = 0.5\ny = cos(x)", "x", -math.sin(0.5)),
    ("x = 40.0\ny = cos(x)", "x", -math.sin(40.0)),
    ("x = 1.2\ny = cos(cos(x))", "x", math.sin(math.cos(1.2)) * math.sin(1.2)),
    ("x = 4.0\ny = sqrt(x)", "x", 0.25),
    ("x = 0.01\ny = sqrt(x)", "x", 5.0),
    ("x = 2.0\ny = sqrt(x*x + 5)", "x", 2.0 / 3.0),
    ("x = -1.5\ny = abs(x)", "x", -1.0),
    ("x = 0.7\ny = abs(x)", "x", 1.0),
    ("x = 1.25\ny = abs(abs(x) - 3)", "x", -1.0),
    # an exponent that depends on an input: x**y, k**x, x**x
    ("x = 1.5; y = 2.5\nout = x**y", "x", 2.5 * 1.5**1.5),
    ("x = 1.5; y = 2.5\nout = x**y", "y", 1.5**2.5 * math.log(1.5)),
    ("x = 0.5; y = -1.5\nout = x**y", "x", -1.5 * 0.5**-2.5),
    ("x = 0.5; y = -1.5\nout = x**y", "y", 0.5**-1.5 * math.log(0.5)),
    ("x = 3.0; y = 0.0\nout = x**y", "y", math.log(3.0)),
    ("x = 1.5\nout = 2**x", "x", 2**1.5 * math.log(2.0)),
    ("x = -0.5\nout = 10**x", "x", 10**-0.5 * math.log(10.0)),
    ("x = 1.5\nout = 0.5**x", "x", 0.5**1.5 * math.log(0.5)),
    ("x = 1.3\nout = x**x", "x", 1.3**1.3 * (math.log(1.3) + 1.0)),
    ("x = 0.2\nout = x**x", "x", 0.2**0.2 * (math.log(0.2) + 1.0)),
    ("x = 2.0; y = 3.0\nout = x**(y*y)", "y", 2.0**9 * math.log(2.0) * 6.0),
    ("x = 1.1; y = 0.5\nout = (x**y)**y", "y", 1.1**0.25 * math.log(1.1) * 2 * 0.5),
]


def gradient(text: str, name: str) -> float:
    program = parse(text)
    program.output.backward()
    return program.inputs[name].grad


@pytest.mark.parametrize("text, name, exact", GRADIENTS)
def test_the_gradient_is_the_calculus_one(text, name, exact):
    assert gradient(text, name) == pytest.approx(exact, rel=1e-14, abs=1e-15)


@pytest.mark.parametrize("text, name, exact", GRADIENTS)
def test_the_gradient_agrees_with_the_50_digit_reference(text, name, exact):
    program = parse(text)
    program.output.backward()
    reference = reference_derivative(program, name)
    assert reference == pytest.approx(exact, rel=1e-14, abs=1e-15)
    assert program.inputs[name].grad == pytest.approx(reference, rel=4e-16 * 8, abs=1e-15)


@pytest.mark.parametrize("text, name, exact", GRADIENTS)
def test_forward_mode_gives_the_same_derivative(text, name, exact):
    program = parse(text)
    value, tangent = program_jvp(program, {name: 1.0})
    assert value == program.output.data
    assert tangent == pytest.approx(gradient(text, name), rel=1e-14, abs=1e-15)


@pytest.mark.parametrize("text, name, exact", GRADIENTS)
def test_the_central_difference_agrees(text, name, exact):
    assert central_difference(parse(text), name) == pytest.approx(exact, rel=1e-7, abs=1e-8)


def test_abs_at_0_has_derivative_0_as_relu_does():
    assert gradient("x = 0.0\ny = abs(x)", "x") == 0.0
    assert gradient("x = 0.0\ny = relu(x)", "x") == 0.0
    assert reference_derivative(parse("x = 0.0\ny = abs(x)"), "x") == 0.0


@pytest.mark.parametrize("base, exponent", [
    (0.5, 2.0), (2.0, -3.0), (1.0, 7.5), (3.0, 0.0), (0.01, 0.5), (10.0, 2.5),
    (1.5, 1.0), (7.0, -0.25)])
def test_x_to_the_y_at_several_bases_and_exponents(base, exponent):
    text = f"x = {base!r}; y = {exponent!r}\nout = x**y"
    program = parse(text)
    program.output.backward()
    out = base**exponent
    assert program.output.data == pytest.approx(out, rel=1e-15)
    assert program.inputs["x"].grad == pytest.approx(exponent * base ** (exponent - 1), rel=1e-14)
    assert program.inputs["y"].grad == pytest.approx(out * math.log(base), rel=1e-14, abs=1e-300)
    for name in ("x", "y"):
        assert program.inputs[name].grad == pytest.approx(
            reference_derivative(program, name), rel=1e-14, abs=1e-300)


def test_a_number_exponent_keeps_todays_behaviour_for_any_base():
    """With a number exponent, the base may be negative or 0 (where the reals allow)."""
    program = parse("x = -2.0\ny = x**3")
    program.output.backward()
    assert program.output.data == -8.0 and program.inputs["x"].grad == 12.0
    assert program.output.op == "**3" and len(program.output.parents) == 1
    program = parse("x = -2.0\ny = x**(1 + 1)")  # arithmetic of numbers is a number
    program.output.backward()
    assert program.inputs["x"].grad == -4.0
    assert parse("x = 0.0\ny = x**2").output.data == 0.0
    # `k = 2` declares an input, so x**k has an exponent that depends on an input
    with pytest.raises(ExpressionError, match="base is -3"):
        parse("k = 2\nx = -3.0\ny = x**k")


@pytest.mark.parametrize("text, line, col, words", [
    ("x = 0.0\ny = sqrt(x)", 2, 5, "infinite at x = 0"),
    ("x = 1.0\n\ny = 2 * sqrt(x - 1)", 3, 9, "infinite at x = 0"),
    ("x = -1.0\ny = sqrt(x)", 2, 5, "not negative, but its argument is -1"),
    ("x = -2.0; y = 1.0\nout = x**y", 2, 8, "base is -2"),
    ("x = 0.0; y = 2.0\nout = x**y", 2, 8, "base is 0"),
    ("x = 1.5\nout = (-2)**x", 2, 11, "must be positive when its exponent depends on an input"),
    ("x = 1.5\nk = 0\nout = k**x", 3, 8, "base is 0"),
    ("x = -1.0\nout = x**x", 2, 8, "base is -1"),
    ("x = 1.0\nout = 1 + (x - 1)**x", 2, 18, "base is 0"),
])
def test_domain_errors_at_their_line_and_column(text, line, col, words):
    with pytest.raises(ExpressionError) as info:
        parse(text)
    assert (info.value.line, info.value.col) == (line, col)
    assert words in info.value.message


def test_a_rebuild_that_leaves_the_domain_is_refused_there_too():
    program = parse("x = 2.0\ny = 3.0 + sqrt(x)")
    assert program.rebuild(x=4.0).output.data == 5.0
    with pytest.raises(ExpressionError) as info:
        program.rebuild(x=0.0)
    assert (info.value.line, info.value.col) == (2, 11)
    with pytest.raises(ExpressionError, match="base is -1"):
        parse("x = 2.0; y = 1.5\nout = x**y").rebuild(x=-1.0)


def test_value_has_the_new_methods():
    x = Value(0.5, label="x")
    y = x.sin() * x.cos() + x.sqrt() + abs(-x) + x.abs()
    y.backward()
    exact = math.cos(1.0) + 0.5 / math.sqrt(0.5) + 1.0 + 1.0  # d(sin x cos x) = cos 2x
    assert x.grad == pytest.approx(exact, rel=1e-15)
    assert [v.op for v in (x.sin(), x.cos(), x.sqrt(), abs(x))] == ["sin", "cos", "sqrt", "abs"]


def test_value_exponents_in_python():
    x, y = Value(1.5), Value(2.5)
    out = x**y
    out.backward()
    assert out.op == "pow" and out.parents == (x, y)
    assert (x.grad, y.grad) == (2.5 * 1.5**1.5, 1.5**2.5 * math.log(1.5))
    x.grad = 0.0
    k = 2**x  # __rpow__: the number base is folded, the one parent is the exponent
    k.backward()
    assert k.data == 2**1.5 and k.parents == (x,) and x.grad == 2**1.5 * math.log(2)
    with pytest.raises(ValueError, match="positive base"):
        (-2) ** x
    with pytest.raises(ValueError, match="positive base"):
        Value(0.0) ** y


def test_dual_numbers_have_the_new_rules():
    d = Dual(0.5, 1.0)
    assert d.sin().tangent == math.cos(0.5) and d.cos().tangent == -math.sin(0.5)
    assert d.sqrt().tangent == 0.5 / math.sqrt(0.5) and abs(Dual(-0.5, 1.0)).tangent == -1.0
    assert (d ** Dual(2.0, 0.0)).tangent == 2 * 0.5
    assert (2 ** d).tangent == 2**0.5 * math.log(2)


# -- the inspector's formula ----------------------------------------------------------------

def rules(text: str, name: str) -> list[str]:
    node = parse(text).names[name]
    return [rule_text(node, i) for i in range(len(node.parents))]


def test_inspector_formulas_of_the_new_functions():
    assert rules("x = 0.5\ny = sin(x)", "y") == [
        "d sin(x)/dx = cos(x) = cos(0.5) = 0.877583"]
    assert rules("x = 0.5\ny = cos(x)", "y") == [
        "d cos(x)/dx = -sin(x) = -sin(0.5) = -0.479426"]
    assert rules("x = 4\ny = sqrt(x)", "y") == [
        "d sqrt(x)/dx = 1/(2·sqrt(x)) = 1/(2·2) = 0.25"]
    assert rules("x = -1.5\ny = abs(x)", "y") == [
        "d abs(x)/dx = 1 if x > 0, -1 if x < 0, else 0; x = -1.5, so -1"]
    assert rules("x = 0\ny = abs(x)", "y") == [
        "d abs(x)/dx = 1 if x > 0, -1 if x < 0, else 0; x = 0, so 0"]
    # the numbers as shown (rounded) need not work out exactly: then '≈'
    assert rules("x = 1.23456789\ny = sin(x)", "y") == [
        "d sin(x)/dx = cos(x) = cos(1.23457) ≈ 0.329929"]


def test_inspector_formula_of_an_exponent_that_depends_on_an_input():
    assert rules("x = 2; y = 3\nout = x**y", "out") == [
        "d(x^y)/dx = y·x^(y - 1) = 3·2^(3 - 1) = 12",
        "d(x^y)/dy = x^y·ln(x) = 8·ln(2) = 5.54518"]
    program = parse("x = 1.5\nout = 2**(x + 1)")
    node = program.output
    assert formula(node) == "2^(x + 1)" and expression(node.parents[1]) == "x + 1"
    assert op_symbol(node) == "x^y"
    assert rule_text(node, 1) == (
        "d(2^(x + 1))/d(x + 1) = 2^(x + 1)·ln(2) = 5.65685·ln(2) = 3.92103")
    assert rule_text(node, 0) == (
        "d(2^(x + 1))/d2 = (x + 1)·2^((x + 1) - 1) = 2.5·2^(2.5 - 1) = 7.07107")


def test_the_graph_labels_of_the_new_ops():
    names = parse("x = 0.5\na = sin(x)\nb = cos(x)\nc = sqrt(x)\nd = abs(x)").names
    assert [op_symbol(names[n]) for n in "abcd"] == ["sin", "cos", "sqrt", "abs"]
    assert formula(names["c"]) == "sqrt(x)"


# -- what the other modules make of them, with no change of their own ------------------------

def test_code_export_spells_them_in_every_framework():
    program = parse("x = 0.5; y = 1.5\nout = sin(x) + cos(y) + sqrt(y) + abs(x) + x**y + 2**x")
    spelled = {"tensorflow": ("tf.sin(x)", "tf.cos(y)", "tf.sqrt(y)", "tf.abs(x)"),
               "pytorch": ("torch.sin(x)", "torch.cos(y)", "torch.sqrt(y)", "torch.abs(x)"),
               "jax": ("jnp.sin(x)", "jnp.cos(y)", "jnp.sqrt(y)", "jnp.abs(x)")}
    for framework, calls in spelled.items():
        text = script(program, framework)
        for call in calls:
            assert call in text, (framework, call)
        assert "(x ** y)" in text and "(2.0 ** x)" in text


def test_graph_import_writes_and_recognises_them():
    x = Value(0.5, label="x")
    y = Value(1.5, label="y")
    root = x.sin() + x.cos() * y.sqrt() + abs(-x) + x**y + 2**x
    program = parse(import_graph(root).program.source)
    assert program.output.data == pytest.approx(root.data, rel=1e-15)
    root.backward()
    program.output.backward()
    assert program.inputs["x"].grad == pytest.approx(x.grad, rel=1e-12)
    assert program.inputs["y"].grad == pytest.approx(y.grad, rel=1e-12)


class _Recorded:
    """A node in microgpt's style: children and local derivatives, no op name."""

    def __init__(self, data, children=(), local_grads=()):
        self.data, self.grad = data, 0.0
        self._children, self._local_grads = children, local_grads


def test_graph_import_recognises_the_new_functions_from_their_numbers():
    x = _Recorded(-0.5)
    for f, g, op in ((math.sin, math.cos(-0.5), "sin"), (math.cos, -math.sin(-0.5), "cos"),
                     (abs, -1.0, "abs")):
        root = _Recorded(f(-0.5), (x,), (g,))
        graph = import_graph(root, names={x: "x"})
        assert graph.program.output.op == op
        assert graph.program.source.splitlines()[-1] == f"out = {op}(x)"
        assert graph.replay is None  # the recorded derivative is this engine's
    root = _Recorded(math.sqrt(2.0), (_Recorded(2.0),), (0.5 / math.sqrt(2.0),))
    assert import_graph(root).program.source.splitlines()[-1] == "out = sqrt(2.0)"


def test_their_rows_in_the_rules_table():
    rows = {r.name: r for r in rule_errors()}
    for name, x, exact in (("sin", 0.5, math.cos(0.5)), ("cos", 0.5, -math.sin(0.5)),
                           ("sqrt", 2.0, 0.5 / math.sqrt(2.0)), ("abs (x < 0)", -1.5, -1.0),
                           ("power, input exponent (2^x)", 1.5, 2**1.5 * math.log(2))):
        row = rows[name]
        assert row.x == x and row.analytic == pytest.approx(exact, rel=1e-15)
        assert row.error_analytic <= 4e-16 * max(1.0, abs(exact))
        assert 0 < row.error_fd < 1e-9 or row.error_fd == 0.0
