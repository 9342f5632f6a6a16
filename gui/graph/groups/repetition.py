"""Stacks: sibling regions that compute the same thing (the same network on 100 samples,
the same block at 6 token positions) drawn once, "× 100", expandable to each instance.

Two regions compute the same thing when their nodes, in index order, have the same ops
and the same operands: an operand inside by its place in the region, one outside by its
identity if it is a leaf (the shared parameters must be the same ones), else as
"something outside". This canonical form is an isomorphism certificate for regions made
by the same code, checked against networkx's Weisfeiler-Lehman hash in the tests. A
stack is kept only if the union of its instances is convex.
"""
# Qt-free: grouped in a child process, which never loads Qt (tests/test_structure.py).

from __future__ import annotations

from gui.graph.groups.model import GraphArrays
from gui.graph.groups.structure import Draft

MIN_INSTANCES = 2


def canonical_form(arrays: GraphArrays, members: list[int]) -> tuple:
    """The region's nodes (sorted) as (op, operands) with inside operands by place."""
    parents, ops = arrays.parents, arrays.ops
    place = {u: k for k, u in enumerate(members)}
    for u in members:  # an operand outside: a leaf by its identity, anything else as -1
        for p in parents[u]:
            if p not in place:
                place[p] = -1 if parents[p] else -2 - p
    return tuple([(ops[u], tuple([place[p] for p in parents[u]])) for u in members])


def is_convex(consumers: list[list[int]], inside: set[int]) -> bool:
    """True if no path leaves `inside` and comes back (searched only below its last
    node: nothing after it can lead back in)."""
    last = max(inside)
    frontier = [c for u in inside for c in consumers[u] if c not in inside and c < last]
    seen = set(frontier)
    while frontier:
        u = frontier.pop()
        for c in consumers[u]:
            if c in inside:
                return False
            if c < last and c not in seen:
                seen.add(c)
                frontier.append(c)
    return True


def stack_drafts(arrays: GraphArrays, consumers: list[list[int]], drafts: list[Draft],
                 members: list[list[int]]) -> None:
    """Put sibling structure drafts that compute the same thing into a new 'stack'
    draft (appended to `drafts`, with their members' union in `members`) as its
    'instance's."""
    siblings: dict[tuple, list[int]] = {}
    for g, d in enumerate(drafts):
        if d.kind == "structure" and not d.chain:
            key = (d.parent, len(members[g]), arrays.ops[d.root])
            siblings.setdefault(key, []).append(g)
    for (parent, _, _), group in siblings.items():
        if len(group) < MIN_INSTANCES:
            continue
        alike: dict[tuple, list[int]] = {}
        for g in group:
            alike.setdefault(canonical_form(arrays, sorted(members[g])), []).append(g)
        for instances in alike.values():
            if len(instances) < MIN_INSTANCES:
                continue
            union = [u for g in instances for u in members[g]]
            if not is_convex(consumers, set(union)):
                continue
            drafts.append(Draft("stack", parent, root=drafts[instances[-1]].root))
            members.append(union)
            s = len(drafts) - 1
            for g in instances:
                drafts[g].kind = "instance"
                drafts[g].parent = s


CHUNK = 100  # a stack of more instances is shown as stacks of at most this many


def chunk_stacks(drafts: list[Draft], consumers: list[list[int]],
                 members: list[list[int]]) -> None:
    """Split every stack of more than CHUNK instances into consecutive sub-stacks (of
    sub-stacks, …) of at most CHUNK each, if each part is convex."""
    kids: dict[int, list[int]] = {}
    for g, d in enumerate(drafts):
        kids.setdefault(d.parent, []).append(g)
    for s in range(len(drafts)):
        if drafts[s].kind != "stack" or len(kids.get(s, ())) <= CHUNK:
            continue
        level = sorted(kids[s], key=lambda g: drafts[g].root)
        while len(level) > CHUNK:
            width = -(-len(level) // CHUNK)
            width = -(-len(level) // width) if width <= CHUNK else CHUNK
            parts = [level[k:k + width] for k in range(0, len(level), width)]
            nodes = [[u for g in part for u in members[g]] for part in parts]
            if not all(is_convex(consumers, set(part)) for part in nodes):
                break
            level = []
            for part, held in zip(parts, nodes):
                drafts.append(Draft("stack", s, root=drafts[part[-1]].root))
                members.append(held)
                for g in part:
                    drafts[g].parent = len(drafts) - 1
                level.append(len(drafts) - 1)
