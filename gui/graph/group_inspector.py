"""The inspector of a collapsed group: what it is, what it computes, what it holds, its
value and gradient if it has one output, what it takes and gives at the level shown, and
how to open it."""

from __future__ import annotations

import html
import re

from engine.core.explain import number
from engine.numbers import count, exact, not_finite
from gui.graph.groups.structure import CHAIN_OPS
from gui.graph.groups.titles import Describer, has_constant, layer_said, path_said
from gui.graph.spec import box_title

LISTED = 8  # the units a group takes from or gives to, listed; then how many more
KINDS = {
    "names": "the model's parameters under this name",
    "structure": "one computation",
    "stack": "the same computation, repeated",
    "instance": "one instance of a repeated computation",
}


def _every_digit(x: float) -> str:
    """A value as the node inspector says it, every digit (a box shows it rounded)."""
    return not_finite(x) or exact(x)


def describe_group(g: int, shown) -> str:
    """HTML for the inspector of group `g` of `shown` (a gui.graph.grouped.Shown, its
    quotient made): its name, kind, members, instances, its output's value and gradient
    (a group of one output), the units it takes from and gives to, how to open it."""
    group, stepper = shown.groups[g], shown.stepper
    members = shown.members(g)
    outputs = _outputs(shown, g)
    rows = [("name", html.escape(group.title)), ("kind", KINDS.get(group.kind, "a group")),
            ("holds", count(group.members, "node"))]
    if which := _which_group(shown, group):  # another box beside it has its title
        rows.append(("which", html.escape(which)))
    if group.kind in ("stack", "instance"):
        rows.append(("each computes", html.escape(_repeated(shown, group))))
    if layer := layer_said(group.title):
        rows.append(("layer", html.escape(layer)))
    if has_constant(group.title) or has_constant(_repeated(shown, group)):
        rows.append(("c", html.escape(constants_said(shown, g))))
    if group.kind == "stack":
        rows.append(("instances", html.escape(_instances(shown, group))))
    inside = [shown.groups[c].title for c in group.children]
    if inside and group.kind != "stack":
        rows.append(("inside", html.escape(_listed(inside))))
    if len(outputs) <= 1:
        node = stepper.forward_steps[members.stop - 1]
        rows.append(("output", html.escape(box_title(node))))
        rows.append(("value", _every_digit(node.data) if stepper.is_revealed(node)
                     else "not computed yet (step the forward pass)"))
        rows.append(("gradient", _every_digit(node.grad) if stepper.received(node)
                     else "not reached yet (step the backward pass)"))
    else:
        rows.append(("outputs", f"{count(len(outputs), 'node')} used outside it, so it "
                     "has no one value; open it to see each"))
    unit = -1 - g
    edges = shown.quotient.edges if shown.quotient is not None else []
    takes = [_unit_name(shown, s) for s, t, _ in edges if t == unit]
    gives = [_unit_name(shown, t) for s, t, _ in edges if s == unit]
    rows.append(("takes from", html.escape(_listed(takes)) if takes else "nothing shown"))
    rows.append(("gives to", html.escape(_listed(gives)) if gives else "nothing shown"))
    parts = ["<table cellspacing='4'>"]
    parts += [f"<tr><td><b>{k}</b></td><td>{v}</td></tr>" for k, v in rows]
    parts.append("</table>")
    parts.append("<p>Double-click the box, or press <b>+</b>, to open it; <b>−</b> closes "
                 "the group around the selection again. Stepping, its forward pass is one "
                 "step and its backward pass another; the edges from its parents then show "
                 "the gradient it sent each.</p>")
    return "".join(parts)


def ordinal(k: int) -> str:
    """'1st', '2nd', '13th', '1,002nd'."""
    tail = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k:,}{tail}"


