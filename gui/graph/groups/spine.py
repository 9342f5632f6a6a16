"""Nested repetition: a chain of layers a_k = f(a_{k-1}) nests each layer's region in the
next one's, 20,000 deep. Along such a spine of the post-dominator tree (each region's
dominant child region, the one holding most of its nodes), the layers are the slices
between successive spine nodes of one op (the spine's most frequent op): slice k is
the region of cut k less the region of cut k + 1. A run of at least MIN_SLICES slices
that compute the same thing, each convex and their union convex, becomes one stack of
instances (the slices) instead of 20,000 nested groups.
"""
# Qt-free: grouped in a child process, which never loads Qt (tests/test_structure.py).

from __future__ import annotations

from dataclasses import dataclass, field

from gui.graph.groups.model import GraphArrays
from gui.graph.groups.repetition import canonical_form, is_convex
from gui.graph.groups.structure import Regions

MIN_SLICES = 3
MIN_SPINE = 2 * MIN_SLICES


@dataclass(slots=True)
class SpinePlan:
    """Where the spine stacks are: `first[c]` is the run id of a run's first cut,
    `cuts[c]` the run id of every cut that begins an instance, `after[c]` the run id of
    the cut just below a run (it returns to the run's enclosing group), `inside` the
    spine nodes between a run's cuts (no group of their own) and `sizes` each slice's
    nodes (by its cut) and each run's (by -1 - run)."""

    first: dict[int, int] = field(default_factory=dict)
    cuts: dict[int, int] = field(default_factory=dict)
    after: dict[int, int] = field(default_factory=dict)
    inside: set[int] = field(default_factory=set)
    sizes: dict[int, int] = field(default_factory=dict)  # a cut's slice, -1 - run's union


def spine_plan(arrays: GraphArrays, regions: Regions) -> SpinePlan:
    """The runs of alike slices along every spine of the region tree."""
    n = len(arrays)
    head, parent, size = regions.head, regions.parent, regions.size
    dom = [-1] * (n + 1)
    for u in range(n):
        p = parent[u]
        if head[u] == u and p < n and 2 * size[u] > size[p] and (
                dom[p] < 0 or size[u] > size[dom[p]]):
            dom[p] = u
    plan = SpinePlan()
    cut_of = [-1] * (n + 1)
    spines = []
    for v in range(n - 1, -1, -1):
        if head[v] != v or (parent[v] < n and dom[parent[v]] == v):
            continue
        path = [v]
        while dom[path[-1]] >= 0:
            path.append(dom[path[-1]])
        if len(path) >= MIN_SPINE:
            cuts = _cuts(arrays.ops, path)
            if len(cuts) > MIN_SLICES:
                spines.append((path, cuts))
                for c in cuts:
                    cut_of[c] = c
    if not spines:
        return plan
    for v in range(n - 1, -1, -1):
        if cut_of[v] != v:
            cut_of[v] = cut_of[parent[v]]
    held: dict[int, list[int]] = {}
    for v in range(n):
        if cut_of[v] >= 0:
            held.setdefault(cut_of[v], []).append(v)
    for path, cuts in spines:
        _plan_runs(arrays, regions.consumers, parent, path, cuts, held, plan)
    return plan


def _cuts(ops: list[str], path: list[int]) -> list[int]:
    count: dict[str, int] = {}
    for v in path:
        count[ops[v]] = count.get(ops[v], 0) + 1
    best = max(count.values())
    op = next(ops[v] for v in path if count[ops[v]] == best)
    return [v for v in path if ops[v] == op]


def _plan_runs(arrays, consumers, parent, path, cuts, held, plan: SpinePlan) -> None:
    forms = []
    n = len(arrays)
    for k in range(len(cuts) - 1):
        nodes = held[cuts[k]]
        convex = is_convex(consumers, set(nodes))
        # a layer's own parameters (hung from the root, see structure.regions_of), read
        # by that layer only, may differ from layer to layer: x = tanh(w[k] * x + b[k])
        forms.append(canonical_form(arrays, nodes, lambda p: parent[p] >= n and len(
            consumers[p]) == 1) if convex else None)
    k = 0
    position = {c: i for i, c in enumerate(path)}
    while k < len(forms):
        end = k
        while end + 1 < len(forms) and forms[k] is not None and forms[end + 1] == forms[k]:
            end += 1
        union = {u for c in cuts[k:end + 1] for u in held[c]}
        if forms[k] is not None and end - k + 1 >= MIN_SLICES and is_convex(consumers, union):
            run = len(plan.first)
            plan.first[cuts[k]] = run
            plan.sizes[-1 - run] = len(union)
            for c in cuts[k:end + 1]:
                plan.cuts[c] = run
                plan.sizes[c] = len(held[c])
            plan.after[cuts[end + 1]] = run
            plan.inside.update(v for v in path[position[cuts[k]]:position[cuts[end + 1]]]
                               if v not in plan.cuts)
        k = end + 1
