"""Single-output pieces of a graph: the post-dominator tree towards the output.

A node's immediate post-dominator is the first node every path from it to the output
passes through; on a DAG, visited from the output back, it is the lowest common
ancestor of the node's consumers in the tree built so far. A node's region (its subtree)
is convex and has one exit, the node: its inner nodes feed nothing outside it.

Chains of + (and of *) whose inner results feed only the next link are one n-ary Σ (Π):
Python's `sum(...)` over 100 samples makes 100 sibling regions, not 100 nested ones.
"""
# Qt-free: grouped in a child process, which never loads Qt (tests/test_structure.py).

from __future__ import annotations

from dataclasses import dataclass

from engine.core import ops
from gui.graph.groups.model import GraphArrays

CHAIN_OPS = (ops.ADD.name, ops.MUL.name)


@dataclass(slots=True)
class Regions:
    """The post-dominator tree, chains flattened. Node `n` (one past the last) is the
    virtual root above the output. `head[i]` is the last link of the chain node i is an
    inner link of (i itself if none); `parent[i]` the head of i's tree parent; `size[i]`
    how many nodes i's region holds (for a head: its links and every region below)."""

    consumers: list[list[int]]
    head: list[int]
    parent: list[int]
    size: list[int]


def consumers_of(arrays: GraphArrays) -> list[list[int]]:
    """Each node's consumers, once per operand that uses it, in index order."""
    consumers: list[list[int]] = [[] for _ in range(len(arrays))]
    for c, parents in enumerate(arrays.parents):
        for p in parents:
            consumers[p].append(c)
    return consumers


def chain_heads(arrays: GraphArrays, consumers: list[list[int]]) -> list[int]:
    """For each node, the last link of the +/* chain it is an inner link of, else itself.
    An inner link has the chain's op and one consumer, the next link, of the same op."""
    n, op = len(arrays), arrays.ops
    head = list(range(n))
    chain = set(CHAIN_OPS)
    for i in range(n - 1, -1, -1):
        if op[i] in chain and len(consumers[i]) == 1 and i != arrays.output:
            c = consumers[i][0]
            if op[c] == op[i]:
                head[i] = head[c]
    return head


def post_dominators(consumers: list[list[int]]) -> list[int]:
    """Each node's immediate post-dominator (`len(consumers)`, the virtual root, for a
    node whose consumers' paths meet only past the output).

    A tree parent has a larger index than its children, so the lowest common ancestor of
    a and b is found by lifting the smaller one; skew-binary jump pointers (Myers 1983)
    make each lift O(log depth), so a leaf used by every layer of a 20,000-layer chain
    costs no more than a few dozen steps per use."""
    n = len(consumers)
    up = [n] * (n + 1)
    jump = [n] * (n + 1)
    depth = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        cons = consumers[i]
        if not cons:
            p = n
        else:
            p = cons[0]
            for b in cons[1:]:
                a = p
                while a != b:
                    if a < b:
                        j = jump[a]
                        a = j if j <= b else up[a]
                    else:
                        j = jump[b]
                        b = j if j <= a else up[b]
                p = a
                if p == n:
                    break
        up[i] = p
        depth[i] = depth[p] + 1
        j = jump[p]
        jump[i] = jump[j] if depth[p] - depth[j] == depth[j] - depth[jump[j]] else p
    return up[:n]


def regions_of(arrays: GraphArrays) -> Regions:
    """The flattened post-dominator tree of `arrays`, with every region's size.

    The model's parameters are in no region: every named leaf whose variable (with the
    attributes after it, see _variable) also names a leaf that most of the graph uses
    is hung from the virtual root, so that it is grouped by its name with the rest of
    the model, not inside the one computation that reads it (a token's embedding row,
    read at one position only). A leaf leaves a convex set convex: no path leads back
    to it."""
    consumers = consumers_of(arrays)
    head = chain_heads(arrays, consumers)
    up = post_dominators(consumers)
    n = len(arrays)
    parent = [head[u] if u < n else n for u in up]
    size = _sizes(parent, n)
    models = {_variable(arrays.labels[i]) for i in range(n) if not arrays.parents[i]
              and arrays.labels[i] and 2 * size[parent[i]] > n}
    models.discard("")
    if models:
        moved = False
        for i in range(n):
            if not arrays.parents[i] and parent[i] < n and arrays.labels[i] \
                    and _variable(arrays.labels[i]) in models:
                parent[i] = n
                moved = True
        if moved:
            size = _sizes(parent, n)
    return Regions(consumers, head, parent, size[:n])


def _sizes(parent: list[int], n: int) -> list[int]:
    size = [1] * (n + 1)
    for i in range(n):
        size[parent[i]] += size[i]
    size[n] = n + 1
    return size


def _variable(label: str) -> str:
    """What a path's leaf belongs to: its variable and the attributes after it, up to the
    first index: 'state_dict' of "state_dict['wte'][0][1]" (a table of parameters),
    'demo.model.layers' of 'demo.model.layers[0].w[1]' but 'demo.inputs' of
    'demo.inputs[3][0]' (a model's data is not its parameters)."""
    k = 0
    while k < len(label) and (label[k].isalnum() or label[k] in "_."):
        k += 1
    return label[:k].rstrip(".")


@dataclass(slots=True)
class Draft:
    """A group being made: its kind, its parent draft (-1 at the top), the node it is
    the region of (-1 for none) and the nodes directly in it."""

    kind: str
    parent: int
    root: int = -1
    nodes: list[int] | None = None
    title: str = ""
    chain: bool = False  # a structure group of a chain's links only
    room: int = 0        # how many nodes it holds (a structure group's, when made)
    outputs: bool = False  # a softmax's or rmsnorm's outputs: several exits, titled
    step: int = -1       # a sequence's step k (an 'instance'), -2 for the steps' stack


