"""The engine strategy: the correct engine, the three classic bugs, a learner's multiply
rule and a user's replayed engine are objects of one protocol (engine.core.engines.Engine),
and each gives the lesson's numbers through the same stepper."""

from __future__ import annotations

import pytest

from engine import parse
from engine.checks.engine_check.replay import RecordedEngine, recorded_engine
from engine.core.engines import CORRECT, Engine, OwnRulesEngine
from engine.core.pitfalls import NO_SORT, NO_ZERO_GRAD, OVERWRITE, PITFALLS, pitfall_named
from engine.core.stepping import Stepper, backward_plan, first_wrong_step, gradients_with
from engine.lesson.learn.multiply_rule import LearnerMultiplyRule
from tests.engine.helpers import NEURON

A_PLUS_A = "a = 3.0\nb = a + a"
DIAMOND = "x = 1.5\nb = x*3; c = b*2; d = b + c"  # instructions: x 3 b 2 c d


def recorded_diamond(order: list[int]) -> RecordedEngine:
    replay = {"text": DIAMOND, "order": order, "seed": 1.0, "locals": {}, "grads": {}}
    return recorded_engine(replay)[1]


@pytest.mark.parametrize(("text", "engine", "expected"), [
    (A_PLUS_A, CORRECT, {"a": 2.0}),
    (A_PLUS_A, OVERWRITE, {"a": 1.0}),
    (A_PLUS_A, NO_SORT, {"a": 2.0}),
    (A_PLUS_A, NO_ZERO_GRAD, {"a": 2.0}),  # one pass: nothing left over yet
    (DIAMOND, CORRECT, {"x": 9.0}),
    (DIAMOND, NO_SORT, {"x": 3.0}),
    (DIAMOND, OVERWRITE, {"x": 3.0 * 2.0}),  # c's 2 replaces the 1 that d handed b
    (DIAMOND, LearnerMultiplyRule("b", "a"), {"x": 9.0}),
    # the slip d(a·b)/da = a: c = b*2 hands b 4.5 (b's value), b = x*3 hands x 1.5
    (DIAMOND, LearnerMultiplyRule("a", "b"), {"x": (1 + 4.5) * 1.5}),
])
def test_each_engine_gives_the_lessons_gradients(text, engine, expected):
    assert gradients_with(parse(text), engine) == expected


def test_without_zero_grad_two_passes_give_twice_the_gradient():
    program = parse(NEURON)
    once = gradients_with(program, CORRECT)
    assert gradients_with(program, CORRECT, passes=2) == once  # zeroed in between
    assert gradients_with(program, NO_ZERO_GRAD, passes=2) == {
        name: 2 * g for name, g in once.items()}
    assert gradients_with(parse(A_PLUS_A), NO_ZERO_GRAD, passes=3) == {"a": 6.0}


def test_what_each_engine_says_about_itself():
    assert (CORRECT.accumulates, CORRECT.zeroes_grad, CORRECT.own_rules,
            CORRECT.is_correct) == (True, True, False, True)
    assert (OVERWRITE.accumulates, OVERWRITE.zeroes_grad) == (False, True)
    assert (NO_SORT.accumulates, NO_SORT.zeroes_grad) == (True, True)
    assert (NO_ZERO_GRAD.accumulates, NO_ZERO_GRAD.zeroes_grad) == (True, False)
    rule = LearnerMultiplyRule("b", "a")
    engines = [CORRECT, OVERWRITE, NO_SORT, NO_ZERO_GRAD, rule, recorded_diamond([])]
    assert all(isinstance(e, Engine) for e in engines)
    assert [e.name for e in engines] == ["correct", "overwrite", "no-sort", "no-zero-grad",
                                         "your multiply rule", "your engine"]
    assert all(e.description.endswith(".") for e in engines)
    assert [e for e in engines if e.is_correct] == [CORRECT]
    assert [e for e in engines if e.own_rules] == engines[4:]
    assert [e.blame for e in engines[1:]] == ["with this bug"] * 4 + ["with your engine"]


def test_the_order_each_engine_applies_its_rules_in():
    program = parse(DIAMOND)
    x, b, c, d = (program.names[n] for n in "xbcd")
    reverse_topological = [d, c, b, x]
    assert [n for n in CORRECT.rule_order(d) if n.parents] == reverse_topological[:3]
    assert [n for n in NO_SORT.rule_order(d) if n.parents] == [d, b, c]  # b too early
    assert [n for n in LearnerMultiplyRule("b", "a").rule_order(d) if n.parents] == [d, c, b]
    replayed = recorded_engine({"text": DIAMOND, "order": [5, 2, 4], "seed": 1.0},
                               program)[1]
    assert replayed.rule_order(d) == [d, b, c]
    # a node the record has no rule for is applied last
    assert recorded_engine({"text": DIAMOND, "order": [5], "seed": 1.0},
                           program)[1].rule_order(d) == [d, c, b]