def _which_group(shown, group) -> str:
    """Which of the groups beside it with the same title `group` is: 'the 2nd of 3
    titled rmsnorm(8) inside losses[3], in the order computed (nodes 41–60 of 8,879)';
    '' if no other group in its parent has its title."""
    parent = group.parent
    siblings = (shown.groups[parent].children if parent >= 0
                else [h.id for h in shown.groups if h.parent == -1])
    alike = sorted((shown.groups[h] for h in siblings if shown.groups[h].title == group.title),
                   key=lambda h: h.first)
    if len(alike) < 2:
        return ""
    k = next(k for k, h in enumerate(alike) if h.id == group.id) + 1
    around = [shown.groups[h].title for h in shown.ancestors_of_group(group.id)]
    where = f" inside {path_said(around)}" if around else ""
    n = len(shown.stepper.forward_steps)
    return (f"the {ordinal(k)} of {len(alike)} titled {group.title}{where}, in the order "
            f"computed (nodes {group.first + 1:,}–{group.last:,} of {n:,})")


SAID_VALUES = 4  # the constants' values a title's c is said to stand for


def constants_said(shown, g: int) -> str:
    """What each `c` of group g's title stands for: 'a constant, 0.5', or in order, for
    a stack each with the values it takes in its instances: 'constants, in the title's
    order: 1 or -1 (by instance); 1'."""
    group = shown.groups[g]
    instances = _instance_groups(shown, group) if group.kind == "stack" else [group]
    arrays, data = shown.arrays, shown.stepper.forward_steps
    said: list[dict[str, None]] = []
    places: list[tuple[int, int, int]] = []  # each c: (its consumer's offset, op, operand)
    for inst in instances[:STACK_LOOKS]:
        found = _at_places(arrays, inst, places)  # as in the first (instances are alike)
        if found is None:
            found, places = _title_constants(shown, inst)
        for k, v in enumerate(found):
            if k == len(said):
                said.append({})
            said[k][number(data[v].data)] = None
    if not said:  # not found as titled: the unnamed numbers its nodes use
        leaves = {p for c in shown.members(g) for p in arrays.parents[c]
                  if not arrays.parents[p] and not arrays.labels[p]}
        said = [{number(data[v].data): None} for v in sorted(leaves)[:SAID_VALUES]]
    parts = []
    for values in said[:SAID_VALUES]:
        listed = list(values)[:SAID_VALUES]
        text = listed[0] if len(listed) == 1 else f"{', '.join(listed[:-1])} or {listed[-1]}"
        parts.append(text + (" (by instance)" if len(listed) > 1 else ""))
    if len(parts) <= 1:
        return f"a constant, {parts[0]}" if parts else "a constant: a number of the program"
    return f"constants, in the title's order: {'; '.join(parts)}"


STACK_LOOKS = 1_000  # a stack's instances read for the values of its title's constants


def _instance_groups(shown, stack) -> list:
    found, todo = [], list(stack.children)
    while todo:
        c = shown.groups[todo.pop(0)]
        if c.kind == "stack" and c.children:
            todo[:0] = c.children
        else:
            found.append(c)
    return found


def _at_places(arrays, group, places) -> list[int] | None:
    """The unnamed leaves at `places` (see constants_said) in `group`; None if one is
    not there (no places yet, or an instance made in another order)."""
    found = []
    for offset, op, k in places:
        c = group.first + offset
        if c >= group.last or arrays.ops[c] != op or len(arrays.parents[c]) <= k:
            return None
        v = arrays.parents[c][k]
        if arrays.parents[v] or arrays.labels[v]:
            return None
        found.append(v)
    return found if places else None


def _title_constants(shown, group) -> tuple[list[int], list[tuple[int, int, int]]]:
    """The unnamed leaves that the title of what `group` computes says as `c`, in order
    (as gui/graph/groups/titles.py says it, inside the group), and where each is: its
    consumer's offset in the group, that consumer's op and the operand it is."""
    arrays, members = shown.arrays, shown.members(group.id)
    root = members.stop - 1
    head: dict[int, int] = _Heads()
    uses: dict[int, int] = {}
    consumer: dict[int, int] = {}
    for c in members:
        for p in arrays.parents[c]:
            uses[p] = uses.get(p, 0) + 1
            consumer[p] = c
    for i in reversed(members):  # as structure.chain_heads, inside the group
        if arrays.ops[i] in CHAIN_OPS and uses.get(i) == 1 and i != root \
                and arrays.ops[consumer[i]] == arrays.ops[i]:
            head[i] = head[consumer[i]]
    describe = Describer(arrays, head)
    describe.within = set(members)
    describe.constants = []
    describe.describe(root)
    places = []
    for v in describe.constants:
        c = consumer[v]
        places.append((c - members.start, arrays.ops[c], arrays.parents[c].index(v)))
    return describe.constants, places


