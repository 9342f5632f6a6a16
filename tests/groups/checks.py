"""What every grouping must be, checked by brute force: shared by the grouping's tests."""

from __future__ import annotations

from gui.graph.groups import GraphArrays, Grouping


def descendants(arrays: GraphArrays, start: set[int]) -> set[int]:
    consumers: list[list[int]] = [[] for _ in range(len(arrays))]
    for c, parents in enumerate(arrays.parents):
        for p in parents:
            consumers[p].append(c)
    seen, todo = set(start), list(start)
    while todo:
        for c in consumers[todo.pop()]:
            if c not in seen:
                seen.add(c)
                todo.append(c)
    return seen


def ancestors(arrays: GraphArrays, start: set[int]) -> set[int]:
    seen, todo = set(start), list(start)
    while todo:
        for p in arrays.parents[todo.pop()]:
            if p not in seen:
                seen.add(p)
                todo.append(p)
    return seen


def is_convex(arrays: GraphArrays, nodes: set[int]) -> bool:
    """No node outside `nodes` is both reached from them and reaches them."""
    return descendants(arrays, nodes) & ancestors(arrays, nodes) <= nodes


def check_grouping(arrays: GraphArrays, grouping: Grouping, convex: bool = True) -> None:
    """The order is every node once and topological; every group is order[first:last],
    nested in its parent (laminar), made of its nodes and its children, and convex."""
    n = len(arrays)
    order = grouping.order
    assert sorted(order) == list(range(n))
    at = {node: k for k, node in enumerate(order)}
    assert all(at[p] < at[c] for c in range(n) for p in arrays.parents[c])
    assert len(grouping.group_of) == n
    direct: dict[int, list[int]] = {}
    for i, g in enumerate(grouping.group_of):
        direct.setdefault(g, []).append(i)
    for group in grouping.groups:
        members = set(order[group.first:group.last])
        assert group.members == group.last - group.first == len(members) > 0
        assert sorted(group.nodes) == direct.get(group.id, [])
        assert group.nodes == sorted(group.nodes, key=at.__getitem__)
        parts = set(group.nodes)
        for c in group.children:
            child = grouping.groups[c]
            assert child.parent == group.id
            assert group.first <= child.first < child.last <= group.last
            inside = set(order[child.first:child.last])
            assert not parts & inside
            parts |= inside
        assert parts == members
        assert [grouping.groups[c].first for c in group.children] == sorted(
            grouping.groups[c].first for c in group.children)
        if group.kind == "stack":
            assert len(group.children) >= 2
            held, todo = 0, list(group.children)  # its instances, through its parts
            while todo:
                child = grouping.groups[todo.pop()]
                if child.kind == "stack":
                    todo.extend(child.children)
                else:
                    held += 1
            assert group.instances == held
            assert all(grouping.groups[c].kind in ("instance", "stack")
                       for c in group.children)
        if group.parent >= 0:
            assert group.id in grouping.groups[group.parent].children
        if convex:
            assert is_convex(arrays, members), (group.kind, group.title)

