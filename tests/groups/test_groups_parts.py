"""The grouping's parts on small hand-made graphs: the paths of names, the titles, the
isomorphism certificate against networkx's Weisfeiler-Lehman hash, a stack refused
because its union would not be convex, arrays_of on this engine's Values."""

from __future__ import annotations

import networkx as nx
import pytest

from engine.core import ops
from engine.core.value import Value, topological_order
from gui.graph.groups import GraphArrays, arrays_of, group_graph
from gui.graph.groups.names import path_parts, path_prefixes
from gui.graph.groups.repetition import canonical_form
from gui.graph.groups.structure import chain_heads, consumers_of
from gui.graph.groups.titles import Describer, short_name
from tests.groups.checks import check_grouping

ADD, MUL, TANH, EXP, NEG = (ops.ADD.name, ops.MUL.name, ops.TANH.name, ops.EXP.name,
                            ops.NEG.name)


def test_paths_are_parsed_into_attributes_and_indices():
    assert path_parts("model.layers[1].neurons[3].w[0]") == [
        "model", ".layers", "[1]", ".neurons", "[3]", ".w", "[0]"]
    assert path_parts("state_dict['attn_wq'][2][5]") == [
        "state_dict", "['attn_wq']", "[2]", "[5]"]
    assert path_parts('d["k"][-1]') == ["d", '["k"]', "[-1]"]
    for not_a_path in ("", "2x", "a.", "a[1", "a[b]", "f(x)", "a + b", "v0 x"):
        assert path_parts(not_a_path) is None


def test_a_group_per_prefix_ending_with_an_index_or_the_variable():
    assert path_prefixes("model.layers[1].neurons[3].w[0]") == [
        "model", "model.layers[1]", "model.layers[1].neurons[3]"]
    assert path_prefixes("model.layers[1].neurons[3].b") == [
        "model", "model.layers[1]", "model.layers[1].neurons[3]"]
    assert path_prefixes("inputs[7][0]") == ["inputs", "inputs[7]"]
    assert path_prefixes("x") == []


def test_titles_say_what_a_region_computes_with_the_brackets_it_needs():
    built = []
    x, w, b = Value(0.5, "model.w[0]"), Value(0.3, "model.w[1]"), Value(0.1, "model.b")
    k = Value(2.0)
    neuron = (x * w + w * x + b).relu()
    built.append((neuron, "relu(Σ 2 terms + b)"))
    built.append(((x * w + b) * k - k, "(w[0] × w[1] + b) × c − c"))
    built.append(((x - w) - (b - k), "w[0] − w[1] − (b − c)"))
    built.append((((x * w + w * x + b) * k).tanh(), "tanh((Σ 2 terms + b) × c)"))
    root = sum((v for v, _ in built), Value(0.0))
    nodes = topological_order(root)
    arrays = arrays_of(nodes, {})
    describe = Describer(arrays, chain_heads(arrays, consumers_of(arrays)))
    at = {id(v): i for i, v in enumerate(nodes)}
    assert [describe.describe(at[id(v)]) for v, _ in built] == [t for _, t in built]


def test_a_leaf_is_titled_by_its_last_part():
    assert short_name("model.layers[1].neurons[3].b") == "b"
    assert short_name("model.layers[1].neurons[3].w[0]") == "w[0]"
    assert short_name("inputs[7][0]") == "inputs[7][0]"
    assert short_name("state_dict['wte'][3][0]") == "wte[3][0]"
    assert short_name("not a path") == "not a path"


def _arrays(parents, opnames, labels=None) -> GraphArrays:
    labels = labels or [""] * len(parents)
    roles = ["input" if not p and name else "constant" if not p else "intermediate"
             for p, name in zip(parents, labels)]
    roles[-1] = "output"
    return GraphArrays(list(parents), list(opnames), list(labels), roles, len(parents) - 1)


def _block(parents, opnames, x, w):
    """Three nodes: tanh((x·w)·w); returns the tanh."""
    parents += [(x, w), (len(parents), w), (len(parents) + 1,)]
    opnames += [MUL, MUL, TANH]
    return len(parents) - 1


def test_alike_siblings_are_not_stacked_when_their_union_is_not_convex():
    # z1 → A → exp → B, and the output sums z1, A, the exp and B: A and B compute the
    # same thing from a result outside them, but a path leaves A and comes back into B
    parents, opnames = [(), (), (0,)], ["", "", NEG]  # z, w, z1 = -z
    a = _block(parents, opnames, 2, 1)
    parents.append((a,))
    opnames.append(EXP)
    m = len(parents) - 1
    b = _block(parents, opnames, m, 1)
    total = 2
    for t in (a, m, b):
        parents.append((total, t))
        opnames.append(ADD)
        total = len(parents) - 1
    arrays = _arrays(parents, opnames)
    assert canonical_form(arrays, [3, 4, 5]) == canonical_form(arrays, [7, 8, 9])
    grouping = group_graph(arrays, threshold=0)
    check_grouping(arrays, grouping)
    assert [g.kind for g in grouping.groups if g.kind in ("stack", "instance")] == []
    assert sorted(g.members for g in grouping.groups if g.kind == "structure") == [3, 3]


