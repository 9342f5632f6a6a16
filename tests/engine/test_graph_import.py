"""Graphs built in Python read into Programs: this engine's, micrograd's, microgpt's."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import micrograd.engine as mg
import pytest

from engine import Value, parse
from engine.checks.engine_check.replay import recorded_engine
from engine.core.stepping import Stepper
from engine.io.graph_import import GraphImportError, import_graph
from engine.language.program import CONST, INPUT
from tests.foreign_models import GptValue, microgpt_step, micrograd_demo, node_count

ENGINES = Path(__file__).parent / "engines"


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"i22_{name}", ENGINES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _stepped(program) -> None:
    Stepper(program.output).run_to_end()


def test_a_graph_of_this_engine_is_copied_and_steps_to_the_same_gradients_to_the_bit():
    x = Value(0.5, label="x")
    w = Value(-1.25, label="w")
    y = ((x**3 + 3 * x).tanh() * w - 2 / x + (x - 1.5) / 4 - x.exp().log() + (-w).relu()
         + 2**x + x**w + (1 - x) * 0.25)
    x.grad = w.grad = 7.0  # the user's: never touched
    graph = import_graph(y, scope=sys._getframe())
    program = graph.program
    assert (graph.style, graph.title, program.output_name) == ("this engine", "y", "y")
    assert list(program.inputs) == ["x", "w"] and x.grad == w.grad == 7.0
    _stepped(program)
    assert x.grad == w.grad == 7.0 and y.grad == 0.0  # stepping the copy leaves them
    x.grad = w.grad = 0.0
    y.backward()
    assert program.output.data == y.data
    assert program.inputs["x"].grad == x.grad and program.inputs["w"].grad == w.grad
    # a number folded into an operation is a constant node of the copy
    folded = [v for v, ins in zip(program.values, program.instructions) if ins.op == CONST]
    assert sorted(v.data for v in folded) == pytest.approx(sorted([3.0, 2.0, 1.5, 4.0, 2.0, 1.0,
                                                                   0.25]), rel=1e-15)


def test_the_text_is_written_only_when_asked_and_parses_back_to_the_same_graph():
    demo = micrograd_demo(3, sizes=(4, 1))
    model, loss = demo.model, demo.loss
    program = import_graph(loss, scope=sys._getframe()).program
    assert not program.has_text
    text = program.source
    assert program.has_text
    assert "model_layers_0_neurons_3_w_1 = " in text and text.splitlines()[-1].startswith("loss =")
    again = parse(text)
    again.output.backward()
    _stepped(program)
    assert again.output.data == pytest.approx(program.output.data, rel=1e-15)
    for name, leaf in program.inputs.items():
        mine = again.inputs[name.replace(".", "_").replace("[", "_").replace("]", "")]
        assert mine.grad == pytest.approx(leaf.grad, rel=1e-12, abs=1e-15), name
    assert model.layers[0].neurons[3].w[1].grad == 0  # still the user's: never stepped


def test_micrograds_demo_is_named_by_the_callers_variables_and_steps_to_its_gradients():
    demo = micrograd_demo(12)
    model, inputs, loss = demo.model, demo.inputs, demo.loss
    graph = import_graph(loss, scope=sys._getframe())
    program = graph.program
    assert (graph.style, graph.title) == ("micrograd", "loss")
    assert len(program.values) == node_count(loss)
    params = model.parameters()
    # every parameter and every data point is an input named as Python writes it
    inputs_ = program.inputs
    assert inputs_["model.layers[0].neurons[3].w[1]"].data == model.layers[0].neurons[3].w[1].data
    assert inputs_["model.layers[1].neurons[15].b"].data == model.layers[1].neurons[15].b.data
    assert program.inputs["inputs[7][0]"].data == inputs[7][0].data
    assert len(program.inputs) == len(params) + 2 * len(inputs)
    # micrograd's wrapped numbers (1 + ..., -y, the sums' 0, 1/n, 1e-4) are constants
    constants = [v.data for v, ins in zip(program.values, program.instructions) if ins.op == CONST]
    assert constants.count(1.0) >= len(inputs) and 1e-4 in constants
    # a set's two parents in an order of their own: each sample's w·x and running sums
    # written the same way, as Python wrote them
    products = [[program.values[a].label for a in ins.args] for ins in program.instructions
                if ins.op == "*" and all(program.instructions[a].op == INPUT for a in ins.args)
                and ins.args[0] != ins.args[1]]
    assert len(products) == len(inputs) * 2 * 16
    assert all(w.startswith("model.") and x.startswith("inputs[") for w, x in products)
    assert all(p.grad == 0 for p in params)
    _stepped(program)
    assert all(p.grad == 0 for p in params)  # the user's Values are only read
    loss.backward()
    for li, layer in enumerate(model.layers):
        for ni, neuron in enumerate(layer.neurons):
            for wi, w in enumerate(neuron.w):
                mine = program.inputs[f"model.layers[{li}].neurons[{ni}].w[{wi}]"].grad
                assert abs(mine - w.grad) <= 1e-12, (li, ni, wi)
            assert abs(program.inputs[f"model.layers[{li}].neurons[{ni}].b"].grad
                       - neuron.b.grad) <= 1e-12


def test_a_micrograd_graph_with_a_set_of_parents_is_rebuilt_in_a_fixed_order():
    a, b = mg.Value(2.0), mg.Value(-3.0)
    c = (a * b + a * a).relu() + (a + b) * b + b**2
    orders = {tuple(ins for ins in import_graph(c, scope=sys._getframe()).program.instructions)
              for _ in range(3)}
    assert len(orders) == 1  # the same graph, the same program
    program = import_graph(c, scope=sys._getframe()).program
    _stepped(program)
    c.backward()
    assert program.output.data == c.data
    assert program.inputs["a"].grad == pytest.approx(a.grad, abs=1e-12)
    assert program.inputs["b"].grad == pytest.approx(b.grad, abs=1e-12)


def test_an_unknown_op_is_refused_by_name():
    a = mg.Value(2.0)
    c = a * 3
    c._op = "softplus"
    with pytest.raises(GraphImportError, match="'softplus'"):
        import_graph(c)


def test_a_number_that_is_not_finite_is_refused_by_the_node_that_holds_it():
    w = mg.Value(float("inf"))
    loss = w * 2 + 1
    with pytest.raises(GraphImportError, match=r"the node 'w' holds inf"):
        import_graph(loss, scope=sys._getframe())
    big = mg.Value(1e200)
    with pytest.raises(GraphImportError, match="is inf, not a finite number"):
        import_graph(big * big, scope=sys._getframe())
    with pytest.raises(GraphImportError, match="is inf, not a finite number"):
        import_graph(big * mg.Value(1e300), scope=sys._getframe())


def test_a_graph_over_the_node_limit_is_refused_by_its_count_before_it_is_read_whole():
    x = Value(1.0, label="x")
    chain = x
    for _ in range(250_000):
        chain = chain + x
    with pytest.raises(GraphImportError) as caught:
        import_graph(chain)
    message = str(caught.value)
    assert "more than 200,000 nodes" in message and "line" not in message
    assert "200,001" in message  # counting stopped there, not at 250,001
    small = Value(1.0)
    for _ in range(9):
        small = small * 1.5
    # the limit counts the user's nodes; the copy has a constant node for each folded 1.5
    assert len(import_graph(small, max_nodes=10).program.values) == 19
    with pytest.raises(GraphImportError, match="more than 9 nodes"):
        import_graph(small, max_nodes=9)


def test_a_microgpt_step_is_named_by_its_state_dict_and_steps_to_its_gradients():
    step = microgpt_step()
    state_dict, loss = step.state_dict, step.loss
    graph = import_graph(loss, scope=sys._getframe())
    program = graph.program
    assert graph.style == "microgpt" and graph.replay is None  # its rules are this engine's
    assert program.inputs["state_dict['attn_wq'][2][5]"].data == state_dict["attn_wq"][2][5].data
    assert program.inputs["state_dict['wte'][3][1]"].data == state_dict["wte"][3][1].data
    assert "state_dict['wte'][2][0]" not in program.inputs  # token 2 is never an input
    _stepped(program)
    loss.backward()
    compared = 0
    for key, matrix in state_dict.items():
        for i, row in enumerate(matrix):
            for j, w in enumerate(row):
                leaf = program.inputs.get(f"state_dict[{key!r}][{i}][{j}]")
                if leaf is not None:
                    assert abs(leaf.grad - w.grad) <= 1e-12, (key, i, j)
                    compared += 1
    assert compared > 500


def test_a_recorded_local_derivative_that_is_not_this_engines_is_replayed():
    a = GptValue(3.0)
    good = a * a + a.exp()
    assert import_graph(good).replay is None
    bad = a.exp()
    bad._local_grads = (2.0,)  # a user's wrong rule: d exp(a)/da recorded as 2
    root = bad * a
    graph = import_graph(root, scope=sys._getframe())
    assert graph.replay is not None
    (where, local), = graph.replay["locals"].items()
    assert graph.program.values[where].op == "exp" and local == [2.0]
    program, engine, _ = recorded_engine(graph.replay, graph.program)
    stepper = Stepper(program.output, engine)
    stepper.run_to_end()
    root.backward()
    assert program.inputs["a"].grad == pytest.approx(a.grad, rel=1e-12)  # as they did it


def test_the_engines_used_by_check_engine_read_as_their_convention_says():
    lg = _module("local_grads")
    a, b = lg.Value(2.0), lg.Value(-3.0)
    c = (a * b + a * a).relu() + (a - b) / b + b**2 + a.exp().log()
    program = import_graph(c, scope=sys._getframe()).program
    assert program.output.data == pytest.approx(c.data)
    _stepped(program)
    c.backward()
    assert program.inputs["a"].grad == pytest.approx(a.grad, rel=1e-12)
    assert program.inputs["b"].grad == pytest.approx(b.grad, rel=1e-12)
    assert [ins.op for ins in program.instructions][:2] == [INPUT, INPUT]


def test_names_given_override_and_a_users_label_is_kept():
    x = Value(0.5, label="weight")
    k = Value(2.0)
    y = x * k
    named = import_graph(y, names={k: "k0"}, scope=sys._getframe()).program
    assert set(named.inputs) == {"weight", "k0"}
    renamed = import_graph(y, names={x: "w", y: "loss"}, scope=sys._getframe())
    assert set(renamed.program.inputs) == {"w", "k"} and renamed.program.output_name == "loss"
    assert import_graph(y).title == "out"  # no scope: nothing named by variable
    assert import_graph(y).program.inputs.keys() == {"weight"}
    assert x.label == "weight" and k.label == ""  # the user's labels, as they were


def test_microgpts_graph_of_tens_of_thousands_of_nodes_reads_whole():
    step = microgpt_step(n_embd=16, block_size=4, tokens=(0, 3, 1, 4, 2))
    program = import_graph(step.loss).program
    assert len(program.values) == node_count(step.loss) > 20_000
    assert math.isfinite(program.output.data) and program.output.data == step.loss.data


def test_copy_as_code_and_the_tensorflow_check_take_the_names_made_identifiers():
    import ast

    from engine.checks.tensorflow_check import cross_check
    from engine.io.naming import identifier
    from engine.lesson.learn.code_export import script

    demo = micrograd_demo(2, sizes=(3, 1))
    loss = demo.loss
    program = import_graph(loss, scope=[{"model": demo.model, "inputs": demo.inputs}],
                           title="loss").program
    code = script(program, "pytorch")
    ast.parse(code)  # a script Python reads, its names identifiers
    assert "model_layers_0_neurons_2_w_1 = torch.tensor(" in code
    assert "model.layers[0]" in code  # the names the window shows, in the printed list
    pytest.importorskip("tensorflow")
    _stepped(program)
    rows = cross_check(program.source)
    # the same inputs, in the same order, named by their identifiers
    assert [r.name for r in rows] == [identifier(n) for n in program.inputs]
    assert "model_layers_0_neurons_2_w_1" in [r.name for r in rows]
    ours = list(program.inputs.values())
    assert len(rows) == len(ours)
    for row, leaf in zip(rows, ours):
        assert row.tensorflow == pytest.approx(leaf.grad, rel=1e-12, abs=1e-15)


def test_a_graph_read_from_python_rebuilds_at_other_inputs_as_the_script_computes():
    w, x = mg.Value(0.75), mg.Value(-2.0)
    loss = ((w * x + 1).relu() + w**2) * 0.5
    program = import_graph(loss, scope=sys._getframe()).program
    moved = program.rebuild(w=0.5)
    assert moved.output.data == ((0.5 * -2.0 + 1) if 0.5 * -2.0 + 1 > 0 else 0.0) * 0.5 \
        + 0.5**2 * 0.5
    assert moved.inputs["x"].data == -2.0 and program.inputs["w"].data == 0.75
    h = 1e-6
    slope = (program.rebuild(w=0.75 + h).output.data
             - program.rebuild(w=0.75 - h).output.data) / (2 * h)
    _stepped(program)
    assert program.inputs["w"].grad == pytest.approx(slope, rel=1e-6)


def test_microgpts_quick_walk_reads_the_graph_as_the_builder_does():
    """The walk that makes a microgpt-style graph's sums and products at once gives the
    program the builder gives node by node (a name given sends the graph through it)."""
    step = microgpt_step(n_embd=4, block_size=3, tokens=(0, 2, 1))
    quick = import_graph(step.loss, scope=[{"state_dict": step.state_dict}]).program
    unused = GptValue(0.5)  # a name given: every node through the builder
    slow = import_graph(step.loss, scope=[{"state_dict": step.state_dict}],
                        names={unused: "spare"}).program
    assert len(quick.values) == len(slow.values) > 1_000
    assert [tuple(i) for i in quick.instructions] == [tuple(i) for i in slow.instructions]
    for a, b in zip(quick.values, slow.values):
        assert (a.data, a._local, a.label) == (b.data, b._local, b.label)
    a = GptValue(2.0)
    x = a * a
    a._children, a._local_grads = (x,), (1.0,)  # looped back
    with pytest.raises(GraphImportError, match="the graph has a cycle"):
        import_graph(x)