class _Heads(dict):
    def __missing__(self, key):
        return key


def _outputs(shown, g: int) -> set[int]:
    """Group g's nodes that a node outside it uses."""
    members, parents = shown.members(g), shown.arrays.parents
    used = set()
    for s, _, operands in shown.quotient.edges if shown.quotient is not None else ():
        if s == -1 - g:
            used.update(p for p in (parents[c][k] for c, k in operands) if p in members)
    return used


def _repeated(shown, group) -> str:
    """What each instance of the stack that holds `group` (or is it) computes: the
    outermost stack's title without its count, `relu((Σ 16 terms + b) × c + c)`."""
    groups = shown.groups
    while group.parent >= 0 and (group.kind == "instance"
                                 or groups[group.parent].kind == "stack"):
        group = groups[group.parent]
    return re.sub(r" × [\d,]+$", "", group.title)


def _instances(shown, group) -> str:
    """How many instances a stack holds and the first and last few by name."""
    names, todo = [], list(group.children)
    while todo:  # through the parts of a long stack
        c = shown.groups[todo.pop(0)]
        if c.kind == "stack" and c.children:
            todo[:0] = c.children
        else:
            names.append(c.title)
    said = ", ".join(names) if len(names) <= 6 else \
        f"{', '.join(names[:3])}, …, {', '.join(names[-2:])}"
    return f"{len(names):,}: {said}"


def _unit_name(shown, unit: int) -> str:
    if unit < 0:
        return shown.groups[-1 - unit].title
    return box_title(shown.stepper.forward_steps[unit])


_INDEXED = re.compile(r"^(.*)\[(\d+)(?:–(\d+))?\](.*)$")  # name[3] or name[3–12], the last


def _ranges(said: list[str]) -> list[str]:
    """Names that differ only in their last index, one after the other, said as one:
    `neurons[0]`, …, `neurons[15]` → `neurons[0–15] (16 boxes)`; `inputs[0]`, `inputs[1–9]`
    → `inputs[0–9] (2 boxes)` (how many of the names listed it stands for)."""
    runs: list[list] = []  # [prefix, first, last, suffix, names] or [name]
    for name in said:
        m = _INDEXED.match(name)
        if m is None:
            runs.append([name])
            continue
        prefix, first, last, suffix = m[1], int(m[2]), int(m[3] or m[2]), m[4]
        run = runs[-1] if runs else None
        if run is not None and len(run) == 5 and (run[0], run[3]) == (prefix, suffix) \
                and run[2] + 1 == first:
            run[2], run[4] = last, run[4] + 1
        else:
            runs.append([prefix, first, last, suffix, 1])
    out = []
    for run in runs:
        if len(run) == 1 or run[4] == 1:
            out.append(run[0] if len(run) == 1 else _said(run))
        else:
            out.append(f"{run[0]}[{run[1]}–{run[2]}]{run[3]} ({run[4]:,} boxes)")
    return out


def _said(run: list) -> str:
    prefix, first, last, suffix, _ = run
    return f"{prefix}[{first}]{suffix}" if first == last else f"{prefix}[{first}–{last}]{suffix}"


def _listed(names: list[str]) -> str:
    """The names in the order they come, each once, with how many times if more than
    once (`layer(16 → 32) (× 7)`); more than LISTED, a run of them that differ in their
    last index as one (`neurons[0–15] (16 boxes)`); LISTED of them, then how many more."""
    times: dict[str, int] = {}
    for name in names:
        times[name] = times.get(name, 0) + 1
    once = [name for name, k in times.items() if k == 1]
    said = [name if k == 1 else f"{name} (× {k:,})" for name, k in times.items()]
    if len(said) > LISTED and len(once) == len(said):  # too many: runs said as one
        said = _ranges(said)
    if len(said) <= LISTED:
        return ", ".join(said)
    return f"{', '.join(said[:LISTED])}, … {len(said) - LISTED:,} more"
