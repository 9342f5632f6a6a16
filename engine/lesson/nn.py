"""Neurons, layers and a multilayer perceptron on `Value`, and XOR training.

`train_xor` is a generator yielding one small record per epoch, so that the command
line, the tests and the GUI's worker all drive the same code; a caller stops by no
longer iterating. The same parameters can be evaluated with numpy (`forward_numpy`)
for the decision surface, thousands of points at once, without building graphs.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from engine._gc import collector_paused
from engine.core import ops
from engine.core.value import Value

ACTIVATIONS = ops.ACTIVATIONS  # the lesson's activations, as the op table marks them
DEFAULT_ACTIVATION = ops.DEFAULT_ACTIVATION
XOR = (((0.0, 0.0), 0.0), ((0.0, 1.0), 1.0), ((1.0, 0.0), 1.0), ((1.0, 1.0), 0.0))
# Seed 0 is the lesson's run: its nine starting parameters are
# numpy.random.default_rng(0).uniform(-1, 1, 9) in the order (w11, w12, b1, w21, w22, b2,
# v1, v2, c), which is MLP.parameters() order. Every loss and prediction it prints follows.
DEFAULT_SEED = 0
DEFAULT_EPOCHS = 3000
DEFAULT_LR = 0.1
INIT_LOW, INIT_HIGH = -1.0, 1.0  # weights and biases start uniform in [-1, 1)
# Above this the very first update throws the weights past anything tanh can tell apart
# (and near 1.8e308 the product lr * gradient overflows outright).
MAX_LR = 1e300
QUOTED = 80  # at most this many characters of a user's text go into a message


def quoted(text: str, limit: int = QUOTED) -> str:
    """`text` in quotes for a message, cut to `limit` characters with a count if longer."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"


def learning_rate(text: str) -> float:
    """The learning rate written in `text` (0.1, 1e-7, 2.5E+3).

    Raises ValueError with a one-line message if it is not a number, not finite (nan,
    inf, or beyond the largest float, like 1e400), not positive, or above MAX_LR.
    """
    try:
        value = float(text.strip())
    except ValueError:
        raise ValueError(f"the learning rate must be a number, not {quoted(text)}") from None
    if math.isnan(value):
        raise ValueError(f"the learning rate must be a number, not {quoted(text)}")
    if math.isinf(value):
        why = "" if "inf" in text.lower() else " (it is beyond the largest float, ~1.8e308)"
        raise ValueError(f"the learning rate must be a finite number, not {quoted(text)}"
                         + why)
    if value <= 0:
        raise ValueError(f"the learning rate must be positive, not {quoted(text)}")
    if value > MAX_LR:
        raise ValueError(f"the learning rate must be at most {MAX_LR:g}, not {quoted(text)}")
    return value


def initial_parameters(sizes: Sequence[int], seed: int) -> list[float]:
    """The starting parameters of an MLP of layer sizes `sizes`, in MLP.parameters()
    order: numpy.random.default_rng(seed).uniform(-1, 1, count)."""
    count = sum(n_out * (n_in + 1) for n_in, n_out in zip(sizes, sizes[1:]))
    return np.random.default_rng(seed).uniform(INIT_LOW, INIT_HIGH, count).tolist()


class Neuron:
    """activation(b + w · x), its weights then its bias taken from `values`."""

    def __init__(self, n_in: int, activation: str, values: Iterator[float]):
        self.w = [Value(next(values), label="w") for _ in range(n_in)]
        self.b = Value(next(values), label="b")
        self.activation = activation

    def __call__(self, x: Sequence) -> Value:
        z = self.b
        for wi, xi in zip(self.w, x):
            z = z + wi * xi
        return getattr(z, self.activation)()

    def parameters(self) -> list[Value]:
        return [*self.w, self.b]

    def __repr__(self) -> str:
        return f"Neuron({len(self.w)} inputs, {self.activation})"


