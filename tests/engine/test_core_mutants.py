"""Exact values for what benchmarks/mutation.py found unchecked in engine/core/value.py
and engine/_gc.py after the blank-node pool and the written-out ops (docs/mutation.md):
each test names the mutants it kills."""

import gc

import pytest

from engine import _gc
from engine.core import ops, value
from engine.core.value import Value, topological_order
from tests.engine.test_value import stack_walks  # noqa: F401 (a fixture)


def test_more_than_two_parents_are_refused_in_words():
    """Kills: _prev's setter with its message changed."""
    a = Value(1.0)
    with pytest.raises(ValueError) as info:
        Value(3.0, _prev=(a, a, a), _op="+")
    assert str(info.value) == "a node has one or two parents, not 3"


def test_local_derivatives_may_be_given_by_any_iterable():
    """Kills: _local's setter without `tuple(local)` (a generator cannot be indexed)."""
    a = Value(2.0)
    node = Value(4.0, _prev=[a], _op="*", _local=(g for g in [2.0]))
    assert node.local_grads == (2.0,) and node.parents == (a,)
    node.backward()
    assert a.grad == 2.0


def test_unary_plus_is_the_value_itself():
    """Kills: __pos__ without its `return self` (it returned None)."""
    a = Value(-1.5)
    assert (+a) is a


def test_methods_made_from_the_table_carry_their_names_and_rules():
    """Kills: value_method without setting the method's name or its docstring, or with
    the docstring changed."""
    made = [op for op in ops.FUNCTIONS if not op.written_out]
    assert made
    for op in made:
        method = getattr(Value, op.method)
        assert method.__name__ == method.__qualname__ == op.method
        assert method.__doc__ == f"{op.name}(self), its rule from engine.core.ops."


def test_an_exponent_met_once_is_kept_for_the_next_power(monkeypatch):
    """Kills: _power without keeping the exponent, or keeping it only when the cache
    is full, or not for a number equal to itself."""
    monkeypatch.setattr(value, "_POWERS", {})
    (Value(3.0) ** 2.75).backward()
    k = 2.75
    assert value._POWERS[k] == (2.75, 1.75, ops.power_name(2.75))


def test_the_exponent_cache_stays_at_64_entries(monkeypatch):
    """Kills: _power keeping every exponent (`or` for `and`), or 65 of them, or NaN
    (which no other NaN finds)."""
    monkeypatch.setattr(value, "_POWERS", {})
    nan = float("nan")
    Value(1.5) ** nan
    assert nan not in value._POWERS
    for i in range(200):
        Value(1.5) ** (10.0 + i / 8)
    assert len(value._POWERS) == 64
    assert all(k == k for k in value._POWERS)


def chain(n: int) -> list[Value]:
    nodes = [Value(1.0)]
    for _ in range(n - 1):
        nodes.append(nodes[-1] * 1.0)
    return nodes


def test_the_recursion_hands_over_to_the_stack_401_levels_down(stack_walks):  # noqa: F811
    """Kills: _visit counting its depth down (`- 1`: it never hands over and the walk
    starts again with a stack from the root) or by 2 (it hands over 200 levels down)."""
    nodes = chain(1000)
    order = topological_order(nodes[-1])
    assert stack_walks == [nodes[-402]]
    assert order == nodes


@pytest.mark.parametrize("k", range(590, 611))
def test_a_node_the_stack_walk_started_from_is_not_walked_again(k):
    """root = nodes[999] + nodes[k]: nodes[599] is where the recursion hands over to the
    stack walk; reached again as the root's second operand, it must be known as done.
    Kills: _walk without marking the node it starts from (nodes[599] came out twice)."""
    nodes = chain(1000)
    root = nodes[-1] + nodes[k]
    order = topological_order(root)
    assert order == nodes + [root]
    root.backward()
    assert (nodes[-1].grad, nodes[k].grad, nodes[0].grad) == (1.0, 2.0, 2.0)


