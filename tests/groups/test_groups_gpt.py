"""The groups of a microgpt training step, small (this engine's Values) and at the size
a learner meets (microgpt's own style of Value, 68,067 nodes, read by import_graph with
the caller's variables): the parameters by their names, each token position a convex
group of what its loss adds (its keys and values read by every later position), the
heads stacked, and titles a learner reads (`wte[5] + wpe[3]`, `losses[3]`, `reg_loss`).
Each is checked against the model's own objects or by brute force on the graph."""

from __future__ import annotations

import re

import networkx as nx
import pytest

from engine.core.value import Value, topological_order
from engine.io.graph_import import import_graph
from gui.graph.groups import (
    arrays_of,
    as_digraph,
    fast_quotient,
    group_graph,
    initial_expansion,
    shown_units,
)
from gui.jobs.group_child import program_arrays
from tests.foreign_models import microgpt_step as foreign_gpt
from tests.foreign_models import micrograd_demo
from tests.graph_models import graph_of, microgpt_step
from tests.groups.checks import ancestors, check_grouping, is_convex

TOKENS = (0, 5, 12, 3, 20, 7, 1, 9, 0)


def _imported(root, scope):
    program = import_graph(root, scope=[scope]).program
    index = {id(v): i for i, v in enumerate(program.values)}
    order = [index[id(v)] for v in topological_order(program.output)]
    arrays = program_arrays(program, order)
    return arrays, group_graph(arrays)


@pytest.fixture(scope="module")
def small():
    built = microgpt_step(positions=5, vocab=11, n_embd=8, n_head=2)
    nodes, roles = graph_of(built.loss)
    arrays = arrays_of(nodes, roles)
    return built, arrays, group_graph(arrays)


@pytest.fixture(scope="module")
def big():
    built = foreign_gpt(vocab_size=27, n_embd=16, n_head=4, block_size=8, tokens=TOKENS)
    arrays, grouping = _imported(built.loss, {"state_dict": built.state_dict,
                                              "losses": built.losses, "loss": built.loss})
    return built, arrays, grouping


def _members(grouping, g) -> set[int]:
    return set(grouping.order[g.first:g.last])


def _titled(grouping, title):
    return [g for g in grouping.groups if g.title == title]


def _within(grouping, g):
    """Every group inside group g."""
    return [h for h in grouping.groups if g.first <= h.first and h.last <= g.last
            and h.id != g.id]


def _is_parameter(arrays, i) -> bool:
    return not arrays.parents[i] and arrays.labels[i].startswith("state_dict[")


def _steps(arrays, terms) -> list[set[int]]:
    """By brute force: what each term depends on that no earlier one does, but the
    parameters and the leaves another step reads too."""
    found, before = [], set()
    for t in terms:
        mine = ancestors(arrays, {t})
        found.append({i for i in mine - before if not _is_parameter(arrays, i)})
        before |= mine
    users = {}
    for c, ps in enumerate(arrays.parents):
        for p in ps:
            users.setdefault(p, set()).add(c)
    for step in found:
        for i in [i for i in step if not arrays.parents[i]]:
            if not users[i] <= step:
                step.discard(i)
    return found


def _terms(built, arrays, which) -> list[int]:
    """Each position's loss, by the name import_graph gives it (big) or its Value."""
    if which == "big":
        at = {label: i for i, label in enumerate(arrays.labels)}
        return [at[f"losses[{k}]"] for k in range(len(built.losses))]
    nodes, _ = graph_of(built.loss)
    index = {id(v): i for i, v in enumerate(nodes)}
    return [index[id(v)] for v in built.losses]


@pytest.mark.parametrize("which", ["small", "big"])
def test_the_parameters_are_grouped_by_their_names_at_the_top(which, request):
    built, arrays, grouping = request.getfixturevalue(which)
    check_grouping(arrays, grouping, convex=False)  # every group: test_groups_models
    top = _titled(grouping, "state_dict")
    assert len(top) == 1 and top[0].parent == -1 and top[0].kind == "names"
    params = {i for i in range(len(arrays)) if _is_parameter(arrays, i)}
    assert _members(grouping, top[0]) == params  # every parameter, wte's rows too
    by_title = {g.title: g for g in grouping.groups if g.kind == "names"}
    for key, matrix in built.state_dict.items() if which == "big" else built.model.items():
        name = f"state_dict[{key!r}]"
        used = {i for i in params if arrays.labels[i].startswith(name + "[")}
        assert _members(grouping, by_title[name]) == used and by_title[name].parent == top[0].id
        for r in range(len(matrix)):
            row = {i for i in used if arrays.labels[i].startswith(f"{name}[{r}][")}
            if len(row) > 1:  # a row is a subgroup of its matrix
                assert _members(grouping, by_title[f"{name}[{r}]"]) == row