def test_the_local_derivatives_each_engine_uses():
    program = parse("a = 3.0; b = 4.0; c = a*b; d = c + a")
    c, d = program.names["c"], program.output
    assert CORRECT.local_grads(c) == (4.0, 3.0) == OVERWRITE.local_grads(c)
    assert LearnerMultiplyRule("a", "b").local_grads(c) == (3.0, 4.0)
    assert LearnerMultiplyRule("a", "b").local_grads(d) == (1.0, 1.0)  # not a *
    index = program.values.index(c)
    replayed = recorded_engine({"locals": {index: [None, 2.5]}}, program)[1]
    assert replayed.local_grads(c) == (4.0, 2.5)  # the right one where none was recorded


def test_under_a_classic_bug_the_right_local_derivative_is_the_one_used():
    """The inspector's 'right' beside a local derivative shows only under an engine with
    rules of its own; a classic bug multiplies by each node's own rule."""
    program = parse("a = 3.0; b = 4.0; c = a*b; d = c*a")
    c = program.names["c"]
    for engine in (CORRECT, OVERWRITE, NO_SORT):
        assert Stepper(program.output, engine).local_derivatives(c) == ((4.0, None),
                                                                         (3.0, None))
    stepper = Stepper(program.output, LearnerMultiplyRule("a", "b"))
    assert stepper.local_derivatives(c) == ((3.0, 4.0), (4.0, 3.0))


def test_each_wrong_engine_says_where_a_step_departs_and_the_correct_one_never_does():
    program = parse(DIAMOND)
    assert [s.problem for s in backward_plan(program.output)] == ["", "", "", ""]
    assert first_wrong_step(backward_plan(program.output, NO_ZERO_GRAD)) is None
    steps = backward_plan(program.output, NO_SORT)
    assert steps[first_wrong_step(steps)].problem == (
        "'b' passed on a gradient of 1, but its gradient is 3: not every path had reached "
        "it yet (no topological sort)")
    steps = backward_plan(parse(A_PLUS_A).output, OVERWRITE)
    assert steps[first_wrong_step(steps)].problem == (
        "'a' had 1 and received 1, but now holds 1: '=' overwrote what '+=' would have kept")
    steps = backward_plan(program.output, recorded_diamond([5, 2, 4]))
    assert steps[first_wrong_step(steps)].problem == (
        "'b' passed on a gradient of 1, but its gradient is 3 once every path has reached "
        "it: the rules are not applied in reverse topological order")


def test_a_replayed_engine_steps_only_the_program_it_was_recorded_on():
    engine = recorded_diamond([5, 2, 4])
    assert engine.can_step(engine.program)
    assert not engine.can_step(parse(DIAMOND)) and not engine.can_step(None)
    assert all(e.can_step(parse(DIAMOND)) for e in (CORRECT, OVERWRITE, NO_SORT))


def test_a_stepper_made_in_slices_runs_any_engine_as_the_stepper_does():
    recorded = recorded_diamond([5, 2, 4])
    for engine, program in ((recorded, recorded.program),
                            (LearnerMultiplyRule("a", "b"), parse(DIAMOND))):
        reference = Stepper(program.output, engine)
        slices = Stepper.in_slices(program.output, engine, every=1)
        try:
            while True:
                next(slices)
        except StopIteration as done:
            stepper = done.value
        assert stepper.engine is engine
        assert [(s.node, s.problem, s.contributions) for s in stepper.backward_steps] == [
            (s.node, s.problem, s.contributions) for s in reference.backward_steps]


def test_the_command_lines_names_map_to_the_bugs():
    assert tuple(PITFALLS) == ("overwrite", "no-sort")
    assert pitfall_named("overwrite") is OVERWRITE and pitfall_named("no-sort") is NO_SORT
    with pytest.raises(ValueError, match="unknown pitfall 'no-zero-grad'; choose from "
                                         "overwrite, no-sort"):
        pitfall_named("no-zero-grad")


class Halving(OwnRulesEngine):
    """A made-up engine of rules of its own: every local derivative halved."""

    name = "halving"

    def local_grads(self, node):
        return tuple(g / 2 for g in node._local)

    def wrong_local(self, node, i, used, right):
        return f"{used} for {right}"


def test_a_new_engine_needs_only_what_it_does_differently():
    program = parse(DIAMOND)
    # each path to x is halved twice: 3/4 by way of b alone, 2 x 3/4 by way of c
    assert gradients_with(program, Halving()) == {"x": 3 / 4 + 3 / 4}
    steps = backward_plan(program.output, Halving())
    assert [s.problem for s in steps] == [
        "", "0.5 for 1.0",
        "'c' passed on a gradient of 0.5, but its gradient is 1: a wrong local derivative "
        "earlier in the pass reached it",
        "'b' passed on a gradient of 1, but its gradient is 3: a wrong local derivative "
        "earlier in the pass reached it"]
