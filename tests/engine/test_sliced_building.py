"""The sliced builders make exactly what the one-go builders make."""

import pytest

from engine import parse
from engine.language.program import Program, build_values, values_in_slices
from engine.pitfalls import NO_SORT, OVERWRITE
from engine.stepping import Stepper

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
        return [(s._order[st.node], st.seed, st.problem,
                 [(s._order[c.parent], c.local, c.upstream, c.contribution, c.before, c.after)
                  for c in st.contributions]) for st in s.backward_steps]
    return ([a._order[n] for n in a.forward_steps] == [b._order[n] for n in b.forward_steps]
            and plan(a) == plan(b) and a.position == b.position and a.pitfall == b.pitfall)


@pytest.mark.parametrize("pitfall", [None, OVERWRITE, NO_SORT])
@pytest.mark.parametrize("every", [1, 2, 1000])
def test_a_stepper_made_in_slices_equals_the_stepper(pitfall, every):
    program = parse(TEXT)
    reference = Stepper(program.output, pitfall)
    reference.run_to_end()
    expected = [v.grad for v in program.values]
    reference.reset()
    slices = Stepper.in_slices(program.output, pitfall, every=every)
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


def test_an_unknown_pitfall_is_refused_in_slices_too():
    with pytest.raises(ValueError):
        list(Stepper.in_slices(parse(TEXT).output, "nonsense"))
