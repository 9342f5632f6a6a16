"""Models a learner builds on other scalar engines, shared by the tests and benchmarks.

- `micrograd_demo(points)`: micrograd's own demo (demo.ipynb): `MLP(2, [16, 16, 1])` on
  two interleaved half moons, the max-margin loss and 1e-4 L2, on the real `micrograd`
  package (a dev dependency). 100 points make micrograd's 65,818-node graph.
- `microgpt_step(...)`: one training step of a tiny GPT written in the style of
  Karpathy's microgpt: its own minimal `Value` (`data`, `grad`, `_children`,
  `_local_grads`, no op names), a `state_dict` of matrices of Values, rmsnorm, softmax,
  attention, an MLP block and the mean cross-entropy over a few token positions.

Each builder returns a `SimpleNamespace` of the objects a script would hold in its
variables (`model`, `inputs`, `loss`, `state_dict`, ...), so a test can bind them to
locals and see the names `debug()` gives them. Everything is seeded: the same call
builds the same graph.
"""

from __future__ import annotations

import math
import random
from types import SimpleNamespace


def moons(points: int, noise: float = 0.1, seed: int = 1337) -> tuple[list, list]:
    """`points` 2-D points on two interleaved half circles (sklearn's make_moons), with
    Gaussian noise, and their labels -1 / +1, as lists of floats."""
    rng = random.Random(seed)
    outer = (points + 1) // 2
    inner = points - outer
    xs, ys = [], []
    for k in range(outer):
        t = math.pi * k / max(outer - 1, 1)
        xs.append([math.cos(t), math.sin(t)])
        ys.append(-1)
    for k in range(inner):
        t = math.pi * k / max(inner - 1, 1)
        xs.append([1 - math.cos(t), 0.5 - math.sin(t)])
        ys.append(1)
    for row in xs:
        row[0] += rng.gauss(0, noise)
        row[1] += rng.gauss(0, noise)
    return xs, ys


def micrograd_demo(points: int = 100, sizes=(16, 16, 1), seed: int = 1337) -> SimpleNamespace:
    """micrograd's demo: `model = MLP(2, sizes)` (its weights drawn from `random` seeded
    with `seed`, as the notebook does), `inputs` (one list of two Values per point),
    `scores`, `losses` (max-margin per point), `data_loss`, `reg_loss` (1e-4 L2) and
    `loss`, not yet differentiated. 100 points: 65,818 nodes."""
    from micrograd.engine import Value
    from micrograd.nn import MLP

    saved = random.getstate()
    random.seed(seed)
    try:
        model = MLP(2, list(sizes))
    finally:
        random.setstate(saved)
    X, y = moons(points, seed=seed)
    inputs = [list(map(Value, row)) for row in X]
    scores = list(map(model, inputs))
    losses = [(1 + -yi * score).relu() for yi, score in zip(y, scores)]
    data_loss = sum(losses) * (1.0 / len(losses))
    reg_loss = 1e-4 * sum(p * p for p in model.parameters())
    loss = data_loss + reg_loss
    return SimpleNamespace(model=model, inputs=inputs, targets=y, scores=scores,
                           losses=losses, data_loss=data_loss, reg_loss=reg_loss, loss=loss)


class GptValue:
    """microgpt's scalar: the children and the local derivatives recorded at forward
    time, no op names; `backward()` walks the graph with a stack (microgpt recurses)."""

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
        return GptValue(self.data**other, (self,), (other * self.data ** (other - 1),))

    def log(self):
        return GptValue(math.log(self.data), (self,), (1 / self.data,))

    def exp(self):
        return GptValue(math.exp(self.data), (self,), (math.exp(self.data),))

    def relu(self):
        return GptValue(max(0, self.data), (self,), (float(self.data > 0),))

    def __neg__(self):
        return self * -1

    def __radd__(self, other):
        return self + other

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    def __rmul__(self, other):
        return self * other

    def __truediv__(self, other):
        return self * other**-1

    def __rtruediv__(self, other):
        return other * self**-1

    def __repr__(self):
        return f"GptValue(data={self.data}, grad={self.grad})"

    def backward(self):
        topo, visited, stack = [], set(), [(self, False)]
        while stack:
            v, done = stack.pop()
            if done:
                topo.append(v)
            elif v not in visited:
                visited.add(v)
                stack.append((v, True))
                stack.extend((c, False) for c in reversed(v._children) if c not in visited)
        self.grad = 1
        for v in reversed(topo):
            for child, local_grad in zip(v._children, v._local_grads):
                child.grad += local_grad * v.grad


