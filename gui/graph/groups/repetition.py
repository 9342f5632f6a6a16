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
ZIP_MOST = 8  # a level of more stacks of one count is not searched for stages
STAGES = "stages"  # an instance of stacks merged by zip_stacks, titled by grouping._title


def canonical_form(arrays: GraphArrays, members: list[int], own=None) -> tuple:
    """The region's nodes (sorted) as (op, operands) with inside operands by place.
    `own(p)`: True for an outside leaf that is the instance's own parameter (a layer's
    weights, each layer its own), said as -2 instead of by its identity."""
    parents, ops = arrays.parents, arrays.ops
    place = {u: k for k, u in enumerate(members)}
    for u in members:  # an operand outside: a leaf by its identity, anything else as -1
        for p in parents[u]:
            if p not in place:
                place[p] = -1 if parents[p] else -2 if own is not None and own(p) else -3 - p
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


SHORT = 8    # a stack of more instances opens on its first FIRST and the rest, one stack
FIRST = 3
PART = 10    # the rest opens on parts of at most this many instances (parts of parts, …)
REST = "the rest"  # the title of a stack's rest until titling.title_drafts names it


def chunk_stacks(drafts: list[Draft], consumers: list[list[int]],
                 members: list[list[int]]) -> None:
    """A stack of more than SHORT instances (a network on 100 samples) opens on its first
    FIRST instances and one stack of the rest (`losses[3–99] × 97`), which opens on consecutive
    parts of at most PART instances (of parts, …), each part convex: opened, a stack
    draws a few instances and their edges, not a wall of a hundred."""
    kids: dict[int, list[int]] = {}
    for g, d in enumerate(drafts):
        kids.setdefault(d.parent, []).append(g)
    for s in range(len(drafts)):
        if drafts[s].kind != "stack" or drafts[s].step == -2 or len(kids.get(s, ())) <= SHORT:
            continue
        rest = sorted(kids[s], key=lambda g: drafts[g].root)[FIRST:]
        held = [u for g in rest for u in members[g]]
        if not is_convex(consumers, set(held)):
            continue
        drafts.append(Draft("stack", s, root=drafts[rest[-1]].root, title=REST))
        members.append(held)
        for g in rest:
            drafts[g].parent = len(drafts) - 1
        _parts(len(drafts) - 1, rest, drafts, consumers, members)


def _parts(s: int, level: list[int], drafts: list[Draft], consumers: list[list[int]],
           members: list[list[int]]) -> None:
    """Split stack s's `level` (its instances in order) into consecutive sub-stacks of at
    most PART each, and those into parts again while there are more than PART, if each
    part is convex (a run of instances that use only earlier ones is)."""
    while len(level) > PART:
        width = -(-len(level) // PART)
        width = -(-len(level) // width) if width <= PART else PART
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


def zip_stacks(drafts: list[Draft], consumers: list[list[int]],
               members: list[list[int]]) -> None:
    """Merge stacks of one level that are the stages of one repeated computation (a
    head's attention scores, their softmax, the weighted sum of the values: × 4 each)
    into one stack of the stages together, `attention head × 4`: two stacks of as many
    instances whose results go from each instance of one to one instance of the other,
    and back from none, if each pair and their union are convex. The stack merged into
    another is left as kind 'gone' (see grouping._compact)."""
    merged = True
    while merged:
        merged = False
        kids: dict[int, list[int]] = {}
        for g, d in enumerate(drafts):
            kids.setdefault(d.parent, []).append(g)
        level: dict[tuple[int, int], list[int]] = {}
        for s, d in enumerate(drafts):
            if d.kind == "stack" and d.step == -1 and (
                    d.parent < 0 or drafts[d.parent].kind != "stack") and all(
                    drafts[k].kind == "instance" for k in kids[s]):
                level.setdefault((d.parent, len(kids[s])), []).append(s)
        for stacks in level.values():
            if len(stacks) > ZIP_MOST:
                continue
            for a in stacks:
                for b in stacks:
                    if a != b and _zip(a, b, drafts, kids, consumers, members):
                        merged = True
                        break
                if merged:
                    break
            if merged:
                break


def _zip(a: int, b: int, drafts: list[Draft], kids, consumers, members) -> bool:
    owner: dict[int, tuple[int, int]] = {}
    for side, s in ((0, a), (1, b)):
        for k, g in enumerate(kids[s]):
            for u in members[g]:
                owner[u] = (side, k)
    pairs: dict[int, set[int]] = {}
    for k, g in enumerate(kids[a]):
        for u in members[g]:
            for c in consumers[u]:
                o = owner.get(c)
                if o is not None and o[0] == 1:
                    pairs.setdefault(k, set()).add(o[1])
    for g in kids[b]:  # nothing goes back
        if any(owner.get(c, (1,))[0] == 0 for u in members[g] for c in consumers[u]):
            return False
    if len(pairs) != len(kids[a]) or any(len(js) != 1 for js in pairs.values()):
        return False
    match = {k: next(iter(js)) for k, js in pairs.items()}
    if len(set(match.values())) != len(match):
        return False
    joined = [members[g] + members[kids[b][match[k]]] for k, g in enumerate(kids[a])]
    if not all(is_convex(consumers, set(nodes)) for nodes in joined) or not is_convex(
            consumers, {u for nodes in joined for u in nodes}):
        return False
    for k, g in enumerate(kids[a]):
        h = kids[b][match[k]]
        drafts.append(Draft("instance", a, root=max(drafts[g].root, drafts[h].root),
                            title=STAGES))
        members.append(joined[k])
        new = len(drafts) - 1
        for part in (g, h):
            if drafts[part].title == STAGES:  # stages merged before: one level of them
                for c in kids.get(part, ()):
                    drafts[c].parent = new
                drafts[part].kind = "gone"
            else:
                drafts[part].kind = "structure"
            drafts[part].parent = new
    members[a] = [u for nodes in joined for u in nodes]
    drafts[a].root = max(drafts[a].root, drafts[b].root)
    drafts[b].kind = "gone"
    return True
