"""Names from the caller's variables: the expression that reaches each Value, as Python
writes it, found without running any of the user's code."""

from __future__ import annotations

import sys

from engine import Value
from engine.io.graph_import import import_graph
from engine.io.naming import expression_names, identifier, variable_of


class Neuron:
    def __init__(self, w, b):
        self.w = w
        self.b = b


class Trap:
    """Runs code on every way in but its instance __dict__."""

    def __init__(self, hidden):
        self.__dict__["kept"] = hidden
        self.calls = 0

    @property
    def via_property(self):
        raise AssertionError("a property was run")

    def __getattr__(self, name):
        raise AssertionError("__getattr__ was run")

    def __eq__(self, other):
        raise AssertionError("__eq__ was run")

    def __hash__(self):
        raise AssertionError("__hash__ was run")


class Loud(list):
    def __iter__(self):
        raise AssertionError("a list's own __iter__ was run")

    def __getitem__(self, i):
        raise AssertionError("a list's own __getitem__ was run")


def _names(namespace: dict) -> dict[int, str]:
    return expression_names([namespace], (Value,))


def test_the_shortest_expression_names_a_value_as_python_writes_it():
    w = [Value(0.1), Value(0.2)]
    b = Value(0.3)
    model = Neuron(w, b)
    table = {"attn_wq": [[Value(1.0), Value(2.0)]], 3: Value(4.0), (1, 2): Value(5.0)}
    found = _names({"model": model, "table": table, "alias_of_b": b,
                    "wrapper": Neuron(Neuron(w, None), None)})
    assert found[id(w[1])] == "model.w[1]"  # one step shorter than wrapper.w.w[1]
    assert found[id(b)] == "alias_of_b"  # one step, as model.b: the variable wins
    assert found[id(table["attn_wq"][0][1])] == "table['attn_wq'][0][1]"
    assert found[id(table[3])] == "table[3]"
    assert id(table[(1, 2)]) not in found  # only str and int keys are written


def test_no_user_code_runs_and_what_is_private_or_deep_is_left_alone():
    hidden, deep, private = Value(1.0), Value(2.0), Value(3.0)
    trap = Trap(hidden)
    loud = Loud([Value(5.0)])
    nest = [[[[[[[[[deep]]]]]]]]]
    namespace = {"trap": trap, "loud": loud, "nest": nest, "_private": private,
                 "obj": Neuron(Value(6.0), private)}
    found = _names(namespace)  # none of Trap's or Loud's methods is called
    assert found[id(hidden)] == "trap.kept"
    assert found[id(list.__getitem__(loud, 0))] == "loud[0]"
    assert id(deep) not in found  # nine steps: past the depth
    assert found[id(private)] == "obj.b"  # `_private` is skipped, the attribute is not


def test_a_value_is_not_looked_into_and_modules_classes_functions_are_skipped():
    x = Value(1.0)
    y = x * 2
    found = expression_names([{"y": y, "sys": sys, "Neuron": Neuron, "f": lambda: x}],
                             (Value,))
    assert found == {id(y): "y"}


def test_the_callers_variable_names_the_title_and_locals_come_before_globals():
    loss = Value(1.0)
    assert variable_of([{"_hidden": loss, "loss": loss}, {"g": loss}], loss) == "loss"
    assert variable_of([{}, {"g": loss}], loss) == "g"
    assert variable_of([{"In": loss}], loss) is None


def test_names_become_identifiers_the_language_accepts():
    taken = {"model_layers_0_w_1"}
    assert identifier("model.layers[0].w[1]") == "model_layers_0_w_1"
    assert identifier("model.layers[0].w[1]", taken) == "model_layers_0_w_1_2"
    assert identifier("state_dict['wte'][4][2]") == "state_dict_wte_4_2"
    assert identifier("inputs[7][0]") == "inputs_7_0"
    assert identifier("0abc") == "v_0abc" and identifier("lambda") == "lambda_"
    assert identifier("[]") == "v"


def test_a_leaf_no_variable_reaches_is_a_constant_and_a_named_one_an_input():
    weights = [Value(0.5), Value(-1.0)]
    out = weights[0] * Value(3.0) + weights[1] * 2.0
    program = import_graph(out, scope=sys._getframe()).program
    assert list(program.inputs) == ["weights[0]", "weights[1]"]
    roles = [ins.op for ins in program.instructions if not ins.args]
    assert roles.count("const") == 2 and roles.count("input") == 2


