"""The peers and the floor the engine is measured against (issue 27), beside micrograd.

- `GptValue`: the strongest plain design, microgpt's: `__slots__`, the children and their
  local derivatives recorded at forward time (`_children`, `_local_grads`), no closures,
  numbers wrapped as Values as microgpt does, and a topological sort made iterative (an
  explicit stack) so that a chain of 10^6 ops does not recurse.
- `Tape`: the pure-Python floor. The graph is a few flat lists (values, the two parents'
  indices, their local derivatives); an op is an append to each, backward one reverse
  loop over the indices. It has no objects per node and no public face: the code that
  builds on it is written against indices (`tape_demo_epoch`, `tape_xor_epoch`).

The work every `Value`-like class runs is the same code (`demo_epoch`,
`benchmarks.peers.xor_epoch`, `chain`): micrograd's demo epoch (`MLP(2, [16, 16, 1])`,
100 moons, the max-margin loss, 1e-4 L2, the learning rate schedule) and a chain of
`v * 1.0000001`.
"""

from __future__ import annotations

import math
import random


class GptValue:
    """microgpt's scalar, with tanh (for the XOR epoch) in its style."""

    __slots__ = ("data", "grad", "_children", "_local_grads")

    def __init__(self, data, children=(), local_grads=()):
        self.data = data
        self.grad = 0
        self._children = children
        self._local_grads = local_grads

    def __add__(self, other):
        other = other if isinstance(other, GptValue) else GptValue(other)
        return GptValue(self.data + other.data, (self, other), (1, 1))

    def __mul__(self, other):
        other = other if isinstance(other, GptValue) else GptValue(other)
        return GptValue(self.data * other.data, (self, other), (other.data, self.data))

    def __pow__(self, other):
        return GptValue(self.data ** other, (self,), (other * self.data ** (other - 1),))

    def relu(self):
        return GptValue(max(0, self.data), (self,), (float(self.data > 0),))

    def tanh(self):
        t = math.tanh(self.data)
        return GptValue(t, (self,), (1 - t * t,))

    def __neg__(self):
        return self * -1

    def __radd__(self, other):
        return self + other

    def __sub__(self, other):
        return self + (-other)

    def __rmul__(self, other):
        return self * other

    def backward(self):
        topo, visited, stack = [], set(), [(self, False)]
        while stack:
            v, done = stack.pop()
            if done:
                topo.append(v)
            elif v not in visited:
                visited.add(v)
                stack.append((v, True))
                for child in reversed(v._children):
                    if child not in visited:
                        stack.append((child, False))
        self.grad = 1
        for v in reversed(topo):
            for child, local_grad in zip(v._children, v._local_grads):
                child.grad += local_grad * v.grad


class Tape:
    """The graph as flat lists; node i's parents are `pa[i]`, `pb[i]` (-1: none)."""

    __slots__ = ("data", "pa", "pb", "la", "lb")

    def __init__(self):
        self.data, self.pa, self.pb, self.la, self.lb = [], [], [], [], []

    def _push(self, x, a, b, la, lb) -> int:
        self.data.append(x)
        self.pa.append(a)
        self.pb.append(b)
        self.la.append(la)
        self.lb.append(lb)
        return len(self.data) - 1

    def leaf(self, x: float) -> int:
        return self._push(x, -1, -1, 0.0, 0.0)

    def add(self, i: int, j: int) -> int:
        return self._push(self.data[i] + self.data[j], i, j, 1.0, 1.0)

    def mul(self, i: int, j: int) -> int:
        d = self.data
        return self._push(d[i] * d[j], i, j, d[j], d[i])

    def add_const(self, i: int, c: float) -> int:
        return self._push(self.data[i] + c, i, -1, 1.0, 0.0)

    def mul_const(self, i: int, c: float) -> int:
        return self._push(self.data[i] * c, i, -1, c, 0.0)

    def relu(self, i: int) -> int:
        x = self.data[i]
        return self._push(x if x > 0.0 else 0.0, i, -1, 1.0 if x > 0.0 else 0.0, 0.0)

    def tanh(self, i: int) -> int:
        t = math.tanh(self.data[i])
        return self._push(t, i, -1, 1.0 - t * t, 0.0)

    def square(self, i: int) -> int:
        x = self.data[i]
        return self._push(x * x, i, -1, 2.0 * x, 0.0)

    def backward(self, root: int) -> list[float]:
        """d root / d node for every node, one reverse loop."""
        pa, pb, la, lb = self.pa, self.pb, self.la, self.lb
        grads = [0.0] * len(self.data)
        grads[root] = 1.0
        for k in range(root, -1, -1):
            a = pa[k]
            if a >= 0:
                g = grads[k]
                grads[a] += la[k] * g
                b = pb[k]
                if b >= 0:
                    grads[b] += lb[k] * g
        return grads


# -- the work ------------------------------------------------------------------------------

def moons(points: int = 100, seed: int = 1):
    """micrograd demo's data, sklearn's make_moons written out: points and labels -1/1."""
    rng = random.Random(seed)
    xs, ys = [], []
    for i in range(points):
        outer = i % 2 == 0
        t = math.pi * rng.random()
        x = (math.cos(t), math.sin(t)) if outer else (1 - math.cos(t), 0.5 - math.sin(t))
        xs.append((x[0] + rng.gauss(0, 0.1), x[1] + rng.gauss(0, 0.1)))
        ys.append(-1.0 if outer else 1.0)
    return xs, ys