def output_activation(activation: str) -> str:
    """The output unit's activation in a network whose hidden units use `activation`:
    the same, except under relu hidden units, where it is a sigmoid. A relu output that
    goes negative on every row is off for good (it passes no gradient back), and a linear
    one at the lesson's learning rate diverges on most seeds; a sigmoid always answers in
    (0, 1) and always passes some gradient."""
    return ops.SIGMOID.name if activation == ops.RELU.name else activation


ACTIVATION_TIP = ("The hidden units' activation; the output unit uses the same, except "
                  "under relu, where it is a sigmoid (a relu output that goes negative on "
                  "every row is off for good)")


def layers_text(activation: str) -> str:
    """Which activation each layer uses, in words: 'tanh hidden, tanh output'."""
    return f"{activation} hidden, {output_activation(activation)} output"


def layer_activations(sizes: Sequence[int], activation: str) -> list[str]:
    """Each layer's activation: `activation` for the hidden layers, then the output's."""
    layers = len(sizes) - 1
    return [activation] * (layers - 1) + [output_activation(activation)]


class Layer:
    def __init__(self, n_in: int, n_out: int, activation: str, values: Iterator[float]):
        self.neurons = [Neuron(n_in, activation, values) for _ in range(n_out)]

    def __call__(self, x: Sequence) -> list[Value]:
        return [n(x) for n in self.neurons]

    def parameters(self) -> list[Value]:
        return [p for n in self.neurons for p in n.parameters()]

    def __repr__(self) -> str:
        return f"Layer({len(self.neurons)} × {self.neurons[0]!r})"


class MLP:
    """Layers of sizes `sizes` (inputs first); the hidden layers use `activation`, the
    output layer `output_activation(activation)` (tanh and sigmoid: the same; relu: a
    sigmoid); the parameters start as `initial_parameters(sizes, seed)`."""

    def __init__(self, sizes: Sequence[int], activation: str = DEFAULT_ACTIVATION, seed: int = 0):
        if activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {activation!r}; choose from {ACTIVATIONS}")
        self.sizes = tuple(sizes)
        self.activation = activation
        values = iter(initial_parameters(self.sizes, seed))
        with collector_paused():
            self.layers = [Layer(a, b, f, values) for a, b, f in
                           zip(sizes, sizes[1:], layer_activations(self.sizes, activation))]

    def __call__(self, x: Sequence) -> Value:
        with collector_paused():  # a wide network's pass makes millions of nodes
            for layer in self.layers:
                x = layer(x)
        return x[0]

    def parameters(self) -> list[Value]:
        return [p for layer in self.layers for p in layer.parameters()]

    def zero_grad(self) -> None:
        for p in self.parameters():
            p.grad = 0.0

    def __repr__(self) -> str:
        shape = "-".join(map(str, self.sizes))
        out = output_activation(self.activation)
        if out == self.activation:
            return f"MLP({shape}, {self.activation})"
        return f"MLP({shape}, {self.activation} hidden, {out} output)"


@dataclass(frozen=True)
class Epoch:
    """One epoch: the loss summed over the four rows before this epoch's update, the
    parameters after it, and whether the loss stopped being a finite number."""

    epoch: int
    loss: float
    parameters: tuple[float, ...]
    diverged: bool = False


def xor_loss(model: MLP) -> Value:
    """Σ over the four XOR rows of (prediction − target)², the rows added last first.

    Why that order: backward() applies the rules in reverse topological order, so the
    row added to the sum last sends its gradient to the parameters first. Adding the rows
    from (1, 1) back to (0, 0) makes every parameter's gradient the sum of the four rows'
    shares in the table's order, (0, 0) first. Floating-point addition is not
    associative, so the order shows in the last bits, and over thousands of epochs in
    the run: from the lesson's start this order gives its 27 rises (the other order, 28),
    while every printed loss and prediction is the same either way.
    """
    total = None
    for x, target in reversed(XOR):
        error = (model(x) - target) ** 2
        total = error if total is None else total + error
    return total