def test_a_long_list_of_numbers_does_not_use_up_the_search():
    from engine.io import naming

    w = Value(0.25)
    data = [[0.5] * 10 for _ in range(naming.MAX_VISITS // 5)]  # many lists of numbers
    numbers = [1.0] * (naming.MAX_ELEMENTS + 10)
    found = expression_names([{"data": data, "numbers": numbers, "model": Neuron([w], None)}],
                             (Value,))
    assert found[id(w)] == "model.w[0]"
    tiny = expression_names([{"first": [Value(1.0)], "second": [w]}], (Value,), max_visits=2)
    assert id(w) not in tiny  # the cap on objects met is a cap


def test_a_dict_property_a_huge_key_and_a_values_subclass_are_taken_safely():
    """A class defining `__dict__` as a property is not read (it would run the user's
    code); an int key too big to print is skipped, not an error; a subclass of the
    graph's Value class is named, not looked into."""

    class Trap:
        @property
        def __dict__(self):
            raise AssertionError("the user's code ran")

    class Sub(Value):
        pass

    v, s = Value(1.0), Sub(2.0)
    trap = Trap()
    trap_holder = type("Holder", (), {})()
    trap_holder.inner = trap
    found = expression_names([{"t": trap, "h": trap_holder, "d": {10**5000: v, 3: v},
                               "s": s}], (Value,))
    assert found == {id(v): "d[3]", id(s): "s"}


def test_the_models_structure_names_a_value_over_a_flat_list_or_an_alias():
    """microgpt's `params = [p for mat in state_dict.values() ...]`, micrograd's
    `params = model.parameters()`, an alias kept for a print and a loop's last
    variables reach the same Values in fewer steps: the structure's name wins; a bare
    variable still beats a flat list's index (`x1` over `inputs[0]`)."""
    state_dict = {"wte": [[Value(0.1), Value(0.2)], [Value(0.3), Value(0.4)]],
                  "lm_head": [[Value(0.5)]]}
    params = [p for mat in state_dict.values() for row in mat for p in row]
    row = state_dict["lm_head"][0]  # a loop's last row, looked into first
    model = Neuron([Value(1.0), Value(2.0)], Value(3.0))
    model.layers = [Neuron([Value(6.0)], Value(7.0))]
    x1, x2 = Value(4.0), Value(5.0)
    found = _names({"row": row, "params": params, "w3": model.w[1], "state_dict": state_dict,
                    "more": model.w + [model.b], "model": model, "inputs": [x1, x2],
                    "x1": x1})
    assert found[id(params[2])] == "state_dict['wte'][1][0]"
    assert found[id(row[0])] == "state_dict['lm_head'][0][0]"
    assert found[id(model.w[1])] == "model.w[1]"
    assert found[id(model.b)] == "model.b"  # an attribute over `more[2]`, a list's element
    assert found[id(x1)] == "x1" and found[id(x2)] == "inputs[1]"
    b0 = model.layers[0].b
    assert _names({"b0": b0, "model": model})[id(b0)] == "model.layers[0].b"


def test_a_computed_values_place_in_a_list_beats_a_loops_last_variable():
    """`for t in ...: loss_t = ...; losses.append(loss_t)` leaves `loss_t` bound to the
    last loss: it is named `losses[2]` as the others are; a leaf keeps its variable."""
    x = Value(2.0)
    losses = [x * 1.0, x * 2.0, x * 3.0]
    loss_t = losses[-1]
    x1 = Value(4.0)
    found = _names({"losses": losses, "loss_t": loss_t, "xs": [x1], "x1": x1})
    assert [found[id(v)] for v in losses] == ["losses[0]", "losses[1]", "losses[2]"]
    assert found[id(x1)] == "x1"


class Slotted:
    """microgpt's own Value: slots, no instance __dict__; a property beside them."""

    __slots__ = ("data", "_children")

    def __init__(self, data, children=()):
        self.data, self._children = data, children

    @property
    def _prev(self):
        raise AssertionError("a property was run")


def test_a_slotted_values_parents_are_read_from_its_slot_and_no_property_runs():
    x = Slotted(1.0)
    losses = [Slotted(2.0, (x,)), Slotted(3.0, (x,))]
    found = expression_names([{"loss_t": losses[-1], "losses": losses, "xs": [x], "x": x}],
                             (Slotted,))
    assert found[id(losses[1])] == "losses[1]" and found[id(x)] == "x"