@pytest.mark.parametrize("which", ["small", "big"])
def test_each_position_is_a_convex_group_of_what_its_loss_adds(which, request):
    built, arrays, grouping = request.getfixturevalue(which)
    positions = len(built.losses)
    stack = _titled(grouping, f"positions × {positions}")
    assert len(stack) == 1 and stack[0].kind == "stack" and stack[0].instances == positions
    assert grouping.groups[stack[0].parent].parent == -1  # in the mean of the losses
    steps = _steps(arrays, _terms(built, arrays, which))
    for k, c in enumerate(stack[0].children):
        position = grouping.groups[c]
        assert position.kind == "instance"
        assert position.title == (f"losses[{k}]" if which == "big" else f"position {k}")
        assert _members(grouping, position) == steps[k]
        if which == "big" and k in (0, positions - 1):  # brute force: a minute for all
            assert is_convex(arrays, steps[k])
    assert is_convex(arrays, set().union(*steps[:3]))  # a run of positions is convex


def test_a_position_adds_its_embedding_then_its_keys_and_values_then_its_loss(big):
    built, arrays, grouping = big
    stack = _titled(grouping, "positions × 8")[0]
    for k, c in enumerate(stack.children):
        position = grouping.groups[c]
        inside = [grouping.groups[h] for h in position.children]
        embedding = [g for g in inside if g.title == f"wte[{TOKENS[k]}] + wpe[{k}]"]
        assert len(embedding) == 1 and embedding[0].members == 16
        assert all(arrays.ops[i] == "+" for i in _members(grouping, embedding[0]))
        if k < len(stack.children) - 1:
            titles = [g.title for g in inside]
            assert titles.count("layer(16 → 32)") == 1  # its keys and values
            assert "log(softmax(27)) × c" in titles  # -probs[target].log()


def test_the_heads_of_a_position_are_one_stack(big):
    built, arrays, grouping = big
    stack = _titled(grouping, "positions × 8")[0]
    for k, c in enumerate(stack.children[1:], start=1):  # attends to k + 1 positions
        heads = [g for g in _within(grouping, grouping.groups[c])
                 if g.title == "attention head × 4"]
        assert len(heads) == 1 and heads[0].instances == 4
        for h, child in enumerate(heads[0].children):
            head = grouping.groups[child]
            assert head.title == f"head {h}"
            assert f"softmax({k + 1})" in [grouping.groups[g].title for g in head.children]
            if k == 3:
                assert is_convex(arrays, _members(grouping, head))


def test_a_part_of_one_head_beside_the_heads_stack_is_titled_by_its_head(big):
    """At level 3 the last position shows each head's weighted sum of the values (and its
    scores' exp) beside the `attention head × 4` stack: each such box that takes from or
    gives to one head only says which, `attention head 3: layer(24 → 4)`."""
    built, arrays, grouping = big
    found = 0
    for stack in _titled(grouping, "attention head × 4"):
        heads = [_members(grouping, grouping.groups[c]) for c in stack.children]
        for g in grouping.groups:
            if g.parent != stack.parent or g.kind != "structure":
                continue
            inside = _members(grouping, g)
            touched = {h for h, nodes in enumerate(heads)
                       if any(p in nodes for u in inside for p in arrays.parents[u])
                       or any(p in inside for u in nodes for p in arrays.parents[u])}
            if len(touched) == 1:
                h = touched.pop()
                assert g.title.startswith(f"attention head {h}: "), g.title
                found += 1
            else:
                assert not g.title.startswith("attention head "), g.title
    assert found >= 8  # the last position's four weighted sums and four scores


