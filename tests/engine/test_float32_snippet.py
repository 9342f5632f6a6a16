"""The lesson's float32 TensorFlow snippet differentiates its neuron, and nothing else:
it is shown only under that program. (No TensorFlow needed to tell.)"""

from engine.checks.tensorflow_check import LESSON_NEURON, snippet_applies
from engine.language import parse
from tests.engine.helpers import NEURON


def test_the_snippet_applies_to_the_lessons_neuron_only():
    assert snippet_applies(parse(NEURON)) and snippet_applies(parse(LESSON_NEURON))
    spaced = "# the same neuron, laid out otherwise\n" + LESSON_NEURON.replace("; ", "\n")
    assert snippet_applies(parse(spaced))
    assert not snippet_applies(parse(LESSON_NEURON.replace("w2 = -0.3", "w2 = -0.4")))
    assert not snippet_applies(parse(LESSON_NEURON.replace("w1", "v1")))
    assert not snippet_applies(parse("a = 3\nb = a * a"))
