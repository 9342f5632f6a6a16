"""A big graph's groups, nested and convex, and an order that keeps each contiguous.

`group_graph` finds the structure (single-output regions of the post-dominator tree;
softmaxes, rmsnorms, layers and rows of parameters element by element, several outputs
each), a sequence (the positions of a GPT, see sequence.py), the repetition (sibling
regions alike, stacked; stacks that are stages of one computation, merged) and the names
(the model's parameters by the prefix tree of their paths), then orders the nodes: at
every level, a group's direct
nodes and sub-groups are sorted topologically (each sub-group as one item), by where
they come in the reference order, so that each group's members are one run of `order`.
"""
# Qt-free: grouped in a child process, which never loads Qt (tests/test_structure.py).

from __future__ import annotations

import heapq

from engine._gc import collector_paused
from gui.graph.groups.model import GraphArrays, Group, Grouping
from gui.graph.groups.names import name_drafts, path_parts
from gui.graph.groups.patterns import Broadcasts, broadcasts, layer_drafts
from gui.graph.groups.repetition import chunk_stacks, stack_drafts, zip_stacks
from gui.graph.groups.rows import row_drafts
from gui.graph.groups.sequence import Sequence, sequence_of
from gui.graph.groups.spine import spine_plan
from gui.graph.groups.structure import Draft, regions_of, structure_drafts
from gui.graph.groups.titles import Describer
from gui.graph.groups.titling import title_drafts

THRESHOLD = 500  # graphs of this many nodes or fewer are shown as they are, ungrouped


def group_graph(arrays: GraphArrays, threshold: int = THRESHOLD) -> Grouping:
    """The groups of `arrays` and an order of its nodes in which each group is
    contiguous; `Grouping.none(n)` for a graph of `threshold` nodes or fewer."""
    n = len(arrays)
    if n <= threshold:
        return Grouping.none(n)
    with collector_paused():  # hundreds of thousands of small lists, no cycles
        return _group(arrays)


def _group(arrays: GraphArrays) -> Grouping:
    n = len(arrays)
    regions = regions_of(arrays)
    plan, patterns = spine_plan(arrays, regions), broadcasts(arrays, regions)
    sequence = sequence_of(arrays, regions)
    if sequence is not None:
        drafts, gnode = structure_drafts(arrays, regions, plan,
                                         _within_steps(patterns, sequence), sequence)
        if not _nested(drafts, gnode, sequence.step):
            sequence = None
    if sequence is None:
        drafts, gnode = structure_drafts(arrays, regions, plan, patterns)
    members = _members(drafts, gnode)
    layer_drafts(arrays, regions.consumers, drafts, members)
    row_drafts(arrays, regions, drafts, gnode, members)
    stack_drafts(arrays, regions.consumers, drafts, members)
    zip_stacks(drafts, regions.consumers, members)  # stages of 12 heads, before a split
    chunk_stacks(drafts, regions.consumers, members)
    drafts, gnode = _compact(drafts, gnode)
    loose = [i for i in range(n) if gnode[i] < 0 and not arrays.parents[i]
             and arrays.labels[i]]
    name_drafts(arrays.labels, loose, drafts, gnode)
    title_drafts(arrays, regions.head, drafts, gnode)
    return _grouping(arrays, regions.head, drafts, gnode)


def _compact(drafts: list[Draft], gnode: list[int]) -> tuple[list[Draft], list[int]]:
    """The drafts without those merged away (kind 'gone'), renumbered."""
    if all(d.kind != "gone" for d in drafts):
        return drafts, gnode
    new, kept = {-1: -1}, []
    for g, d in enumerate(drafts):
        if d.kind != "gone":
            new[g] = len(kept)
            kept.append(d)
    for d in kept:
        d.parent = new[d.parent]
    return kept, [new[g] for g in gnode]


def _within_steps(patterns: Broadcasts, sequence: Sequence) -> Broadcasts:
    """The patterns whose parts are all in one step (or all in none)."""
    step = sequence.step
    parts: dict[int, set[int]] = {}
    for u, k in patterns.member.items():
        parts.setdefault(k, set()).add(step[u])
    kept = Broadcasts(titles=patterns.titles, shared=patterns.shared, size=patterns.size)
    kept.member = {u: k for u, k in patterns.member.items() if len(parts[k]) == 1}
    return kept


def _nested(drafts: list[Draft], gnode: list[int], step: list[int]) -> bool:
    """True if the drafts nest with the steps: a node directly in a step's instance,
    or in a draft inside it, is of that step; any other node, of none."""
    where: list[int] = []  # each draft's step (-1 for none)
    for d in drafts:  # a draft's parent was made before it
        where.append(d.step if d.step >= 0 else where[d.parent] if d.parent >= 0 else -1)
    return all((where[g] if g >= 0 else -1) == step[i] for i, g in enumerate(gnode))


def _members(drafts: list[Draft], gnode: list[int]) -> list[list[int]]:
    # a structure draft's parent was made before it: children after parents
    members: list[list[int]] = [[] for _ in drafts]
    for i, g in enumerate(gnode):
        if g >= 0:
            members[g].append(i)
    for g in range(len(drafts) - 1, -1, -1):
        p = drafts[g].parent
        if p >= 0:
            members[p].extend(members[g])
    return members