def test_the_big_gpt_opens_on_a_screenful_whose_graph_of_groups_is_a_dag(big):
    built, arrays, grouping = big
    assert len(arrays) == 68_067
    expanded = initial_expansion(grouping)
    shown = fast_quotient(arrays, grouping, expanded)
    assert 10 <= len(shown.units) == shown_units(grouping, expanded) <= 60
    assert nx.is_directed_acyclic_graph(as_digraph(shown))
    assert grouping.top() == [g.id for g in grouping.groups if g.parent == -1]
    titles = {grouping.groups[g].title for g in grouping.top()}
    assert titles == {"loss", "state_dict"}
    stack = _titled(grouping, "positions × 8")[0]
    assert stack.id in expanded  # the positions are shown, one box each


def test_titles_are_never_parts_or_stacks_of_stacks(big):
    built, arrays, grouping = big
    for g in grouping.groups:
        assert ": part " not in g.title and not re.search(r"× \d+ ×", g.title), g.title
        if g.kind == "stack":
            assert g.title.endswith(f" × {g.instances}"), g.title


def test_the_regulariser_is_named_and_grouped_by_the_neurons_it_squares():
    built = micrograd_demo(20)
    arrays, grouping = _imported(built.loss, {"model": built.model, "inputs": built.inputs,
                                              "reg_loss": built.reg_loss,
                                              "data_loss": built.data_loss,
                                              "loss": built.loss})
    check_grouping(arrays, grouping, convex=False)
    reg = _titled(grouping, "reg_loss")
    top = _titled(grouping, "loss")  # all but the parameters, beside them
    assert [g.parent for g in top] == [-1] and grouping.top() == [top[0].id, _titled(
        grouping, "model")[0].id]
    assert len(reg) == 1 and reg[0].parent == top[0].id
    assert _titled(grouping, "data_loss")[0].parent == top[0].id
    rows = [grouping.groups[c] for c in reg[0].children
            if grouping.groups[c].title.endswith("²")]
    layers = built.model.layers
    assert [g.title for g in rows] == [f"layers[{k}].neurons[{j}]²" for k, layer in
                                      enumerate(layers) for j in range(len(layer.neurons))]
    for g, neuron in zip(rows, [n for layer in layers for n in layer.neurons]):
        assert g.members == len(neuron.parameters())  # p * p, one per parameter
        assert all(arrays.ops[i] == "*" for i in _members(grouping, g))
    assert len(reg[0].children) + len(reg[0].nodes) <= 40  # not cut in parts


def test_a_long_chain_of_layers_is_a_stack_whose_parts_say_which_layers():
    x = Value(0.5, "x")
    for k in range(250):
        x = (x * Value(0.9, f"w[{k}]") + Value(0.1, f"b[{k}]")).tanh()
    nodes, roles = graph_of(x)
    arrays = arrays_of(nodes, roles)
    grouping = group_graph(arrays)
    check_grouping(arrays, grouping)
    stacks = [g for g in grouping.groups if g.kind == "stack"]
    top = [g for g in stacks if g.parent < 0 or grouping.groups[g.parent].kind != "stack"]
    assert len(top) == 1 and top[0].title == "tanh(… × w[1] + b[1]) × 249"  # layer 1 on
    first = [grouping.groups[c] for c in top[0].children]  # three layers and the rest
    assert [g.kind for g in first] == ["instance"] * 3 + ["stack"]
    assert first[-1].instances == 246 and first[-1].title.endswith(" × 246")
    parts = [grouping.groups[c] for c in first[-1].children]
    assert len(parts) >= 3 and all(p.kind == "stack" for p in parts)
    assert sum(p.instances for p in parts) == 246
    for part in parts:
        ends = [part]
        while ends[0].kind == "stack":  # its first and last layers, through its parts
            ends = [grouping.groups[ends[0].children[0]], grouping.groups[ends[-1].children[-1]]]
        a, b = (re.fullmatch(r"(.+)\[(\d+)\]", g.title) for g in ends)  # `w[3–12]`
        c, d = (re.fullmatch(r"(.+) #(\d+)", g.title) for g in ends)  # `tanh(…) #3–12`
        said = f"{a[1]}[{a[2]}–{b[2]}]" if a and b and a[1] == b[1] else \
            f"{c[1]} #{c[2]}–{d[2]}" if c and d and c[1] == d[1] else \
            f"{ends[0].title}–{ends[-1].title}"
        assert part.title == said, part.title
        assert not re.search(r"× \d", part.title)
