"""A grouped graph in the window: it opens collapsed, a group opens and closes, the
breadcrumb, Ctrl+F and Expand to level N find their way, stepping at the level shown
reaches the gradients of stepping node by node, and the collapsed drawing is clean."""

import pytest
from PySide6.QtCore import Qt

from gui.graph.export import graph_records
from tests.gui.graph_geometry import edges_through_boxes, overlapping_boxes, overlapping_labels
from tests.gui.grouped_models import grouped_mlp, load_grouped


def drawn(window, qtbot):
    tab = window.graph_tab
    qtbot.waitUntil(lambda: not tab.laying_out and tab.scene.shown is not None,
                    timeout=60_000)
    return tab.scene


def expanded_and_drawn(window, qtbot, action):
    tab = window.graph_tab
    before = tab.scene
    action()
    qtbot.waitUntil(lambda: tab.scene is not before and not tab.laying_out, timeout=60_000)
    return tab.scene


def test_a_grouped_graph_opens_collapsed_with_a_box_per_top_group(window, qtbot):
    program, grouping = load_grouped(window)
    scene = drawn(window, qtbot)
    top = set(grouping.top())
    assert set(scene.group_items) == top
    kinds = {g.kind for g in grouping.groups if g.id in top}
    assert kinds == {"names", "stack"}
    # every node is in a group but the accumulation of the loss: those are boxes
    loose = [i for i in range(len(program.values)) if grouping.group_of[i] < 0]
    assert sorted(scene._box) == [i for i in loose if program.values[i]._prev
                                  or program.values[i].label]
    stack = next(g for g in grouping.groups if g.kind == "stack")
    record = next(r for r in scene.export_nodes() if r["id"] == f"g{stack.id}")
    assert record["kind"] == "group" and record["instances"] == 4
    assert record["members"] == stack.members and record["name"] == "sample × 4"
    g = graph_records(scene)  # the JSON keeps the group's record whole
    assert next(n for n in g["nodes"] if n["id"] == f"g{stack.id}") == record
    assert scene.group_items[stack.id].texts()[1].startswith(f"× 4 · {stack.members:,} nodes")


def test_the_collapsed_drawing_is_clean(window, qtbot):
    load_grouped(window, points=6, sizes=(2, 4, 4, 1))
    scene = drawn(window, qtbot)
    window.graph_tab.actions["end"].trigger()  # every label shown
    g = graph_records(scene)
    assert any(n["kind"] == "group" for n in g["nodes"])
    assert edges_through_boxes(g) == []
    assert overlapping_boxes(g) == []
    assert overlapping_labels(g) == []


def test_expanding_and_collapsing_change_what_is_drawn(window, qtbot):
    program, grouping = load_grouped(window)
    tab = window.graph_tab
    scene = drawn(window, qtbot)
    stack = next(g for g in grouping.groups if g.kind == "stack")
    scene = expanded_and_drawn(window, qtbot,
                               lambda: tab.view.double_clicked.emit(scene.group_items[stack.id]))
    assert stack.id not in scene.group_items
    assert set(stack.children) <= set(scene.group_items)  # each sample, collapsed
    sample = stack.children[2]
    scene.group_items[sample].setSelected(True)
    assert tab.breadcrumb.words() == "graph › sample × 4"
    scene = expanded_and_drawn(window, qtbot, tab.expansion.actions["expand"].trigger)
    neurons = grouping.groups[sample].children
    assert set(neurons) <= set(scene.group_items) and sample not in scene.group_items
    # the sample's own nodes (its inputs, its loss term) are boxes now
    assert set(grouping.groups[sample].nodes) & set(scene._box)
    scene.group_items[neurons[0]].setSelected(True)
    assert tab.breadcrumb.words() == "graph › sample × 4 › sample 2"
    # − closes the group around the selection; the breadcrumb's link closes the stack
    scene = expanded_and_drawn(window, qtbot, tab.expansion.actions["collapse"].trigger)
    assert sample in scene.group_items and neurons[0] not in scene.group_items
    scene = expanded_and_drawn(window, qtbot, lambda: tab.breadcrumb.collapse.emit(stack.id))
    assert set(scene.group_items) == set(grouping.top())


def test_expand_to_level_and_collapse_all(window, qtbot):
    program, grouping = load_grouped(window)
    tab = window.graph_tab
    drawn(window, qtbot)
    scene = expanded_and_drawn(window, qtbot, tab.expansion.actions["level2"].trigger)
    depth2 = {g.id for g in grouping.groups if grouping.depth(g.id) == 2}
    assert set(scene.group_items) == depth2 and depth2
    scene = expanded_and_drawn(window, qtbot, tab.expansion.actions["level0"].trigger)
    assert set(scene.group_items) == set(grouping.top())


def test_find_opens_what_hides_a_node_and_selects_it(window, qtbot):
    program, grouping = load_grouped(window)
    tab = window.graph_tab
    drawn(window, qtbot)
    name = "inputs[3][1]"
    tab.expansion.actions["find"].trigger()  # (the completer's list is filled on opening)
    assert name in tab.find_bar.model.stringList()
    assert tab.find_bar.isVisible()
    before = tab.scene
    tab.find_bar.edit.setText(name)  # as the completion leaves it
    qtbot.keyClick(tab.find_bar.edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: tab.scene is not before and not tab.laying_out, timeout=60_000)
    node = program.names[name]
    item = tab.scene.value_item_of(node)
    assert item is not None and item.isSelected() and item.texts()[0] == name
    assert tab.breadcrumb.words() == "graph › sample × 4 › sample 3"


