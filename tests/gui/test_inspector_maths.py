"""What the inspector writes for the cases a learner checks by hand: the neuron's tanh
node and its z (round-off, shown as ≈ 0 with the exact figure and why), a cube of -1.5,
a division with the program's own names, big numbers in scientific notation, no -0."""

from engine import parse
from engine.core.stepping import Stepper
from gui.graph.inspector import describe_node
from gui.graph.spec import contribution_label
from tests.engine.helpers import NEURON


def _at_end(text: str):
    program = parse(text)
    stepper = Stepper(program.output)
    stepper.run_to_end()
    return program, stepper


def _row(name: str, value: str) -> str:
    return f"<tr><td><b>{name}</b></td><td>{value}</td></tr>"


def test_the_neurons_tanh_node():
    program, stepper = _at_end(NEURON)
    html = describe_node(program.names["p"], stepper, "intermediate")
    assert _row("value", "≈ 0 (exactly 2.7755575615628914e-17)") + _row(
        "why ≈ 0", "round-off carried from z (≈ 0): tanh(z) would be 0 if z were exactly 0") in html
    assert ("<li><code>d tanh(z)/dz = 1 - tanh(z)^2 = 1 - (2.77556e-17)^2 = 1</code></li>"
            in html)
    assert "<li>from p - y: 1 × (-2) = -2 → total -2</li>" in html


def test_the_neurons_z_is_shown_as_about_zero_with_why():
    program, stepper = _at_end(NEURON)
    html = describe_node(program.names["z"], stepper, "intermediate")
    assert _row("value", "≈ 0 (exactly 2.7755575615628914e-17)") + _row(
        "why ≈ 0", "round-off, read it as 0: -0.1 + 0.1 cancel to within 2.8e-16 of their "
        "size, the error left by rounding decimals to binary"
    ) + _row("gradient", "-2.0") in html


def test_a_cube_of_minus_one_and_a_half():
    program, stepper = _at_end("x = -1.5\ny = x**3")
    html = describe_node(program.output, stepper, "output")
    assert "<li><code>d(x^3)/dx = 3·x^2 = 3·(-1.5)^2 = 6.75</code></li>" in html
    assert _row("value", "-3.375") in html
    assert ("<li>dy/dy = 1 (where the backward pass starts) → total 1</li>" in html)  # its name


def test_a_division_with_its_own_names():
    program, stepper = _at_end("num = -3\nden = 2\nratio = num/den")
    html = describe_node(program.output, stepper, "output")
    assert "<li><code>d(num / den)/dnum = 1/den = 1/2 = 0.5</code></li>" in html
    assert "<li><code>d(num / den)/dden = -num/den^2 = -(-3)/2^2 = 0.75</code></li>" in html


def test_big_numbers_in_scientific_notation_and_no_minus_zero():
    program, stepper = _at_end("x = 1343001721.278586\ny = relu(-x)*2")
    x = program.inputs["x"]
    html = describe_node(x, stepper, "input")
    assert _row("value", "1.343001721278586e+09") in html
    # relu took its flat branch: 0 × 2 reaches -x, and -1 × 0 is -0.0, shown as 0
    assert x.grad == 0.0
    assert _row("gradient", "0.0") in html
    assert "from -x: -1 × 0 = 0 → total 0" in html
    neg = program.output.parents[0].parents[0]
    assert "<li>from relu(-x): 0 × 2 = 0 → total 0</li>" in describe_node(neg, stepper, "")


def test_graph_labels_bracket_negatives_and_multiply_out():
    assert contribution_label(1.0, -2.0, -2.0) == "1 × (-2)\n= -2"
    assert contribution_label(-0.3, -2.0, 0.6) == "-0.3 × (-2)\n= 0.6"
    # 0.1807 × 1.107 = 0.2000349 at 4 digits is 0.2, the full product 0.2001: said so
    assert contribution_label(0.18070, 1.1074, 0.18070 * 1.1074) == "0.1807 × 1.107\n≈ 0.2001"
    assert contribution_label(-0.0, 5.0, -0.0) == "0 × 5\n= 0"
    assert contribution_label(2e6, 1000.0, 2e9) == "2e+06 × 1000\n= 2e+09"


def test_the_neurons_z_box_reads_about_zero(window):
    window.session.run_to_end()
    scene, names = window.graph_tab.scene, window.session.program.names
    assert scene.value_item_of(names["z"]).texts() == ("z", "value ≈ 0", "grad = -2")
    assert scene.value_item_of(names["p"]).texts()[1] == "value ≈ 0"
    assert scene.value_item_of(names["w2"]).texts()[1:] == ("value = -0.3", "grad = -4")


def test_a_gradient_whose_paths_cancel_is_about_zero():
    program, stepper = _at_end("x = 0.1\ny = x*0.3 - x*0.1*3")
    x = program.inputs["x"]
    assert x.grad != 0.0 and abs(x.grad) < 1e-16
    html = describe_node(x, stepper, "input")
    assert _row("gradient", f"≈ 0 (exactly {x.grad!r})") + _row(
        "why ≈ 0", "round-off, read it as 0: the paths&#x27; contributions cancel to within "
        "1.9e-16 of their size") in html
    assert html.endswith("<li>from x*0.3: 0.3 × 1 = 0.3 → total ≈ 0</li></ol>")


def test_a_users_engine_replayed_shows_its_local_derivative_and_the_right_one(window):
    # their cube rule gives x^3 instead of 3x^2: 0.375 where the right one is 0.75
    replay = {"text": "x = 0.5\nout = x ** 3", "order": [2, 0], "seed": 1.0,
              "locals": {2: [3 * 0.5 ** 3]}, "grads": {0: 3 * 0.5 ** 3, 2: 1.0}}
    window.session.load_recorded(replay, "pow_rule.py")
    window.session.run_to_end()  # the last step is out's rule: the inspector shows out
    out = window.session.program.output
    assert window.session.stepper.current.node is out
    text = window.inspector.toPlainText()
    assert "d(x^3)/dx = 0.375 by your engine (right: d(x^3)/dx = 3·x^2 = 3·0.5^2 = 0.75)" \
        in text
    assert window.graph_tab.scene.edge_item(out, 0).label == "0.375 × 1\n= 0.375\nright: 0.75"
    x_html = describe_node(window.session.program.inputs["x"], window.session.stepper, "input")
    assert "(your engine's local derivative; the right one is 0.75)" in x_html


def test_a_number_of_the_program_is_called_a_constant_in_the_local_derivatives():
    from engine import parse
    from engine.core.stepping import Stepper
    from gui.graph.inspector import describe_node

    program = parse("x = 2\nb = x + 1\ny = b*2")
    stepper = Stepper(program.output)
    stepper.run_to_end()
    text = describe_node(program.names["b"], stepper, "intermediate")
    assert "<code>d(x + 1)/dx = 1</code></li>" in text  # an input: no word
    assert ("<code>d(x + 1)/d1 = 1</code> <i>(1 is a constant of the program: its "
            "gradient is worked out but used by nothing)</i>") in text


def test_an_unnamed_box_is_not_called_unnamed_but_by_its_title():
    program, stepper = _at_end("w1 = 0.5; x1 = 2\ny = w1*x1 + 3")
    product, three = program.output.parents
    assert _row("name", "none (the box is titled by its formula, w1*x1)") in describe_node(
        product, stepper, "intermediate")
    assert _row("name", "none (a constant, 3)") in describe_node(three, stepper, "constant")
    assert _row("name", "w1") in describe_node(program.inputs["w1"], stepper, "input")
