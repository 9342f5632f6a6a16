"""The groups of the networks a learner builds: micrograd's demo MLP (on 3 points, and
once on 100) and a microgpt training step, each checked against what the model's own
objects say its pieces are (a neuron's parameters, a sample's nodes)."""

from __future__ import annotations

import re

import pytest

from engine.core.value import topological_order
from gui.graph.groups import (
    THRESHOLD,
    Grouping,
    arrays_of,
    expansion_to_level,
    group_graph,
    initial_expansion,
    shown_units,
)
from tests.graph_models import graph_of, microgpt_step, micrograd_mlp
from tests.groups.checks import check_grouping


def _grouped(built):
    nodes, roles = graph_of(built.loss)
    arrays = arrays_of(nodes, roles)
    index = {id(v): i for i, v in enumerate(nodes)}
    return arrays, group_graph(arrays), index


def _members(grouping: Grouping, g) -> set[int]:
    return set(grouping.order[g.first:g.last])


def _reach(values, index) -> set[int]:
    return {index[id(v)] for root in values for v in topological_order(root)}


def _own(root, others, index) -> set[int]:
    """The nodes `root` depends on that none of `others` does."""
    return _reach([root], index) - _reach(others, index)


@pytest.fixture(scope="module")
def mlp3():
    built = micrograd_mlp(3)
    return (built, *_grouped(built))


def test_the_small_mlp_is_grouped_and_every_group_is_convex(mlp3):
    built, arrays, grouping, _ = mlp3
    assert len(arrays) > THRESHOLD
    check_grouping(arrays, grouping)


def test_the_shared_parameters_are_grouped_by_layer_and_neuron(mlp3):
    built, arrays, grouping, index = mlp3
    by_title = {g.title: g for g in grouping.groups if g.kind == "names"}
    model = by_title["model"]
    assert model.parent == -1
    assert _members(grouping, model) == {index[id(p)] for p in built.model.parameters()}
    for k, layer in enumerate(built.model.layers):
        for j, neuron in enumerate(layer.neurons):
            name = f"model.layers[{k}].neurons[{j}]"
            assert _members(grouping, by_title[name]) == {index[id(p)]
                                                          for p in neuron.parameters()}
        if len(layer.neurons) > 1:  # a layer of one neuron is merged into the neuron
            group = by_title[f"model.layers[{k}]"]
            assert group.parent == model.id
            assert [grouping.groups[c].title for c in group.children] == [
                f"model.layers[{k}].neurons[{j}]" for j in range(len(layer.neurons))]


def test_the_samples_are_one_stack_of_instances_named_by_their_inputs(mlp3):
    built, arrays, grouping, index = mlp3
    stacks = [g for g in grouping.groups if g.kind == "stack"]
    assert len(stacks) == 1
    stack = stacks[0]
    points = len(built.inputs)
    assert stack.instances == points and stack.title.endswith(f"× {points}")
    reg = built.loss.parents[1]  # data loss + reg loss
    for s, child in enumerate(stack.children):
        instance = grouping.groups[child]
        assert (instance.kind, instance.title) == ("instance", f"inputs[{s}]")
        others = [loss for t, loss in enumerate(built.losses) if t != s] + [reg]
        assert _members(grouping, instance) == _own(built.losses[s], others, index)


def test_each_neuron_of_each_sample_is_a_region_titled_by_what_it_computes(mlp3):
    built, arrays, grouping, index = mlp3
    by_members = {frozenset(_members(grouping, g)): g for g in grouping.groups}
    params = [p for p in built.model.parameters()]
    for s, (layer0, layer1, _) in enumerate(built.layers):
        for j, out in enumerate(layer0):  # and by its neuron, which its parameters name
            group = by_members[frozenset(_own(out, params + built.inputs[s], index))]
            assert group.title == f"neurons[{j}]: relu(Σ {len(built.inputs[s])} terms + b)"
        for j, out in enumerate(layer1):
            group = by_members[frozenset(_own(out, params + layer0, index))]
            assert group.title == f"neurons[{j}]: relu(Σ {len(layer0)} terms + b)"
            assert group.members == 2 * len(layer0) + 1  # its products, sums and relu


