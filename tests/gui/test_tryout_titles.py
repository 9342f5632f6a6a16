"""What the s33 tryout found in the words of a micrograd MLP's graph: a cut box title
keeps what the box computes last (`relu(…)*w[2]`, not `relu(… + …)…`, which reads as
a relu's output); a parameter's inspector says it is one, its name wrapped at its
path's steps; a rounded number is said with '≈'."""

from __future__ import annotations

import sys

import pytest

from engine.core import ops
from engine.core.stepping import Stepper
from engine.io.graph_import import import_graph
from gui.graph.spec import box_title
from tests.foreign_models import micrograd_demo

ZWSP = "\u200b"  # where the inspector lets a name break its line


def _imported(points: int = 2):
    demo = micrograd_demo(points)  # named as the tryout's script names them
    model, inputs, loss = demo.model, demo.inputs, demo.loss  # noqa: F841
    del demo
    return import_graph(loss, scope=sys._getframe()).program


def test_a_cut_product_title_keeps_its_product_and_its_weight(qtbot):
    from PySide6.QtGui import QFontMetricsF

    from gui.graph.items import VALUE_W, elided, font

    metrics = QFontMetricsF(font(9.5, True))
    program = _imported()
    products = [v for v in program.nodes if v.op == ops.MUL.name and not v.label
                and v.parents[0].op == ops.RELU.name and v.parents[1].label
                and ".layers[2]." in v.parents[1].label]
    assert len(products) == 16 * 2  # the last layer's 16 weights, once per point
    shown = {elided(metrics, box_title(v), VALUE_W - 8) for v in products}
    assert shown == {f"relu(…)*w[{k}]" for k in range(16)}  # w[0] told from w[1]
    for v in products:  # never cut to what reads as the relu itself
        assert box_title(v).startswith("relu(") and box_title(v).endswith(
            v.parents[1].label)


@pytest.fixture(scope="module")
def stepped_mlp():
    program = _imported()
    stepper = Stepper(program.output)
    stepper.run_to_end()
    return program, stepper


def _weight(program, name="model.layers[1].neurons[3].w[2]"):
    return next(v for v in program.nodes if v.label == name)


def test_a_parameter_is_said_to_be_one_and_what_its_gradient_is_for(stepped_mlp):
    from gui.graph.inspector import describe_node

    program, stepper = stepped_mlp
    text = describe_node(_weight(program), stepper, "input").replace(ZWSP, "")
    assert "<td>parameter</td>" in text and "<td>input</td>" not in text
    assert ("not computed: a parameter (model.layers[1].neurons[3].w[2]), a leaf loss "
            "depends on; its gradient is what training uses to change it") in text
    point = next(v for v in program.nodes if v.label == "inputs[0][1]")
    assert "<td>input</td>" in describe_node(point, stepper, "input")  # a data point


@pytest.mark.parametrize("width", [190, 230, 300])
def test_a_long_name_wraps_at_its_path_steps(qtbot, stepped_mlp, width):
    from gui.graph.inspector import Inspector

    program, stepper = stepped_mlp
    inspector = Inspector()
    qtbot.addWidget(inspector)
    inspector.resize(width, 600)
    inspector.show()
    inspector.show_node(_weight(program, "model.layers[1].neurons[13].w[12]"), stepper,
                        "input")
    document = inspector.document()
    document.setTextWidth(inspector.viewport().width())
    broken = 0
    block = document.begin()
    while block.isValid():
        text, layout = block.text(), block.layout()
        for k in range(1, layout.lineCount()):
            at = layout.lineAt(k).textStart()
            before, after = text[:at].rstrip(" "), text[at:]
            if "neurons[13]" in text.replace(ZWSP, "") and before and not text[at - 1] == " ":
                broken += 1  # a break inside the name: only at a path's step
                assert before[-1] in "." + ZWSP or after[:1] in "[" + ZWSP, (before, after)
        block = block.next()
    assert broken >= 1


def test_a_rounded_number_is_said_with_an_almost_equal_sign(window):
    """The tryout's `f = q + q*x + q*y + tanh(q)`: tanh(6) = 0.99998771 was 'value = 1',
    q's gradient 6.0000246 'grad = 6', f = 36.99998771 'value = 37'."""
    assert window.build("x = 3.0\ny = 2.0\nq = x*y\nf = q + q*x + q*y + tanh(q)")
    window.session.run_to_end()
    scene, names = window.graph_tab.scene, window.session.program.names
    texts = {n: scene.value_item_of(names[n]).texts()[1:] for n in ("x", "q", "f")}
    # its first 4 digits and '…' (session 34: '≈ 6' and '= 6' looked alike at small text)
    assert texts["x"] == ("value = 3", "grad ≈ 18.00…")   # 18.0000491...
    assert texts["q"] == ("value = 6", "grad ≈ 6.000…")   # 6.0000246
    assert texts["f"] == ("value ≈ 36.99…", "grad = 1")  # 36.99998771; dL/dL = 1 exactly
    tanh = names["f"].parents[1]
    assert scene.value_item_of(tanh).texts()[1] == "value ≈ 0.9999…"


