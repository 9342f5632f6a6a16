"""A graph of this engine's Values as plain lists (`GraphArrays`), the grouping's input.

The lists are what a child process is sent: numbers and strings, no live Values.
"""
# Qt-free: grouped in a child process, which never loads Qt (tests/test_structure.py).

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gui.graph.groups.model import GraphArrays


def arrays_of(nodes: Sequence, roles: Mapping) -> GraphArrays:
    """The graph of `nodes` (Values in a topological order, operands first, the output
    last) as a `GraphArrays`: each node's operands by index, its op ('' for a leaf), its
    label and its role ('input', 'constant' or 'output' from `roles`, the window's
    `Session.roles()`, else 'intermediate').

    Raises ValueError if a node's operand is not among the nodes before it."""
    index = {id(v): i for i, v in enumerate(nodes)}
    parents, ops, labels, kinds = [], [], [], []
    for i, v in enumerate(nodes):
        try:
            ps = tuple(index[id(p)] for p in v.parents)
        except KeyError:
            raise ValueError(f"node {i}'s operand is not among the nodes") from None
        if any(p >= i for p in ps):
            raise ValueError(f"node {i} comes before one of its operands")
        parents.append(ps)
        ops.append(v.op)
        labels.append(v.label)
        kinds.append(roles.get(v, "intermediate"))
    return GraphArrays(parents, ops, labels, kinds, len(nodes) - 1)
