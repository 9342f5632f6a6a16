"""The inspector: everything about one node, in words and numbers."""

from __future__ import annotations

import html
import math
import re

from PySide6.QtWidgets import QTextBrowser

from engine.core.explain import (
    display_name,
    expression,
    formula,
    number,
    roundoff,
    rule_text,
    used_rule_text,
)
from engine.core.stepping import BackwardStep, Stepper
from engine.core.value import Value
from engine.numbers import (
    ROUNDOFF_OF_SUM,
    count,
    exact,
    not_finite,
    product,
    scientific,
)
from gui.graph.counting import forward_place
from gui.graph.group_inspector import describe_group, ordinal
from gui.graph.parameters import parameter_reason
from gui.graph.spec import box_title
from gui.graph.step_place import where_said
from gui.palette import hex_of

WRONG = "error"  # the palette's red: what the engine stepped gets wrong
MANY_PATHS = 12    # more contributions than this are listed by group, not one a line
SHOWN_GROUPS = 8   # ... in this many lines, and one for the rest
ZWSP = "\u200b"  # where a long name may break its line


def describe_node(node: Value, stepper: Stepper, role: str,
                  tf_grad: float | None = None, levels=None) -> str:
    """HTML for the inspector: name, op, value, gradient, rules, contributions so far.
    A node that received more than MANY_PATHS contributions (a parameter used by 100
    samples) has them listed by the group of the node that sent each, as `levels` (a
    gui.graph.levels.LevelSteps, when the graph is grouped) says, or else by that node,
    largest sum first, SHOWN_GROUPS lines and one for the rest."""
    revealed = stepper.is_revealed(node)
    received = stepper.received(node)  # looked up: a step costs the same at any size
    rows = _identity_rows(node, stepper, role, levels)
    if not revealed:
        rows.append(("value", "not computed yet (step the forward pass)"))
    else:
        rows += _with_roundoff("value", node.data, roundoff(node))
    if not received:
        rows.append(("gradient", "not reached yet (step the backward pass)"))
    else:
        rows += _with_roundoff("gradient", node.grad, _cancelled_paths(node.grad, received))
    if tf_grad is not None:
        difference = abs(tf_grad - stepper.final_grad(node))
        said = (scientific(difference, 2) if math.isfinite(difference) else
                "not computable: " + not_finite(difference))
        rows.append(("tf.GradientTape", f"{_exact(tf_grad)} (the whole backward pass, in "
                     f"TensorFlow; difference {said})"))
    parts = ["<table cellspacing='4'>"]
    parts += [f"<tr><td><b>{k}</b></td><td>{v}</td></tr>" for k, v in rows]
    parts.append("</table>")
    engine = html.escape(engine_name(stepper))
    if node.parents:
        parts += _local_derivatives(node, stepper.local_derivatives(node), engine)
    if len(received) > MANY_PATHS:
        parts += _by_group(received, levels)
    elif received:
        parts.append("<p><b>Gradient received</b>, one line per path "
                     "(local × upstream = contribution):</p><ol>")
        for step, c in received:
            source = f"{root_said(stepper)} (where the backward pass starts)" if step.root else (
                f"from {breakable(html.escape(expression(step.node, 2)))}: "
                f"{product(c.local, c.upstream, c.contribution)}")
            if c.right is not None:  # the engine stepped: its rule gave another one
                source += (f" <span style='color:{hex_of(WRONG)}'>({engine}'s local derivative; "
                           f"the right one is {number(c.right)})</span>")
            parts.append(f"<li>{source} → total {_total(c)}</li>")
        parts.append("</ol>")
    current = stepper.current
    if isinstance(current, BackwardStep) and current.node is node and not current.root:
        parts.append("<p>This node's rule was just applied: each parent received its "
                     "local derivative times this node's gradient.</p>")
    return "".join(parts)


def _identity_rows(node: Value, stepper: Stepper, role: str, levels) -> list[tuple[str, str]]:
    """The rows that say which node this is: its name, kind and formula; for one with
    no name (its title may be another's too) which one it is; the groups that hold it."""
    if node.label:
        name = display_name(node, "")
    elif node.parents:  # its box is titled by its formula: say that is not a name
        name = f"none (the box is titled by its formula, {box_title(node)})"
    else:
        name = f"none (a constant, {display_name(node)})"
    said = formula(node)
    why = parameter_reason(node.label) if role == "input" else None
    if why is not None:
        role, said = "parameter", (
            f"not computed: a parameter ({node.label}), a leaf {output_name(stepper)} "
            "depends on; its gradient is what training uses to change it")
    rows = [("name", breakable(html.escape(name))), ("kind", role),
            ("computed as", breakable(html.escape(said)))]
    if why is not None:
        rows.append(("why a parameter", breakable(html.escape(why))))
    if not node.label:
        rows.append(("which", breakable(html.escape(which_node(node, stepper)))))
    if levels is not None and (where := _groups_around(node, levels)):
        rows.append(("where", "in " + breakable(html.escape(where))))
    return rows