def _linear(x, w):
    return [sum(wi * xi for wi, xi in zip(wo, x)) for wo in w]


def _softmax(logits):
    max_val = max(val.data for val in logits)
    exps = [(val - max_val).exp() for val in logits]
    total = sum(exps)
    return [e / total for e in exps]


def _rmsnorm(x):
    ms = sum(xi * xi for xi in x) / len(x)
    scale = (ms + 1e-5) ** -0.5
    return [xi * scale for xi in x]


def microgpt_step(vocab_size: int = 5, n_embd: int = 8, n_head: int = 2,
                  block_size: int = 4, tokens=(0, 3, 1, 4, 2), seed: int = 42) -> SimpleNamespace:
    """One training step of a one-layer GPT in microgpt's style on `tokens`: `state_dict`
    (wte, wpe, attn_wq/wk/wv/wo, mlp_fc1/fc2, lm_head: lists of rows of GptValues drawn
    from a seeded Gaussian), `losses` (one cross-entropy per position) and `loss`, their
    mean, not yet differentiated. The defaults make a graph of a few thousand nodes;
    `n_embd=16, block_size=8` and 9 tokens make tens of thousands."""
    rng = random.Random(seed)

    def matrix(nout, nin, std=0.08):
        return [[GptValue(rng.gauss(0, std)) for _ in range(nin)] for _ in range(nout)]

    state_dict = {"wte": matrix(vocab_size, n_embd), "wpe": matrix(block_size, n_embd),
                  "attn_wq": matrix(n_embd, n_embd), "attn_wk": matrix(n_embd, n_embd),
                  "attn_wv": matrix(n_embd, n_embd), "attn_wo": matrix(n_embd, n_embd),
                  "mlp_fc1": matrix(4 * n_embd, n_embd), "mlp_fc2": matrix(n_embd, 4 * n_embd),
                  "lm_head": matrix(vocab_size, n_embd)}
    head_dim = n_embd // n_head

    def gpt(token_id, pos_id, keys, values):
        x = [t + p for t, p in zip(state_dict["wte"][token_id], state_dict["wpe"][pos_id])]
        x = _rmsnorm(x)
        x_residual = x
        x = _rmsnorm(x)
        q = _linear(x, state_dict["attn_wq"])
        keys.append(_linear(x, state_dict["attn_wk"]))
        values.append(_linear(x, state_dict["attn_wv"]))
        x_attn = []
        for h in range(n_head):
            hs = h * head_dim
            q_h = q[hs:hs + head_dim]
            k_h = [ki[hs:hs + head_dim] for ki in keys]
            v_h = [vi[hs:hs + head_dim] for vi in values]
            attn_logits = [sum(q_h[j] * k_h[t][j] for j in range(head_dim)) / head_dim**0.5
                           for t in range(len(k_h))]
            attn_weights = _softmax(attn_logits)
            x_attn.extend(sum(attn_weights[t] * v_h[t][j] for t in range(len(v_h)))
                          for j in range(head_dim))
        x = _linear(x_attn, state_dict["attn_wo"])
        x = [a + b for a, b in zip(x, x_residual)]
        x_residual = x
        x = _rmsnorm(x)
        x = [xi.relu() for xi in _linear(x, state_dict["mlp_fc1"])]
        x = _linear(x, state_dict["mlp_fc2"])
        x = [a + b for a, b in zip(x, x_residual)]
        return _linear(x, state_dict["lm_head"])

    tokens = list(tokens)
    n = min(block_size, len(tokens) - 1)
    keys, values, losses = [], [], []
    for pos_id in range(n):
        probs = _softmax(gpt(tokens[pos_id], pos_id, keys, values))
        losses.append(-probs[tokens[pos_id + 1]].log())
    loss = (1 / n) * sum(losses)
    return SimpleNamespace(state_dict=state_dict, tokens=tokens, losses=losses, loss=loss)


def node_count(root) -> int:
    """How many nodes the graph under `root` has (any of the three conventions)."""
    seen, stack = {id(root)}, [root]
    while stack:
        node = stack.pop()
        for attr in ("_prev", "_children"):
            parents = getattr(node, attr, None)
            if parents is not None:
                break
        for p in parents or ():
            if id(p) not in seen:
                seen.add(id(p))
                stack.append(p)
    return len(seen)