def test_what_opens_first_fits_the_screen_and_levels_open_in_turn(mlp3):
    built, arrays, grouping, _ = mlp3
    assert shown_units(grouping, set()) < 10
    expanded = initial_expansion(grouping, budget=60)
    assert 10 <= shown_units(grouping, expanded) <= 60
    for g in grouping.top():  # a top group is open unless opening it is too much
        assert g in expanded or shown_units(grouping, expanded | {g}) > 60
    assert len(set(grouping.top()) & expanded) >= 2
    for g in expanded:  # breadth first: everything around an open group is open
        assert all(a in expanded for a in grouping.ancestors(grouping.order[
            grouping.groups[g].first]) if grouping.depth(a) < grouping.depth(g))
    assert expansion_to_level(grouping, 0) == set()
    assert expansion_to_level(grouping, 1) == set(grouping.top())
    assert expansion_to_level(grouping, 99) == {g.id for g in grouping.groups}
    assert initial_expansion(grouping, budget=len(arrays)) == {g.id for g in grouping.groups}


def test_the_100_point_mlp_is_a_stack_of_100_samples():
    built = micrograd_mlp(100)
    arrays, grouping, index = _grouped(built)
    assert len(arrays) == 65_818
    check_grouping(arrays, grouping, convex=False)  # brute force is for smaller graphs
    stack = next(g for g in grouping.groups if g.kind == "stack")
    assert stack.instances == 100 and stack.title.endswith("× 100")
    samples = _instances(grouping, stack)
    assert [g.title for g in samples] == [f"inputs[{s}]" for s in range(100)]
    reg = built.loss.parents[1]
    for s in (0, 57, 99):
        others = [loss for t, loss in enumerate(built.losses) if t != s] + [reg]
        assert _members(grouping, samples[s]) == _own(built.losses[s], others, index)
    # opened, it shows its first three samples and the other 97 as one stack, which
    # opens on parts of ten: no level draws more than a few boxes with their edges
    first = [grouping.groups[c] for c in stack.children]
    assert [g.title for g in first] == ["inputs[0]", "inputs[1]", "inputs[2]",
                                        "inputs[3–99] × 97"]  # not "… 97 more": … is a cut
    rest = first[-1]
    assert rest.kind == "stack" and rest.instances == 97
    parts = [grouping.groups[c] for c in rest.children]
    assert len(parts) == 10 and all(p.kind == "stack" and p.instances <= 10 for p in parts)
    assert parts[0].title == "inputs[3–12]" and sum(p.instances for p in parts) == 97
    model = next(g for g in grouping.groups if g.title == "model")
    assert model.members == len(built.model.parameters())
    assert shown_units(grouping, initial_expansion(grouping)) <= 60


def _instances(grouping, stack) -> list:
    """A stack's instances in order, through the stacks of its parts."""
    found = []
    for c in stack.children:
        child = grouping.groups[c]
        found.extend(_instances(grouping, child) if child.kind == "stack" else [child])
    return found


@pytest.fixture(scope="module")
def gpt():
    built = microgpt_step(positions=4, vocab=11, n_embd=8, n_head=2)
    return (built, *_grouped(built))


def test_the_gpt_step_is_grouped_and_every_group_is_convex(gpt):
    built, arrays, grouping, _ = gpt
    assert len(arrays) > THRESHOLD
    check_grouping(arrays, grouping)
    assert shown_units(grouping, set()) <= 40


def test_each_positions_loss_is_a_region_of_its_softmax(gpt):
    built, arrays, grouping, index = gpt
    vocab = len(built.model["wte"])
    found = [g for g in grouping.groups if g.title == f"neg(log(softmax({vocab})))"]
    # the last position's keys and values are read by its own loss only: its region is
    # the whole position, shown as the position
    assert len(found) == len(built.losses) - 1
    last = next(g for g in grouping.groups if g.title == f"position {len(built.losses) - 1}")
    regions = {frozenset(_members(grouping, g)) for g in [*found, last]}
    params = {index[id(v)] for matrix in built.model.values() for row in matrix for v in row
              if id(v) in index}  # a token's embedding row is grouped with the parameters
    for loss in built.losses:
        others = [o for o in built.losses if o is not loss]
        assert frozenset(_own(loss, others, index) - params) in regions


