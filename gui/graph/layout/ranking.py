"""Phase 1: every node a layer (a column: the drawing runs left to right)."""
# Qt-free: part of the layout, which runs in a child process (tests/test_structure.py).

from __future__ import annotations


def rank(n: int, edges: list[tuple[int, int, tuple | None]]) -> list[int]:
    """Each node's layer: the longest path from a source (a labelled edge spans at least
    two layers, to make room for its label), then each source moved right up to its
    nearest use."""
    ranks = [0] * n
    has_in = [False] * n
    for u, v, label in sorted(edges, key=lambda e: e[1]):
        has_in[v] = True
        need = ranks[u] + (2 if label is not None else 1)
        if need > ranks[v]:
            ranks[v] = need
    nearest: dict[int, int] = {}
    for u, v, label in edges:
        if not has_in[u]:
            limit = ranks[v] - (2 if label is not None else 1)
            if limit < nearest.get(u, limit + 1):
                nearest[u] = limit
    for u, limit in nearest.items():
        ranks[u] = limit
    low = min(ranks, default=0)
    return [r - low for r in ranks]
