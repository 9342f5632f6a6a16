"""The passes as steps: exact both ways, and equal to backward() at the end."""

import pytest
from hypothesis import HealthCheck, given, settings

from engine import ExpressionError, parse
from engine.core.engines import CORRECT
from engine.core.pitfalls import NO_SORT, OVERWRITE, pitfall_named
from engine.core.stepping import Stepper, backward_plan
from tests.engine.helpers import NEURON
from tests.engine.strategies import programs


def grads_of(program):
    return [v.grad for v in program.values]


def backward_grads(text):
    program = parse(text)
    program.output.backward()
    return grads_of(program)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_last_step_equals_backward_to_the_bit(text):
    try:
        program = parse(text)
    except ExpressionError:
        return  # an overflow at some drawn point: nothing to step
    Stepper(program.output).run_to_end()
    assert grads_of(program) == backward_grads(text)  # == on floats: bit for bit


@settings(max_examples=30, deadline=None)
@given(programs())
def test_every_step_back_restores_the_state_exactly(text):
    try:
        program = parse(text)
    except ExpressionError:
        return
    stepper = Stepper(program.output)
    states = [grads_of(program)]
    while stepper.step():
        states.append(grads_of(program))
    while stepper.back():
        assert grads_of(program) == states[stepper.position]
    assert stepper.position == 0


def test_neuron_steps_and_progress():
    program = parse(NEURON)
    stepper = Stepper(program.output)
    n_forward = len(program.nodes)
    assert stepper.phase == "start"
    assert not any(stepper.is_revealed(v) for v in program.nodes)
    stepper.step()
    assert stepper.progress() == f"forward 1/{n_forward}"
    assert stepper.is_revealed(program.nodes[0]) and not stepper.is_revealed(program.output)
    stepper.seek(n_forward - 1)
    assert stepper.progress() == f"forward {n_forward - 1}/{n_forward}"
    stepper.seek(n_forward)
    assert stepper.is_revealed(program.output)
    assert stepper.progress() == f"forward {n_forward}/{n_forward}"  # not "backward 0/…"
    assert stepper.phase == "forward"
    stepper.step()
    root = stepper.current
    assert root.root and program.output.grad == 1.0
    assert stepper.progress() == f"backward 1/{len(stepper.backward_steps)}"
    stepper.run_to_end()
    assert stepper.phase == "done"
    n_backward = len(stepper.backward_steps)
    assert stepper.progress() == f"backward {n_backward}/{n_backward} (done)"
    assert [program.inputs[n].grad for n in ("w1", "w2", "b")] == [-2.0, -4.0, -2.0]
    stepper.reset()
    assert all(v.grad == 0.0 for v in program.nodes)


def test_backward_step_records_local_upstream_and_contribution():
    program = parse("x = 0.5\ny = tanh(x ** 3 + 3 * x)")
    steps = backward_plan(program.output)
    tanh_step = steps[1]
    assert tanh_step.node is program.output
    (c,) = tanh_step.contributions
    assert c.upstream == 1.0
    assert c.contribution == c.local * c.upstream
    assert (c.before, c.after) == (0.0, c.contribution)


def test_shared_node_sums_its_paths_step_by_step():
    program = parse("a = 3; b = 4; f = a*b + a")
    a = program.inputs["a"]
    received = [c for s in backward_plan(program.output) for c in s.contributions
                if c.parent is a]
    assert [(c.contribution, c.before, c.after) for c in received] == [(1.0, 0.0, 1.0),
                                                                      (4.0, 1.0, 5.0)]


def test_unknown_pitfall_is_refused():
    with pytest.raises(ValueError, match="unknown pitfall"):
        pitfall_named("typo")


def received_by_scan(stepper, node):
    """What `node` has received so far, found the slow way: every step taken, scanned."""
    taken = max(0, stepper.position - len(stepper.forward_steps))
    return [(step, c) for step in stepper.backward_steps[:taken]
            for c in step.contributions if c.parent is node]


def final_grad_by_scan(stepper, node):
    afters = [c.after for step in stepper.backward_steps for c in step.contributions
              if c.parent is node]
    return afters[-1] if afters else 0.0


def assert_lookups_match_scans(stepper):
    outsider = parse("x = 1").output  # not in the graph: receives nothing
    for position in range(stepper.total + 1):
        stepper.seek(position)
        for node in [*stepper.forward_steps, outsider]:
            assert stepper.received(node) == received_by_scan(stepper, node)
            assert stepper.final_grad(node) == final_grad_by_scan(stepper, node)


@pytest.mark.parametrize("engine", [CORRECT, OVERWRITE, NO_SORT])
@pytest.mark.parametrize("text", [
    NEURON,
    "a = 3.0\nb = a + a",  # one step hands a two contributions
    "x = 2.0\nb = x*3; c = b*2; d = b + c",  # b receives from two steps
    "x = 0.5\nq = x*x; r = q*q + q/q - q",  # q used four times
    "x = 1.5",  # the output is an input: only the root step
])
def test_lookups_of_what_each_node_received_match_a_scan_of_the_plan(text, engine):
    assert_lookups_match_scans(Stepper(parse(text).output, engine))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_lookups_match_a_scan_of_the_plan_on_generated_programs(text):
    try:
        program = parse(text)
    except ExpressionError:
        return
    assert_lookups_match_scans(Stepper(program.output))


def test_received_in_order_with_the_root_step_first():
    stepper = Stepper(parse("a = 3.0\nb = a * a\nc = b + b").output)
    b, a = stepper.forward_steps[1], stepper.forward_steps[0]
    assert stepper.received(b) == []  # nothing before the backward pass
    stepper.run_to_end()
    # c's rule hands b two contributions in one step, then b hands a two
    assert [c.contribution for _, c in stepper.received(b)] == [1.0, 1.0]
    assert [c.after for _, c in stepper.received(a)] == [6.0, 12.0]
    assert stepper.final_grad(a) == 12.0 == a.grad
    root_step, base = stepper.received(stepper.output)[0]
    assert root_step.root and base.after == 1.0