def test_the_inspector_counts_the_nodes_as_the_status_bar_does(window):
    """The tryout's 40-line tanh chain: status '121 values (and 80 constants …)', the
    inspector 'node 3 of 201' with nothing to say why."""
    from gui.graph.inspector import describe_node

    lines = ["x0 = 0.5"] + [f"x{k} = tanh(x{k - 1}*1.1 + 0.1)" for k in range(1, 41)]
    assert window.build("\n".join(lines))
    assert "121 values (and 80 constants" in window.statusBar().currentMessage()
    stepper = window.session.stepper
    product = stepper.forward_steps[2]  # x0*1.1
    assert product.parents and not product.label
    text = describe_node(product, stepper, "intermediate")
    # counted as the step counter counts (forward 2/121), all the nodes said beside it
    assert ("forward step 2 of 121, as the step counter counts (node 3 of 201 with the "
            "80 constants") in text


def test_the_first_backward_step_is_said_in_the_outputs_own_name(window):
    """The tryout's diamond names its output d: 'dd/dd = 1', not 'dL/dL = 1'."""
    from gui.graph.inspector import describe_node

    assert window.build("a = 1.5\nb = a*2\nc = a + 3\nd = b*c")
    window.session.run_to_end()
    stepper = window.session.stepper
    text = describe_node(stepper.output, stepper, "output")
    assert "dd/dd = 1 (where the backward pass starts)" in text and "dL/dL" not in text


def test_find_suggests_in_natural_order_and_forgets_a_miss_as_the_query_changes(qtbot):
    """The tryout's `w[2]` listed neurons[0], [10]…[15], [1], [2]; 'no node has that
    name' stayed while a new query that matched was typed."""
    from PySide6.QtCore import Qt

    from gui.graph.find import FindBar

    program = _imported(1)
    bar = FindBar()
    qtbot.addWidget(bar)
    bar.set_names([v.label for v in program.nodes if v.label])
    bar.open()
    bar.completer.setCompletionPrefix("layers[1].neurons[1")
    model = bar.completer.completionModel()
    found = [model.index(k, 0).data() for k in range(model.rowCount())]
    neurons = list(dict.fromkeys(int(n.split("neurons[")[1].split("]")[0]) for n in found))
    assert neurons == [1, 10, 11, 12, 13, 14, 15]  # in number order, not 1, 10, …, 15, 1x
    bar.completer.setCompletionPrefix("layers[0].neurons[3].w")
    found = [model.index(k, 0).data() for k in range(model.rowCount())]
    assert found == ["model.layers[0].neurons[3].w[0]", "model.layers[0].neurons[3].w[1]"]
    w2 = [n for n in bar.model.stringList() if n.startswith("model.layers[1].neurons[")
          and n.endswith(".w[2]")]
    assert w2 == [f"model.layers[1].neurons[{k}].w[2]" for k in range(16)]
    bar.edit.setText("model.layers[9]")
    qtbot.keyClick(bar.edit, Qt.Key.Key_Return)
    assert bar.note.text() == "no node has that name"
    bar.edit.setText("model.layers[1]")  # typed on: the old miss is not this query's
    assert bar.note.text() == ""


def test_boxes_alike_say_their_numbers_alike(qtbot):
    """The tryout's losses[8] (value 0.143) said '647 nodes   value 0.143', losses[9]
    (0.7406) dropped its count: the lines are laid out for any 4-digit number."""
    from gui.graph.items import INK, GroupItem, group_size

    said = []
    for title, value in (("losses[7]", "0"), ("losses[8]", "≈ 0.143"), ("losses[9]", "≈ 0.7406"),
                         ("losses[10]", "≈ -0.01234")):
        item = GroupItem(0, title, 647, 0, group_size(title, False), "tip")
        item.set_state(value, "0.01", INK, 1.0, False)
        said.append(item.texts()[1])
    assert len({text.startswith("647 nodes") for text in said}) == 1, said  # all or none
    assert [text.split("\n") for text in said] == [  # too narrow for the count: its tooltip
        ["value = 0", "grad = 0.01"], ["value ≈ 0.143", "grad = 0.01"],
        ["value ≈ 0.7406", "grad = 0.01"], ["value ≈ -0.01234", "grad = 0.01"]]
    wide = GroupItem(0, "model.layers[1].neurons[3]", 647, 0,
                     group_size("model.layers[1].neurons[3]", False), "tip")
    wide.set_state("≈ 0.7406", "0.01", INK, 1.0, False)
    assert wide.texts()[1] == "647 nodes   value ≈ 0.7406\ngrad = 0.01"  # room for it
