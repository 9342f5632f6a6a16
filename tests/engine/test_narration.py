"""The caption of each step (engine/core/narration.py), on the lesson's neuron."""

from engine import parse
from engine.core.engines import CORRECT
from engine.core.narration import step_caption
from engine.core.pitfalls import OVERWRITE
from engine.core.stepping import Stepper
from tests.engine.helpers import NEURON


def captions(text: str, engine=CORRECT) -> list[str]:
    program = parse(text)
    stepper = Stepper(program.output, engine)
    said = []
    for k in range(stepper.total + 1):
        stepper.seek(k)
        said.append(step_caption(stepper, program.output_name))
    return said


def test_every_step_of_the_neuron_is_said_with_its_numbers():
    said = captions(NEURON)
    assert said[0] == ("Before any step: 13 forward steps compute the values, then 8 "
                       "backward steps the gradients")
    assert said[1] == "forward 1/13: w1 = 0.5 (an input)"
    assert said[3] == "forward 3/13: w1 * x1 = 0.5"
    assert said[9] == "forward 9/13: z = (w1*x1 + w2*x2) + b ≈ 0"  # round-off, as drawn
    assert said[14] == "backward 1/8: dloss/dloss = 1 at loss, where the pass starts"
    assert said[17] == "backward 4/8: p = tanh(z) sends 1 × (-2) = -2 to z"
    assert said[20] == "backward 7/8: w2 * x2 sends 2 × (-2) = -4 to w2 and -0.3 × (-2) = 0.6 to x2"
    assert said[21].endswith("0.5 × (-2) = -1 to x1 · done: every gradient is in")


def test_a_step_that_departs_from_the_correct_engine_says_so():
    said = captions("a = 3\nf = a + a", OVERWRITE)
    assert said[-1].startswith("backward 2/2: f = a + a sends 1 × 1 = 1 to a and 1 × 1 = 1 to a")
    assert said[-1].endswith("(wrong: not what the correct engine does) · done: every "
                             "gradient is in")
