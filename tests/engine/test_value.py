"""Each rule of Value against its analytic derivative; structure of the graph."""

import gc
import math
import sys
import weakref

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Value, topological_order, zero_grad
from engine.core import value as value_module
from engine.core.value import _walk_with_stack


def derivative(f, x0):
    x = Value(x0)
    out = f(x)
    out.backward()
    return out.data, x.grad


@pytest.mark.parametrize(("name", "f", "x0", "value", "slope"), [
    ("add", lambda x: x + 2.5, 1.5, 4.0, 1.0),
    ("radd", lambda x: 2.5 + x, 1.5, 4.0, 1.0),
    ("sub", lambda x: x - 2.5, 1.5, -1.0, 1.0),
    ("rsub", lambda x: 2.5 - x, 1.5, 1.0, -1.0),
    ("mul", lambda x: x * 3.0, 1.5, 4.5, 3.0),
    ("rmul", lambda x: 3.0 * x, 1.5, 4.5, 3.0),
    ("div", lambda x: x / 4.0, 1.5, 0.375, 0.25),
    ("rdiv", lambda x: 3.0 / x, 1.5, 2.0, -3.0 / 1.5**2),
    ("neg", lambda x: -x, 1.5, -1.5, -1.0),
    ("cube", lambda x: x**3, 1.5, 3.375, 3 * 1.5**2),
    ("inverse", lambda x: x**-1, 2.0, 0.5, -0.25),
    ("sqrt", lambda x: x**0.5, 4.0, 2.0, 0.25),
    ("zeroth", lambda x: x**0, 0.0, 1.0, 0.0),
    ("tanh", lambda x: x.tanh(), 0.7, math.tanh(0.7), 1 - math.tanh(0.7) ** 2),
    ("relu+", lambda x: x.relu(), 0.7, 0.7, 1.0),
    ("relu-", lambda x: x.relu(), -0.7, 0.0, 0.0),
    ("exp", lambda x: x.exp(), 0.7, math.exp(0.7), math.exp(0.7)),
    ("log", lambda x: x.log(), 0.7, math.log(0.7), 1 / 0.7),
    ("sigmoid", lambda x: x.sigmoid(), 0.7, 1 / (1 + math.exp(-0.7)),
     math.exp(-0.7) / (1 + math.exp(-0.7)) ** 2),
])
def test_rule_matches_calculus(name, f, x0, value, slope):
    out, grad = derivative(f, x0)
    assert out == pytest.approx(value, rel=1e-15, abs=1e-15)
    assert grad == pytest.approx(slope, rel=1e-14, abs=1e-15)


def test_sigmoid_is_stable_far_from_zero():
    assert Value(-800.0).sigmoid().data == 0.0
    assert Value(800.0).sigmoid().data == 1.0


def test_domain_errors_are_python_errors():
    with pytest.raises(ValueError):
        Value(-8.0) ** (1 / 3)
    with pytest.raises(ValueError):
        Value(0.0).log()
    with pytest.raises(ZeroDivisionError):
        Value(1.0) / 0.0
    with pytest.raises(OverflowError):
        Value(1000.0).exp()
    with pytest.raises(ValueError):  # a Value exponent needs a positive base (x^y·ln x)
        Value(-2.0) ** Value(2.0)
    with pytest.raises(ValueError):
        Value(0.0).sqrt()  # no finite derivative at 0


def test_a_plain_number_is_folded_into_the_operation():
    """No node for a constant: one parent, and the constant's effect in the local
    derivative (the language makes constant nodes itself, so its graphs keep them)."""
    x = Value(1.5, label="x")
    cases = [(2 * x, 2.0), (x * 2, 2.0), (2 + x, 1.0), (x + 2, 1.0), (2 - x, -1.0),
             (x - 2, 1.0), (x / 2, 0.5), (2 / x, -2 / 1.5**2)]
    for out, local in cases:
        assert out.parents == (x,)
        assert out.local_grads == (pytest.approx(local, rel=1e-15),)


def test_parents_are_an_ordered_tuple_and_locals_match():
    a, b = Value(3.0, label="a"), Value(4.0, label="b")
    out = a * b
    assert out.parents == (a, b)
    assert out.local_grads == (4.0, 3.0)
    assert out.op == "*"
    assert (a / b).local_grads == (0.25, -3.0 / 16.0)


def test_repr_names_the_value():
    assert repr(Value(0.5, label="x")) == "Value(data=0.5, grad=0.0, label='x')"


def test_topological_order_is_the_recursive_post_order():
    a, b = Value(1.0), Value(2.0)
    c = a * b
    d = c + a
    assert topological_order(d) == [a, b, c, d]


def test_backward_accumulates_and_zero_grad_resets():
    a = Value(3.0)
    out = a * a
    out.backward()
    assert a.grad == 6.0
    order = out.backward()
    assert a.grad == 12.0  # accumulation is deliberate: 6 + 6
    zero_grad(order)
    out.backward()
    assert a.grad == 6.0