def test_releasing_a_pause_no_one_holds_is_an_error():
    """Kills: release() without its test of the depth, or without the raise (the depth
    went below zero and the next hold paused nothing)."""
    assert _gc.holders() == 0
    with pytest.raises(RuntimeError) as info:
        _gc.release()
    assert str(info.value) == "the collector's pause is not held"
    assert _gc.holders() == 0
    _gc.hold()
    assert _gc.holders() == 1 and not gc.isenabled()
    _gc.release()
    assert _gc.holders() == 0 and gc.isenabled()


def test_a_settling_release_freezes_what_the_pause_made():
    """Kills: a settling release that settles without freezing the objects made during
    the pause (only what was alive at the hold stayed frozen)."""
    _gc.hold(settles=True)
    frozen_at_hold = gc.get_freeze_count()
    kept = [[k] for k in range(_gc.SETTLE_OBJECTS + 10_000)]
    _gc.release(settle=True)
    try:
        assert _gc.settled()
        assert gc.get_freeze_count() >= frozen_at_hold + len(kept)
    finally:
        del kept
        _gc.unsettle()
    assert not _gc.settled() and gc.get_freeze_count() == 0


def test_a_walk_deep_through_second_operands_hands_over_401_levels_down(stack_walks):  # noqa: F811
    """`c + v` a thousand times: the depth runs through each node's second parent.
    Kills: _visit counting the second parent's depth down (it never handed over) or
    by 2 (200 levels down)."""
    c = Value(0.5)
    nodes = [Value(1.0)]
    for _ in range(999):
        nodes.append(c + nodes[-1])
    order = topological_order(nodes[-1])
    assert stack_walks == [nodes[-402]]
    assert order[0] is c and order[1] is nodes[0] and order[2:] == nodes[1:]


def test_the_first_settling_release_after_the_big_graph_is_gone_unfreezes():
    """Kills: a settling release that finds the heap back near its size and stays
    settled (nothing was unfrozen until `unsettle()`)."""
    _gc.hold(settles=True)
    kept = [[k] for k in range(_gc.SETTLE_OBJECTS + 10_000)]
    _gc.release(settle=True)
    try:
        assert _gc.settled()
        del kept
        _gc.hold(settles=True)
        _gc.release(settle=True)
        assert not _gc.settled() and gc.get_freeze_count() == 0 and gc.isenabled()
    finally:
        _gc.unsettle()


def test_a_settling_release_that_does_not_settle_leaves_new_objects_young():
    """A small settling pause: what it made stays in the young generation, to be
    collected as usual. Kills: a release that freezes when it does not settle (the
    freeze moved them all to the oldest generation and reset the young count)."""
    gc.collect()
    _gc.hold(settles=True)
    kept = [[k] for k in range(500)]  # below the threshold of 700: no collection
    _gc.release(settle=True)
    assert not _gc.settled() and gc.get_freeze_count() == 0
    assert gc.get_count()[0] >= len(kept)


def test_unsettling_leaves_what_someone_else_froze():
    """Kills: unsettle() unfreezing when nothing was settled (`or` for `and`): the
    user's own gc.freeze() was undone."""
    assert not _gc.settled() and _gc.holders() == 0
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen > 0
        _gc.unsettle()
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def test_a_batch_made_quietly_while_settled_joins_the_frozen():
    """Kills: made_quietly without freezing its batch while a settling release keeps
    objects frozen (the batch went to the young generation, to be rescanned)."""
    _gc.hold(settles=True)
    kept = [[k] for k in range(_gc.SETTLE_OBJECTS + 10_000)]
    _gc.release(settle=True)
    try:
        assert _gc.settled()
        frozen = gc.get_freeze_count()
        batch = _gc.made_quietly(lambda n: [[k] for k in range(n)], 1000)
        assert gc.get_freeze_count() >= frozen + len(batch) and gc.isenabled()
    finally:
        del kept
        _gc.unsettle()
