"""A Python keyword typed into the expression language (the s34 tryout's `import os`) is
said to be Python, not part of the language, with no hint to assign it."""

from __future__ import annotations

import pytest

from engine import parse
from engine.errors import ExpressionError


@pytest.mark.parametrize("text, word, position", [
    ("import os", "import", (1, 1)),
    ("x = 1.0\ny = x + lambda", "lambda", (2, 9)),
    ("for", "for", (1, 1)),
])
def test_a_python_keyword_is_said_to_be_python_with_no_assignment_hint(text, word, position):
    with pytest.raises(ExpressionError) as info:
        parse(text)
    e = info.value
    assert (e.line, e.col) == position
    assert e.message.startswith(f"'{word}' is Python, not part of the expression language")
    assert "The expression language" in e.message  # the README's section
    assert "assign" not in e.message and "=" not in e.message


def test_a_name_that_is_no_keyword_keeps_its_assignment_hint():
    with pytest.raises(ExpressionError) as info:
        parse("y = match + 1")  # a soft keyword only: a name the language allows
    assert info.value.message == "'match' is not defined: assign it first (e.g. match = 1.0)"
