"""A step looks up what the inspector shows instead of walking the whole program: the
roles are made once per program, the steps that hand a node its gradient are indexed
once per stepper, and the inspector's words are what they always were."""

import pytest

from engine.core.pitfalls import OVERWRITE
from gui.graph.inspector import describe_node


class CountingList(list):
    """A list that counts the walks over it and the slices taken of it."""

    def __init__(self, items):
        super().__init__(items)
        self.walks = 0

    def __iter__(self):
        self.walks += 1
        return super().__iter__()

    def __getitem__(self, key):
        if isinstance(key, slice):
            self.walks += 1
        return super().__getitem__(key)


def test_steps_walk_neither_the_values_nor_the_plan(window):
    session = window.session
    program, stepper = session.program, session.stepper
    program.values = CountingList(program.values)
    stepper.backward_steps = CountingList(stepper.backward_steps)
    for _ in range(len(stepper.forward_steps) + 2):
        session.step()
    assert program.values.walks == 0  # the roles were made when the program loaded
    assert stepper.backward_steps.walks <= 2  # indexed on the first backward step
    walks = stepper.backward_steps.walks
    while session.step():
        pass
    while session.back():
        pass
    session.seek(stepper.total - 3)
    assert program.values.walks == 0
    assert stepper.backward_steps.walks == walks


def test_roles_are_made_once_per_program(window):
    session = window.session
    roles = session.roles()
    session.step()
    session.set_engine(OVERWRITE)
    session.run_to_end()
    assert session.roles() is roles
    program = session.program
    assert session.role_of(program.inputs["w1"]) == "input"
    assert session.role_of(program.output) == "output"
    assert session.role_of(program.names["z"]) == "intermediate"
    constant = next(v for v in program.values if not v.parents and v.label == "")
    assert session.role_of(constant) == "constant"
    with pytest.raises(TypeError):
        roles[program.output] = "input"  # shared, so read-only
    assert window.build("a = 3.0\nb = a + a")
    assert session.roles() is not roles
    assert session.role_of(session.program.inputs["a"]) == "input"
    assert session.role_of(program.output) == "intermediate"  # the old program's node


W1_BEFORE = (
    "<table cellspacing='4'><tr><td><b>name</b></td><td>w1</td></tr><tr><td><b>kind</b>"
    "</td><td>input</td></tr><tr><td><b>computed as</b></td><td>input</td></tr><tr><td>"
    "<b>value</b></td><td>0.5</td></tr><tr><td><b>gradient</b></td><td>not reached yet "
    "(step the backward pass)</td></tr><tr><td><b>tf.GradientTape</b></td><td>-2.0 (the "
    "whole backward pass, in TensorFlow; difference 0)</td></tr></table>")
W1_AFTER = (
    "<table cellspacing='4'><tr><td><b>name</b></td><td>w1</td></tr><tr><td><b>kind</b>"
    "</td><td>input</td></tr><tr><td><b>computed as</b></td><td>input</td></tr><tr><td>"
    "<b>value</b></td><td>0.5</td></tr><tr><td><b>gradient</b></td><td>-2.0</td></tr><tr>"
    "<td><b>tf.GradientTape</b></td><td>-2.0 (the whole backward pass, in TensorFlow; "
    "difference 0)</td></tr></table><p><b>Gradient received</b>, one line per path "
    "(local × upstream = contribution):</p><ol><li>from w1*x1: 1 × (-2) = -2 → total -2"
    "</li></ol>")
P_RECEIVED = ("<p><b>Gradient received</b>, one line per path (local × upstream = "
              "contribution):</p><ol><li>from p - y: 1 × (-2) = -2 → total -2</li></ol>")


def test_inspector_text_for_the_neuron_is_unchanged(window):
    """Texts the inspector gave before its look-ups were indexed, at several steps."""
    session = window.session
    stepper, names = session.stepper, session.program.names
    n_forward = len(stepper.forward_steps)
    session.seek(n_forward + 3)
    assert describe_node(names["w1"], stepper, "input", -2.0) == W1_BEFORE
    assert describe_node(names["p"], stepper, "intermediate").endswith(P_RECEIVED)
    z = describe_node(names["z"], stepper, "intermediate")
    assert "not reached yet (step the backward pass)" in z and "Gradient received" not in z
    session.run_to_end()
    assert describe_node(names["w1"], stepper, "input", -2.0) == W1_AFTER
    assert describe_node(names["z"], stepper, "intermediate").endswith(
        "<ol><li>from p: 1 × (-2) = -2 → total -2</li></ol>")
    # a node selected in the window says the same
    window.graph_tab.scene.value_item_of(names["w1"]).setSelected(True)
    text = window.inspector.toPlainText()
    assert "from w1*x1: 1 × (-2) = -2 → total -2" in text
    assert "\ngradient\n-2.0\n" in text


def test_inspector_lists_every_path_of_a_node_used_four_times(window):
    assert window.build("x = 0.5\nq = x*x\nr = q*q + q/q - q")
    session = window.session
    q = session.program.names["q"]
    session.run_to_end()
    html = describe_node(q, session.stepper, session.role_of(q))
    assert html.endswith(
        "<ol><li>from r: -1 × 1 = -1 → total -1</li><li>from q/q: 4 × 1 = 4 → total 3</li>"
        "<li>from q/q: -4 × 1 = -4 → total -1</li><li>from q*q: 0.25 × 1 = 0.25 → total "
        "-0.75</li><li>from q*q: 0.25 × 1 = 0.25 → total -0.5</li></ol><p>This node's rule "
        "was just applied: each parent received its local derivative times this node's "
        "gradient.</p>")
    # stepped back one by one, the lines go as they came
    counts = []
    while session.back():
        counts.append(describe_node(q, session.stepper, "intermediate").count("<li>from "))
    assert counts == sorted(counts, reverse=True) and counts[-1] == 0
