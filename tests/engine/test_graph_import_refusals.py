"""Bad graphs from Python get a clear refusal naming the node, never a wrong picture, a
crash or a walk without end (issue 26, item 4)."""

from __future__ import annotations

import micrograd.engine as mg
import pytest

from engine import Value, parse
from engine.io.graph_import import GraphImportError, import_graph


class Micro:
    """A micrograd-style node whose parents are whatever it is given."""

    def __init__(self, data, prev=(), op=""):
        self.data, self._prev, self._op, self.grad = data, prev, op, 0.0


class Gpt:
    """A microgpt-style node: children and their local derivatives, no op name."""

    def __init__(self, data, children=(), local=()):
        self.data, self._children, self._local_grads, self.grad = data, children, local, 0.0


def refused(root) -> str:
    with pytest.raises(GraphImportError) as caught:
        import_graph(root, scope=[{}])
    message = str(caught.value)
    assert len(message) < 400 and "\n" not in message
    return message


def test_a_cycle_is_refused_instead_of_walked_for_ever():
    a = Value(1.0, label="a")
    c = a * 2 + 1
    a._prev, a._op = (c,), "+"  # this engine's own Values, looped back
    assert refused(c).startswith("the graph has a cycle: a node (+) is among the parents of "
                                 "'a', which it depends on")
    x = mg.Value(1.0)
    y = x * 2
    x._prev, x._op = {y}, "+"   # micrograd's, through _prev
    assert refused(y).startswith("the graph has a cycle")
    z = mg.Value(2.0)
    w = z * 3
    w._prev = {w, z}            # a node that is its own parent
    assert refused(w).startswith("the graph has a cycle")


def test_parents_are_read_once_and_a_generator_is_refused():
    x, y = Micro(1.5), Micro(2.0)
    out = Micro(3.0, (p for p in (x, y)), "*")
    assert refused(out) == ("node 0 (counted parents first) has _prev of type generator: "
                            "debug() reads a list, tuple or set of parents")


def test_a_missing_local_derivative_is_the_users_bug_not_filled_in():
    x, y = Gpt(2.0), Gpt(3.0)
    out = Gpt(6.0, (x, y), (3.0,))
    assert refused(out) == ("node 2 (counted parents first) has 2 children but 1 local "
                            "derivative (_local_grads): each child needs its own, in the "
                            "same order")
    assert "3 local derivatives" in refused(Gpt(6.0, (x, y), (3.0, 2.0, 1.0)))


def test_a_node_without_data_and_a_huge_op_get_messages_of_bounded_length():
    x, y = Micro(1.0), Micro(2.0)
    out = Micro(3.0, {x, y}, "+")
    del x.data
    assert refused(out).endswith("has no data: every node needs its number in .data")
    z = mg.Value(3.0)
    big = z * 2
    big._op = "x" * 1_000_000
    assert "(1,000,002 characters)" in refused(big)


def test_any_label_is_shown_as_given_and_saved_as_a_name_the_language_takes():
    a = Value(2.0, label="α")
    v2 = Value(3.0, label="v2")
    y = Value(4.0)
    out = ((a * y + v2) * y + a) * v2  # unnamed nodes beside a label like a fallback name
    program = import_graph(out, scope=[{}]).program
    assert [v.label for v in program.values if not v.parents] == ["α", "", "v2"]
    again = parse(program.source)  # File -> Save's text opens again
    assert again.output.data == out.data == 138.0
    assert len(again.inputs) == 2


def test_a_cycle_through_two_made_parents_or_the_node_itself_is_refused_in_every_walk():
    """The walks make a node whose parents are both made at once, before marking it:
    a node among its own parents, or one whose second parent loops back, is still a
    cycle (microgpt's walk and micrograd's, one parent made and one looped)."""
    x, y = Gpt(2.0), Gpt(3.0)
    out = Gpt(6.0, (x, y), (3.0, 2.0))
    out._children = (out, y)  # its own parent
    assert refused(out).startswith("the graph has a cycle")
    made = Gpt(1.0)
    z = Gpt(2.0, (made, made), (1.0, 1.0))
    w = Gpt(4.0, (made, z), (2.0, 1.0))
    z._children = (made, w)   # z → w → z, next to a parent made already
    assert refused(w).startswith("the graph has a cycle")
    m = mg.Value(2.0)
    n = m * m
    n._prev = {m, n}
    assert refused(n).startswith("the graph has a cycle")
