"""Pieces with several outputs that a reader still sees as one: a softmax (exp / Σ exp,
one output per logit) and an rmsnorm (x · (Σ x²/N + ε)^-0.5, one per x).

Each is the region of its shared node v (the Σ of the exps, the rmsnorm's scale) and the
regions of v's consumers (the divisions, the products), when all of them are children
of one node of the post-dominator tree: the group is then a union of sibling regions,
nested with every other group, and is kept only if that union is convex.
"""
# Qt-free: grouped in a child process, which never loads Qt (tests/test_structure.py).

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core import ops
from gui.graph.groups.model import GraphArrays
from gui.graph.groups.repetition import is_convex
from gui.graph.groups.structure import Regions
from gui.graph.groups.titles import Describer


@dataclass(slots=True)
class Broadcasts:
    """`member[u]`: the pattern a region's head u is part of; `titles[k]`, `shared[k]`
    (v) and `size[k]` (its nodes) for pattern k."""

    member: dict[int, int] = field(default_factory=dict)
    titles: list[str] = field(default_factory=list)
    shared: list[int] = field(default_factory=list)
    size: list[int] = field(default_factory=list)


def broadcasts(arrays: GraphArrays, regions: Regions) -> Broadcasts:
    """The softmaxes and rmsnorms of the graph, as unions of sibling regions."""
    describe = Describer(arrays, regions.head)
    head, parent, consumers = regions.head, regions.parent, regions.consumers
    kids: dict[int, list[int]] = {}
    found = Broadcasts()
    powers = {name for name in set(arrays.ops) if ops.of(name) is ops.POWER}
    maybe = powers | {ops.ADD.name}
    for v in range(len(arrays)):
        if head[v] != v or not consumers[v] or arrays.ops[v] not in maybe:
            continue
        users = sorted(set(consumers[v]))
        if all(describe.inverse_of(c) == v and len(consumers[c]) == 1 for c in users):
            users = sorted({consumers[c][0] for c in users})  # microgpt's e * total**-1
        title = _pattern(arrays, describe, v, users)
        if not title:
            continue
        if any(head[c] != c or parent[c] != parent[v] or c in found.member for c in users):
            continue
        if not kids:
            for u in range(len(arrays)):
                kids.setdefault(parent[u], []).append(u)
        nodes = _subtrees([v, *users], kids)
        if not is_convex(consumers, nodes):
            continue
        k = len(found.titles)
        for u in (v, *users):
            found.member[u] = k
        found.titles.append(title)
        found.shared.append(v)
        found.size.append(len(nodes))
    return found


def _pattern(arrays: GraphArrays, describe: Describer, v: int, users: list[int]) -> str:
    op, parents = arrays.ops, arrays.parents
    if k := describe.rms_size(v):
        return f"rmsnorm({k})" if all(op[c] == ops.MUL.name for c in users) else ""
    if op[v] == ops.ADD.name:
        terms = describe.terms(v)
        if terms and all(op[t] == ops.EXP.name for t in terms) and all(
                op[c] == ops.DIV.name and len(parents[c]) == 2 and parents[c][1] == v
                and parents[c][0] in terms for c in users):
            return f"softmax({len(terms)})"
    if op[v] == ops.ADD.name and users and all(describe.softmax_size(c) for c in users):
        terms = describe.counted(v)  # microgpt's e * total**-1, an inverse per division
        if all(describe.inverse_of(p) == v for c in users for p in parents[c]
               if op[p] != ops.EXP.name):
            return f"softmax({len(terms)})"
    return ""


def _subtrees(roots: list[int], kids: dict[int, list[int]]) -> set[int]:
    seen, todo = set(roots), list(roots)
    while todo:
        for u in kids.get(todo.pop(), ()):
            if u not in seen:
                seen.add(u)
                todo.append(u)
    return seen


def layer_drafts(arrays: GraphArrays, consumers: list[list[int]], drafts: list,
                 members: list[list[int]]) -> None:
    """Sibling regions that read the same inputs (a layer's neurons, the keys and values
    of one position) become one 'structure' group, `layer(16 → 32)`, if their union is
    convex and the level holds something else too. An input is an operand from outside
    the region that is a result, or a leaf of the enclosing group (the sample's data);
    a leaf from further out (a shared parameter) is not; nor is an input only one
    region of the level reads."""
    Draft = type(drafts[0]) if drafts else None
    inside: dict[int, set[int]] = {}
    level: dict[int, list[int]] = {}
    for g, d in enumerate(drafts):
        level.setdefault(d.parent, []).append(g)
    readers: dict[tuple[int, frozenset], list[int]] = {}
    for g, d in enumerate(drafts):
        if d.kind != "structure" or d.chain or d.outputs:
            continue
        own = set(members[g])
        if d.parent >= 0 and d.parent not in inside:
            inside[d.parent] = set(members[d.parent])
        around = inside.get(d.parent)
        reads = frozenset(p for u in members[g] for p in arrays.parents[u] if p not in own
                          and (arrays.parents[p] or (around is not None and p in around)))
        if reads:
            readers.setdefault((d.parent, reads), []).append(g)
    # what only one region of its level reads (a residual added into a layer's sum) is
    # its own business: the layer is the regions that read the same shared inputs
    shared: dict[int, dict[int, int]] = {}
    for (parent, reads), group in readers.items():
        count = shared.setdefault(parent, {})
        for p in reads:
            count[p] = count.get(p, 0) + len(group)
    by_inputs: dict[tuple[int, frozenset], list[int]] = {}
    for (parent, reads), group in readers.items():
        common = frozenset(p for p in reads if shared[parent][p] > 1)
        if common:
            by_inputs.setdefault((parent, common), []).extend(group)
    for (parent, reads), group in by_inputs.items():
        # a layer's maps are alike in size: not the rest of the step that reads them too
        least = min(len(members[g]) for g in group)
        group = [g for g in group if len(members[g]) <= 4 * least]
        if len(group) < 2 or len(group) == len(level[parent]):
            continue
        union = [u for g in group for u in members[g]]
        if not is_convex(consumers, set(union)):
            continue
        drafts.append(Draft("structure", parent, root=max(drafts[g].root for g in group),
                            title=f"layer({len(reads)} → {len(group)})", outputs=True,
                            room=len(union)))
        members.append(union)
        for g in group:
            drafts[g].parent = len(drafts) - 1
