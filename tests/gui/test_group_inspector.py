"""Selecting a collapsed group shows it in the inspector: its name, what it is, how many
nodes it holds, a stack's instances, its output's value and gradient when it has one
output (else how many it has), the units it takes from and gives to, and how to open it.
Each is checked against the grouping and the graph, not against the inspector's code."""

from engine.numbers import exact
from tests.gui.grouped_models import load_grouped


def ready(window) -> bool:
    tab = window.graph_tab
    return not window.building and not tab.laying_out and tab.scene.shown is not None


def select(window, g: int) -> str:
    scene = window.graph_tab.scene
    scene.clearSelection()
    scene.group_items[g].setSelected(True)
    return " ".join(window.inspector.toPlainText().split())  # a table's cells, spaced


def neighbours(shown, g: int) -> tuple[set[str], set[str]]:
    """The titles of the units drawn that give to group g and that it gives to, from the
    graph's operands (each node's unit as drawn)."""
    members, parents, unit_of = shown.members(g), shown.arrays.parents, shown.quotient.unit_of

    def name(u: int) -> str:
        return shown.groups[-1 - u].title if u < 0 else shown.stepper.forward_steps[u].label
    takes, gives = set(), set()
    for c, ps in enumerate(parents):
        for p in ps:
            if c in members and p not in members:
                takes.add(name(unit_of[p]))
            elif p in members and c not in members:
                gives.add(name(unit_of[c]))
    return takes, gives


def test_a_selected_stack_is_described_in_the_inspector(window, qtbot):
    program, grouping = load_grouped(window, points=4)
    qtbot.waitUntil(lambda: ready(window), timeout=60_000)
    shown = window.graph_tab.expansion.shown
    stack = next(g for g in grouping.groups if g.kind == "stack")
    text = select(window, stack.id)
    assert f"name {stack.title}" in text
    assert f"{stack.members:,} nodes" in text
    assert f"each computes {stack.title.removesuffix(' × 4')} instances" in text
    names = [grouping.groups[c].title for c in stack.children]
    assert f"instances {len(names)}: {', '.join(names)}" in text
    outputs = len({p for c, ps in enumerate(shown.arrays.parents) if c not in shown.members(
        stack.id) for p in ps if p in shown.members(stack.id)})
    assert outputs == 4 and f"{outputs} nodes used outside it" in text
    takes, gives = neighbours(shown, stack.id)
    assert {"layers[0]", "layers[1]"} <= takes
    for title in takes | gives:
        assert title in text, title
    assert "Double-click" in text and "+" in text


def test_a_selected_group_of_one_output_shows_its_value_and_gradient(window, qtbot):
    program, grouping = load_grouped(window, points=4)
    qtbot.waitUntil(lambda: ready(window), timeout=60_000)
    tab = window.graph_tab
    stack = next(g for g in grouping.groups if g.kind == "stack")
    sample = grouping.groups[stack.children[1]]
    for g in (stack.id, sample.id):
        before = tab.scene
        tab.expansion.expand(g)
        qtbot.waitUntil(lambda old=before: tab.scene is not old and ready(window),
                        timeout=60_000)
    shown = tab.expansion.shown
    neuron = grouping.groups[sample.children[0]]
    assert neuron.kind == "structure" and neuron.id in tab.scene.group_items
    output = shown.stepper.forward_steps[neuron.last - 1]
    text = select(window, neuron.id)
    assert neuron.title in text and "not computed yet" in text and "not reached yet" in text
    window.session.run_to_end()
    text = select(window, neuron.id)
    assert f"value {exact(output.data)}" in text  # every digit, as a node's inspector
    assert f"gradient {exact(output.grad)}" in text and output.grad != 0
    takes, gives = neighbours(shown, neuron.id)
    for title in takes | gives:
        assert title in text, title