MIN_REGION = 3   # a region of one or two nodes is shown as its nodes
ADDS_NOTHING = 2  # a region within this many nodes (or 1%) of its enclosing group: nothing
CHAIN_MIN = 4    # a chain of this many links, a quarter of its region or less, is a box
BIG_CHAIN = 64   # ... and a longer one is a box whatever its region holds
MAX_DEPTH = 16   # regions nested deeper than this are shown inside the 16th


def structure_drafts(arrays: GraphArrays, regions: Regions, plan=None, patterns=None,
                     sequence=None) -> tuple[list[Draft], list[int]]:
    """The regions worth a box, as drafts, and each node's innermost draft (-1 for none).

    Visited from the output back, a region is a group unless it is trivial (under
    MIN_REGION nodes) or adds nothing to the group it would sit in (ADDS_NOTHING).
    `plan` (a spine.SpinePlan) puts the slices of a nested repetition into stacks,
    `patterns` (a patterns.Broadcasts) softmaxes and rmsnorms into one group each,
    `sequence` (a sequence.Sequence) each step into an instance of one stack."""
    n = len(arrays)
    head, parent, size = regions.head, regions.parent, regions.size
    links = [0] * n
    for i in range(n):
        links[head[i]] += 1
    made = _Drafts()
    drafts, depth, add = made.drafts, made.depth, made.add
    below = [-1] * (n + 1)  # the draft a head's tree children go into
    gnode = [-1] * n
    stacks: dict[int, int] = {}  # a spine run's stack draft

    for v in range(n - 1, -1, -1):
        h = head[v]
        if h != v:  # an inner link: with its chain's last link
            gnode[v] = gnode[h]
            continue
        enclosing = below[parent[v]]
        if plan is not None and v in plan.after:
            enclosing = drafts[stacks[plan.after[v]]].parent
        if sequence is not None and (k := sequence.step[v]) >= 0 and (
                parent[v] >= n or sequence.step[parent[v]] != k):
            enclosing = made.step(sequence, k, enclosing)
        if patterns is not None and v in patterns.member:
            enclosing = made.pattern(patterns, patterns.member[v], enclosing)
        room = drafts[enclosing].room if enclosing >= 0 else n
        if plan is not None and v in plan.cuts:
            run = plan.cuts[v]
            if v in plan.first:
                stacks[run] = add("stack", enclosing, v, plan.sizes[-1 - run])
            enclosing = add("instance", stacks[run], v, plan.sizes[v])
        elif plan is not None and v in plan.inside:
            pass
        elif size[v] >= MIN_REGION and _adds(room, size[v]) and (
                enclosing < 0 or depth[enclosing] + 1 < MAX_DEPTH) and not _weighs(
                arrays, regions, v):
            enclosing = add("structure", enclosing, v, size[v])
        below[v] = box = enclosing
        room = drafts[box].room if box >= 0 else n
        if links[v] >= CHAIN_MIN and _adds(room, links[v]) and (
                room >= 4 * links[v] or links[v] > BIG_CHAIN):
            box = add("structure", box, v, links[v], chain=True)
        gnode[v] = box
    return drafts, gnode

class _Drafts:
    """The drafts made so far, their depths, and the drafts made once for a pattern or a
    sequence's step, when its first node (its last, by index) is met."""

    def __init__(self):
        self.drafts: list[Draft] = []
        self.depth: list[int] = []
        self.patterns: dict[int, int] = {}
        self.steps: dict[int, int] = {}  # a step's draft; -1: their stack's

    def add(self, kind: str, parent_draft: int, root: int, room: int,
            chain: bool = False) -> int:
        self.drafts.append(Draft(kind, parent_draft, root, chain=chain, room=room))
        self.depth.append(self.depth[parent_draft] + 1 if parent_draft >= 0 else 0)
        return len(self.drafts) - 1

    def pattern(self, patterns, k: int, enclosing: int) -> int:
        if k not in self.patterns:
            g = self.patterns[k] = self.add("structure", enclosing, patterns.shared[k],
                                            patterns.size[k])
            self.drafts[g].title = patterns.titles[k]
            self.drafts[g].outputs = True
        return self.patterns[k]

    def step(self, sequence, k: int, enclosing: int) -> int:
        if k not in self.steps:
            if not self.steps:
                self.steps[-1] = self.add("stack", enclosing, sequence.head,
                                          sum(sequence.sizes))
                self.drafts[-1].step = -2
            self.steps[k] = self.add("instance", self.steps[-1], sequence.terms[k],
                                     sequence.sizes[k])
            self.drafts[-1].step = k
        return self.steps[k]


def _adds(room: int, size: int) -> bool:
    # a group of `size` inside one of `room` nodes shows something more
    return room - size > max(ADDS_NOTHING, room // 100)


def _weighs(arrays: GraphArrays, regions: Regions, v: int) -> bool:
    """True if v only weighs one region by a named leaf (the next layer's w · relu(…)):
    the region it weighs is the piece a reader knows, not v's."""
    ps = arrays.parents[v]
    if len(ps) != 2 or regions.head[v] != v:
        return False
    for leaf, u in (ps, ps[::-1]):
        if not arrays.parents[leaf] and arrays.labels[leaf] and arrays.parents[u] \
                and regions.parent[u] == v and regions.head[u] == u:
            inside = 1 if regions.parent[leaf] == v else 0
            return regions.size[v] - regions.size[u] == 1 + inside
    return False

