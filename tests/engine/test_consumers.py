"""`Stepper.consumers`: who takes a node as an operand, found from the plan's index
rather than a scan of the graph, is what a scan finds, in the forward order."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.stepping import Stepper
from engine.language.parser import parse
from tests.engine.test_stepping_orders import graphs, random_topological_order


def scanned(stepper: Stepper, node) -> list:
    """The consumers of `node` by a scan of every forward step, each once."""
    return [u for u in stepper.forward_steps if any(p is node for p in u.parents)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs(), st.integers(0, 2**32))
def test_the_consumers_are_what_a_scan_finds_in_any_forward_order(output, seed):
    order = random_topological_order(output, random.Random(seed))
    stepper = Stepper(output, forward_steps=order)
    for node in stepper.forward_steps:
        assert stepper.consumers(node) == scanned(stepper, node)


def test_a_node_used_twice_by_one_step_is_consumed_once_and_the_output_by_none():
    program = parse("a = 3\nb = a + a\nc = a * b\nout = c + b")
    stepper = Stepper(program.output)
    a, b, c, out = (program.names[n] for n in ("a", "b", "c", "out"))
    assert stepper.consumers(a) == [b, c]
    assert stepper.consumers(b) == [c, out]
    assert stepper.consumers(out) == []
