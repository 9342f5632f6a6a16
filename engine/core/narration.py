"""A step said in one line, for a viewer without narration: the caption under an animation's
frame and a presentation's graph.

    forward 5/13: z = w1*x1 + w2*x2 + b = 0.1
    backward 3/9: p = tanh(z) sends 1 × (-2) = -2 to z
"""

from __future__ import annotations

from engine.core.explain import display_name, expression, formula, value_text
from engine.core.stepping import BackwardStep, Stepper
from engine.core.value import Value
from engine.numbers import count, number, operand

DIGITS = 4       # significant digits of a caption's numbers, as on the graph's labels
SHOWN_PARENTS = 3  # a node sending to more parents names this many and counts the rest


def _name(node: Value) -> str:
    """The node as a caption names it: its name, a constant's number, else its formula."""
    if node.label or not node.parents:
        return display_name(node)
    return expression(node, 2)


def _forward(node: Value) -> str:
    if not node.parents:
        kind = "an input" if node.label else "a constant"
        return f"{display_name(node)} = {number(node.data, DIGITS)} ({kind})"
    head = f"{node.label} = " if node.label else ""
    value = value_text(node, DIGITS)  # '≈ 0' for round-off
    return f"{head}{formula(node)} {value if value.startswith('≈') else '= ' + value}"


def _sent(c) -> str:
    return (f"{number(c.local, DIGITS)} × {operand(c.upstream, DIGITS)} = "
            f"{number(c.contribution, DIGITS)} to {_name(c.parent)}")


def _backward(step: BackwardStep, output_name: str) -> str:
    if step.root:
        return f"d{output_name}/d{output_name} = 1 at {output_name}, where the pass starts"
    node = step.node
    who = f"{node.label} = {formula(node)}" if node.label else formula(node)
    shown = [_sent(c) for c in step.contributions[:SHOWN_PARENTS]]
    rest = len(step.contributions) - len(shown)
    sent = ", ".join(shown[:-1]) + (" and " if len(shown) > 1 else "") + shown[-1]
    if rest:
        sent += f" and {count(rest, 'more')}"
    text = f"{who} sends {sent}"
    return text + (" (wrong: not what the correct engine does)" if step.problem else "")


def step_caption(stepper: Stepper, output_name: str | None = None) -> str:
    """The step the stepper has just taken, in one line, with its place in the pass:
    'forward 5/13: z = w1*x1 + w2*x2 + b = 0.1'; before any step, what is to come."""
    name = output_name or display_name(stepper.output, "out")
    n_forward = len(stepper.forward_steps)
    n_backward = len(stepper.backward_steps)
    k = stepper.position
    if k == 0:
        return (f"Before any step: {n_forward:,} forward steps compute the values, then "
                f"{count(n_backward, 'backward step')} the gradients")
    if k <= n_forward:
        return f"forward {k}/{n_forward}: {_forward(stepper.forward_steps[k - 1])}"
    done = " · done: every gradient is in" if k == stepper.total else ""
    step = stepper.backward_steps[k - n_forward - 1]
    return f"backward {k - n_forward}/{n_backward}: {_backward(step, name)}{done}"


def stepping_status(stepper: Stepper, wrong_at_end: str = "") -> str:
    """The status bar's words for where the stepper is, decided in this one place from
    its position and its engine: what to press next, or at the end what the pass left
    (under a bug engine, never 'every gradient is in': `wrong_at_end` says which came
    out wrong, '' if none did)."""
    n_forward = len(stepper.forward_steps)
    k = stepper.position
    engine = stepper.engine
    under = "" if engine.is_correct else f" under {engine.name}"
    # the step counts are the phase label's (it counts the steps as drawn)
    if k == 0:
        return f"Ready{under}: Right steps the forward pass, Space plays it, End runs to the end."
    if k <= n_forward:
        return f"Forward pass{under}: Right computes the next value, Left takes it back."
    if k < stepper.total:
        return f"Backward pass{under}: Right applies the next rule, Left takes it back."
    if engine.is_correct:
        return ("End of the backward pass: every gradient is in. Left steps back, Home "
                "starts again; click a box to read its gradient.")
    verdict = wrong_at_end or "This time the bug changed no input's gradient."
    return f"End of the backward pass{under}. {verdict} Home starts again."