def _grouping(arrays: GraphArrays, head: list[int], drafts: list[Draft],
              gnode: list[int]) -> Grouping:
    for _ in range(len(drafts) + 1):
        try:
            items = _level_order(arrays, drafts, gnode, everywhere=False)
            order, _, _ = _emit(items, len(drafts))
            if not _topological(arrays, order):  # a level sorted by keys alone: sort all
                items = _level_order(arrays, drafts, gnode, everywhere=True)
            break
        except LevelCycle as cycle:  # convex groups that feed each other: undo the newest
            drafts, gnode = _dissolved(drafts, gnode, cycle.groups)
    _split_wide(arrays, head, items, drafts, gnode)
    order, first, last = _emit(items, len(drafts))
    groups = [Group(g, d.kind, d.title, d.parent,
                    [-1 - k for k in items[g] if k < 0],
                    [k for k in items[g] if k >= 0],
                    last[g] - first[g],
                    _instances_in(g, drafts, items) if d.kind == "stack" else 0,
                    first[g], last[g]) for g, d in enumerate(drafts)]
    return Grouping(order, groups, list(gnode))


class LevelCycle(RuntimeError):
    """Groups of one level that feed each other (each convex, as a layer of two chains
    and a stack of two instances, one feeding the layer, the other fed by it): drawn as
    boxes they would make a cycle. `groups`: the groups on the cycle."""

    def __init__(self, groups: list[int]):
        super().__init__("a group is not convex: its level has a cycle")
        self.groups = groups


def _dissolved(drafts: list[Draft], gnode: list[int],
               cycle: list[int]) -> tuple[list[Draft], list[int]]:
    """The drafts without the newest group of `cycle` (a stack with its instances): its
    nodes and sub-groups go to the group around it."""
    newest = max(cycle)
    if drafts[newest].kind == "instance" and drafts[newest].parent >= 0:
        newest = drafts[newest].parent
    gone = {newest} | ({g for g, d in enumerate(drafts) if d.parent == newest}
                       if drafts[newest].kind == "stack" else set())
    up = drafts[newest].parent
    for g in gone:
        drafts[g].kind = "gone"
    for d in drafts:
        if d.parent in gone:
            d.parent = up
    gnode = [up if g in gone else g for g in gnode]
    return _compact(drafts, gnode)


def _instances_in(s: int, drafts: list[Draft], items: dict[int, list[int]]) -> int:
    """How many instances stack s holds, through the stacks of its parts."""
    found, todo = 0, [s]
    while todo:
        for k in items[todo.pop()]:
            if k < 0:
                if drafts[-1 - k].kind == "stack":
                    todo.append(-1 - k)
                else:
                    found += 1
    return found


WIDE = 120  # a level of more items is shown in consecutive parts of at most PART
PART = 100  # (at least 4: every part then holds two items or more)


