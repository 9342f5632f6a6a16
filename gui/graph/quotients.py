"""The quotient of a grouped graph made again after a few groups opened or closed, from
the one before, at the cost of what changed rather than of the whole graph.

With the nodes numbered in the grouping's order (range(n): every group a run
`first..last-1`, every node after its operands), a unit stands for a run of nodes, and
the edge (s, t) of a quotient stands for every operand from s's run into t's: it is the
same edge in any quotient that has both units. A group that opens or closes changes only
the units inside its run. So the new quotient keeps every edge between two units that
did not change, and works out again only the operands of the edges that touched a
changed run, with, for each group now open that was not, the operands it held inside
(`Buckets`: each operand filed under the innermost group holding both its ends, found
once per graph). The result is the quotient `grouped.Shown.quotient_steps` would make
from scratch, edge for edge and in the same order (tests/gui/test_incremental_expand.py).
"""
# Qt-free: plain bookkeeping over the grouping's records, tested without a window.

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Generator, Iterator
from itertools import groupby
from operator import getitem, itemgetter

from gui.graph.groups.model import GraphArrays, Group, Quotient

OPERANDS_PER_SLICE = 20_000
NODES_PER_FILL = 2_500  # `Buckets.fill_steps` yields after this many nodes' operands
SPLIT_PER_SLICE = 5_000  # an edge's operands split again this many at a time


class Buckets:
    """Each operand (consumer, position) filed under the innermost group that holds
    both its ends (`inside[g]`); one that no group holds is not kept (it is an edge
    of every quotient). `done` once `fill_steps` has run to its end."""

    def __init__(self):
        self.inside: dict[int, list[tuple[int, int]]] = {}
        self.done = False

    def fill_steps(self, arrays: GraphArrays, groups: list[Group],
                   group_of: list[int]) -> Iterator[None]:
        """File every operand, yielding after every NODES_PER_FILL nodes' operands."""
        if self.done:
            return
        inside: dict[int, list[tuple[int, int]]] = {}
        firsts = [g.first for g in groups]
        up = [g.parent for g in groups]
        parents = arrays.parents
        n = len(parents)
        yield
        for a in range(0, n, NODES_PER_FILL):
            for c in range(a, min(n, a + NODES_PER_FILL)):
                innermost = group_of[c]
                if innermost < 0:
                    continue
                for k, p in enumerate(parents[c]):
                    h = innermost
                    while h >= 0 and firsts[h] > p:
                        h = up[h]
                    if h >= 0:
                        held = inside.get(h)
                        if held is None:
                            held = inside[h] = []
                        held.append((c, k))
            yield
        self.inside, self.done = inside, True


def effective(expanded, groups: list[Group]) -> set[int]:
    """The groups of `expanded` that are open in the picture: every group holding them
    is open too (one inside a closed group is hidden with it)."""
    shown = set()
    for g in expanded:
        h = groups[g].parent
        while h >= 0 and h in expanded:
            h = groups[h].parent
        if h < 0:
            shown.add(g)
    return shown


def changed_quotient_steps(before: Quotient, was_open, now_open, units: list[int],
                           unit_of: list[int], arrays: GraphArrays, groups: list[Group],
                           buckets: Buckets) -> Generator[None, None, Quotient]:
    """The quotient with `now_open` open, made from `before` (the quotient with
    `was_open` open) and the new `units` and `unit_of` (see the module's docstring), as
    steps: it yields after every OPERANDS_PER_SLICE operands or so, and returns it.
    `buckets` must be done."""
    was, now = effective(was_open, groups), effective(now_open, groups)
    starts, ends = _runs([(groups[g].first, groups[g].last) for g in was ^ now])

    def changed(u: int) -> bool:
        x = u if u >= 0 else groups[-1 - u].first
        k = bisect_right(starts, x) - 1
        return k >= 0 and x < ends[k]

    kept, loose = [], []
    fresh: dict[tuple, list[tuple[int, int]]] = {}
    done = 0  # operands split since the last yield
    for edge in before.edges:
        s, t, ops = edge
        if not changed(s):
            if not changed(t):
                kept.append(edge)
                continue
            split = _split  # the source stays: split by the new targets
        elif t < 0 and not changed(t):  # the target is the same group: by new sources
            split = _split_sources
        else:
            loose.extend(ops)
            continue
        # in pieces, each filed after the one before: every new edge keeps its operands
        # in order (one edge may stand for 33,700: the parameters read by 100 samples)
        for a in range(0, len(ops), SPLIT_PER_SLICE):
            piece = ops[a:a + SPLIT_PER_SLICE]
            if split is _split:
                _split(s, piece, unit_of, fresh)
            else:
                _split_sources(t, piece, unit_of, arrays.parents, fresh)
            done += len(piece)
            if done > SPLIT_PER_SLICE:
                done = 0
                yield
    for g in now - was:
        loose.extend(buckets.inside.get(g, ()))
    parents = arrays.parents
    for place, (c, k) in enumerate(loose):
        if place % (OPERANDS_PER_SLICE // 4) == 0:
            yield
        t, s = unit_of[c], unit_of[parents[c][k]]
        if s != t:
            key = (s, t) if t < 0 else (s, t, k)
            ops = fresh.get(key)
            if ops is None:
                ops = fresh[key] = []
            ops.append((c, k))
    edges = kept + [(key[0], key[1], tuple(sorted(ops))) for key, ops in fresh.items()]
    edges.sort(key=_first_operand)  # as a scan of the consumers in order meets them
    return Quotient(units, unit_of, edges)


def _split(s: int, ops: tuple, unit_of: list[int], fresh: dict) -> None:
    """File operands `ops` (in order) from unit `s` under their new targets' edges: a
    target's operands are a run of them (its nodes are a run), found in C loops."""
    targets = list(map(unit_of.__getitem__, map(itemgetter(0), ops)))
    at = 0
    for t, run in groupby(targets):
        size = len(list(run))
        if t < 0:
            key = (s, t)
            held = fresh.get(key)
            if held is None:
                held = fresh[key] = []
            held.extend(ops[at:at + size])
        else:
            for c, k in ops[at:at + size]:
                fresh.setdefault((s, t, k), []).append((c, k))
        at += size


def _split_sources(t: int, ops: tuple, unit_of: list[int], parents: list, fresh: dict) -> None:
    """File operands `ops` (in order) into group unit `t` under their new sources'
    edges (the parameters a group reads lie anywhere: sorted by source, in C loops)."""
    sources = list(map(unit_of.__getitem__,
                       map(getitem, map(parents.__getitem__, map(itemgetter(0), ops)),
                           map(itemgetter(1), ops))))
    places = sorted(range(len(ops)), key=sources.__getitem__)  # stable: ops stay in order
    at = 0
    for s, run in groupby(map(sources.__getitem__, places)):
        size = len(list(run))
        held = fresh.get((s, t))
        if held is None:
            held = fresh[(s, t)] = []
        held.extend(map(ops.__getitem__, places[at:at + size]))
        at += size


def _first_operand(edge) -> tuple[int, int]:
    return edge[2][0]


def _runs(spans: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """The disjoint maximal runs covering `spans` (groups' runs nest or are apart): their
    starts and ends, sorted."""
    starts: list[int] = []
    ends: list[int] = []
    for a, b in sorted(spans):
        if ends and a < ends[-1]:
            ends[-1] = max(ends[-1], b)
        else:
            starts.append(a)
            ends.append(b)
    return starts, ends
