"""The plan's steps made quickly (each slot set through its descriptor) are the same
objects the frozen dataclasses make, and the correct engine's quick loop makes the same
plan as the general loop does."""

import dataclasses

import pytest

from engine.core.engines import CORRECT, Engine
from engine.core.stepping import (
    BackwardStep,
    Contribution,
    _contribution,
    _step,
    backward_plan,
)
from engine.core.value import topological_order
from engine.language.parser import parse


def test_quickly_made_steps_equal_those_made_by_their_init():
    a = parse("a = 3\nout = a * a").output
    quick = _contribution(a, 2.0, 3.0, 6.0, 0.5, 6.5, None)
    made = Contribution(a, 2.0, 3.0, 6.0, 0.5, 6.5)
    assert quick == made and hash(quick) == hash(made) and repr(quick) == repr(made)
    with pytest.raises(dataclasses.FrozenInstanceError):
        quick.after = 1.0
    step = _step(a, (quick,), False, "")
    assert step == BackwardStep(a, (made,)) and hash(step) == hash(BackwardStep(a, (made,)))


def _other_order(output) -> list:
    """A topological order other than `topological_order`'s: parents visited last first."""
    seen, order, stack = set(), [], [(output, False)]
    while stack:
        node, done = stack.pop()
        if done:
            order.append(node)
        elif node not in seen:
            seen.add(node)
            stack.append((node, True))
            stack.extend((p, False) for p in node._prev if p not in seen)
    return order


@pytest.mark.parametrize("text", [
    "a = 3\nout = a*a + a*a",
    "x = 0.5\nw = -2\nb = 1\nh = tanh(w*x + b)\nout = h*x + h*w + x*x*x + w*h*b",
])
@pytest.mark.parametrize("walk", ["reference", "other"])
def test_the_quick_loop_makes_the_plan_the_general_loop_makes(text, walk):
    """The general loop runs for an engine that is not the correct one (the base
    Engine: the correct rules, compared with the correct gradients)."""
    output = parse(text).output
    reference = topological_order(output)
    order = reference if walk == "reference" else _other_order(output)
    assert walk == "reference" or order != reference
    quick = backward_plan(output, CORRECT, order, reference)
    general = backward_plan(output, Engine(), order, reference)
    assert [(s.node, s.root) for s in quick] == [(s.node, s.root) for s in general]
    assert [s.contributions for s in quick] == [s.contributions for s in general]
