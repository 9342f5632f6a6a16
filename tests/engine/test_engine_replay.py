"""A failing case replayed as the user's engine did it: their local derivatives beside
the right ones, their order, = or += as their engine does it (no Qt, no user code)."""

from __future__ import annotations

import pytest

from engine.checks.engine_check.replay import RecordedEngine, recorded_engine
from engine.core.stepping import Stepper

DIAMOND = "x = 2.0\nb = x * 3\nc = b * 2\nout = b + c"  # instructions: x 3 b 2 c out


def recorded_stepper(replay):
    """The case's program, a stepper running the user's engine on it, and the note."""
    program, engine, note = recorded_engine(replay)
    return program, Stepper(program.output, engine), note


def test_a_wrong_local_derivative_is_shown_beside_the_right_one():
    replay = {"text": "x = 0.5\nout = x ** 3", "order": [2, 0], "seed": 1.0,
              "locals": {2: [3 * 0.5 ** 3]}, "grads": {0: 3 * 0.5 ** 3, 2: 1.0}}
    program, stepper, note = recorded_stepper(replay)
    assert note == "" and isinstance(stepper.engine, RecordedEngine)
    rule = stepper.backward_steps[1]
    assert rule.contributions[0].local == 0.375 and rule.contributions[0].right == 0.75
    assert rule.problem == ("d(x^3)/dx is 0.375 by your engine's rule; the right local "
                            "derivative is 0.75")
    stepper.run_to_end()
    assert program.inputs["x"].grad == 0.375


def test_the_users_order_is_replayed_and_its_first_wrong_step_named():
    # breadth-first from the output: out, b, c: b passes its gradient on too early
    replay = {"text": DIAMOND, "order": [5, 2, 4, 0], "seed": 1.0, "locals": {},
              "grads": {0: 3.0, 2: 3.0, 4: 1.0, 5: 1.0}}
    program, stepper, note = recorded_stepper(replay)
    assert note == ""
    assert [s.node.label for s in stepper.backward_steps] == ["out", "out", "b", "c"]
    wrong = [s for s in stepper.backward_steps if s.problem]
    assert [s.node.label for s in wrong] == ["b"]
    assert wrong[0].problem.startswith("'b' passed on a gradient of 1, but its gradient is 3")
    stepper.run_to_end()
    assert program.inputs["x"].grad == 3.0


def test_overwriting_is_found_from_the_final_gradients():
    replay = {"text": "a = 3.0\nout = a + a", "order": [1, 0], "seed": 1.0, "locals": {},
              "grads": {0: 1.0, 1: 1.0}}
    program, stepper, note = recorded_stepper(replay)
    assert note == ""
    assert "'=' overwrote what '+=' would have kept" in stepper.backward_steps[1].problem
    stepper.run_to_end()
    assert program.inputs["a"].grad == 1.0


def test_a_missing_seed_starts_the_pass_at_zero():
    replay = {"text": "x = 3.0; y = -2.0\nout = x * y", "order": [2, 1, 0], "seed": 0.0,
              "locals": {}, "grads": {0: 0.0, 1: 0.0, 2: 0.0}}
    program, stepper, _ = recorded_stepper(replay)
    assert stepper.backward_steps[0].problem.startswith("dL/dL was never set to 1")
    stepper.run_to_end()
    assert program.inputs["x"].grad == 0.0 and program.inputs["y"].grad == 0.0


def test_a_replay_that_does_not_match_says_so():
    replay = {"text": "x = 0.5\nout = x * 4", "order": None, "seed": 1.0, "locals": {},
              "grads": {0: 123.0}}
    _, stepper, note = recorded_stepper(replay)
    assert note.startswith("the replay does not reproduce your engine's final gradients")
    stepper.run_to_end()
    assert stepper.output.parents[0].grad == pytest.approx(4.0)
