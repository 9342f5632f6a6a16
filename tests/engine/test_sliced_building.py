"""The sliced builders make exactly what the one-go builders make."""

import pytest

from engine import parse
from engine.core.engines import CORRECT
from engine.core.pitfalls import NO_SORT, OVERWRITE
from engine.core.stepping import Stepper
from engine.language.program import Program, build_values, values_in_slices

TEXT = """x = 0.5; w = -0.3; b = 0.1
z = x*w + b + x
p = tanh(z) * z
loss = (p - 1.0)**2 + log(exp(z)) / (x + 2)
"""


def test_values_in_slices_replays_the_program_like_build_values():
    program = parse(TEXT)
    labels = {i: v.label for i, v in enumerate(program.values) if v.label}
    whole = build_values(program.instructions, labels, {})
    values = []
    counts = list(values_in_slices(program.instructions, labels, {}, values, every=3))
    assert counts == list(range(3, len(whole), 3)) + [len(whole)]
    assert [(v.data, v.label, v._local) for v in values] == \
        [(v.data, v.label, v._local) for v in whole]
    rebuilt = Program(TEXT, list(program.instructions), values, program._name_index,
                      program.output_index, program.output_name)
    assert rebuilt.output.data == program.output.data
    assert list(rebuilt.inputs) == list(program.inputs)


def _same(a: Stepper, b: Stepper) -> bool:
    def plan(s):
        return [(s._order[st.node], st.root, st.problem,
                 [(s._order[c.parent], c.local, c.upstream, c.contribution, c.before, c.after)
                  for c in st.contributions]) for st in s.backward_steps]
    return ([a._order[n] for n in a.forward_steps] == [b._order[n] for n in b.forward_steps]
            and plan(a) == plan(b) and a.position == b.position and a.engine is b.engine)


@pytest.mark.parametrize("engine", [CORRECT, OVERWRITE, NO_SORT])
@pytest.mark.parametrize("every", [1, 2, 1000])
def test_a_stepper_made_in_slices_equals_the_stepper(engine, every):
    program = parse(TEXT)
    reference = Stepper(program.output, engine)
    reference.run_to_end()
    expected = [v.grad for v in program.values]
    reference.reset()
    slices = Stepper.in_slices(program.output, engine, every=every)
    progress = []
    try:
        while True:
            progress.append(next(slices))
    except StopIteration as stop:
        stepper = stop.value
    assert progress[-1][0] == progress[-1][1]
    assert [done for done, _ in progress] == sorted(done for done, _ in progress)
    assert stepper.forward_steps == reference.forward_steps
    assert _same(stepper, reference)
    stepper.run_to_end()
    assert [v.grad for v in program.values] == expected
    assert stepper.final_grad(program.inputs["x"]) == reference.final_grad(program.inputs["x"])


@pytest.mark.parametrize("every", [1, 2, 3, 1000])
def test_a_stepper_given_its_order_is_made_in_slices_like_the_stepper(every):
    program = parse(TEXT)
    reference = Stepper(program.output, OVERWRITE)
    reference.run_to_end()  # leaves gradients behind: the new stepper starts from zero
    assert any(v.grad for v in program.values)
    slices = Stepper.in_slices(program.output, CORRECT, every=every,
                               forward_steps=reference.forward_steps)
    try:
        while True:
            next(slices)
    except StopIteration as stop:
        stepper = stop.value
    assert all(v.grad == 0.0 for v in program.values) and stepper.position == 0
    assert _same(stepper, Stepper(program.output))
    stepper.run_to_end()
    fresh = parse(TEXT)
    Stepper(fresh.output).run_to_end()
    assert [v.grad for v in program.values] == [v.grad for v in fresh.values]


@pytest.mark.parametrize("every", [1, 2, 3, 7, 1000])
def test_the_plan_index_made_in_slices_is_the_index_made_at_once(every):
    from engine.core.stepping import _PlanIndex

    program = parse(TEXT + "q = z*z*z + z*loss\n")
    steps = Stepper(program.output).backward_steps
    whole = _PlanIndex(steps)
    slices = _PlanIndex.in_slices(steps, every)
    count = 0
    try:
        while True:
            next(slices)
            count += 1
    except StopIteration as stop:
        sliced = stop.value
    assert count > (len(steps) // every if every < 1000 else 0)
    assert [id(c) for c in sliced.contributions] == [id(c) for c in whole.contributions]
    assert sliced.owner == whole.owner
    assert [id(p) for p in sliced.parents] == [id(p) for p in whole.parents]
    assert sliced.first == whole.first and sliced.last == whole.last
    for node in program.values:
        assert sliced.positions(node) == whole.positions(node)
    several = [node for node in program.values if len(whole.positions(node)) > 1]
    assert several  # z is used several times: first and last differ for it
