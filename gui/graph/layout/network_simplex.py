"""The ranks dot gives: every edge as short as can be in total (Gansner et al., "A
Technique for Drawing Directed Graphs", section 2: the network simplex; Graphviz
lib/common/ns.c). Minimise the sum of the edges' spans, each edge at least its least
span (two layers for a labelled edge, one otherwise), from a feasible ranking: a
spanning tree of tight edges (span equal to the least), then pivots that swap a tree
edge whose cut value is negative for the non-tree edge of least slack across its cut.

The longest path with sources pulled right (ranking.py) is already optimal on a tree
and on most programs; the network simplex changes a graph's ranks only where some
group of nodes can move right together and shorten more edges than it lengthens (a
value with one use computed early, far from it: a whole branch can move up to its use).
"""
# Qt-free: part of the layout, which runs in a child process (tests/test_structure.py).

from __future__ import annotations

SEARCH_SIZE = 30  # dot's Search_size: negative cut values looked at before pivoting
WORK = 300_000    # nodes and edges visited by the pivots at most (each visits all once)


class _Problem:
    """The graph as edges tail -> head with a least span and a weight (parallel edges
    merged, their weights added), and a feasible ranking of it."""

    def __init__(self, n: int, edges, ranks: list[int]):
        merged: dict[tuple[int, int], list[int]] = {}
        for u, v, label in edges:
            least = 2 if label is not None else 1
            known = merged.get((u, v))
            if known is None:
                merged[(u, v)] = [least, 1]
            else:
                known[0] = max(known[0], least)
                known[1] += 1
        self.n = n
        self.tail = [u for u, _ in merged]
        self.head = [v for _, v in merged]
        self.least = [m for m, _ in merged.values()]
        self.weight = [w for _, w in merged.values()]
        self.incident: list[list[int]] = [[] for _ in range(n)]
        for e, (u, v) in enumerate(merged):
            self.incident[u].append(e)
            self.incident[v].append(e)
        self.rank = list(ranks)

    def slack(self, e: int) -> int:
        return self.rank[self.head[e]] - self.rank[self.tail[e]] - self.least[e]

    def cost(self) -> int:
        rank = self.rank
        return sum(w * (rank[v] - rank[u]) for u, v, w in zip(self.tail, self.head, self.weight))


