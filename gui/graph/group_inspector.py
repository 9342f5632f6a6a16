"""The inspector of a collapsed group: what it is, what it computes, what it holds, its
value and gradient if it has one output, what it takes and gives at the level shown, and
how to open it."""

from __future__ import annotations

import html
import re

from engine.core.explain import number
from engine.numbers import count
from gui.graph.spec import box_title

LISTED = 8  # the units a group takes from or gives to, listed; then how many more
KINDS = {
    "names": "the model's parameters under this name",
    "structure": "one computation",
    "stack": "the same computation, repeated",
    "instance": "one instance of a repeated computation",
}


def describe_group(g: int, shown) -> str:
    """HTML for the inspector of group `g` of `shown` (a gui.graph.grouped.Shown, its
    quotient made): its name, kind, members, instances, its output's value and gradient
    (a group of one output), the units it takes from and gives to, how to open it."""
    group, stepper = shown.groups[g], shown.stepper
    members = shown.members(g)
    outputs = _outputs(shown, g)
    rows = [("name", html.escape(group.title)), ("kind", KINDS.get(group.kind, "a group")),
            ("holds", count(group.members, "node"))]
    if group.kind in ("stack", "instance"):
        rows.append(("each computes", html.escape(_repeated(shown, group))))
    if group.kind == "stack":
        rows.append(("instances", html.escape(_instances(shown, group))))
    inside = [shown.groups[c].title for c in group.children]
    if inside and group.kind != "stack":
        rows.append(("inside", html.escape(_listed(inside))))
    if len(outputs) <= 1:
        node = stepper.forward_steps[members.stop - 1]
        rows.append(("output", html.escape(box_title(node))))
        rows.append(("value", number(node.data) if stepper.is_revealed(node)
                     else "not computed yet (step the forward pass)"))
        rows.append(("gradient", number(node.grad) if stepper.received(node)
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


def _listed(names: list[str]) -> str:
    """The names in the order they come, each once, with how many times if more than
    once (`layer(16 → 32) (× 7)`); LISTED of them, then how many more."""
    times: dict[str, int] = {}
    for name in names:
        times[name] = times.get(name, 0) + 1
    said = [name if k == 1 else f"{name} (× {k:,})" for name, k in times.items()]
    if len(said) <= LISTED:
        return ", ".join(said)
    return f"{', '.join(said[:LISTED])} and {len(said) - LISTED:,} more"
