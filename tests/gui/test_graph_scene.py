"""What the graph shows at each step, read off the drawn items: colours, labels, folded
constants."""

from gui.graph.items import BACKWARD, CURRENT, INK, RECEIVED

NEURON_STEPS = 13  # forward steps of the lesson's neuron


def pen_rgba(item):
    return item.pen().color().rgba()


def edge_label(scene, node, k):
    edge = scene.edge_item(node, k)
    return None if edge is None or not edge.tag or not edge.tag.isVisible() else edge.label


def step_to(window, node):
    """Step the backward pass until `node`'s rule is the one just applied."""
    stepper = window.session.stepper
    while getattr(stepper.current, "node", None) is not node:
        assert window.session.step()


def test_a_mid_backward_step_shows_who_sent_what(window):
    scene = window.graph_tab.scene
    names = window.session.program.names
    z, p = names["z"], names["p"]  # p = tanh(z)
    step_to(window, p)
    before_tanh = window.session.stepper.position
    # the current node (p) and its operation are orange, the parent that received (z) green
    assert pen_rgba(scene.value_item_of(p)) == CURRENT.rgba()
    assert scene.op_items[scene.nodes.index(p)].pen().color().rgba() == CURRENT.rgba()
    assert pen_rgba(scene.value_item_of(z)) == RECEIVED.rgba()
    # the edge z -> tanh says local × upstream = contribution, in that order
    assert edge_label(scene, p, 0) == "1 × (-2)\n= -2"
    # the edge sent one step earlier (from p - y to p) is now plain blue, still labelled
    p_minus_y = names["loss"].parents[0]
    earlier = scene.edge_item(p_minus_y, 0)
    assert earlier.pieces[0].pen().color().rgba() == BACKWARD.rgba()
    assert earlier.label == "1 × (-2)\n= -2"
    # z's own rule has not run yet: its edges carry no label
    assert edge_label(scene, z, 0) is None and edge_label(scene, z, 1) is None
    window.session.step()  # z's rule: its two parents receive
    assert edge_label(scene, z, 0) == edge_label(scene, z, 1) == "1 × (-2)\n= -2"
    assert pen_rgba(scene.value_item_of(z)) == CURRENT.rgba()
    assert pen_rgba(scene.value_item_of(p)) == INK.rgba()
    window.session.seek(before_tanh - 1)  # back to before tanh's rule: its label goes
    assert edge_label(scene, p, 0) is None


def test_a_label_appears_exactly_at_the_step_that_sends_it(window):
    scene = window.graph_tab.scene
    loss = window.session.program.output
    window.session.seek(NEURON_STEPS + 1)  # the root step: dL/dL = 1, no edge yet
    assert edge_label(scene, loss, 0) is None
    window.session.step()  # loss = (p - y)^2 applies its rule
    assert edge_label(scene, loss, 0) == "-2 × 1\n= -2"


def test_constants_are_folded_into_their_operation(window):
    assert window.build("x = 0.5\ny = 1.2*x + 3")
    scene = window.graph_tab.scene
    ids = {r["id"]: r for r in scene.export_nodes()}
    assert [r["kind"] for r in scene.export_nodes()].count("constant") == 0
    assert sorted(r["label"] for r in ids.values() if r["kind"] == "op") == ["+ 3", "1.2 ×"]
    assert len(scene.export_edges()) == 4  # x -> ×, × -> (1.2*x), (1.2*x) -> +, + -> y
    # Right never lands on a step that shows nothing: the constants' steps are skipped
    tab = window.graph_tab
    tab.actions["step"].trigger()
    assert window.session.stepper.current is window.session.program.inputs["x"]
    tab.actions["step"].trigger()
    assert scene.current_item() is not None
    # the inspector still explains both local derivatives of 1.2*x
    product = window.session.program.output.parents[0]
    scene.clearSelection()
    scene.value_item_of(product).setSelected(True)
    text = window.inspector.toPlainText()
    assert "d(1.2 * x)/d1.2 = x = 0.5" in text and text.endswith("d(1.2 * x)/dx = 1.2")


def test_constants_as_nodes_brings_their_boxes_back(window):
    assert window.build("x = 0.5\ny = 1.2*x + 3")
    window.constants_action.setChecked(True)
    scene = window.graph_tab.scene
    kinds = [r["kind"] for r in scene.export_nodes()]
    assert kinds.count("constant") == 2 and kinds.count("op") == 2
    assert len(scene.export_edges()) == 6
    window.constants_action.setChecked(False)
    assert [r["kind"] for r in scene.export_nodes()].count("constant") == 0


def test_a_value_used_twice_by_one_operation_has_two_labelled_edges(window):
    assert window.build("q = 3\nr = q*q*q + q")
    window.session.run_to_end()
    scene = window.graph_tab.scene
    edges = [e for e in scene.export_edges() if e["source"] == "v0"]
    assert len(edges) == 4
    texts = sorted(e["label"]["text"] for e in edges)
    assert texts == ["1 × 1 = 1", "3 × 3 = 9", "3 × 3 = 9", "9 × 1 = 9"]
    rects = [e["label"]["rect"] for e in edges]
    for a in range(4):
        for b in range(a + 1, 4):
            assert not rects[a].intersects(rects[b])
    assert window.graph_tab.scene.value_item_of(window.session.program.inputs["q"]).texts()[2] \
        == "grad = 28"


def test_the_step_counter_counts_what_the_picture_shows(window):
    assert window.build("x = 0.5\ny = 1.2*x + 3")  # two folded constants
    tab = window.graph_tab
    assert tab.phase.text() == "ready: 3 forward and 3 backward steps"
    tab.actions["step"].trigger()
    assert tab.phase.text() == "forward 1/3"  # x
    tab.actions["step"].trigger()
    assert tab.phase.text() == "forward 2/3"  # 1.2*x, its constant skipped
    tab.actions["end"].trigger()
    assert tab.phase.text() == "backward 3/3 (done)"
    window.constants_action.setChecked(True)
    tab.actions["reset"].trigger()
    assert tab.phase.text() == "ready: 5 forward and 3 backward steps"


def test_a_long_name_keeps_its_end_and_a_formula_its_start(qtbot):
    """Boxes of sibling parameters stay told apart: `…neurons[3].w[1]`, not `model.la…`;
    a formula keeps its start and what it computes last (`w[0]*…[7][0]`)."""
    from PySide6.QtGui import QFont, QFontMetricsF

    from gui.graph.items import VALUE_W, elided

    metrics = QFontMetricsF(QFont())
    name = elided(metrics, "model.layers[0].neurons[3].w[1]", VALUE_W - 8)
    assert name.startswith("…") and name.endswith("w[1]")
    formula = elided(metrics, "relu((Σ 16 terms + b) × c + c) × 100 and more", VALUE_W - 8)
    assert formula.startswith("relu(") and formula.endswith("…")
    assert elided(metrics, "w1", VALUE_W - 8) == "w1"
    product = elided(metrics, "model.layers[0].neurons[15].w[0]*inputs[7][0]", VALUE_W - 8)
    assert product.startswith("w[0]*") and product.endswith("[0]")  # its product kept
