"""The engine's gradients against micrograd's, its nodes out of the collector's way, and
micrograd's fields on them (issue 27).

The reference is micrograd's engine written out here as micrograd writes it: a
`_backward` closure per op and a depth-first topological sort, its parents in a tuple
(micrograd keeps a set, whose order, and so the order gradients are summed in, changes
from run to run).
"""

import gc
import math
import random
import weakref

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import _gc
from engine.core import value as value_module
from engine.core.value import Value, topological_order


class Ref:
    """micrograd's Value (engine.py), with tanh and relu, parents in order."""

    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0
        self._backward = lambda: None
        self._prev = tuple(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Ref) else Ref(other)
        out = Ref(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Ref) else Ref(other)
        out = Ref(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def relu(self):
        out = Ref(0 if self.data < 0 else self.data, (self,), "ReLU")

        def _backward():
            self.grad += (out.data > 0) * out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo, visited, stack = [], set(), [(self, False)]
        while stack:  # the recursive post-order of micrograd, with a stack
            v, done = stack.pop()
            if done:
                topo.append(v)
            elif v not in visited:
                visited.add(v)
                stack.append((v, True))
                stack.extend((c, False) for c in reversed(v._prev) if c not in visited)
        self.grad = 1
        for v in reversed(topo):
            v._backward()

    def __neg__(self):
        return self * -1

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other


def moons(points: int, seed: int = 1):
    rng = random.Random(seed)
    xs, ys = [], []
    for i in range(points):
        t = math.pi * rng.random()
        x = (math.cos(t), math.sin(t)) if i % 2 == 0 else (1 - math.cos(t), 0.5 - math.sin(t))
        xs.append((x[0] + rng.gauss(0, 0.1), x[1] + rng.gauss(0, 0.1)))
        ys.append(-1.0 if i % 2 == 0 else 1.0)
    return xs, ys


def demo_model(value_class, seed: int = 1337, sizes=(2, 16, 16, 1)):
    rng = random.Random(seed)
    return [[([value_class(rng.uniform(-1, 1)) for _ in range(nin)], value_class(0.0))
             for _ in range(nout)] for nin, nout in zip(sizes, sizes[1:])]


def demo_epoch(value_class, layers, xs, ys, k: int):
    """micrograd's demo epoch as its notebook writes it: (loss, parameters, inputs)."""
    params = [p for layer in layers for w, b in layer for p in w + [b]]
    inputs = [[value_class(v) for v in row] for row in xs]
    scores = []
    for x in inputs:
        for depth, layer in enumerate(layers):
            acts = [sum((wi * xi for wi, xi in zip(w, x)), b) for w, b in layer]
            x = acts if depth == len(layers) - 1 else [a.relu() for a in acts]
        scores.append(x[0])
    losses = [(1 + -yi * s).relu() for yi, s in zip(ys, scores)]
    loss = sum(losses) * (1.0 / len(losses)) + 1e-4 * sum(p * p for p in params)
    for p in params:
        p.grad = 0.0
    loss.backward()
    for p in params:
        p.data -= (1.0 - 0.9 * k / 100) * p.grad
    return loss, params, inputs


def test_the_demo_epochs_gradients_equal_micrographs_to_the_bit():
    """Five epochs of micrograd's demo (MLP(2, [16, 16, 1]), 100 moons, max-margin loss,
    L2): every parameter's and input's gradient, and every update, bit for bit."""
    xs, ys = moons(100)
    ours, theirs = demo_model(Value), demo_model(Ref)
    for k in range(5):
        loss, params, inputs = demo_epoch(Value, ours, xs, ys, k)
        ref_loss, ref_params, ref_inputs = demo_epoch(Ref, theirs, xs, ys, k)
        assert loss.data == ref_loss.data
        assert [p.grad for p in params] == [p.grad for p in ref_params]
        assert [p.data for p in params] == [p.data for p in ref_params]
        assert [v.grad for row in inputs for v in row] == \
            [v.grad for row in ref_inputs for v in row]
        assert any(p.grad != 0.0 for p in params)
        assert len(topological_order(loss)) > 60_000  # the whole demo graph


def reverse_topological_gradients(root: Value) -> dict:
    """d root / d node for every node, by the reverse depth-first order."""
    order = topological_order(root)
    grads = {node: 0.0 for node in order}
    grads[root] = 1.0
    for node in reversed(order):
        for parent, local in zip(node._prev, node._local):
            grads[parent] += local * grads[node]
    return grads


@st.composite
def random_graphs(draw):
    """The output of a random graph of + * tanh over three leaves where any earlier node
    may be used again, and unrelated nodes made in between."""
    nodes = [Value(0.5), Value(-1.5), Value(2.0)]
    unrelated = []
    for _ in range(draw(st.integers(1, 40))):
        a = nodes[draw(st.integers(0, len(nodes) - 1))]
        b = nodes[draw(st.integers(0, len(nodes) - 1))]
        kind = draw(st.sampled_from("+*tu"))
        if kind == "u":
            unrelated.append(a * 3.0)  # made in between, not reached from the output
        else:
            nodes.append(a + b if kind == "+" else a * b if kind == "*" else a.tanh())
    return nodes[-1], unrelated


@settings(max_examples=200, deadline=None)
@given(random_graphs())
def test_backward_adds_in_the_reverse_depth_first_order(graph):
    """To the bit: the stepper's last step ends on these gradients."""
    out, _unrelated = graph
    expected = reverse_topological_gradients(out)
    order = out.backward()
    assert order == topological_order(out)
    assert {node: node.grad for node in order} == expected


def test_a_chain_of_a_million_nodes_builds_and_differentiates():
    x = Value(0.5)
    v = x
    for _ in range(1_000_000):
        v = v * 1.0000001
    order = v.backward()
    assert len(order) == 1_000_001 and order[0] is x and order[-1] is v
    assert x.grad == pytest.approx(1.0000001 ** 1_000_000, rel=1e-9)


def test_micrographs_fields_read_and_set_as_tuples():
    a, b = Value(2.0, label="a"), Value(3.0)
    c = a * b
    assert c._prev == (a, b) and c._local == (3.0, 2.0) and c._op == "*"
    assert (a * 4.0)._prev == (a,) and (a * 4.0)._local == (4.0,)
    assert a._prev == () and a._local == ()
    d = Value(6.0, _prev=(a, b), _op="*", _local=(3.0, 2.0))  # micrograd's constructor
    assert d._prev == (a, b) and d.parents == (a, b) and d.local_grads == (3.0, 2.0)
    d.backward()
    assert (a.grad, b.grad) == (3.0, 2.0)
    with pytest.raises(ValueError):
        c._prev = (a, b, a)
    e = Value(-2.0, _prev=(a,), _op="neg", _local=(-1.0,))  # one parent
    assert e._prev == (a,) and e._local == (-1.0,)
    a.grad = 0.0
    e.backward()
    assert a.grad == -1.0
    c._prev = {a}  # micrograd keeps a set
    assert c._prev == (a,) and c._local == (3.0,)


@pytest.fixture
def collections():
    """The generations of the collections run meanwhile."""
    seen = []

    def watch(phase, info):
        if phase == "start":
            seen.append(info["generation"])

    gc.collect()
    gc.callbacks.append(watch)
    yield seen
    gc.callbacks.remove(watch)


def test_a_users_loop_building_a_big_graph_sets_off_no_full_collection(collections):
    threshold = gc.get_threshold()
    x = Value(0.5)
    v = x
    for _ in range(300_000):
        v = v * 1.0000001
    assert collections and set(collections) == {1}  # only the pool's young collections
    assert gc.isenabled() and gc.get_threshold() == threshold
    assert gc.get_freeze_count() == 0 and _gc.holders() == 0
    assert v.data == pytest.approx(0.5 * 1.0000001 ** 300_000, rel=1e-9)


def test_refilling_the_pool_collects_the_users_young_garbage_first():
    class Cycle:
        def __init__(self):
            self.me = self

    gc.collect()
    ref = weakref.ref(Cycle())  # young cyclic garbage when the pool is next filled
    value_module._pool.clear()
    Value(1.0) + 1.0
    assert ref() is None
    assert gc.get_freeze_count() == 0 and gc.isenabled()


def test_under_a_pause_the_pool_is_filled_without_freezing(monkeypatch):
    calls = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(gc, "unfreeze", lambda: calls.append("unfreeze"))
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append("collect"))
    _gc.hold()
    try:
        value_module._pool.clear()
        y = Value(2.0) * 3.0
    finally:
        _gc.release()
    assert calls == ["freeze", "unfreeze"]  # the pause's own, none of the pool's
    assert y.data == 6.0 and y.grad == 0.0 and y.label == "" and y._prev[0].data == 2.0


def test_a_dropped_graph_is_freed_without_the_collector():
    gc.disable()
    try:
        x = Value(0.5)
        out = (x * 2 + 1).tanh() * x
        out.backward()
        probe = weakref.ref(out)
        del out
        assert probe() is None
    finally:
        gc.enable()
