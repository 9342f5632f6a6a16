"""A big graph grouped in a child process (the grouping is pure Python: in the window's
process it would hold the interpreter lock for a second or more).

The window sends the graph as flat arrays (`pack_arrays_steps`, a slice at a time); the
child groups it, renumbers it in the grouping's order and picks what is open at first,
and sends back ("order", the old number of each new node), ("grouping", the Grouping
packed as arrays: `pack_grouping`), ("expanded", group ids) and ("parents", flat, ends):
the graph in the new numbering.
"""
# Qt-free: runs in a child process; tests/test_structure.py imports it alone and finds no Qt.

from __future__ import annotations

import gc
from array import array
from collections.abc import Generator, Iterator
from itertools import accumulate, chain

from gui.graph.grouped import renumbered
from gui.graph.groups import THRESHOLD, GraphArrays, Grouping, group_graph, initial_expansion
from gui.graph.groups.expansion import as_digraph, fast_quotient
from gui.graph.groups.model import Group

NODES_PER_SLICE = 2_500  # the window's slices of packing and unpacking (5,000: 11-14 ms)
GROUP_FROM = THRESHOLD  # graphs this big or smaller are drawn node by node, as always


# what a grouping child sends, one record each, by its first field
GROUPING_RECORDS = ("order", "grouping", "expanded", "parents")


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
    units the first picture may show. In the child, with the collector off: the graph
    and its groups hold no cycles, and rescanning them took a third of the time."""
    gc.disable()  # (this child's own collector: it ends with this work)
    parents = unpack_parents(flat, ends)
    yield from grouped_records(GraphArrays(parents, ops, labels, roles, len(parents) - 1),
                               budget)


def _import_networkx() -> None:
    import networkx  # noqa: F401 - imported while the window packs the graph


group_pieces.warm_up = _import_networkx  # see gui.jobs.process_child.run_generator


def program_arrays(program, order: list[int]) -> GraphArrays:
    """`program`'s graph as arrays, its values in `order` (indices into its values, a
    topological order), with the roles the window gives them."""
    nodes = [program.values[i] for i in order]
    index = {v: k for k, v in enumerate(nodes)}
    inputs = set(program.inputs.values())
    roles = [("input" if v in inputs else "constant") if not v._prev else "intermediate"
             for v in nodes]
    roles[-1] = "output"
    return GraphArrays([tuple(index[p] for p in v._prev) for v in nodes],
                       [v._op for v in nodes], [v.label for v in nodes], roles,
                       len(nodes) - 1)


_GROUP_NUMBERS = ("id", "parent", "members", "instances", "first", "last")


def pack_grouping(grouping: Grouping) -> dict:
    """`grouping` as flat arrays and lists of text: a frame carries it as raw bytes, and
    the window makes its groups again a slice at a time (`unpack_grouping_steps`)."""
    groups = grouping.groups
    packed = {name: array("q", [getattr(g, name) for g in groups]) for name in _GROUP_NUMBERS}
    packed["kind"] = [g.kind for g in groups]
    packed["title"] = [g.title for g in groups]
    for name in ("children", "nodes"):
        packed[name] = array("q", chain.from_iterable(getattr(g, name) for g in groups))
        packed[name + "_ends"] = array("q", accumulate(len(getattr(g, name)) for g in groups))
    packed["order"] = array("q", grouping.order)
    packed["group_of"] = array("q", grouping.group_of)
    return packed


def unpack_grouping_steps(packed: dict) -> Generator[None, None, Grouping]:
    """The Grouping `pack_grouping` packed, its groups made NODES_PER_SLICE at a time
    (yielding between slices)."""
    numbers = [packed[name].tolist() for name in _GROUP_NUMBERS]
    kinds, titles = packed["kind"], packed["title"]
    children, nodes = packed["children"], packed["nodes"]
    child_ends, node_ends = packed["children_ends"], packed["nodes_ends"]
    groups: list[Group] = []
    for a in range(0, len(kinds), NODES_PER_SLICE):
        for i in range(a, min(a + NODES_PER_SLICE, len(kinds))):
            c0 = child_ends[i - 1] if i else 0
            n0 = node_ends[i - 1] if i else 0
            gid, parent, members, instances, first, last = (column[i] for column in numbers)
            groups.append(Group(gid, kinds[i], titles[i], parent,
                                children[c0:child_ends[i]].tolist(),
                                nodes[n0:node_ends[i]].tolist(), members, instances,
                                first, last))
        yield
    return Grouping(packed["order"].tolist(), groups, packed["group_of"].tolist())


def grouped_records(arrays: GraphArrays, budget: int) -> Iterator[tuple]:
    """The records of `group_pieces` for `arrays`."""
    try:
        grouping = group_graph(arrays, GROUP_FROM)
        if grouping.groups:  # the first picture's graph of groups, checked by networkx
            import networkx as nx  # here, in the child: the window never waits for it

            first = fast_quotient(arrays, grouping, initial_expansion(grouping, budget))
            if not nx.is_directed_acyclic_graph(as_digraph(first)):
                raise ValueError("the graph of the groups has a cycle")
    except Exception:  # noqa: BLE001 - a graph the grouping cannot take is drawn ungrouped
        grouping = Grouping.none(len(arrays))
    yield "order", array("q", grouping.order)
    arrays, grouping = renumbered(arrays, grouping)
    yield "grouping", pack_grouping(grouping)
    expanded = sorted(initial_expansion(grouping, budget)) if grouping.groups else []
    yield "expanded", expanded
    flat_new = array("q", chain.from_iterable(arrays.parents))
    yield "parents", flat_new, array("q", accumulate(map(len, arrays.parents)))
