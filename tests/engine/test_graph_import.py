"""Graphs built in Python, written as programs: this engine's, micrograd's, microgpt's."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import micrograd.engine as mg
import pytest

from engine import Value, parse
from engine.io.graph_import import GraphImportError, graph_program

ENGINES = Path(__file__).parent / "engines"


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"i15_{name}", ENGINES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_graph_of_this_engine_comes_back_with_the_same_numbers():
    x = Value(0.5, label="x")
    w = Value(-1.25, label="w")
    y = (x**3 + 3 * x).tanh() * w - 2 / x + (x - 1.5) / 4 - x.exp().log() + (-w).relu()
    text, replay = graph_program(y)
    assert replay is None
    program = parse(text)
    assert program.output_name == "out" and list(program.inputs) == ["x", "w"]
    y.backward()
    program.output.backward()
    assert program.output.data == pytest.approx(y.data, rel=1e-15)
    for name, leaf in (("x", x), ("w", w)):
        assert program.inputs[name].grad == pytest.approx(leaf.grad, rel=1e-12)


def test_a_micrograd_graph_is_rebuilt_with_this_engines_rules():
    a, b = mg.Value(2.0), mg.Value(-3.0)
    c = (a * b + a * a).relu() + (a - b) / b + b**2
    c.backward()
    program = parse(graph_program(c)[0])
    program.output.backward()
    assert program.output.data == pytest.approx(c.data)
    # a set of parents has no order: the leaves are found by their numbers
    by_value = {v.data: v for v in program.inputs.values()}
    assert by_value[2.0].grad == pytest.approx(a.grad)
    assert a.grad == pytest.approx(-1 / 3)  # relu is off here: only (a - b) / b counts
    assert by_value[-3.0].grad == pytest.approx(b.grad)


def test_an_unknown_op_is_refused_by_name():
    a = mg.Value(2.0)
    c = a * 3
    c._op = "softplus"
    with pytest.raises(GraphImportError, match="'softplus'"):
        graph_program(c)


def test_a_microgpt_graph_keeps_its_recorded_local_derivatives():
    lg = _module("local_grads")
    a, b = lg.Value(2.0), lg.Value(-3.0)
    c = (a * b + a * a).relu() + (a - b) / b + b**2 + a.exp().log()
    text, replay = graph_program(c)
    program = parse(text)
    assert program.output.data == pytest.approx(c.data)
    locals_ = replay["locals"]
    exp_node = next(i for i, v in enumerate(program.values) if v.op == "exp")
    assert locals_[exp_node] == [pytest.approx(math.exp(2.0))]
    assert all(len(g) == len(program.values[i].parents) for i, g in locals_.items())