def test_attention_softmaxes_and_rmsnorms_are_groups_stacked_where_alike(gpt):
    built, arrays, grouping, _ = gpt
    positions, heads = len(built.losses), 2
    stack = next(g for g in grouping.groups if g.title == f"positions × {positions}")
    for p in range(1, positions):  # at position p a head attends to p + 1 positions
        position = grouping.groups[stack.children[p]]
        inside = [g for g in grouping.groups if position.id in grouping.ancestors(
            grouping.order[g.first]) and g.id != position.id]
        found = [g for g in inside if g.title == f"attention head × {heads}"]
        assert len(found) == 1 and found[0].instances == heads  # the heads, stacked
        for k, h in enumerate(found[0].children):
            head = grouping.groups[h]
            assert head.title == f"head {k}"
            assert [grouping.groups[c].title for c in head.children].count(
                f"softmax({p + 1})") == 1
    embd = len(built.model["wte"][0])
    said = {g.id: g.title if g.kind != "instance" else grouping.groups[g.parent].title
            for g in grouping.groups}
    rms = [g for g in grouping.groups if g.kind != "stack"
           and said[g.id].startswith(f"rmsnorm({embd})")]
    assert len(rms) == 3 * positions  # before the layer, its attention and its MLP
    # x·x, the sum's links (sum starts from 0), ÷ N, + ε, ^-0.5 and x·scale
    assert all(g.members == embd + embd + 3 + embd for g in rms)


def test_each_positions_keys_and_values_are_one_layer_read_by_every_later_position(gpt):
    built, arrays, grouping, _ = gpt
    embd = len(built.model["wte"][0])
    stack = next(g for g in grouping.groups if g.title == f"positions × {len(built.losses)}")
    position_of = {}
    for k, c in enumerate(stack.children):
        for i in _members(grouping, grouping.groups[c]):
            position_of[i] = k
    for k, c in enumerate(stack.children[:-1]):  # the last one's are inside its heads
        layers = [grouping.groups[g] for g in grouping.groups[c].children
                  if grouping.groups[g].title == f"layer({embd} → {2 * embd})"]
        assert len(layers) == 1
        inside = _members(grouping, layers[0])
        readers = {position_of[r] for r in range(len(arrays)) if r not in inside
                   for p in arrays.parents[r] if p in inside}
        assert readers == set(range(k, len(built.losses)))


def test_a_grouping_crosses_to_and_from_a_child_process_as_it_is(gpt):
    """The child that groups a big graph sends its arrays and grouping by pickle."""
    import pickle
    built, arrays, grouping, _ = gpt
    assert pickle.loads(pickle.dumps((arrays, grouping))) == (arrays, grouping)


def test_twelve_heads_are_one_stack_of_heads_opened_on_three_and_the_rest():
    """12 heads: their stages (scores, softmax, weighted sum) merged into one stack of
    12 heads first, which then opens on its first three heads and one stack of the rest,
    not three stacks of stages each cut into three and the rest."""
    built = microgpt_step(positions=3, vocab=11, n_embd=24, n_head=12)
    nodes, roles = graph_of(built.loss)
    arrays = arrays_of(nodes, roles)
    grouping = group_graph(arrays)
    heads = [g for g in grouping.groups if g.title == "attention head × 12"]
    assert len(heads) == 2  # the positions that attend to more than themselves
    for stack in heads:
        first = [grouping.groups[c] for c in stack.children]
        assert [g.title for g in first[:3]] == ["head 0", "head 1", "head 2"]
        assert first[3].title == "head 3–head 11 × 9" and first[3].instances == 9
        assert all(any(grouping.groups[k].title.startswith("softmax(") for k in g.children)
                   for g in first[:3])
    assert not [g for g in grouping.groups if re.fullmatch(r"(softmax|layer)\(.*\) × 12",
                                                         g.title)]
