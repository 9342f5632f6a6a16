"""The records a grouped graph is described by, shared by the grouping, the stepping at
the level shown, the drawing and the export.

Node i is an index into `GraphArrays`: the graph in a topological order (every node after
its operands). A `Group` stands for a set of nodes that is convex (no path leaves it and
comes back), so that with any choice of groups collapsed the graph of what is shown (the
`Quotient`) is still a DAG, drawn by the same layered layout. Groups nest (a laminar
family): each has one parent group or none. `Grouping.order` is a topological order of
every node in which the members of every group, at every level, are contiguous, so that a
collapsed group's forward (and backward) pass is one run of the stepper's steps.

A unit of the quotient is a node shown as itself (`i >= 0`) or a collapsed group
(`-1 - g`, see `group_unit` and `unit_group`).
"""
# Qt-free: grouped in a child process, which never loads Qt (tests/test_structure.py).

from __future__ import annotations

from dataclasses import dataclass, field


def group_unit(g: int) -> int:
    """The quotient's unit code of collapsed group `g`."""
    return -1 - g


def unit_group(unit: int) -> int:
    """The group of a unit code that stands for a group (`unit < 0`)."""
    return -1 - unit


@dataclass(slots=True)
class GraphArrays:
    """A graph as plain lists, node i in a topological order (operands first)."""

    parents: list[tuple[int, ...]]  # node i's operands, by index, in operand order
    ops: list[str]                  # its op's name (engine.core.ops), '' for a leaf
    labels: list[str]               # its name ('' if none): 'model.layers[0].neurons[3].w[1]'
    roles: list[str]                # 'input' | 'constant' | 'intermediate' | 'output'
    output: int                     # the output's index (the last node)

    def __len__(self) -> int:
        return len(self.parents)


@dataclass(slots=True)
class Group:
    """A set of nodes that can be drawn as one box."""

    id: int
    kind: str            # 'names' | 'structure' | 'stack' | 'instance'
    title: str           # 'model.layers[1]', 'relu(Σ 16 terms + b)', 'inputs[7]'
    parent: int          # the enclosing group's id, -1 at the top
    children: list[int]  # its sub-groups' ids, in `order`'s order
    nodes: list[int]     # the nodes directly in it (in none of its sub-groups)
    members: int         # how many nodes it stands for, at every level
    instances: int = 0   # a stack: how many instances it stacks (its children)
    first: int = 0       # its members are order[first:last]
    last: int = 0


@dataclass(slots=True)
class Grouping:
    """A graph's groups and an order of its nodes that keeps every group contiguous."""

    order: list[int]                 # every node once, topological, groups contiguous
    groups: list[Group] = field(default_factory=list)
    group_of: list[int] = field(default_factory=list)  # each node's innermost group, -1

    @classmethod
    def none(cls, n: int) -> Grouping:
        """No groups: every node shown as itself, in the given topological order."""
        return cls(list(range(n)), [], [-1] * n)

    def ancestors(self, node: int) -> list[int]:
        """The groups that hold `node`, outermost first."""
        chain = []
        g = self.group_of[node] if self.group_of else -1
        while g >= 0:
            chain.append(g)
            g = self.groups[g].parent
        return chain[::-1]

    def depth(self, g: int) -> int:
        """0 for a top-level group, 1 for one inside it, …"""
        d = 0
        while self.groups[g].parent >= 0:
            g = self.groups[g].parent
            d += 1
        return d

    def top(self) -> list[int]:
        """The top-level groups' ids."""
        return [g.id for g in self.groups if g.parent < 0]


@dataclass(slots=True)
class Quotient:
    """What is shown with a set of groups expanded: each unit in a topological order,
    and an edge per pair of units that operands connect (several operands, one edge)."""

    units: list[int]      # unit codes (node i, or group_unit(g)) in a topological order
    unit_of: list[int]    # each node's unit code
    # (source unit, target unit, the operands it stands for: (consumer node, position))
    edges: list[tuple[int, int, tuple[tuple[int, int], ...]]]


def visible_unit(grouping: Grouping, expanded: set[int], node: int) -> int:
    """The unit `node` is shown as: its outermost collapsed group, or itself."""
    for g in grouping.ancestors(node):
        if g not in expanded:
            return group_unit(g)
    return node


def quotient(arrays: GraphArrays, grouping: Grouping, expanded: set[int]) -> Quotient:
    """The graph shown with the groups in `expanded` open and every other one collapsed
    (a group inside a collapsed one is hidden with it). Plain O(nodes + operands)."""
    unit_of = [visible_unit(grouping, expanded, i) for i in range(len(arrays))]
    units, seen = [], set()
    for i in grouping.order:  # groups are contiguous in it: units come out topological
        u = unit_of[i]
        if u not in seen:
            seen.add(u)
            units.append(u)
    edges: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for c, parents in enumerate(arrays.parents):
        t = unit_of[c]
        for k, p in enumerate(parents):
            s = unit_of[p]
            if s != t:
                key = (s, t) if t < 0 else (s, t, k)  # a shown node keeps one edge per operand
                edges.setdefault(key, []).append((c, k))
    return Quotient(units, unit_of, [(key[0], key[1], tuple(ops)) for key, ops in edges.items()])