def root_said(stepper: Stepper) -> str:
    """The backward pass's first step in the output's own name: 'dd/dd = 1',
    'dloss/dloss = 1', 'd(demo.loss)/d(demo.loss) = 1'."""
    name = output_name(stepper)
    name = name if name.isidentifier() else f"({name})"
    return f"d{name}/d{name} = 1"


def output_name(stepper: Stepper) -> str:
    """The output's own name, as the program calls it (`loss`, `d`), else 'the output'."""
    label = stepper.output.label if stepper.output is not None else ""
    return label.split(" = ")[0] or "the output"


_LONG_PATH = re.compile(r"[A-Za-z_][\w.\[\]]{19,}")  # a name that may not fit a line
_STEP = re.compile(r"(?<=[A-Za-z_\])])\.(?=[A-Za-z_])|(?<=[\w\]])\[")


def breakable(text: str) -> str:
    """`text` with a line allowed to break at each step of a long path in it (after a
    '.', before a '['), so that a long name wraps there and never inside a step (`w[2` /
    `]`): a zero-width space at each."""
    return _LONG_PATH.sub(lambda path: _STEP.sub(
        lambda m: "." + ZWSP if m.group() == "." else ZWSP + "[", path.group()), text)


def _users_and_twins(node: Value, stepper: Stepper) -> tuple[list[Value], list[Value]]:
    """`node`'s consumers, and the nodes that compute what it does from the same operands
    (itself among them), in the forward order: from the stepper's index of who sends
    what to whom (`Stepper.consumers`), so the cost is the node's own uses, not the
    graph's size (a scan of the nodes after it was 40 ms at 200,000 nodes)."""
    users = stepper.consumers(node)
    operands = node.parents
    if not operands:
        return users, []
    first = operands[0]
    second = operands[1] if len(operands) > 1 else None
    op = node.op
    twins = [u for u in stepper.consumers(first)
             if u._a is first and u._b is second and u._op == op]
    return users, twins


def _operand_of(user: Value, node: Value) -> str:
    """'the left operand of loss', 'both operands of a * a', 'the operand of relu(…)'."""
    title = user.label or expression(user, 2)
    places = [k for k, p in enumerate(user.parents) if p is node]
    if len(user.parents) == 1:
        return f"the operand of {title}"
    if len(places) > 1:
        return f"{'both' if len(places) == 2 else 'all'} operands of {title}"
    side = ("left", "right")[places[0]] if len(user.parents) == 2 else ordinal(places[0] + 1)
    return f"the {side} operand of {title}"


USERS_SAID = 3  # the consumers a node's 'which' row names; then how many more


def which_node(node: Value, stepper: Stepper) -> str:
    """Which node an unnamed one is, where its title (its formula, or its number) may be
    another's too: the k-th of the nodes computing the same from the same operands, its
    place in the forward order, and what uses it (its consumer and operand): 'the 1st of
    2 nodes computing a * a from the same operands; node 2 of 4 in the forward order;
    used as the left operand of loss'."""
    takers, twins = _users_and_twins(node, stepper)
    said = []
    if len(twins) > 1:
        k = next(k for k, u in enumerate(twins) if u is node) + 1
        said.append(f"the {ordinal(k)} of {len(twins)} nodes computing "
                    f"{formula(node)} from the same operands")
    said.append(forward_place(node, stepper))  # as the step counter counts (counting.py)
    if takers:
        more = len(takers) - USERS_SAID
        said.append("used as " + ", ".join(_operand_of(u, node) for u in takers[:USERS_SAID])
                    + (f" and by {count(more, 'more node')}" if more > 0 else ""))
    else:
        said.append("used by nothing: it is the output")
    return "; ".join(said)


def _groups_around(node: Value, levels) -> str:
    """The groups drawn open around `node`, as the breadcrumb says them, outermost
    first ('losses[7] › model.layers[1].neurons[3]'); those open but not drawn as groups
    said apart (gui/graph/step_place.py)."""
    return where_said(levels.node_index(node), levels)


def _by_group(received, levels) -> list[str]:
    """The contributions received, summed by the group of the node each came from
    (its instance, else its top-level group, as `levels` says; the node itself when
    there are no groups or none holds it), the largest |sum| first: SHOWN_GROUPS lines,
    then one that says how many more and what they sum to."""
    sums: dict[object, list] = {}  # key -> [what, sum, paths]
    for step, c in received:
        g = levels.consumer_group(step.node) if levels is not None else -1
        key = g if g >= 0 else step.node
        entry = sums.get(key)
        if entry is None:
            what = (levels.grouping.groups[g].title if g >= 0
                    else expression(step.node, 2))
            entry = sums[key] = [what, 0.0, 0]
        entry[1] += c.contribution
        entry[2] += 1
    ranked = sorted(sums.values(), key=lambda e: -abs(e[1]))  # stable: ties as they came
    parts = [f"<p><b>Gradient received</b> from {count(len(received), 'path')}, summed by "
             f"{'group' if levels is not None else 'the node each came from'}, the largest "
             "first (Σ local × upstream):</p><ol>"]
    for what, total, paths in ranked[:SHOWN_GROUPS]:
        parts.append(f"<li>from {breakable(html.escape(what))} ({count(paths, 'path')}): "
                     f"Σ {number(total)}</li>")
    rest = ranked[SHOWN_GROUPS:]
    if rest:
        paths = sum(e[2] for e in rest)
        parts.append(f"<li>and {len(rest)} more ({count(paths, 'path')}), summing to "
                     f"{number(sum(e[1] for e in rest))}</li>")
    parts.append("</ol>")
    return parts


