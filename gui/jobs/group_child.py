"""A big graph grouped in a child process (the grouping is pure Python: in the window's
process it would hold the interpreter lock for a second or more).

The window sends the graph as flat arrays (`pack_arrays_steps`, a slice at a time); the
child groups it, renumbers it in the grouping's order and picks what is open at first,
and sends back ("order", the old number of each new node), ("grouping", Grouping),
("expanded", group ids) and ("parents", flat, ends): the graph in the new numbering.
"""
# Qt-free: runs in a child process; tests/test_structure.py imports it alone and finds no Qt.

from __future__ import annotations

from array import array
from collections.abc import Generator, Iterator
from itertools import accumulate, chain

from gui.graph.grouped import renumbered
from gui.graph.groups.model import GraphArrays, Grouping

NODES_PER_SLICE = 5_000
GROUP_FROM = 500  # smaller graphs are drawn node by node, as they always were


def _grouping_functions():
    """helper B's grouping (gui/graph/groups/grouping.py), or none while it is absent."""
    try:
        from gui.graph.groups import grouping  # noqa: PLC0415 - optional until merged
    except ImportError:
        return None, None
    return grouping.group_graph, grouping.initial_expansion


def pack_arrays_steps(nodes: list, roles) -> Generator[None, None, dict]:
    """`nodes` (a topological order of Values) as flat arrays for the child, a slice at
    a time: it yields between slices and returns the packed graph."""
    index: dict = {}
    flat, ends = array("q"), array("q")
    ops, labels, kinds = [], [], []
    for a in range(0, len(nodes), NODES_PER_SLICE):
        part = nodes[a:a + NODES_PER_SLICE]
        index.update(zip(part, range(a, a + len(part))))
        for v in part:
            flat.extend([index[p] for p in v._prev])
            ends.append(len(flat))
        ops.extend(v._op for v in part)
        labels.extend(v.label for v in part)
        kinds.extend(roles.get(v, "intermediate") for v in part)
        yield
    return {"flat": flat, "ends": ends, "ops": ops, "labels": labels, "roles": kinds}


def unpack_parents(flat: array, ends: array, start: int = 0,
                   stop: int | None = None) -> list[tuple[int, ...]]:
    """The parents of nodes start..stop-1 that `pack_arrays_steps` packed."""
    stop = len(ends) if stop is None else stop
    a = ends[start - 1] if start else 0
    parents = []
    for b in ends[start:stop]:
        parents.append(tuple(flat[a:b]))
        a = b
    return parents


def group_pieces(flat: array, ends: array, ops: list, labels: list, roles: list,
                 budget: int) -> Iterator[tuple]:
    """Group the packed graph (see the module's docstring); `budget`: about how many
    units the first picture may show."""
    parents = unpack_parents(flat, ends)
    arrays = GraphArrays(parents, ops, labels, roles, len(parents) - 1)
    group_graph, initial_expansion = _grouping_functions()
    if group_graph is None or len(parents) < GROUP_FROM:
        grouping = Grouping.none(len(parents))
    else:
        grouping = group_graph(arrays)
    yield "order", array("q", grouping.order)
    arrays, grouping = renumbered(arrays, grouping)
    yield "grouping", grouping
    expanded = (sorted(initial_expansion(grouping, budget))
                if grouping.groups and initial_expansion is not None else [])
    yield "expanded", expanded
    flat_new = array("q", chain.from_iterable(arrays.parents))
    yield "parents", flat_new, array("q", accumulate(map(len, arrays.parents)))