@pytest.mark.parametrize("open_stack", [False, True])
def test_stepping_at_the_level_shown_reaches_the_same_gradients(window, qtbot, open_stack):
    loss, nodes, _, _ = grouped_mlp()
    loss.backward()
    expected = {v.label: v.grad for v in nodes if v.label}
    program, grouping = load_grouped(window)
    tab = window.graph_tab
    drawn(window, qtbot)
    if open_stack:
        stack = next(g for g in grouping.groups if g.kind == "stack")
        expanded_and_drawn(window, qtbot, lambda: tab.expansion.expand(stack.id))
    stepper = window.session.stepper
    presses = 0
    while not window.session.at_end:
        tab.actions["step"].trigger()
        presses += 1
    forward, backward = tab.expansion.levels().counts()
    assert presses == forward + backward  # one press per unit's forward, one per backward
    assert presses < stepper.total
    got = {v.label: v.grad for v in program.values if v.label}
    assert got == expected
    assert tab.phase.text().startswith(f"backward {backward}/{backward}")


def test_the_phase_says_the_level_and_the_view_follows_into_a_group(window, qtbot):
    program, grouping = load_grouped(window)
    tab = window.graph_tab
    scene = drawn(window, qtbot)
    stack = next(g for g in grouping.groups if g.kind == "stack")
    stepper = window.session.stepper
    while stepper.position < stack.last:  # the stack's forward: one press
        tab.actions["step"].trigger()
    assert tab.phase.text().endswith("· sample × 4")
    assert tab.view.step_items()[0] is scene.group_items[stack.id]
    scene = expanded_and_drawn(window, qtbot, lambda: tab.expansion.expand(stack.id))
    # opened on its own step: the stack's first inner step is the one just taken, and
    # Right steps inside it
    first, second = stack.children[:2]
    assert stepper.position == grouping.groups[first].last
    assert scene.group_items[first].pen().widthF() == 3.0
    assert tab.phase.text().endswith("· inside sample × 4 · sample 0")
    tab.actions["step"].trigger()
    assert stepper.position == grouping.groups[second].last
    assert tab.view.step_items()[0] is scene.group_items[second]
    tab.actions["back"].trigger()
    assert stepper.position == grouping.groups[first].last


def test_micrograds_mlp_opens_grouped_and_its_collapsed_drawing_is_clean(window, qtbot):
    from engine.core.value import topological_order
    from tests.graph_models import micrograd_mlp
    from tests.gui.grouped_models import program_of, stepper_of

    loss = micrograd_mlp(8).loss
    nodes = topological_order(loss)
    assert len(nodes) > 5_000
    window.session.load_prepared(program_of(nodes), stepper_of(loss, nodes))
    tab = window.graph_tab
    qtbot.waitUntil(lambda: tab.scene.shown is not None and not tab.laying_out
                    and not window.building, timeout=120_000)
    scene = tab.scene
    kinds = {scene.shown.groups[g].kind for g in scene.group_items}
    assert kinds & {"stack", "instance"}  # the 8 samples: a stack, or opened to them
    tab.actions["end"].trigger()  # every edge labelled
    g = graph_records(scene)
    assert sum(n["kind"] == "group" for n in g["nodes"]) == len(scene.group_items)
    assert edges_through_boxes(g) == []
    assert overlapping_boxes(g) == []
    assert overlapping_labels(g) == []


def test_a_big_program_is_grouped_as_it_is_parsed_and_stepped_once(window, qtbot):
    from benchmarks.build_gaps import chain_program

    loads = []
    window.session.loaded.connect(lambda: loads.append(window.session.stepper))
    assert window.build(chain_program(30_000))
    tab = window.graph_tab
    qtbot.waitUntil(lambda: not window.building and tab.scene.shown is not None
                    and not tab.laying_out, timeout=120_000)
    assert len(loads) == 1  # made in the grouping's order: never made again
    shown = tab.scene.shown
    assert shown.stepper is loads[0] and shown.grouping.groups
    assert len(shown.quotient.units) < 200 < len(loads[0].forward_steps)


def test_waiting_for_the_build_and_the_layout_leaves_the_grouped_picture(window):
    """What draw() and export wait for: grouped, stepped again in its order, drawn."""
    from engine.core.value import topological_order
    from tests.graph_models import micrograd_mlp
    from tests.gui.grouped_models import program_of, stepper_of

    loss = micrograd_mlp(8).loss
    nodes = topological_order(loss)
    window.session.load_prepared(program_of(nodes), stepper_of(loss, nodes))
    assert window.wait_for_build()
    assert window.graph_tab.wait_for_layout()
    scene = window.graph_tab.scene
    assert scene.shown is not None and scene.stepper is window.session.stepper
    assert scene.group_items and scene.levels is not None
