"""Bulk graph building runs with the garbage collector paused, and leaves it as it was:
enabled again afterwards (even after an error), still disabled if the caller had
disabled it."""

import gc

import pytest

import engine.core.stepping as stepping_module
import engine.language.parser as parser_module
import engine.language.program as program_module
from engine import ExpressionError, _gc, parse
from engine._gc import collector_paused
from engine.core.engines import OwnRulesEngine
from engine.core.stepping import Stepper
from engine.lesson.nn import MLP, Neuron
from tests.engine.helpers import NEURON


@pytest.fixture(autouse=True)
def collector_enabled_after():
    yield
    enabled, frozen, held = gc.isenabled(), gc.get_freeze_count(), _gc.holders()
    gc.enable()
    assert enabled, "a test left the collector disabled"
    assert frozen == 0 and held == 0, "a test left the pause held or objects frozen"


@pytest.fixture
def collector_seen(monkeypatch):
    """Wrap a function so that each call records whether the collector was enabled."""
    seen = []

    def watch(owner, name):
        original = getattr(owner, name)

        def watched(*args, **kwargs):
            seen.append(gc.isenabled())
            return original(*args, **kwargs)

        monkeypatch.setattr(owner, name, watched)
        return seen

    return watch


def test_collector_paused_restores_what_it_found():
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_nested_pauses_freeze_once_and_unfreeze_once(monkeypatch):
    calls = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(gc, "unfreeze", lambda: calls.append("unfreeze"))
    with collector_paused():
        with collector_paused():  # a parse inside a build: the same pause
            assert _gc.holders() == 2
        assert not gc.isenabled() and calls == ["freeze"]
    assert gc.isenabled() and calls == ["freeze", "unfreeze"] and _gc.holders() == 0


def test_only_a_settling_holder_measures_the_heap(monkeypatch):
    # reading the heap's size costs up to 0.1 ms on a big heap: a pause taken per row
    # of an XOR epoch (collector_paused) must not pay it, a window's sliced task does
    reads = []
    real = _gc.sys.getallocatedblocks
    monkeypatch.setattr(_gc.sys, "getallocatedblocks", lambda: reads.append(1) or real())
    with collector_paused():
        pass
    assert reads == []
    _gc.hold(settles=True)
    assert len(reads) == 1
    _gc.release(settle=True)  # little was made: nothing to settle, so no second read
    assert len(reads) == 1 and gc.get_freeze_count() == 0 and gc.isenabled()


def test_a_settling_release_keeps_frozen_only_what_a_measured_pause_made():
    _gc.hold()  # not measured: even with much made, the release cannot settle
    kept = [[k] for k in range(_gc.SETTLE_OBJECTS + 10_000)]
    _gc.release(settle=True)
    assert not _gc.settled() and gc.get_freeze_count() == 0
    del kept
    _gc.hold(settles=True)
    kept = [[k] for k in range(_gc.SETTLE_OBJECTS + 10_000)]
    _gc.release(settle=True)
    assert _gc.settled() and gc.get_freeze_count() > _gc.SETTLE_OBJECTS
    del kept
    _gc.unsettle()
    assert not _gc.settled() and gc.get_freeze_count() == 0 and gc.isenabled()


def test_garbage_made_while_paused_is_collected_afterwards():
    import weakref

    class Cycle:
        def __init__(self):
            self.me = self

    before = Cycle()  # alive when the pause begins: frozen during it
    refs = [weakref.ref(before)]
    with collector_paused():
        during = Cycle()
        refs.append(weakref.ref(during))
        del before, during
        kept = [[k] for k in range(50_000)]  # enough to set off collections, were it on
        assert all(ref() is not None for ref in refs)
        gc.collect()  # even a collection asked for does not see what was frozen
        assert refs[0]() is not None
    del kept
    gc.collect()
    assert all(ref() is None for ref in refs)


def test_collector_paused_enables_it_again_after_an_error():
    with pytest.raises(KeyError):
        with collector_paused():
            raise KeyError("inside")
    assert gc.isenabled()


def test_parse_builds_every_node_with_the_collector_paused(collector_seen):
    seen = collector_seen(parser_module, "apply_instruction")
    program = parse(NEURON)
    assert program.output.data == pytest.approx(1.0)
    assert seen and not any(seen)  # one call per operation node, none while collecting
    assert gc.isenabled()


def test_parse_enables_the_collector_after_an_error():
    with pytest.raises(ExpressionError):
        parse("x = 1\ny = x / 0")
    assert gc.isenabled()
    with pytest.raises(ExpressionError):
        parse("x = (")
    assert gc.isenabled()


def test_parse_leaves_a_disabled_collector_disabled():
    gc.disable()
    try:
        parse(NEURON)
        assert not gc.isenabled()
        with pytest.raises(ExpressionError):
            parse("x = 1\ny = log(x - 1)")
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_rebuild_replays_the_program_with_the_collector_paused(collector_seen):
    program = parse(NEURON)
    seen = collector_seen(program_module, "apply_instruction")
    again = program.rebuild(w1=0.25)
    assert again.output.data != program.output.data
    assert seen and not any(seen)
    assert gc.isenabled()


def test_stepper_plans_with_the_collector_paused(collector_seen):
    seen = collector_seen(stepping_module, "backward_plan")
    stepper = Stepper(parse(NEURON).output)
    assert seen == [False]
    assert gc.isenabled()
    stepper.run_to_end()
    assert stepper.output.grad == 1.0


class BrokenRules(OwnRulesEngine):
    """An engine whose rules raise (as a learner's rule might, were it not guarded)."""

    def local_grads(self, node):
        raise ValueError("no rule")


def test_stepper_enables_the_collector_after_an_error_and_keeps_it_off_if_it_was():
    output = parse(NEURON).output
    with pytest.raises(ValueError):
        Stepper(output, BrokenRules())
    assert gc.isenabled()
    gc.disable()
    try:
        Stepper(output)
        assert not gc.isenabled()
        with pytest.raises(ValueError):
            Stepper(output, BrokenRules())
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_mlp_forward_pass_runs_with_the_collector_paused(collector_seen):
    seen = collector_seen(Neuron, "__call__")
    model = MLP((2, 3, 1))
    out = model([0.5, -1.0])
    assert len(seen) == 4 and not any(seen)
    assert gc.isenabled()
    out.backward()
    assert all(p.grad != 0.0 for p in model.parameters())


def test_mlp_forward_pass_keeps_a_disabled_collector_disabled():
    model = MLP((2, 2, 1))
    gc.disable()
    try:
        model([1.0, 0.0])
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(TypeError):
        model([1.0, None])  # an error inside the pass
    assert gc.isenabled()