def engine_name(stepper: Stepper) -> str:
    """What the stepper's backward pass runs, in words: 'your multiply rule', 'your
    engine' (a user's, replayed), a classic bug's name, or 'the engine'."""
    engine = stepper.engine
    return "the engine" if engine.is_correct else engine.name


def _local_derivatives(node: Value, used, engine: str) -> list[str]:
    """The 'Local derivatives' section: each the one the backward pass multiplies by
    (`used`, from Stepper.local_derivatives); where the engine stepped has a rule of
    its own that gives another number, that one, and the right rule beside it."""
    if all(right is None for _, right in used):
        items = [f"<li><code>{html.escape(rule_text(node, i))}</code>{_constant(node, i)}</li>"
                 for i in range(len(used))]
        return ["<p><b>Local derivatives</b> (recorded in the forward pass):</p><ul>",
                *items, "</ul>"]
    items = []
    for i, (local, right) in enumerate(used):
        if right is None:
            items.append(f"<li><code>{html.escape(rule_text(node, i))}</code>"
                         f"{_constant(node, i)}</li>")
            continue
        items.append(f"<li><code>{html.escape(used_rule_text(node, i, local))}</code> by "
                     f"{engine} <span style='color:{hex_of(WRONG)}'>(right: "
                     f"<code>{html.escape(rule_text(node, i))}</code>)</span></li>")
    return [f"<p><b>Local derivatives</b> (those the backward pass uses, by {engine}; the "
            "right one beside any that differs):</p><ul>", *items, "</ul>"]


def _constant(node: Value, i: int) -> str:
    """A word on a parent that is a number written in the program: the rule exists,
    but the gradient it sends there is of no use (the picture writes the number into
    the operation, unless View → Show constants as nodes)."""
    parent = node.parents[i]
    if parent.parents or parent.label:
        return ""
    return (f" <i>({html.escape(number(parent.data))} is a constant of the program: its "
            "gradient is worked out but used by nothing)</i>")


def _exact(x: float) -> str:
    """Every digit, or what an infinite or not-a-number value means."""
    return not_finite(x) or exact(x)


def _with_roundoff(what: str, x: float, why: str) -> list[tuple[str, str]]:
    """The row for a value or gradient: every digit it has, or '≈ 0' with them and a
    row saying why."""
    if not why:
        return [(what, _exact(x))]
    return [(what, f"≈ 0 (exactly {exact(x)})"), ("why ≈ 0", html.escape(why))]


def _total(c) -> str:
    """A running total, '≈ 0' where its terms cancelled to round-off."""
    scale = max(abs(c.before), abs(c.contribution))
    if c.after != 0.0 and abs(c.after) <= ROUNDOFF_OF_SUM * scale:
        return "≈ 0"
    return number(c.after)


def _cancelled_paths(grad: float, received) -> str:
    """Why a gradient summed from several paths is round-off, or ''."""
    if grad == 0.0 or len(received) < 2:
        return ""
    scale = max(abs(c.contribution) for _, c in received)
    if abs(grad) > ROUNDOFF_OF_SUM * scale:
        return ""
    return (f"round-off, read it as 0: the paths' contributions cancel to within "
            f"{scientific(abs(grad) / scale, 2)} of their size")


def current_group(levels) -> int | None:
    """The collapsed group whose step is the current one at the level shown (`levels`,
    a gui.graph.levels.LevelSteps, or None), or None: the inspector describes it."""
    unit = levels.current_unit() if levels is not None else None
    return -1 - unit if unit is not None and unit < 0 else None


class Inspector(QTextBrowser):
    """Shows `describe_node` for the selected node, or the current step's node, and
    `describe_group` for a selected group."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setPlaceholderText("Click a value box, or step, to inspect a node.")

    def show_node(self, node: Value | None, stepper: Stepper | None, role: str = "",
                  tf_grad: float | None = None, levels=None) -> None:
        """`levels`: the grouped graph's LevelSteps (gui.graph.levels), or None."""
        if node is None or stepper is None:
            self.clear()
            return
        self.setHtml(describe_node(node, stepper, role, tf_grad, levels))

    def show_group(self, g: int, shown) -> None:
        """Collapsed group `g` of `shown` (a gui.graph.grouped.Shown): see describe_group."""
        self.setHtml(describe_group(g, shown))