def optimal_ranks(n: int, edges, ranks: list[int], work: int = WORK) -> list[int]:
    """Ranks of nodes 0..n-1 that minimise the total span of `edges` (source, target,
    label or None; a labelled edge spans two layers at least), from the feasible
    `ranks`; once the pivots have visited about `work` nodes and edges, the ranks
    reached so far (feasible, but maybe longer than `ranks`). Lowest rank 0."""
    if n == 0:
        return []
    problem = _Problem(n, edges, ranks)
    tree = _feasible_tree(problem)
    for _ in range(max(1, work // (n + len(problem.tail)))):
        parent, low, lim = _rooted(problem, tree)
        cut = _cut_values(problem, tree, parent, low, lim)
        leaving = _leave_edge(cut)
        if leaving is None:
            break
        entering = _enter_edge(problem, tree, leaving, low, lim)
        if entering is None:  # nothing crosses the cut that way: cannot happen when connected
            break
        tree.discard(leaving)
        tree.add(entering)
        _rerank(problem, tree)
    lowest = min(problem.rank)
    return [r - lowest for r in problem.rank]


def total_span(edges, ranks: list[int]) -> int:
    """The sum of the edges' spans under `ranks`, parallel edges each counted."""
    return sum(ranks[v] - ranks[u] for u, v, _ in edges)


def _feasible_tree(problem: _Problem) -> set[int]:
    """A spanning forest of tight edges, one tree per connected part of the graph: grown
    from a node along tight edges; while it does not span its part, the tree is moved by
    the least slack of an edge leaving it, which makes that edge tight (dot's
    feasible_tree). The ranks stay feasible."""
    tail, head, incident, rank = problem.tail, problem.head, problem.incident, problem.rank
    in_tree = [False] * problem.n
    tree: set[int] = set()
    for root in range(problem.n):
        if in_tree[root]:
            continue
        members = [root]
        in_tree[root] = True
        frontier = [root]
        while True:
            while frontier:  # every node a tight edge reaches
                v = frontier.pop()
                for e in incident[v]:
                    w = head[e] if tail[e] == v else tail[e]
                    if not in_tree[w] and problem.slack(e) == 0:
                        in_tree[w] = True
                        tree.add(e)
                        members.append(w)
                        frontier.append(w)
            best, best_slack = None, None
            for v in members:
                for e in incident[v]:
                    if in_tree[tail[e]] != in_tree[head[e]]:
                        s = problem.slack(e)
                        if best_slack is None or s < best_slack:
                            best, best_slack = e, s
            if best is None:
                break
            delta = best_slack if in_tree[tail[best]] else -best_slack
            for v in members:
                rank[v] += delta
            frontier = [tail[best] if in_tree[tail[best]] else head[best]]
    return tree


def _rooted(problem: _Problem, tree: set[int]):
    """The tree hung from each part's first node: each node's edge to its parent (None
    at a root), and dot's low and lim (a node's postorder number, and the least one in
    its subtree: w is in v's subtree when low[v] <= lim[w] <= lim[v])."""
    n, tail, head, incident = problem.n, problem.tail, problem.head, problem.incident
    parent: list[int | None] = [None] * n
    low, lim = [0] * n, [0] * n
    seen = [False] * n
    count = 0
    for root in range(n):
        if seen[root]:
            continue
        seen[root] = True
        stack = [(root, iter(incident[root]), count + 1)]
        while stack:
            v, edges, first = stack[-1]
            for e in edges:
                if e in tree:
                    w = head[e] if tail[e] == v else tail[e]
                    if not seen[w]:
                        seen[w] = True
                        parent[w] = e
                        stack.append((w, iter(incident[w]), count + 1))
                        break
            else:
                stack.pop()
                count += 1
                lim[v], low[v] = count, first
    return parent, low, lim


def _cut_values(problem: _Problem, tree, parent, low, lim) -> dict[int, int]:
    """Each tree edge's cut value: the weight of the edges from its tail's side to its
    head's, less that of the edges the other way (dot's dfs_cutval and x_cutval),
    children before parents."""
    tail, head, weight, incident = problem.tail, problem.head, problem.weight, problem.incident
    cut: dict[int, int] = {}
    for v in sorted(range(problem.n), key=lim.__getitem__):
        f = parent[v]
        if f is None:
            continue
        forward = tail[f] == v  # v is the tail of its parent edge
        lo, hi = low[v], lim[v]
        total = 0
        for e in incident[v]:
            other = head[e] if tail[e] == v else tail[e]
            if lo <= lim[other] <= hi:  # the edge stays inside v's subtree
                value = (cut[e] if e in tree and e != f else 0) - weight[e]
                outside = False
            else:
                value, outside = weight[e], True
            sign = (1 if head[e] == v else -1) if forward else (1 if tail[e] == v else -1)
            if outside:
                sign = -sign
            total += value if sign > 0 else -value
        cut[f] = total
    return cut


def _leave_edge(cut: dict[int, int]) -> int | None:
    """A tree edge with a negative cut value: the most negative of the first
    SEARCH_SIZE found (dot's leave_edge), or None when the ranking is optimal."""
    best, best_value, found = None, 0, 0
    for e, value in cut.items():
        if value < 0:
            found += 1
            if value < best_value:
                best, best_value = e, value
            if found >= SEARCH_SIZE:
                break
    return best


def _enter_edge(problem: _Problem, tree, leaving: int, low, lim) -> int | None:
    """The non-tree edge of least slack from the leaving edge's head side to its tail
    side, which replaces it (dot's enter_edge)."""
    tail, head, incident = problem.tail, problem.head, problem.incident
    t, h = tail[leaving], head[leaving]
    side = t if lim[t] < lim[h] else h  # the side below the leaving edge
    lo, hi = low[side], lim[side]
    into = side == t  # the edges wanted enter the tail's side; otherwise leave the head's
    best, best_slack = None, None
    for v in range(problem.n):
        if not lo <= lim[v] <= hi:
            continue
        for e in incident[v]:
            if e in tree:
                continue
            inside, other = (head[e], tail[e]) if into else (tail[e], head[e])
            if inside != v or lo <= lim[other] <= hi:
                continue
            s = problem.slack(e)
            if best_slack is None or s < best_slack:
                best, best_slack = e, s
    return best


def _rerank(problem: _Problem, tree: set[int]) -> None:
    """Ranks from the tree: each part's first node keeps its rank, every tree edge tight."""
    tail, head, least, incident, rank = (problem.tail, problem.head, problem.least,
                                         problem.incident, problem.rank)
    seen = [False] * problem.n
    for root in range(problem.n):
        if seen[root]:
            continue
        seen[root] = True
        stack = [root]
        while stack:
            v = stack.pop()
            for e in incident[v]:
                if e not in tree:
                    continue
                if tail[e] == v and not seen[head[e]]:
                    w = head[e]
                    rank[w] = rank[v] + least[e]
                elif head[e] == v and not seen[tail[e]]:
                    w = tail[e]
                    rank[w] = rank[v] - least[e]
                else:
                    continue
                seen[w] = True
                stack.append(w)