def test_alike_siblings_side_by_side_are_stacked():
    parents, opnames = [(), (), (0,)], ["", "", NEG]
    roots = [_block(parents, opnames, 2, 1) for _ in range(4)]
    total = roots[0]
    for t in roots[1:]:
        parents.append((total, t))
        opnames.append(ADD)
        total = len(parents) - 1
    arrays = _arrays(parents, opnames)
    grouping = group_graph(arrays, threshold=0)
    check_grouping(arrays, grouping)
    stack = [g for g in grouping.groups if g.kind == "stack"]
    assert len(stack) == 1 and stack[0].instances == 4 and stack[0].members == 12
    assert stack[0].title == "tanh(… × c × c) × 4"  # neg(c), read by all, is outside
    assert [grouping.groups[c].title for c in stack[0].children] == [  # what it computes
        f"tanh(… × c × c) #{k}" for k in range(4)]


def _nx_region(arrays: GraphArrays, members: list[int]) -> nx.DiGraph:
    """The region with its operands outside as labelled boundary nodes: a leaf by its
    identity, anything else as 'outside'."""
    graph = nx.DiGraph()
    inside = set(members)
    for u in members:
        graph.add_node(u, label=arrays.ops[u])
        for k, p in enumerate(arrays.parents[u]):
            if p not in inside:
                graph.add_node(("x", p), label=f"leaf {p}" if not arrays.parents[p]
                               else "outside")
                graph.add_edge(("x", p), u, label=str(k))
            else:
                graph.add_edge(p, u, label=str(k))
    return graph


def _wl(graph: nx.DiGraph) -> str:
    return nx.weisfeiler_lehman_graph_hash(graph, node_attr="label", edge_attr="label")


@pytest.mark.filterwarnings("ignore:The hashes produced for directed graphs changed")
@pytest.mark.parametrize("seed", range(6))
def test_the_canonical_form_agrees_with_networkx_weisfeiler_lehman(seed):
    """Regions the same code made (the same MLP neuron on two samples) have one
    canonical form and one WL hash; a neuron with another activation, or reading
    another weight, differs in both."""
    import random
    rng = random.Random(seed)
    w = [Value(rng.uniform(-1, 1), f"w[{i}]") for i in range(3)]
    b = Value(0.1, "b")

    def neuron(xs, act=Value.relu, weights=w):
        return act(sum((wi * xi for wi, xi in zip(weights, xs)), b))

    samples = [[Value(rng.uniform(-1, 1)) for _ in range(3)] for _ in range(3)]
    outs = [neuron(samples[0]), neuron(samples[1]), neuron(samples[2], Value.tanh),
            neuron(samples[0], weights=[w[1], w[0], w[2]])]
    root = outs[0] + outs[1] + outs[2] + outs[3]
    nodes = topological_order(root)
    arrays = arrays_of(nodes, {})
    index = {id(v): i for i, v in enumerate(nodes)}
    regions = [sorted({index[id(v)] for v in topological_order(o)} - {index[id(p)] for p in
                                                                      [*w, b]})
               for o in outs[:3]]
    regions.append(sorted({index[id(v)] for v in topological_order(outs[3])}
                          - {index[id(p)] for p in [*w, b, *samples[0]]}))
    forms = [canonical_form(arrays, r) for r in regions]
    hashes = [_wl(_nx_region(arrays, r)) for r in regions]
    assert forms[0] == forms[1] and hashes[0] == hashes[1]
    assert forms[0] != forms[2] and hashes[0] != hashes[2]
    assert forms[0] != forms[3] and hashes[0] != hashes[3]


def test_arrays_of_reads_the_values_in_their_order():
    x, y = Value(2.0, "x"), Value(3.0)
    out = (x * y).tanh() + x
    nodes = topological_order(out)
    arrays = arrays_of(nodes, {x: "input", y: "constant", out: "output"})
    at = {id(v): i for i, v in enumerate(nodes)}
    assert arrays.parents == [tuple(at[id(p)] for p in v.parents) for v in nodes]
    assert arrays.ops == [v.op for v in nodes]
    assert arrays.labels == [v.label for v in nodes]
    assert arrays.roles == ["input" if v is x else "constant" if v is y else "output"
                            if v is out else "intermediate" for v in nodes]
    assert arrays.output == len(nodes) - 1 == at[id(out)]
    with pytest.raises(ValueError, match="operand"):
        arrays_of(nodes[1:], {})
    with pytest.raises(ValueError, match="before one of its operands"):
        arrays_of(nodes[::-1], {})
