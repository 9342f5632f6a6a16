"""Which groups are open: what fits a screen when the graph opens, and View → Expand to
level N."""
# Qt-free: grouped in a child process, which never loads Qt (tests/test_structure.py).

from __future__ import annotations

from gui.graph.groups.model import Grouping

SCREEN_UNITS = 60  # roughly what a screen shows readably: 40-80 boxes and nodes


def shown_units(grouping: Grouping, expanded: set[int]) -> int:
    """How many units the quotient with `expanded` open has (without making it)."""
    count = sum(1 for g in grouping.group_of if g < 0)
    todo = grouping.top()
    count += len(todo)
    while todo:
        g = todo.pop()
        if g in expanded:
            group = grouping.groups[g]
            count += len(group.nodes) + len(group.children) - 1
            todo.extend(group.children)
    return count


def initial_expansion(grouping: Grouping, budget: int = SCREEN_UNITS) -> set[int]:
    """The groups to open so that what is shown fits `budget` units: every group if the
    whole graph fits, else breadth first from the top, siblings alike (same kind and
    size) opened together or not at all."""
    if len(grouping.order) <= budget:
        return {g.id for g in grouping.groups}
    expanded: set[int] = set()
    count = shown_units(grouping, expanded)
    level = grouping.top()
    while level:
        following: list[int] = []
        for batch in _batches(grouping, level):
            grow = sum(len(grouping.groups[g].nodes) + len(grouping.groups[g].children) - 1
                       for g in batch)
            if count + grow <= budget:
                count += grow
                expanded.update(batch)
                for g in batch:
                    following.extend(grouping.groups[g].children)
        level = following
    return expanded


def _batches(grouping: Grouping, level: list[int]) -> list[list[int]]:
    alike: dict[tuple, list[int]] = {}
    for g in level:
        group = grouping.groups[g]
        alike.setdefault((group.parent, group.kind, group.members), []).append(g)
    return list(alike.values())


def expansion_to_level(grouping: Grouping, level: int) -> set[int]:
    """The groups open at level `level`: 0 shows the top level, 1 opens its groups, …"""
    return {g.id for g in grouping.groups if grouping.depth(g.id) < level}
