"""A sequence: the terms of a sum that later terms build on (a GPT's loss at each token
position, whose keys and values every later position reads).

The terms of a Σ in the order they are computed, t_0 < t_1 < …, cut the graph into
steps: step k is what t_k depends on that no earlier term does, S_k = A(t_k) \\ A(t_<k)
(A: a node and its ancestors). Each step is convex (a path u → w → v with u and v in S_k
has w in A(t_k), and w in A(t_<k) would put u there too), so is a run of steps. A step
has several exits (its keys and values, read later) and steps are not alike (attention
grows with the position), so neither the post-dominator regions nor the stacks find
them; they are found here, and kept only where most steps are more than their terms'
regions (micrograd's samples are regions already; a result all samples read, computed
once, would make the first step more than its region, and no other).
"""
# Qt-free: grouped in a child process, which never loads Qt (tests/test_structure.py).

from __future__ import annotations

from dataclasses import dataclass

from gui.graph.groups.structure import CHAIN_OPS, Regions

MIN_STEPS = 3      # a sum of fewer terms is not a sequence
MIN_SHARE = 0.5    # ... nor one whose steps hold less than this share of the graph


@dataclass(slots=True)
class Sequence:
    """`step[i]`: the step node i is in (-1 for none); `terms` the terms, in order (the
    step's last node); `head` the Σ they are summed by; `sizes` each step's nodes."""

    step: list[int]
    terms: list[int]
    head: int
    sizes: list[int]


def sequence_of(arrays, regions: Regions) -> Sequence | None:
    """The steps of the Σ whose result terms' regions hold the most nodes, if they are
    worth showing (see the module's docstring); None if there are none."""
    n = len(arrays)
    head, size = regions.head, regions.size
    weight: dict[int, int] = {}
    count: dict[int, int] = {}
    ops, parents = arrays.ops, arrays.parents
    chain = set(CHAIN_OPS)
    for v in [v for v in range(n) if ops[v] in chain]:  # a term: a result operand of a
        h = head[v]                                       # chain's link from outside it
        for p in parents[v]:
            if head[p] != h and parents[p]:
                weight[h] = weight.get(h, 0) + size[p]
                count[h] = count.get(h, 0) + 1
    best = max((h for h in weight if count[h] >= MIN_STEPS), key=weight.__getitem__,
               default=-1)
    if best < 0 or weight[best] < MIN_SHARE * n:
        return None
    terms = sorted({p for v in range(n) if head[v] == best and ops[v] in CHAIN_OPS
                    for p in parents[v] if parents[p] and head[p] != best})
    # a step is more than its term's region by a result that several steps read, which
    # the Σ post-dominates (a position's keys): without enough of them, no search
    is_term = set(terms)
    shared = sum(1 for u in range(n) if parents[u] and head[u] == u
                 and regions.parent[u] == best and u not in is_term)
    if shared < max(2, (len(terms) - 1) / 2):
        return None
    step = _steps(arrays, regions, terms)
    if step is None:
        return None
    sizes = [0] * len(terms)
    for s in step:
        if s >= 0:
            sizes[s] += 1
    more = sum(1 for k, t in enumerate(terms) if sizes[k] > size[t])
    if more < max(2, (len(terms) - 1) / 2):
        return None  # the steps are the terms' regions, but for what the first computes
    if sum(sizes) < MIN_SHARE * n or not _inside(regions, step, best, n):
        return None
    return Sequence(step, terms, best, sizes)


def _steps(arrays, regions: Regions, terms: list[int]) -> list[int] | None:
    """Each node's step, by a search back from each term in turn over what no earlier
    one reached; None if a term depends on another (the steps would not be the terms').
    A leaf used by several steps, or hung from the root (a parameter), is in none."""
    n = len(arrays)
    parents, parent = arrays.parents, regions.parent
    step = [-1] * n
    is_term = dict.fromkeys(terms, True)
    for k, t in enumerate(terms):
        step[t] = k
        todo = [t]
        while todo:
            for p in parents[todo.pop()]:
                if step[p] >= 0:
                    if p in is_term:
                        return None
                    continue
                if not parents[p] and parent[p] >= n:
                    continue
                step[p] = k
                if parents[p]:
                    todo.append(p)
    for v in range(n):  # a leaf read by another step too is in none
        if step[v] >= 0 and not parents[v]:
            for c in regions.consumers[v]:
                if step[c] != step[v]:
                    step[v] = -1
                    break
    return step


def _inside(regions: Regions, step: list[int], best: int, n: int) -> bool:
    """True if every node of a step is in the Σ's region, with its tree parent (its
    chain's last link, for an inner link) in its own step or in none: the steps then
    nest with the regions. A node of no step under a step's node is refused too."""
    parent, head = regions.parent, regions.head
    inside = [False] * (n + 1)
    inside[best] = True
    for v in range(n - 1, -1, -1):
        up = head[v] if head[v] != v else parent[v]
        if v != best:
            inside[v] = inside[up]
        s = step[v]
        if s >= 0 and not inside[v]:
            return False
        if up < n and step[up] >= 0 and step[up] != s:
            return False
    return True
