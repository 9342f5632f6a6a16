"""The plan's steps made quickly (each slot set through its descriptor) are the same
objects the frozen dataclasses make, and the correct engine's quick loop makes the same
plan as the general loop does."""

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.engines import CORRECT, Engine
from engine.core.stepping import (
    BackwardStep,
    Contribution,
    _contribution,
    _step,
    backward_plan,
    known_steps,
    plan_in_slices,
)
from engine.core.value import Value, topological_order
from engine.language.parser import parse
from tests.engine.test_stepping_orders import graphs, random_topological_order


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


# -- a plan in another order made with the reference plan's steps (`known`) -------------

def _bits(plan) -> list:
    """Every number of a plan as text (to the bit: -0.0 apart from 0.0), with its nodes."""
    return [(id(s.node), s.root, [(id(c.parent), repr(c.local), repr(c.upstream),
                                   repr(c.contribution), repr(c.before), repr(c.after))
                                  for c in s.contributions]) for s in plan]


def _plans(output, order):
    """The plan walked in `order`, made anew and made with the reference's steps."""
    reference = topological_order(output)
    known = _run(known_steps(output, CORRECT, reference, 7))
    fresh, reused = [], []
    rules = CORRECT.rule_order(output, order)
    for _ in plan_in_slices(output, CORRECT, fresh, rules, 7, order, reference):
        pass
    for _ in plan_in_slices(output, CORRECT, reused, rules, 7, order, reference, known):
        pass
    return fresh, reused, known


def _run(steps):
    try:
        while True:
            next(steps)
    except StopIteration as done:
        return done.value


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs(), st.integers(0, 2**32 - 1))
def test_a_plan_made_with_the_reference_steps_is_the_plan_made_anew(output, seed):
    order = random_topological_order(output, random.Random(seed))
    fresh, reused, known = _plans(output, order)
    assert _bits(reused) == _bits(fresh)
    again = {id(s) for s in known.values()}
    assert any(id(s) in again for s in reused[1:])  # some are the known steps themselves


def test_micrograd_and_microgpt_plans_in_a_grouping_order_are_made_with_known_steps():
    """A grouped graph's order (samples, heads): parameters and a residual's terms
    receive out of the reference's order; every other step is the known one."""
    from engine.io.graph_import import import_graph
    from gui.graph.groups import group_graph
    from gui.jobs.group_child import program_arrays
    from tests.foreign_models import microgpt_step, micrograd_demo

    new = []
    for root in (micrograd_demo(6).loss,
                 microgpt_step(n_embd=8, block_size=4, tokens=(0, 3, 1, 2)).loss):
        program = import_graph(root).program
        grouping = group_graph(program_arrays(program, list(range(len(program.values)))))
        order = [program.values[i] for i in grouping.order]
        assert order != program.values
        fresh, reused, known = _plans(program.output, order)
        assert _bits(reused) == _bits(fresh)
        kept = sum(1 for s in reused[1:] if known[s.node] is s)
        assert kept > 0
        new.append(len(reused) - 1 - kept)
    assert any(new)  # some steps made anew: a node received out of the reference's order


def test_past_the_exact_limit_the_plan_is_made_anew(monkeypatch):
    """A node re-added past EXACT_UP_TO contributions may end on other bits than the
    reference's: the known steps are then not used at all."""
    import engine.core.stepping as stepping

    x = Value(0.1, label="x")
    terms = [x * (1.0 + k / 7) for k in range(6)]
    out = terms[0]
    for t in terms[1:]:
        out = out + t
    monkeypatch.setattr(stepping, "EXACT_UP_TO", 2)
    reference = topological_order(out)
    order = random_topological_order(out, random.Random(3))
    for seed in range(50):
        if order != reference:
            break
        order = random_topological_order(out, random.Random(seed))
    fresh, reused, known = _plans(out, order)
    assert _bits(reused) == _bits(fresh)
    assert not any(known.get(s.node) is s for s in reused[1:])