def _split_wide(arrays: GraphArrays, regions_head: list[int], items: dict[int, list[int]],
                drafts: list[Draft], gnode: list[int]) -> None:
    """Split every level of more than `wide` items (a Σ of 100,000 products) into
    consecutive parts, each a 'structure' group: a run of a topological order is convex
    (a path between two of its nodes only passes nodes between them)."""
    wide, part = WIDE, PART
    describe = Describer(arrays, regions_head)

    def said(item: int) -> str:  # a part is titled by the first and the last item it holds
        if item < 0:
            return drafts[-1 - item].title
        return arrays.labels[item] or describe.describe(item, 0)
    for g in list(items):
        level = items[g]
        while len(level) > wide:
            count = -(-len(level) // part)  # as many parts as needed, of even sizes
            cuts = [len(level) * k // count for k in range(count + 1)]
            base = drafts[g].title if g >= 0 else "the graph"
            runs = [level[a:b] for a, b in zip(cuts, cuts[1:])]
            kind = "stack" if g >= 0 and drafts[g].kind == "stack" else "structure"
            level = []
            for run in runs:
                first, last = (said(run[0]), said(run[-1]))
                drafts.append(Draft(kind, g, title=f"{base}: {first} … {last}"))
                new = len(drafts) - 1
                for item in run:
                    if item >= 0:
                        gnode[item] = new
                    else:
                        drafts[-1 - item].parent = new
                items[new] = run
                level.append(-1 - new)
            items[g] = level


def _emit(items: dict[int, list[int]], m: int) -> tuple[list[int], list[int], list[int]]:
    order: list[int] = []
    first, last = [0] * m, [0] * m
    stack = [(-1, iter(items[-1]))]
    while stack:
        g, it = stack[-1]
        for item in it:
            if item >= 0:
                order.append(item)
            else:
                k = -1 - item
                first[k] = len(order)
                stack.append((k, iter(items[k])))
                break
        else:
            stack.pop()
            if g >= 0:
                last[g] = len(order)
    return order, first, last


def _topological(arrays: GraphArrays, order: list[int]) -> bool:
    at = [0] * len(order)
    for k, i in enumerate(order):
        at[i] = k
    return all(at[p] < at[c] for c, parents in enumerate(arrays.parents) for p in parents)


def _level_order(arrays: GraphArrays, drafts: list[Draft], gnode: list[int],
                 everywhere: bool) -> dict[int, list[int]]:
    """Each group's items (nodes as themselves, sub-groups as -1 - g) topologically
    sorted. A level of regions, chains, slices and names is sorted by the items' keys
    alone (a region's last node is its root: every edge from it goes to a later key);
    a level holding a stack (unless `everywhere`: every level) is sorted by Kahn's
    algorithm over the graph's edges between its items, by the same keys."""
    m = len(drafts)
    up = [d.parent for d in drafts]
    depth = _depths(up)
    items: dict[int, list[int]] = {g: [] for g in range(-1, m)}
    for g in range(m):
        items[up[g]].append(-1 - g)
    for i, g in enumerate(gnode):
        items[g].append(i)
    kahn = [everywhere] * (m + 1)  # by level g, kahn[-1] the top level's
    for d in drafts:
        if d.kind == "stack" or d.outputs:  # several exits: its key alone may not do
            kahn[d.parent] = True
    edges: dict[int, list[tuple[int, int]]] = {g: [] for g in range(-1, m) if kahn[g]}
    for c, parents in enumerate(arrays.parents):
        g0 = gnode[c]
        for p in parents:
            gp, gc, ip, ic = gnode[p], g0, p, c
            while gp != gc:  # lift the deeper one until both are in one group
                if gp >= 0 and (gc < 0 or depth[gp] >= depth[gc]):
                    ip, gp = -1 - gp, up[gp]
                else:
                    ic, gc = -1 - gc, up[gc]
            if ip != ic and kahn[gp]:
                edges[gp].append((ip, ic))
    key = _keys(arrays, drafts, gnode, depth)
    return {g: _kahn(items[g], edges.get(g, []), key) for g in items}


def _depths(up: list[int]) -> list[int]:
    depth = [-1] * len(up)
    for g in range(len(up)):
        chain = []
        while g >= 0 and depth[g] < 0:
            chain.append(g)
            g = up[g]
        d = depth[g] if g >= 0 else -1
        for k in reversed(chain):
            d += 1
            depth[k] = d
    return depth


def _keys(arrays: GraphArrays, drafts: list[Draft], gnode: list[int], depth) -> dict:
    """Where each item comes: a node at its index, a group at its last node (a region's
    root), a names group at its first leaf; inside a names group, by the names."""
    m = len(drafts)
    lo, hi = [len(gnode)] * m, [-1] * m
    for i, g in enumerate(gnode):
        if g >= 0:
            if i < lo[g]:
                lo[g] = i
            hi[g] = i
    for g in sorted(range(m), key=depth.__getitem__, reverse=True):
        p = drafts[g].parent
        if p >= 0:
            lo[p] = min(lo[p], lo[g])
            hi[p] = max(hi[p], hi[g])
    key: dict[int, float] = {-1 - g: (lo[g] if d.kind == "names" else hi[g])
                             for g, d in enumerate(drafts)}
    named = [i for i, g in enumerate(gnode) if g >= 0 and drafts[g].kind == "names"]
    rank = {i: k for k, i in enumerate(sorted(named, key=lambda i: _natural(
        arrays.labels[i])))}
    first = [len(gnode)] * m
    for i, k in rank.items():
        g = gnode[i]
        key[i] = k
        while g >= 0 and drafts[g].kind == "names" and k < first[g]:
            first[g] = k
            g = drafts[g].parent
    for g, d in enumerate(drafts):
        if d.kind == "names" and d.parent >= 0 and drafts[d.parent].kind == "names":
            key[-1 - g] = first[g]
    return key


def _natural(label: str) -> tuple:
    parts = path_parts(label) or [label]
    return tuple((0, int(p[1:-1]), "") if p[1:-1].lstrip("-").isdigit() else (1, 0, p)
                 for p in parts)


def _kahn(items: list[int], edges: list[tuple[int, int]], key) -> list[int]:
    if not edges:
        return sorted(items, key=lambda x: key.get(x, x))
    indegree = dict.fromkeys(items, 0)
    after: dict[int, list[int]] = {}
    for x, y in edges:
        indegree[y] += 1
        after.setdefault(x, []).append(y)
    ready = [(key.get(x, x), x) for x in items if indegree[x] == 0]
    heapq.heapify(ready)
    out = []
    while ready:
        _, x = heapq.heappop(ready)
        out.append(x)
        for y in after.get(x, ()):
            indegree[y] -= 1
            if indegree[y] == 0:
                heapq.heappush(ready, (key.get(y, y), y))
    if len(out) != len(items):
        import networkx as nx

        left = set(items) - set(out)
        cycle = nx.find_cycle(nx.DiGraph([(x, y) for x, y in edges
                                          if x in left and y in left]))
        raise LevelCycle([-1 - x for x, _ in cycle if x < 0])
    return out
