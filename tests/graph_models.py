"""The networks a learner builds next, on this engine's `Value`, for the grouping's tests
and benchmarks: micrograd's demo MLP on the moons and a microgpt-style GPT training step.

Both are written the way their originals are, so their graphs have the same shape:

- `micrograd_mlp(points)`: micrograd's demo (`MLP(2, [16, 16, 1])`, max-margin loss, 1e-4
  L2). micrograd wraps every number it meets as a Value, so the constants are Values here
  too (`Value(1.0) + ...`, the `0` that `sum` starts from): 100 points make 65,818 nodes,
  as micrograd's own engine does.
- `microgpt_step(...)`: one training step of Karpathy's microgpt (token and position
  embeddings, rmsnorm, attention heads with a softmax over the positions so far, an MLP
  with relu, lm_head, softmax cross-entropy), its numbers folded as this engine does.

Leaves are labelled with the Python expression a user's variables reach them by
(`model.layers[0].neurons[3].w[1]`, `inputs[7][0]`, `state_dict['wte'][2][5]`), which is
what `debug()` names them; the constants are left unnamed. `roles_of` gives the roles
the window's session would: named leaves are inputs, unnamed ones constants.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from engine.core.value import Value, topological_order


@dataclass
class Built:
    """A model's loss and what made it: the loss of each sample (each position), the
    model (an MLP, or microgpt's state_dict), the inputs, and each sample's layer
    outputs (micrograd's MLP: [layer 0's, layer 1's, [score]])."""

    loss: Value
    losses: list
    model: object
    inputs: list = field(default_factory=list)
    layers: list = field(default_factory=list)


def moons(points: int, seed: int = 1) -> tuple[list[tuple[float, float]], list[float]]:
    """`points` points of two interleaved half circles with a little noise, and their
    labels -1 or 1 (scikit-learn's make_moons, written out)."""
    rng = random.Random(seed)
    xs, ys = [], []
    for i in range(points):
        outer = i % 2 == 0
        t = math.pi * rng.random()
        x = (math.cos(t), math.sin(t)) if outer else (1 - math.cos(t), 0.5 - math.sin(t))
        xs.append((x[0] + rng.gauss(0, 0.1), x[1] + rng.gauss(0, 0.1)))
        ys.append(-1.0 if outer else 1.0)
    return xs, ys


class Neuron:
    def __init__(self, nin: int, nonlin: bool, rng: random.Random, name: str):
        self.w = [Value(rng.uniform(-1, 1), f"{name}.w[{i}]") for i in range(nin)]
        self.b = Value(0.0, f"{name}.b")
        self.nonlin = nonlin

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.relu() if self.nonlin else act

    def parameters(self):
        return self.w + [self.b]


class Layer:
    def __init__(self, nin: int, nout: int, nonlin: bool, rng: random.Random, name: str):
        self.neurons = [Neuron(nin, nonlin, rng, f"{name}.neurons[{i}]") for i in range(nout)]

    def __call__(self, x):
        return [n(x) for n in self.neurons]

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]


class MLP:
    """micrograd's MLP: relu layers and a linear last one."""

    def __init__(self, nin: int, nouts: list[int], seed: int = 1337, name: str = "model"):
        rng = random.Random(seed)
        sizes = [nin] + nouts
        self.layers = [Layer(sizes[i], sizes[i + 1], i != len(nouts) - 1, rng,
                             f"{name}.layers[{i}]") for i in range(len(nouts))]

    def __call__(self, x, trace=None):
        for layer in self.layers:
            x = layer(x)
            if trace is not None:
                trace.append(x)
        return x[0] if len(x) == 1 else x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]


def _wrapped_sum(values):
    # micrograd's sum(values): 0 + v0 is v0.__radd__(0), which wraps the 0 as a Value
    total = values[0] + Value(0.0)
    for v in values[1:]:
        total = total + v
    return total


def micrograd_mlp(points: int = 100, sizes=(16, 16, 1), seed: int = 1337):
    """micrograd's demo loss on `points` moons, as a `Built`. 100 points make 65,818
    nodes."""
    xs, ys = moons(points)
    model = MLP(2, list(sizes), seed)
    inputs = [[Value(x, f"inputs[{s}][{k}]") for k, x in enumerate(row)]
              for s, row in enumerate(xs)]
    layers = [[] for _ in inputs]
    scores = [model(row, trace) for row, trace in zip(inputs, layers)]
    # (1 + -yi*scorei).relu(): micrograd makes Value(-yi), then Value(1)
    losses = [((score * Value(-y)) + Value(1.0)).relu() for y, score in zip(ys, scores)]
    data_loss = _wrapped_sum(losses) * Value(1.0 / len(losses))
    alpha = 1e-4
    reg_loss = _wrapped_sum([p * p for p in model.parameters()]) * Value(alpha)
    return Built(data_loss + reg_loss, losses, model, inputs, layers)