def demo_weights(sizes=(2, 16, 16, 1), seed: int = 1337) -> list[list[list[float]]]:
    """Per layer, per neuron: its weights then its bias (0), as micrograd's nn draws them."""
    rng = random.Random(seed)
    return [[[rng.uniform(-1, 1) for _ in range(nin)] + [0.0] for _ in range(nout)]
            for nin, nout in zip(sizes, sizes[1:])]


def demo_model(value_class, weights) -> tuple[list, list]:
    """micrograd's MLP over `value_class`: its layers (each a list of (w, b) neurons) and
    its parameters in micrograd's order."""
    layers = [[([value_class(w) for w in n[:-1]], value_class(n[-1])) for n in layer]
              for layer in weights]
    params = [p for layer in layers for w, b in layer for p in w + [b]]
    return layers, params


def demo_epoch(value_class, model, data, k: int = 0) -> float:
    """One epoch of micrograd's demo, as its notebook writes it; returns the loss."""
    layers, params = model
    xs, ys = data
    scores = []
    for row in xs:
        x = [value_class(v) for v in row]
        for depth, layer in enumerate(layers):
            last = depth == len(layers) - 1
            x = [sum((wi * xi for wi, xi in zip(w, x)), b) for w, b in layer] if last else \
                [sum((wi * xi for wi, xi in zip(w, x)), b).relu() for w, b in layer]
        scores.append(x[0])
    losses = [(1 + -yi * s).relu() for yi, s in zip(ys, scores)]
    data_loss = sum(losses) * (1.0 / len(losses))
    reg_loss = 1e-4 * sum(p * p for p in params)
    total = data_loss + reg_loss
    for p in params:
        p.grad = 0.0
    total.backward()
    lr = 1.0 - 0.9 * k / 100
    for p in params:
        p.data -= lr * p.grad
    return total.data


def tape_demo_epoch(params: list[float], shape, data, k: int = 0) -> float:
    """`demo_epoch` on a fresh tape; `params` (floats, micrograd's order) are updated."""
    t = Tape()
    idx = [t.leaf(p) for p in params]
    xs, ys = data
    scores, at = [], 0
    neurons = []
    for layer in shape:
        row = []
        for nin in layer:
            row.append((idx[at:at + nin], idx[at + nin]))
            at += nin + 1
        neurons.append(row)
    for point in xs:
        x = [t.leaf(v) for v in point]
        for depth, layer in enumerate(neurons):
            out = []
            for w, b in layer:
                act = b
                for wi, xi in zip(w, x):
                    act = t.add(act, t.mul(wi, xi))
                out.append(act if depth == len(neurons) - 1 else t.relu(act))
            x = out
        scores.append(x[0])
    losses = [t.relu(t.add_const(t.mul_const(s, -yi), 1.0)) for yi, s in zip(ys, scores)]
    total = losses[0]
    for v in losses[1:]:
        total = t.add(total, v)
    data_loss = t.mul_const(total, 1.0 / len(losses))
    reg = t.mul(idx[0], idx[0])
    for p in idx[1:]:
        reg = t.add(reg, t.mul(p, p))
    loss = t.add(data_loss, t.mul_const(reg, 1e-4))
    grads = t.backward(loss)
    lr = 1.0 - 0.9 * k / 100
    for n, i in enumerate(idx):
        params[n] -= lr * grads[i]
    return t.data[loss]


XOR_ROWS = (((0.0, 0.0), 0.0), ((0.0, 1.0), 1.0), ((1.0, 0.0), 1.0), ((1.0, 1.0), 0.0))


def tape_xor_epoch(params: list[float], lr: float = 0.1) -> float:
    """`benchmarks.peers.xor_epoch` on a fresh tape."""
    t = Tape()
    w11, w12, b1, w21, w22, b2, v1, v2, c = idx = [t.leaf(p) for p in params]
    loss = None
    for (x1, x2), target in XOR_ROWS:
        h1 = t.tanh(t.add(t.add(t.mul_const(w11, x1), t.mul_const(w12, x2)), b1))
        h2 = t.tanh(t.add(t.add(t.mul_const(w21, x1), t.mul_const(w22, x2)), b2))
        out = t.tanh(t.add(t.add(t.mul(v1, h1), t.mul(v2, h2)), c))
        error = t.square(t.add_const(out, -target))
        loss = error if loss is None else t.add(loss, error)
    grads = t.backward(loss)
    for n, i in enumerate(idx):
        params[n] -= lr * grads[i]
    return t.data[loss]


def chain(value_class, n: int):
    """x, then v = v * 1.0000001 n times: (x, the last v)."""
    x = value_class(0.5)
    v = x
    for _ in range(n):
        v = v * 1.0000001
    return x, v


def tape_chain(n: int) -> tuple[Tape, int]:
    t = Tape()
    v = t.leaf(0.5)
    mul = t.mul_const
    for _ in range(n):
        v = mul(v, 1.0000001)
    return t, v
