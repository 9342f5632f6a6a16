"""The same program under TensorFlow's `tf.GradientTape`, in float64.

This is the only module that imports TensorFlow, and only when a function here is
called: importing TensorFlow takes seconds, so nothing may do it at start-up.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache

from engine.core import ops
from engine.language import Program, parse
from engine.language.program import CONST, INPUT, POW

INSTALL_HINT = "install it with: uv sync  (or: pip install tensorflow-cpu)"


class TensorFlowUnavailable(RuntimeError):
    """TensorFlow cannot be imported; the message says why and how to install it."""


def load():
    """Import TensorFlow (quietly) and return the module; TensorFlowUnavailable if it fails."""
    # its C++ start-up notices (absl's "All log messages before absl::InitializeLog()",
    # oneDNN's "custom operations are on") would reach standard error, twice: the app's
    # own words are the only ones there. oneDNN's fused float32 kernels are not what a
    # float64 scalar program runs.
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
    try:
        import tensorflow as tf
    except Exception as e:  # ImportError, or a broken install raising anything else
        raise TensorFlowUnavailable(f"TensorFlow cannot be imported ({e}); {INSTALL_HINT}") from e
    return tf


def gradients(program: Program) -> dict[str, float]:
    """d(output)/d(input) for every input of `program`, computed by TensorFlow in float64.

    Every instruction of the program becomes the matching TensorFlow operation, so TF
    differentiates exactly the program our engine did. An input the output does not
    depend on gets 0.0. Raises TensorFlowUnavailable.
    """
    tf = load()
    f64 = tf.float64
    function = {op.name: framework_function(tf, op.tensorflow) for op in ops.OPS}
    variables = {}
    with tf.GradientTape() as tape:
        tensors = []
        for ins, value in zip(program.instructions, program.values):
            if ins.op == INPUT:
                t = variables[value.label] = tf.Variable(value.data, dtype=f64)
            elif ins.op == CONST:
                t = tf.constant(ins.number, dtype=f64)
            elif ins.op == POW:
                t = function[POW](tensors[ins.args[0]], tf.constant(ins.number, dtype=f64))
            else:
                t = function[ins.op](*[tensors[a] for a in ins.args])
            tensors.append(t)
        output = tensors[program.output_index]
    names = list(variables)
    grads = tape.gradient(output, [variables[n] for n in names])
    return {n: (0.0 if g is None else float(g.numpy())) for n, g in zip(names, grads)}


def framework_function(module, spelling: str):
    """The function a table entry spells 'tf.math.log' (or 'jnp.sin'), from `module`."""
    target = module
    for part in spelling.split(".")[1:]:
        target = getattr(target, part)
    return target


@dataclass(frozen=True)
class GradientRow:
    """One input: our gradient, TensorFlow's, and |ours - TensorFlow's|."""

    name: str
    ours: float
    tensorflow: float
    difference: float


def cross_check(text: str) -> list[GradientRow]:
    """Parse `text`, differentiate it with our engine and with TensorFlow (float64), and
    compare input by input. Raises ExpressionError and TensorFlowUnavailable."""
    program = parse(text)
    program.output.backward()
    theirs = gradients(program)
    return [GradientRow(name, leaf.grad, theirs[name], abs(leaf.grad - theirs[name]))
            for name, leaf in program.inputs.items()]


# the program the lesson's TensorFlow snippet differentiates: its neuron
LESSON_NEURON = ("w1 = 0.5; w2 = -0.3; b = 0.1\nx1 = 1.0; x2 = 2.0; y = 1.0\n"
                 "z = w1*x1 + w2*x2 + b\np = tanh(z)\nloss = (p - y)**2\n")


def snippet_applies(program: Program) -> bool:
    """Whether `program` is the lesson's neuron (the same operations on the same numbers,
    its inputs named w1, w2, b, ...), which is all the lesson's float32 snippet computes."""
    return _shape(program) == _neuron_shape()


@cache
def _neuron_shape() -> tuple:
    return _shape(parse(LESSON_NEURON))


def _shape(program: Program) -> tuple:
    return tuple((ins.op, ins.args, ins.number, v.label if ins.op == INPUT else "")
                 for ins, v in zip(program.instructions, program.values))


def lesson_float32() -> dict[str, float]:
    """The lesson's own TensorFlow check: its neuron with TensorFlow's default float32
    variables. Returns dL/dw1, dL/dw2, dL/db. Raises TensorFlowUnavailable."""
    tf = load()
    w1, w2, b = tf.Variable(0.5), tf.Variable(-0.3), tf.Variable(0.1)
    with tf.GradientTape() as tape:
        z = w1 * 1.0 + w2 * 2.0 + b
        loss = (tf.tanh(z) - 1.0) ** 2
    grads = tape.gradient(loss, [w1, w2, b])
    return {name: float(g.numpy()) for name, g in zip(("w1", "w2", "b"), grads)}