def train_xor(epochs: int = DEFAULT_EPOCHS, lr: float = DEFAULT_LR, seed: int = DEFAULT_SEED,
              hidden: int = 2, activation: str = DEFAULT_ACTIVATION,
              start: Sequence[float] | None = None, zero_grad: bool = True) -> Iterator[Epoch]:
    """Train a 2-hidden-1 network on XOR by plain gradient descent, one Epoch per epoch.

    Deterministic for a seed. `start` resumes from a parameter vector (as an Epoch
    holds it). With `zero_grad=False` the classic bug is on: gradients are never reset,
    so each update uses the sum of every epoch's gradient so far. If the loss overflows
    or is not a finite number, the last record has `diverged=True` and the generator ends.
    """
    model = MLP((2, hidden, 1), activation, seed)
    params = model.parameters()
    if start is not None:
        for p, v in zip(params, start):
            p.data = v
    for epoch in range(1, epochs + 1):
        try:
            loss = xor_loss(model)
            if zero_grad:
                model.zero_grad()
            loss.backward()
            value = loss.data
            ok = math.isfinite(value) and all(math.isfinite(p.grad) for p in params)
            if ok:
                for p in params:
                    p.data -= lr * p.grad
                ok = all(math.isfinite(p.data) for p in params)
        except (OverflowError, ValueError, ZeroDivisionError):
            value, ok = math.inf, False
        yield Epoch(epoch, value, tuple(p.data for p in params), diverged=not ok)
        if not ok:
            return


def layer_shapes(hidden: int) -> list[tuple[int, int]]:
    """(inputs, outputs) of each layer of the 2-hidden-1 network."""
    return [(2, hidden), (hidden, 1)]