@st.composite
def random_graphs(draw):
    """The output of a random graph of + and * over three leaves, where any earlier
    node may be used again (so paths share nodes, as in a real network)."""
    nodes = [Value(1.0), Value(2.0), Value(3.0)]
    for _ in range(draw(st.integers(1, 40))):
        a = nodes[draw(st.integers(0, len(nodes) - 1))]
        b = nodes[draw(st.integers(0, len(nodes) - 1))]
        nodes.append(a + b if draw(st.booleans()) else a * b)
    return nodes[-1]


def walked_with_stack(root):
    order = []
    _walk_with_stack(root, object(), order.append)
    return order


@settings(max_examples=200)
@given(random_graphs())
def test_the_recursive_and_the_stack_walk_give_the_same_order(out):
    order = topological_order(out)
    assert order == walked_with_stack(out)
    assert len(set(order)) == len(order) and order[-1] is out
    position = {node: i for i, node in enumerate(order)}
    assert all(position[p] < position[n] for n in order for p in n.parents)


def deep_graph(depth: int, fork_every: int) -> Value:
    """A chain `depth` deep; every `fork_every` levels, a side branch that joins back."""
    x = Value(0.5)
    v = x
    for i in range(1, depth):
        v = v + x
        if fork_every and i % fork_every == 0:
            v = v * (x + Value(1.0))
    return v


@pytest.fixture
def stack_walks(monkeypatch):
    """The nodes from which topological_order started a stack walk, in call order."""
    started = []

    def spy(root, token, emit):
        started.append(root)
        _walk_with_stack(root, token, emit)

    monkeypatch.setattr(value_module, "_walk_with_stack", spy)
    return started


@pytest.mark.parametrize("fork_every", [0, 7, 300])
def test_a_deep_graph_is_finished_with_a_stack(fork_every, stack_walks):
    """Past a few hundred levels the recursion hands each branch to the stack walk;
    the order is the one the recursion would have made (side branches included)."""
    v = deep_graph(3 * sys.getrecursionlimit(), fork_every)
    order = topological_order(v)
    assert stack_walks
    assert order == walked_with_stack(v)
    assert len(set(order)) == len(order)


def _frames_below() -> int:
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    return depth


@pytest.mark.parametrize("fork_every", [0, 7])
def test_a_walk_started_near_the_recursion_limit_still_finishes(fork_every, stack_walks):
    """Called with only 50 frames of the recursion limit left, the recursion fails part
    way down, and the stack walk finishes from where it stopped."""
    v = deep_graph(300, fork_every)
    expected = walked_with_stack(v)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(_frames_below() + 50)
    try:
        order = topological_order(v)
    finally:
        sys.setrecursionlimit(limit)
    assert stack_walks == [v]
    assert order == expected


def test_a_walk_cut_short_near_the_limit_emits_each_node_once(stack_walks):
    """(a*b) + chain(300): the recursion finishes a, b and a*b, then runs out of
    frames in the chain; the stack walk must skip what was emitted (same token), or
    a, b and a*b come out twice."""
    a, b = Value(2.0), Value(3.0)
    product = a * b
    chain = deep_graph(300, 0)
    root = product + chain
    expected = [a, b, product] + walked_with_stack(chain) + [root]
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(_frames_below() + 50)
    try:
        order = topological_order(root)
    finally:
        sys.setrecursionlimit(limit)
    assert stack_walks == [root]
    assert len(order) == 304 and order == expected
    root.backward()
    assert (a.grad, b.grad) == (3.0, 2.0)


def test_the_power_rule_keeps_the_sign_for_huge_exponents():
    """For |k| >= 2**53, k - 1 rounds to k: d/dx x**k at x = -1 is k * (-1)**(k-1) = -k."""
    x = Value(-1.0)
    (x ** 1e20).backward()
    assert x.grad == -1e20
    x = Value(-1.0)
    (x ** -1e20).backward()
    assert x.grad == 1e20  # -k * (-1)**(-k-1) = -k * -1
    x = Value(1.0)
    (x ** 1e20).backward()
    assert x.grad == 1e20
    x = Value(-1.0)
    (x ** 2.0**53).backward()  # k - 1 = 2**53 - 1 is exact and odd
    assert x.grad == -(2.0**53)
    x = Value(-2.0)
    (x ** 3).backward()
    assert x.grad == 12.0
    x = Value(0.0)
    (x ** 1e20).backward()
    assert x.grad == 0.0


def test_backward_leaves_nothing_for_the_garbage_collector():
    """Neither the graph nor the walk over it makes a reference cycle: training does
    not wake the collector (a recursive closure in the walk once did, every epoch)."""
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            x = Value(0.5)
            out = ((x * 2 + 1).tanh() * x - x) ** 2
            out.backward()
            topological_order(out)
        del x, out
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_hundred_thousand_node_chain():
    x = Value(0.5)
    v = x
    for _ in range(100_000):
        v = v * 1.00001
    v.backward()
    assert len(topological_order(v)) == 100_001
    assert x.grad == pytest.approx(1.00001**100_000, rel=1e-9)


def test_graph_has_no_reference_cycles():
    """A dropped graph is freed by reference counting alone, without the collector."""
    gc.disable()
    try:
        x = Value(0.5)
        out = ((x * 2 + 1).tanh() - x) ** 2
        out.backward()
        probe = weakref.ref(out)
        leaf = weakref.ref(x)
        del out, x
        assert probe() is None
        assert leaf() is None
    finally:
        gc.enable()
