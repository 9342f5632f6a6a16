"""The grouping's promises on random graphs: every group convex (by brute force), the
groups laminar, the order topological with every group contiguous, and the quotient a
DAG (networkx) for random choices of open groups."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import ops
from gui.graph.groups import (
    GraphArrays,
    Grouping,
    as_digraph,
    expansion_to_level,
    fast_quotient,
    group_graph,
    group_unit,
    initial_expansion,
    quotient,
    shown_units,
)
from tests.groups.checks import ancestors, check_grouping

LABELS = ("", "", "m.a[0]", "m.a[1]", "m.b", "m.c[2].w[0]", "m.c[2].w[1]", "x[0][1]",
          "x[1][0]", "d['k'][2]", "y")
UNARY = (ops.TANH.name, ops.RELU.name, ops.EXP.name, ops.NEG.name)
BINARY = (ops.ADD.name, ops.ADD.name, ops.MUL.name, ops.SUB.name)
SEVERAL = ("layer(", "softmax(", "rmsnorm(")


@st.composite
def graphs(draw, most: int = 70) -> GraphArrays:
    """A random graph shaped like a learner's: leaves, unary and binary ops leaning on
    recent nodes, chains of +, copies of earlier blocks (repetition, with the leaves
    outside the block shared) and one output that sums every result nobody uses."""
    parents: list[tuple[int, ...]] = []
    names: list[str] = []
    for _ in range(draw(st.integers(1, 6))):
        parents.append(())
        names.append(draw(st.sampled_from(LABELS)))
    opnames = [""] * len(parents)
    while len(parents) < most:
        i = len(parents)
        kind = draw(st.sampled_from(("leaf", "unary", "binary", "binary", "copy", "chain",
                                     "softmax")))
        recent = st.integers(max(0, i - 10), i - 1)
        anywhere = st.integers(0, i - 1)
        if kind == "leaf":
            parents.append(())
            opnames.append("")
            names.append(draw(st.sampled_from(LABELS)))
        elif kind == "unary":
            parents.append((draw(recent),))
            opnames.append(draw(st.sampled_from(UNARY)))
            names.append("")
        elif kind == "binary":
            parents.append((draw(recent), draw(st.one_of(recent, anywhere))))
            opnames.append(draw(st.sampled_from(BINARY)))
            names.append("")
        elif kind == "softmax":  # exp of each, their sum, each exp divided by it
            logits = draw(st.lists(anywhere, min_size=1, max_size=4))
            exps = []
            for x in logits:
                parents.append((x,))
                opnames.append(ops.EXP.name)
                names.append("")
                exps.append(len(parents) - 1)
            total = exps[0]
            for e in exps[1:]:
                parents.append((total, e))
                opnames.append(ops.ADD.name)
                names.append("")
                total = len(parents) - 1
            for e in exps[:draw(st.integers(1, len(exps)))]:
                parents.append((e, total))
                opnames.append(ops.DIV.name)
                names.append("")
        elif kind == "chain":
            terms = draw(st.lists(anywhere, min_size=2, max_size=6))
            total = terms[0]
            for t in terms[1:]:
                parents.append((total, t))
                opnames.append(ops.ADD.name)
                names.append("")
                total = len(parents) - 1
        else:
            # copies of a block: side by side (the same network on other data), or
            # each fed the one before it where the block reads a result (layers)
            start = draw(st.integers(0, i - 1))
            end = draw(st.integers(start + 1, min(i, start + 12)))
            chained = draw(st.booleans())
            last = None
            for _ in range(draw(st.integers(1, 4))):
                base = len(parents)
                for k in range(start, end):
                    parents.append(tuple(
                        p - start + base if start <= p < end
                        else last if chained and last is not None and parents[p] else p
                        for p in parents[k]))
                    opnames.append(opnames[k])
                    names.append(names[k] if not parents[k] else "")
                last = len(parents) - 1
    used = {p for ps in parents for p in ps}
    sinks = [i for i in range(len(parents)) if i not in used]
    total = sinks[0]
    for s in sinks[1:]:
        parents.append((total, s))
        opnames.append(ops.ADD.name)
        names.append("")
        total = len(parents) - 1
    roles = ["input" if not ps and name else "constant" if not ps else "intermediate"
             for ps, name in zip(parents, names)]
    roles[-1] = "output"
    return GraphArrays(parents, opnames, names, roles, len(parents) - 1)


@settings(max_examples=150)
@given(graphs(), st.data())
def test_every_group_is_convex_nested_and_contiguous_and_every_quotient_a_dag(arrays, data):
    grouping = group_graph(arrays, threshold=0)
    check_grouping(arrays, grouping)
    ids = [g.id for g in grouping.groups]
    chosen = set(data.draw(st.lists(st.sampled_from(ids), unique=True))) if ids else set()
    for expanded in (set(), chosen, set(ids), initial_expansion(grouping, budget=12),
                     expansion_to_level(grouping, 1)):
        shown = quotient(arrays, grouping, expanded)
        assert fast_quotient(arrays, grouping, expanded) == shown
        assert len(shown.units) == shown_units(grouping, expanded)
        graph = as_digraph(shown)
        assert list(graph.nodes) == shown.units and graph.number_of_edges() == len(shown.edges)
        assert nx.is_directed_acyclic_graph(graph)
        at = {u: k for k, u in enumerate(shown.units)}
        assert all(at[s] < at[t] for s, t, _ in shown.edges)
        for g in grouping.groups:  # a shown group is closed, all round it open
            if group_unit(g.id) in at:
                assert g.id not in expanded
                a = g.parent
                while a >= 0:
                    assert a in expanded
                    a = grouping.groups[a].parent


@settings(max_examples=100)
@given(graphs())
def test_regions_and_instances_have_one_exit(arrays):
    """A structure group or an instance feeds the rest of the graph from one node, unless
    it is a layer, a softmax or an rmsnorm, or a part of a wide level (several outputs,
    said in its title)."""
    grouping = group_graph(arrays, threshold=0)
    parts = _parts(grouping)
    for g in grouping.groups:
        said = g.title if g.kind == "structure" else _stack_title(grouping, g)
        if g.kind in ("structure", "instance") and not said.startswith(SEVERAL) \
                and g.id not in parts and not said.startswith("positions "):
            members = set(grouping.order[g.first:g.last])
            if all(not arrays.parents[p] for u in members for p in arrays.parents[u]):
                continue  # an op on rows of parameters, element by element: x = t + p
            exits = {p for c in range(len(arrays)) if c not in members
                     for p in arrays.parents[c] if p in members}
            assert len(exits) <= _stages(grouping, g, said), g.title


def _stack_title(grouping: Grouping, g) -> str:
    """What an instance's stack says it stacks: the outermost stack's title (a long
    stack opens on a few instances and a stack of the rest, `#3–#8 × 6`)."""
    s = grouping.groups[g.parent]
    while s.parent >= 0 and grouping.groups[s.parent].kind == "stack":
        s = grouping.groups[s.parent]
    return s.title


def _stages(grouping: Grouping, g, said: str) -> int:
    """How many nodes a group may feed the rest of the graph from: one, or one a stage
    for an instance of merged stages (repetition.zip_stacks: `Σ 3 terms → Σ 1 terms`,
    `attention head`), each stage a region of its own."""
    merged = g.kind == "instance" and (" → " in said or said.startswith("attention head"))
    return max(1, len(g.children)) if merged else 1


def test_merged_stages_feed_the_rest_from_one_node_a_stage():
    """Found by the property test above: two alike chains (Σ 3 terms, then Σ 1 terms on
    its result), each stage read outside too (by a tanh, by the sum), stacked as merged
    stages `Σ 3 terms → Σ 1 terms × 2`, whose instances feed the rest from two nodes."""
    inner = {10: (0, 0), 11: (10, 7), 12: (11, 8), 13: (12, 0), 14: (13, 0), 15: (11,),
             34: (0, 0), 35: (34, 31), 36: (35, 32), 37: (36, 0), 38: (37, 0), 39: (35,),
             43: (0, 0), 44: (43, 40), 45: (44, 41), 46: (45, 0), 47: (46, 0), 48: (44,),
             49: (0, 37), 50: (46,)}
    for first, extra in ((53, 51), (58, 56), (63, 61), (68, 66)):
        inner.update({first: (0, 0), first + 1: (first, 7), first + 2: (first + 1, extra)})
    arrays = _summed(inner, [1, 2, 3, 4, 5, 6, 9, 14, 15, *range(16, 31), 33, 38, 39, 42,
                             47, 48, 49, 50, 52, 55, 57, 60, 62, 65, 67, 70])
    n, parents = len(arrays), arrays.parents
    grouping = group_graph(arrays, threshold=0)
    merged = [g for g in grouping.groups if g.kind == "stack" and " → " in g.title]
    assert [g.instances for g in merged] == [2]
    for g in grouping.groups:
        if g.parent == merged[0].id:
            inside = set(grouping.order[g.first:g.last])
            exits = {q for c in range(n) if c not in inside for q in parents[c] if q in inside}
            assert len(exits) == 2 == len(g.children), g.title
    check_grouping(arrays, grouping)


def _summed(inner: dict[int, tuple[int, ...]], terms: list[int]) -> GraphArrays:
    """A graph of constants and the nodes `inner` (node: its operands; one operand a tanh,
    two a sum), then the sum of `terms` left to right, its output."""
    inner = dict(inner)
    first = max(max(inner), *terms) + 1
    inner[first] = (terms[0], terms[1])
    for k, term in enumerate(terms[2:]):
        inner[first + 1 + k] = (first + k, term)
    n = first + len(terms) - 1
    parents = [inner.get(i, ()) for i in range(n)]
    opnames = ["" if not p else ops.TANH.name if len(p) == 1 else ops.ADD.name
               for p in parents]
    roles = ["constant" if not p else "intermediate" for p in parents]
    roles[-1] = "output"
    return GraphArrays(parents, opnames, [""] * n, roles, n - 1)


def _parts(grouping: Grouping) -> set[int]:
    """The groups that are parts of a wide level (titled `… : first … last`)."""
    from gui.graph.groups.grouping import PART
    return {g.id for g in grouping.groups if " … " in g.title and g.members and (
        len(g.nodes) + len(g.children) <= PART)}


@given(graphs(most=30))
def test_a_graph_up_to_the_threshold_is_not_grouped(arrays):
    grouping = group_graph(arrays, threshold=len(arrays))
    assert grouping == Grouping.none(len(arrays))
    assert grouping.order == list(range(len(arrays)))


@settings(max_examples=60)
@given(graphs(), st.integers(4, 8))
def test_a_wide_level_is_shown_in_parts_each_convex(arrays, wide):
    from gui.graph.groups import grouping as module
    before = (module.WIDE, module.PART)
    module.WIDE, module.PART = wide, wide
    try:
        grouping = group_graph(arrays, threshold=0)
    finally:
        module.WIDE, module.PART = before
    check_grouping(arrays, grouping)
    loose = sum(1 for g in grouping.group_of if g < 0)
    assert loose + len(grouping.top()) <= wide
    for g in grouping.groups:
        assert len(g.nodes) + len(g.children) <= wide


@st.composite
def sequences(draw) -> tuple[GraphArrays, list[int], bool]:
    """A causal sequence shaped like a GPT's positions: step k computes its input from
    its own named leaves and shared parameters, a key, and reads the keys of earlier
    steps (all of them, if `full`; else a random few) into its term; the output sums the
    terms. Random unary ops in between. Returns the graph, the terms and `full`."""
    parents: list[tuple[int, ...]] = []
    opnames: list[str] = []
    names: list[str] = []

    def node(ps, op="", name=""):
        parents.append(tuple(ps))
        opnames.append(op)
        names.append(name)
        return len(parents) - 1

    def unary(x):
        for op in draw(st.lists(st.sampled_from(UNARY), max_size=2)):
            x = node((x,), op)
        return x

    shared = [node((), name=f"p.w[{j}]") for j in range(3)]
    full = draw(st.booleans())
    keys, terms = [], []
    for k in range(draw(st.integers(3, 6))):
        x = unary(node((node((), name=f"e[{k}][0]"), shared[0]), ops.ADD.name))
        keys.append(unary(node((x, shared[1]), ops.MUL.name)))
        read = range(k + 1) if full else sorted(set(draw(st.lists(st.integers(0, k),
                                                                  max_size=3))) | {k})
        total = None
        for j in read:
            score = unary(node((x, keys[j]), ops.MUL.name))
            total = score if total is None else node((total, score), ops.ADD.name)
        terms.append(unary(node((total, shared[2]), ops.MUL.name)))
    total = terms[0]
    for t in terms[1:]:
        total = node((total, t), ops.ADD.name)
    roles = ["input" if not ps and name else "constant" if not ps else "intermediate"
             for ps, name in zip(parents, names)]
    roles[-1] = "output"
    return GraphArrays(parents, opnames, names, roles, len(parents) - 1), terms, full


@settings(max_examples=120)
@given(sequences(), st.data())
def test_a_sequences_positions_are_convex_and_each_what_its_term_adds(drawn, data):
    arrays, terms, full = drawn
    grouping = group_graph(arrays, threshold=0)
    check_grouping(arrays, grouping)  # every group convex, by brute force
    ids = [g.id for g in grouping.groups]
    chosen = set(data.draw(st.lists(st.sampled_from(ids), unique=True))) if ids else set()
    for expanded in (set(), chosen, set(ids)):
        assert nx.is_directed_acyclic_graph(as_digraph(fast_quotient(arrays, grouping,
                                                                     expanded)))
    stacks = [g for g in grouping.groups if g.title == f"positions × {len(terms)}"]
    if full:  # every step's key is read by every later one: the steps are positions
        assert len(stacks) == 1
    before: set[int] = set()
    for k, child in enumerate(stacks[0].children if stacks else ()):
        mine = ancestors(arrays, {terms[k]})
        members = set(grouping.order[grouping.groups[child].first:
                                     grouping.groups[child].last])
        assert terms[k] in members and members <= mine - before
        # all it adds but leaves: a parameter is grouped by its name, a leaf two read
        assert {i for i in mine - before if arrays.parents[i]} <= members
        before |= mine


def test_convex_groups_that_feed_each_other_are_not_both_kept():
    """Found by the property test above: a layer of two unconnected chains and a stack of
    two instances, the first instance feeding the layer and the layer feeding the second.
    Each is convex, but as boxes they would feed each other; the stack is undone."""
    inner = {3: (0, 0), 13: (0, 0), 14: (13, 0), 15: (14, 0), 16: (15, 0), 17: (16, 0),
             22: (0, 0), 23: (22, 0), 24: (23, 3), 25: (24, 17), 26: (25,), 27: (17,),
             29: (14, 0), 30: (29, 0), 31: (30, 0), 36: (0, 0), 37: (36, 0), 38: (37, 3),
             39: (38, 31), 40: (39, 0), 41: (40, 0), 42: (41, 0), 47: (0, 0), 48: (47, 0),
             49: (48, 39), 50: (49, 42), 51: (42, 29), 55: (52, 52), 60: (57, 57),
             65: (62, 62), 70: (67, 67)}
    arrays = _summed(inner, [1, 2, *range(4, 13), *range(18, 22), 26, 27, 28,
                             *range(32, 36), *range(43, 47), 50, 51, 53, 54, 55, 56, 58, 59,
                             60, 61, 63, 64, 65, 66, 68, 69, 70, 71])
    grouping = group_graph(arrays, threshold=0)  # raised "its level has a cycle"
    check_grouping(arrays, grouping)
    for g in [None, *grouping.groups]:
        expanded = {h.id for h in grouping.groups} - ({g.id} if g else set())
        assert nx.is_directed_acyclic_graph(as_digraph(quotient(arrays, grouping, expanded)))
    assert any(g.title.startswith("layer(") for g in grouping.groups)
