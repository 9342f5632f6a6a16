"""The inspector: everything about one node, in words and numbers."""

from __future__ import annotations

import html
import math

from PySide6.QtWidgets import QTextBrowser

from engine.explain import display_name, exact, expression, formula, not_finite, number, rule_text
from engine.stepping import BackwardStep, Stepper
from engine.value import Value


def describe_node(node: Value, stepper: Stepper, role: str,
                  tf_grad: float | None = None) -> str:
    """HTML for the inspector: name, op, value, gradient, rules, contributions so far."""
    name = display_name(node, "(unnamed)")
    revealed = stepper.is_revealed(node)
    received = stepper.received(node)  # looked up: a step costs the same at any size
    rows = [
        ("name", html.escape(name)),
        ("kind", role),
        ("computed as", html.escape(formula(node))),
        ("value", exact(node.data) if revealed else "not computed yet (step the forward pass)"),
        ("gradient", exact(node.grad) if received else
         "not reached yet (step the backward pass)"),
    ]
    if tf_grad is not None:
        difference = abs(tf_grad - stepper.final_grad(node))
        said = (f"{difference:.1e}" if math.isfinite(difference) else
                "not computable: " + (not_finite(difference) or ""))
        rows.append(("tf.GradientTape", f"{exact(tf_grad)} (the whole backward pass, in "
                     f"TensorFlow; difference {said})"))
    parts = ["<table cellspacing='4'>"]
    parts += [f"<tr><td><b>{k}</b></td><td>{v}</td></tr>" for k, v in rows]
    parts.append("</table>")
    if node.parents:
        parts.append("<p><b>Local derivatives</b> (recorded in the forward pass):</p><ul>")
        for i in range(len(node.parents)):
            parts.append(f"<li><code>{html.escape(rule_text(node, i))}</code></li>")
        parts.append("</ul>")
    if received:
        parts.append("<p><b>Gradient received</b>, one line per path "
                     "(local × upstream = contribution):</p><ol>")
        for step, c in received:
            source = "dL/dL = 1 (the seed)" if step.seed else (
                f"from {html.escape(expression(step.node, 2))}: {number(c.local)} × "
                f"{number(c.upstream)} = {number(c.contribution)}")
            parts.append(f"<li>{source} → total {number(c.after)}</li>")
        parts.append("</ol>")
    current = stepper.current
    if isinstance(current, BackwardStep) and current.node is node and not current.seed:
        parts.append("<p>This node's rule was just applied: each parent received its "
                     "local derivative times this node's gradient.</p>")
    return "".join(parts)


class Inspector(QTextBrowser):
    """Shows `describe_node` for the selected node, or the current step's node."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setPlaceholderText("Click a value box, or step, to inspect a node.")

    def show_node(self, node: Value | None, stepper: Stepper | None, role: str = "",
                  tf_grad: float | None = None) -> None:
        if node is None or stepper is None:
            self.clear()
            return
        self.setHtml(describe_node(node, stepper, role, tf_grad))
