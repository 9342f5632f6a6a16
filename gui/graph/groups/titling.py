"""The titles of a grouping's drafts: a region by what it computes (`relu(Σ 16 terms +
b)`) or by the variable it reaches (`reg_loss`), a stack by what one instance computes
(`relu(…) × 100`) and its instances by the names inside (`inputs[7]`) or of their
results (`losses[3]`), a sequence's steps by position, merged stages as a head."""
# Qt-free: grouped in a child process, which never loads Qt (tests/test_structure.py).

from __future__ import annotations

import re

from gui.graph.groups.model import GraphArrays
from gui.graph.groups.names import path_parts, path_prefixes
from gui.graph.groups.repetition import REST, STAGES
from gui.graph.groups.structure import Draft
from gui.graph.groups.titles import Describer, closes_at_end

_INDEXED = re.compile(r"(.+)\[(\d+)\]")  # a name ending in an index: `inputs[7]`
_NUMBERED = re.compile(r"(.+) #(\d+)")  # an instance by what it computes: `rmsnorm(16) #1`


def title_drafts(arrays: GraphArrays, head: list[int], drafts: list[Draft], gnode) -> None:
    """Title every draft: a region by what it computes or the variable it reaches, a
    stack by one instance, its instances by the names inside, a sequence's steps by
    their position."""
    describe = Describer(arrays, head)
    held: dict[int, list[int]] = {}
    for i, g in enumerate(gnode):
        if g >= 0 and not arrays.parents[i] and arrays.labels[i]:
            held.setdefault(g, []).append(i)
    kids: dict[int, list[int]] = {}
    for k, d in enumerate(drafts):
        kids.setdefault(d.parent, []).append(k)
    gnode_of: dict[int, list[int]] = {}
    for i, g in enumerate(gnode):
        if g >= 0:
            gnode_of.setdefault(g, []).append(i)
    for d in drafts:  # an instance is named below, its stack by its first instance
        if d.kind == "structure" and not d.outputs:
            d.title = describe.chain(d.root) if d.chain else describe.describe(d.root)
            if not d.chain and _named(arrays, d.root) and not (
                    d.parent >= 0 and drafts[d.parent].root == d.root):
                d.title = arrays.labels[d.root]  # the variable it reaches: reg_loss
    for k, d in enumerate(drafts):  # a neuron by its parameters: neurons[3]: relu(…)
        if d.kind == "structure" and not d.outputs and not d.chain:
            name = _parameters_name(arrays, _nodes_in(k, kids, gnode_of), drafts, gnode)
            if name and name != d.title:
                d.title = f"{name}: {d.title}"
    for g0, d in enumerate(drafts):  # merged stages: an attention head, or in turn
        if d.kind == "instance" and d.title == STAGES:
            parts = sorted(kids[g0], key=lambda g: drafts[g].root)
            titles = [drafts[g].title for g in parts]
            d.outputs = True
            d.title = "attention head" if any(t.startswith("softmax(") for t in titles) \
                else " → ".join(titles)
    for s, d in enumerate(drafts):
        if d.step == -2:
            _title_steps(arrays, s, drafts, kids)
        if d.kind != "stack" or (d.parent >= 0 and drafts[d.parent].kind == "stack") \
                or d.step == -2:
            continue
        instances = _instances(s, drafts, kids)
        model = drafts[instances[0]]
        if model.outputs:
            d.title = model.title
        else:  # what one instance computes, what comes from outside it unsaid
            describe.within = set(_nodes_in(instances[0], kids, gnode_of))
            d.title = describe.describe(model.root)
            describe.within = None
        names = [arrays.labels[drafts[g].root] for g in instances]  # what each computes
        unique = len(set(names)) == len(names) and all(
            _named(arrays, drafts[g].root) for g in instances)  # losses[7]
        if not unique:  # else by the names inside: inputs[7]
            names = [_instance_name(arrays, _leaves_in(g, kids, held)) for g in instances]
            unique = len(set(names)) == len(names) and all(names)
        heads, base = d.title == "attention head", instance_base(d.title)
        for k, g in enumerate(instances):  # `head 3`, or by what it computes: rmsnorm(16) #1
            drafts[g].title = names[k] if unique else f"head {k}" if heads else f"{base} #{k}"
        if heads:
            _title_head_parts(arrays, s, drafts, kids, gnode_of, instances)
        _title_stack(s, drafts, kids, instances)


_BASE_CHARS = 24  # an instance's title says what it computes in at most about this many


def instance_base(title: str) -> str:
    """What an instance of a stack titled `title` computes, short enough that its index
    after it stays on its box (a box cuts a long title's end): the title, or its
    outermost call (`relu(…)`), or its start cut after a whole word (`log(softmax(27))
    × c + …`); the stack's own title and the inspector say it whole."""
    if len(title) <= _BASE_CHARS:
        return title
    call = re.match(r"[A-Za-z_]\w*\(", title)
    if call and closes_at_end(title):
        return f"{call[0]}…)"
    cut = title[:_BASE_CHARS].rsplit(" ", 1)[0]
    return f"{cut} …"


def _named(arrays: GraphArrays, v: int) -> bool:
    """True if result v is named by a path from the caller's variables (`losses[3]`)."""
    return bool(arrays.parents[v] and arrays.labels[v] and path_parts(arrays.labels[v]))