def unpack(parameters: Sequence[float], hidden: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The flat parameter vector (MLP.parameters() order) as (W, b) per layer, W of shape
    (outputs, inputs)."""
    layers, k = [], 0
    for n_in, n_out in layer_shapes(hidden):
        block = np.asarray(parameters[k:k + n_out * (n_in + 1)], dtype=float)
        block = block.reshape(n_out, n_in + 1)
        layers.append((block[:, :n_in], block[:, n_in]))
        k += n_out * (n_in + 1)
    return layers


# each activation with numpy, for thousands of points at once
_NUMPY = {op.name: op.numpy for op in ops.OPS if op.lesson}


def _activate(z: np.ndarray, activation: str) -> np.ndarray:
    return _NUMPY.get(activation, _NUMPY[ops.SIGMOID.name])(np, z)


def forward_numpy(parameters: Sequence[float], hidden: int, activation: str,
                  points: np.ndarray) -> np.ndarray:
    """The network's output at each row of `points` (shape (n, 2)), with numpy."""
    a = np.asarray(points, dtype=float)
    functions = layer_activations((2, hidden, 1), activation)
    with np.errstate(over="ignore", invalid="ignore"):
        for (w, b), function in zip(unpack(parameters, hidden), functions):
            a = _activate(a @ w.T + b, function)
    return a[:, 0]


def decision_surface(parameters: Sequence[float], hidden: int, activation: str,
                     resolution: int = 64, margin: float = 0.25) -> np.ndarray:
    """The output over a grid covering [-margin, 1 + margin]², shape (resolution,
    resolution), row i at x2 = the i-th grid value and column j at x1 = the j-th."""
    axis = np.linspace(-margin, 1 + margin, resolution)
    x1, x2 = np.meshgrid(axis, axis)
    grid = np.column_stack([x1.ravel(), x2.ravel()])
    return forward_numpy(parameters, hidden, activation, grid).reshape(resolution, resolution)


def predictions(parameters: Sequence[float], hidden: int,
                activation: str) -> list[tuple[tuple[float, float], float, float]]:
    """(input, prediction, target) for the four XOR rows."""
    points = np.array([x for x, _ in XOR])
    out = forward_numpy(parameters, hidden, activation, points)
    return [(x, float(o), t) for (x, t), o in zip(XOR, out)]


def _final_gradient(parameters: Sequence[float], hidden: int, activation: str) -> float:
    """The length of the loss's gradient at `parameters` (how steep the run ended)."""
    model = MLP((2, hidden, 1), activation)
    params = model.parameters()
    for p, v in zip(params, parameters):
        p.data = v
    try:
        xor_loss(model).backward()
    except (OverflowError, ValueError, ZeroDivisionError):
        return math.inf
    return math.sqrt(sum(p.grad * p.grad for p in params))


def dead_units(parameters: Sequence[float], hidden: int) -> int:
    """How many relu hidden units are off (pre-activation ≤ 0) on all four XOR rows: such
    a unit passes no gradient back, so no update can bring it back."""
    (w, b), _ = unpack(parameters, hidden)
    points = np.array([x for x, _ in XOR])
    with np.errstate(over="ignore", invalid="ignore"):
        z = points @ w.T + b
    return int(np.sum(np.all(~(z > 0), axis=0)))


FLAT = 1e-3        # a gradient shorter than this, with the loss above STUCK: a plateau
STUCK = 0.05
SATURATED = 5.0    # a weight this large puts tanh and sigmoid where they are flat
RISING = 0.05      # the loss rose on more than this share of the transitions: η too large


def not_learned(parameters: Sequence[float], hidden: int, activation: str,
                history=None, lr: float | None = None) -> str:
    """'' when all four XOR rows are on the right side of 0.5; otherwise what went wrong
    and why, from the run's own numbers, for a run that ended without learning: one
    hidden unit (one straight line cannot separate XOR), dead relu units (how many), a
    plateau (the gradient at the end is almost 0), a learning rate too large (the loss
    rose on many of the run's transitions: `history`, a LossHistory of the run, counts
    them)."""
    rows = predictions(parameters, hidden, activation)
    wrong = sum(not (math.isfinite(p) and (p > 0.5) == (t > 0.5)) for _, p, t in rows)
    if not wrong:
        return ""
    outputs = [p for _, p, _ in rows]
    text = f"XOR is not learned: {wrong} of 4 predictions are on the wrong side of 0.5"
    if all(math.isfinite(p) for p in outputs) and max(outputs) - min(outputs) < 1e-6:
        text += f"; the network answers {outputs[0]:.4f} whatever the input"
    rises, epochs = (history.rises, history.epochs) if history is not None else (0, 0)
    return text + ". " + _why(parameters, hidden, activation, rises, epochs, lr)


def _why(parameters, hidden: int, activation: str, rises: int, epochs: int, lr) -> str:
    rate = f" (η = {lr:g})" if lr is not None else ""
    if hidden == 1:
        return ("One hidden unit draws one straight line through the plane, and no "
                "straight line separates XOR's 1s from its 0s: it needs two.")
    if activation == ops.RELU.name and (dead := dead_units(parameters, hidden)):
        who = f"All {hidden}" if dead == hidden else f"{dead} of {hidden}"
        return (f"{who} hidden relu units are dead: off on all four rows, they pass no "
                "gradient back, so training cannot revive them. Try another seed, a smaller "
                "learning rate or more hidden units.")
    if epochs > 1 and rises > RISING * (epochs - 1):
        return (f"The loss rose on {rises:,} of {epochs - 1:,} transitions: the learning "
                f"rate{rate} is too large for the steps to settle. Try a smaller one.")
    steep = _final_gradient(parameters, hidden, activation)
    loss = sum((p - t) ** 2 for _, p, t in predictions(parameters, hidden, activation))
    if steep < FLAT and loss > STUCK:
        largest = max(abs(p) for p in parameters)
        if largest > SATURATED:
            return (f"The gradient at the end is almost 0 ({steep:.1e}): the weights grew "
                    f"to {largest:.3g}, where {activation} is flat, so the units are "
                    f"saturated; the learning rate{rate} was too large. Try a smaller one.")
        return (f"The gradient at the end is almost 0 ({steep:.1e}) while the loss is still "
                f"{loss:.3f}: the run is stuck on a plateau. Try another seed.")
    return (f"The run ended with the loss at {loss:.3f} and its gradient at {steep:.1e}: "
            "more epochs may get there, or another seed.")


def rises(losses: Sequence[float]) -> tuple[int, float]:
    """How many epoch-to-epoch transitions raised the loss, and the largest rise."""
    ups = [b - a for a, b in zip(losses, losses[1:]) if b > a]
    return len(ups), max(ups, default=0.0)
