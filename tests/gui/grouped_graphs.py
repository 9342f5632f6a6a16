"""Grouped graphs for the tests of the stepping at the level shown, the inspector and the
export: a micrograd-style MLP on a few points, its arrays, and a grouping made by hand
from sets known to be convex (the model's parameters by layer and neuron; each sample's
forward pass, by layer inside it), so that these tests do not depend on the grouping's
own search."""

from __future__ import annotations

import random

from engine.core.value import Value, topological_order
from engine.lesson.nn import MLP
from gui.graph.groups.model import GraphArrays, Group, Grouping


def mlp_loss(points: int = 6, sizes=(2, 4, 4, 1), seed: int = 1):
    """A max-margin loss of an MLP on `points` random points, as micrograd's demo builds
    it (with this engine's Value): (Σ relu(1 - y·score)) / n + 1e-4 Σ p². Returns the
    loss, the model, the inputs (a list of [x0, x1] per point)."""
    rnd = random.Random(seed)
    model = MLP(sizes, seed=0)
    for k, layer in enumerate(model.layers):
        for j, neuron in enumerate(layer.neurons):
            for i, w in enumerate(neuron.w):
                w.label = f"model.layers[{k}].neurons[{j}].w[{i}]"
            neuron.b.label = f"model.layers[{k}].neurons[{j}].b"
    inputs = [[Value(rnd.uniform(-1, 1), label=f"inputs[{s}][{i}]") for i in range(sizes[0])]
              for s in range(points)]
    ys = [rnd.choice((-1.0, 1.0)) for _ in range(points)]
    losses = [(1 + -y * model(x)).relu() for y, x in zip(ys, inputs)]
    total = losses[0]
    for term in losses[1:]:
        total = total + term
    reg = Value(0.0)
    for p in model.parameters():
        reg = reg + p * p
    return total * (1.0 / points) + 1e-4 * reg, model, inputs


def arrays_of_values(order: list[Value]) -> GraphArrays:
    """The arrays of a graph given in a topological order."""
    index = {v: i for i, v in enumerate(order)}
    parents = [tuple(index[p] for p in v.parents) for v in order]
    roles = ["input" if not v.parents and v.label else "constant" if not v.parents
             else "intermediate" for v in order]
    roles[-1] = "output"
    return GraphArrays(parents, [v.op for v in order], [v.label for v in order], roles,
                       len(order) - 1)


def grouping_of(arrays: GraphArrays, sets: list[tuple[str, str, int, set[int]]]) -> Grouping:
    """A Grouping of laminar node sets, each (kind, title, parent's index in `sets` or -1,
    the nodes it holds at every level), parents listed before their children, each set
    convex. Its order: a topological order keeping every group contiguous (the
    quotient of each group's content sorted, groups recursively)."""
    n = len(arrays)
    group_of = [-1] * n
    groups = [Group(k, kind, title, parent, [], [], len(nodes))
              for k, (kind, title, parent, nodes) in enumerate(sets)]
    for k, (_, _, parent, nodes) in enumerate(sets):  # parents first: children win
        if parent >= 0:
            groups[parent].children.append(k)
            assert nodes <= sets[parent][3]
        for i in nodes:
            group_of[i] = k
    for i, g in enumerate(group_of):
        if g >= 0:
            groups[g].nodes.append(i)
    for g in groups:
        if g.kind == "stack":
            g.instances = len(g.children)
    grouping = Grouping([], groups, group_of)
    chains = [grouping.ancestors(i) for i in range(n)]

    def item(i: int, depth: int) -> tuple[str, int]:
        chain = chains[i]
        return ("g", chain[depth]) if len(chain) > depth else ("n", i)

    def content(members: list[int], depth: int) -> list[int]:
        items, first = {}, {}
        for i in members:
            it = item(i, depth)
            items.setdefault(it, []).append(i)
            first.setdefault(it, i)
        after = {it: set() for it in items}
        for i in members:
            for p in arrays.parents[i]:
                a, b = item(p, depth), item(i, depth)
                if a in items and a != b:
                    after[a].add(b)
        indegree = {it: 0 for it in items}
        for a in after:
            for b in after[a]:
                indegree[b] += 1
        ready = sorted((first[it], it) for it in items if indegree[it] == 0)
        out = []
        while ready:
            _, it = ready.pop(0)
            out += items[it] if it[0] == "n" else content(items[it], depth + 1)
            for b in after[it]:
                indegree[b] -= 1
                if indegree[b] == 0:
                    ready.append((first[b], b))
                    ready.sort()
        assert len(out) == len(members), "a set is not convex"
        return out

    grouping.order = content(list(range(n)), 0)
    where = {i: k for k, i in enumerate(grouping.order)}
    for k, (_, _, _, nodes) in enumerate(sets):
        places = sorted(where[i] for i in nodes)
        groups[k].first, groups[k].last = places[0], places[-1] + 1
        assert places[-1] - places[0] + 1 == len(places), "a group is not contiguous"
    for g in groups:
        g.children.sort(key=lambda c: groups[c].first)
    return grouping


def grouped_mlp(points: int = 6, sizes=(2, 4, 4, 1)):
    """An MLP's loss, its reference order, arrays and a grouping: the parameters (a
    'names' group `model`, one per layer, one per neuron), the samples' forward passes
    (a stack of instances `inputs[s]`, each holding a group of its first layer's).
    Returns (loss, order, arrays, grouping)."""
    loss, model, inputs = mlp_loss(points, sizes)
    order = topological_order(loss)
    arrays = arrays_of_values(order)
    index = {v: i for i, v in enumerate(order)}
    sets: list[tuple[str, str, int, set[int]]] = []
    params = {index[p] for p in model.parameters()}
    sets.append(("names", "model", -1, params))
    for k, layer in enumerate(model.layers):
        sets.append(("names", f"model.layers[{k}]", 0,
                     {index[p] for p in layer.parameters()}))
        layer_set = len(sets) - 1
        for j, neuron in enumerate(layer.neurons):
            sets.append(("names", f"model.layers[{k}].neurons[{j}]", layer_set,
                         {index[p] for p in neuron.parameters()}))
    # a sample's pass: every node that depends on its inputs and not on another's,
    # but for the loss's own terms (1 - y·score, its relu, the running sum)
    tagged: list[set[int]] = [set() for _ in order]
    for s, x in enumerate(inputs):
        for v in x:
            tagged[index[v]].add(s)
    for i, v in enumerate(order):
        for p in v.parents:
            tagged[i] |= tagged[index[p]]
    later = [False] * len(order)  # depends on a parameter of a layer after the first
    for p in (p for layer in model.layers[1:] for p in layer.parameters()):
        later[index[p]] = True
    for i, v in enumerate(order):
        later[i] = later[i] or any(later[index[p]] for p in v.parents)
    stack = len(sets)
    instances = [{i for i in range(len(order)) if tagged[i] == {s}}
                 for s in range(len(inputs))]
    sets.append(("stack", "inputs", -1, set().union(*instances)))
    for s, members in enumerate(instances):
        sets.append(("instance", f"inputs[{s}]", stack, members))
        sets.append(("structure", f"model.layers[0](inputs[{s}])", len(sets) - 1,
                     {i for i in members if not later[i]}))
    return loss, order, arrays, grouping_of(arrays, sets)