def _matrix(rows: int, cols: int, rng: random.Random, name: str, std: float = 0.08):
    return [[Value(rng.gauss(0, std), f"{name}[{i}][{j}]") for j in range(cols)]
            for i in range(rows)]


def _linear(x, w):
    return [sum(wi * xi for wi, xi in zip(row, x)) for row in w]


def _softmax(logits):
    top = max(v.data for v in logits)
    exps = [(v - top).exp() for v in logits]
    total = sum(exps)
    return [e / total for e in exps]


def _rmsnorm(x):
    ms = sum(xi * xi for xi in x) / len(x)
    scale = (ms + 1e-5) ** -0.5
    return [xi * scale for xi in x]


def microgpt_step(positions: int = 6, vocab: int = 27, n_embd: int = 16, n_head: int = 2,
                  n_layer: int = 1, seed: int = 42):
    """The loss of one microgpt training step on a document of `positions` tokens, as
    a `Built` (its model the state_dict)."""
    rng = random.Random(seed)
    sd = {"wte": _matrix(vocab, n_embd, rng, "state_dict['wte']"),
          "wpe": _matrix(positions, n_embd, rng, "state_dict['wpe']"),
          "lm_head": _matrix(vocab, n_embd, rng, "state_dict['lm_head']")}
    for li in range(n_layer):
        for key, shape in (("attn_wq", (n_embd, n_embd)), ("attn_wk", (n_embd, n_embd)),
                           ("attn_wv", (n_embd, n_embd)), ("attn_wo", (n_embd, n_embd)),
                           ("mlp_fc1", (4 * n_embd, n_embd)),
                           ("mlp_fc2", (n_embd, 4 * n_embd))):
            name = f"layer{li}.{key}"
            sd[name] = _matrix(*shape, rng, f"state_dict[{name!r}]")
    tokens = [rng.randrange(vocab) for _ in range(positions + 1)]
    head_dim = n_embd // n_head
    keys, values = [[] for _ in range(n_layer)], [[] for _ in range(n_layer)]
    losses = []
    for pos in range(positions):
        x = [t + p for t, p in zip(sd["wte"][tokens[pos]], sd["wpe"][pos])]
        x = _rmsnorm(x)
        for li in range(n_layer):
            x_residual = x
            x = _rmsnorm(x)
            q = _linear(x, sd[f"layer{li}.attn_wq"])
            keys[li].append(_linear(x, sd[f"layer{li}.attn_wk"]))
            values[li].append(_linear(x, sd[f"layer{li}.attn_wv"]))
            x_attn = []
            for h in range(n_head):
                hs = h * head_dim
                q_h = q[hs:hs + head_dim]
                k_h = [k[hs:hs + head_dim] for k in keys[li]]
                v_h = [v[hs:hs + head_dim] for v in values[li]]
                logits = [sum(q_h[j] * k_h[t][j] for j in range(head_dim)) / head_dim ** 0.5
                          for t in range(len(k_h))]
                weights = _softmax(logits)
                x_attn.extend(sum(weights[t] * v_h[t][j] for t in range(len(v_h)))
                              for j in range(head_dim))
            x = _linear(x_attn, sd[f"layer{li}.attn_wo"])
            x = [a + b for a, b in zip(x, x_residual)]
            x_residual = x
            x = _rmsnorm(x)
            x = [xi.relu() for xi in _linear(x, sd[f"layer{li}.mlp_fc1"])]
            x = _linear(x, sd[f"layer{li}.mlp_fc2"])
            x = [a + b for a, b in zip(x, x_residual)]
        probs = _softmax(_linear(x, sd["lm_head"]))
        losses.append(-probs[tokens[pos + 1]].log())
    return Built((1 / positions) * sum(losses), losses, sd)


def roles_of(nodes) -> dict:
    """The roles the window's session gives: named leaves are inputs, unnamed leaves
    constants, the last node the output."""
    roles = {v: ("input" if v.label else "constant") for v in nodes if not v.parents}
    roles[nodes[-1]] = "output"
    return roles


def graph_of(root) -> tuple[list, dict]:
    """The root's graph in topological order and its roles."""
    nodes = topological_order(root)
    return nodes, roles_of(nodes)