def _title_steps(arrays: GraphArrays, s: int, drafts: list[Draft], kids) -> None:
    """A sequence's steps: `position k`, or the name of its term (`losses[3]`) if all
    are named; their stack `positions × 8`, a part of it `positions 0–99`."""
    instances = _instances(s, drafts, kids)
    names = [arrays.labels[drafts[g].root] for g in instances]
    named = all(_named(arrays, drafts[g].root) for g in instances) and len(
        set(names)) == len(names)
    for k, g in enumerate(instances):
        drafts[g].title = names[k] if named else f"position {k}"
    number = {g: k for k, g in enumerate(instances)}
    drafts[s].title = f"positions × {len(instances)}"
    todo = [g for g in kids.get(s, []) if drafts[g].kind == "stack"]
    while todo:
        g = todo.pop()
        ks = [number[i] for i in _instances(g, drafts, kids)]
        drafts[g].title = f"positions {min(ks)}–{max(ks)}"
        todo.extend(k for k in kids.get(g, []) if drafts[k].kind == "stack")


def _title_head_parts(arrays: GraphArrays, s: int, drafts: list[Draft], kids, gnode_of,
                      instances: list[int]) -> None:
    """A part of one attention head left beside the heads' stack (its scores, or its
    weighted sum of the values: each uses its own rows of a matrix, so the heads' parts
    are not alike) is titled by its head, `attention head 3: layer(24 → 4)`, as the
    stack's instances are `head 3`: a sibling that takes from one head only, or gives."""
    head_of = {u: k for k, g in enumerate(instances) for u in _nodes_in(g, kids, gnode_of)}
    part_of: dict[int, int] = {}
    touched: dict[int, set[int]] = {}
    for g in kids.get(drafts[s].parent, []):
        if g != s and drafts[g].kind == "structure":
            for u in _nodes_in(g, kids, gnode_of):
                part_of[u] = g
                touched.setdefault(g, set()).update(
                    head_of[p] for p in arrays.parents[u] if p in head_of)
    for u, k in head_of.items():
        for p in arrays.parents[u]:
            if p in part_of:
                touched[part_of[p]].add(k)
    for g, heads in touched.items():
        if len(heads) == 1:
            drafts[g].title = f"attention {drafts[instances[heads.pop()]].title}: " \
                              f"{drafts[g].title}"


def _instances(s: int, drafts: list[Draft], kids) -> list[int]:
    """A stack's instances, through its sub-stacks, in index order."""
    found, todo = [], [s]
    while todo:
        for g in kids.get(todo.pop(), []):
            (todo if drafts[g].kind == "stack" else found).append(g)
    return sorted(found, key=lambda g: drafts[g].root)


def _title_stack(s: int, drafts: list[Draft], kids, instances: list[int]) -> None:
    """The stack `relu(…) × 100`; the stack of its instances after the first few by
    their first and last and how many they are, `inputs[3–99] × 97`, and a part of
    that (its box says how many) by its first and last, `inputs[3–12]`."""
    base = drafts[s].title
    drafts[s].title = f"{base} × {len(instances)}"
    todo = [k for k in kids.get(s, []) if drafts[k].kind == "stack"]
    while todo:
        g = todo.pop()
        inside = _instances(g, drafts, kids)
        ends = _range(drafts[inside[0]].title, drafts[inside[-1]].title)
        # `× 97`, as its stack's: a title cut short starts or ends with '…', not this
        drafts[g].title = f"{ends} × {len(inside):,}" if drafts[g].title == REST else ends
        todo.extend(k for k in kids.get(g, []) if drafts[k].kind == "stack")


def _range(first: str, last: str) -> str:
    """`inputs[3–12]` for `inputs[3]` to `inputs[12]`, `rmsnorm(16) #3–12` for
    `rmsnorm(16) #3` to `rmsnorm(16) #12`, else `a–b`."""
    a, b = _INDEXED.fullmatch(first), _INDEXED.fullmatch(last)
    if a and b and a[1] == b[1]:
        return f"{a[1]}[{a[2]}–{b[2]}]"
    a, b = _NUMBERED.fullmatch(first), _NUMBERED.fullmatch(last)
    if a and b and a[1] == b[1]:
        return f"{a[1]} #{a[2]}–{b[2]}"
    return f"{first}–{last}"


def _nodes_in(g: int, kids: dict[int, list[int]], direct: dict[int, list[int]]) -> list[int]:
    found, todo = list(direct.get(g, [])), [g]
    while todo:
        for k in kids.get(todo.pop(), []):
            found.extend(direct.get(k, []))
            todo.append(k)
    return found


def _leaves_in(g: int, kids: dict[int, list[int]], held: dict[int, list[int]]) -> list[int]:
    found, todo = list(held.get(g, [])), [g]
    while todo:
        for k in kids.get(todo.pop(), []):
            found.extend(held.get(k, []))
            todo.append(k)
    return found


def _parameters_name(arrays: GraphArrays, nodes: list[int], drafts: list[Draft],
                     gnode) -> str:
    """The last step of the one group of names that holds every parameter `nodes` use
    ('neurons[3]' for model.layers[1].neurons[3]'s w and b), if it ends in an index;
    '' if their parameters are of several groups or of none."""
    holders = {gnode[p] for u in nodes for p in arrays.parents[u]
               if not arrays.parents[p] and gnode[p] >= 0
               and drafts[gnode[p]].kind == "names"}
    if len(holders) != 1:
        return ""
    parts = path_parts(drafts[holders.pop()].title) or []
    named = [k for k, part in enumerate(parts) if part.startswith(".")]
    if len(parts) < 2 or not parts[-1].startswith("[") or parts[-1][1] in "'\"":
        return ""
    return "".join(parts[named[-1]:]).lstrip(".") if named else "".join(parts)


def _instance_name(arrays: GraphArrays, leaves: list[int]) -> str:
    common = None
    for i in leaves:
        prefixes = path_prefixes(arrays.labels[i])
        common = prefixes if common is None else [
            a for a, b in zip(common, prefixes) if a == b]
        if not common:
            return ""
    return common[-1] if common else ""
