"""Parser fuzzing: any text either parses or is refused with a position, never another
exception, and never runs code."""

import hypothesmith
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import ExpressionError, parse

TOKENS = ["x", "y", "a1", "_b", "1", "2.5", ".5", "1e3", "1e999", "+", "-", "*", "/", "**",
          "^", "(", ")", "=", ",", ";", "\n", "\r\n", " ", "\t", "#", "tanh", "relu", "exp",
          "log", "sigmoid", "sin", "__import__", "lambda", ".", "'", '"', "[", "]", "0"]
LOOKALIKES = ["ｘ", "\U0001d465", "\u0445", "\u00a0", "\u200b", "\u200f", "\u202e", "\x00",
              "\ud800", "\udfff", "\ufeff", "＝", "－", "＊", "１", "\u2212", "\u00d7", "\r"]
VALID = ["x = 0.5\ny = tanh(x**3 + 3*x)", "a = 3; b = 4; f = a*b + a",
         "w1 = 0.5; w2 = -0.3; b = 0.1\nz = w1*1.0 + w2*2.0 + b\nloss = (tanh(z) - 1)**2"]


# the fixture hands out a fresh guard per use, so sharing it between examples is safe
FIXTURE_OK = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


def check(text, no_code_execution):
    with no_code_execution():
        try:
            program = parse(text)
        except ExpressionError as e:
            lines = text.splitlines() or [""]
            assert 1 <= e.line <= len(lines) + 1
            assert e.col >= 1
            assert e.message
            str(e).encode("utf-8")  # always printable
            return
    assert program.output is not None


@settings(max_examples=300, suppress_health_check=FIXTURE_OK)
@given(text=st.text(alphabet=st.characters(exclude_categories=()), max_size=200))
def test_random_characters(text, no_code_execution):
    check(text, no_code_execution)


@settings(max_examples=300, suppress_health_check=FIXTURE_OK)
@given(text=st.lists(st.sampled_from(TOKENS), max_size=60).map("".join))
def test_token_soup(text, no_code_execution):
    check(text, no_code_execution)


@settings(max_examples=200, suppress_health_check=FIXTURE_OK)
@given(program=st.sampled_from(VALID), data=st.data())
def test_lookalikes_inserted_into_valid_programs(program, data, no_code_execution):
    position = data.draw(st.integers(0, len(program)))
    char = data.draw(st.sampled_from(LOOKALIKES))
    check(program[:position] + char + program[position:], no_code_execution)


@pytest.mark.filterwarnings("ignore::SyntaxWarning")  # hypothesmith compiles what it makes
@settings(max_examples=100, suppress_health_check=FIXTURE_OK)
@given(text=hypothesmith.from_grammar())
def test_python_source(text, no_code_execution):
    check(text, no_code_execution)
