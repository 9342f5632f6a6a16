"""Hostile and broken programs: each is refused with a position, and nothing runs."""

import os

import pytest

from engine import ExpressionError, parse
from engine.language import MAX_CHARS, MAX_DEPTH, MAX_NODES

MARKER = "/tmp/autograd-debugger-injection-marker"

INJECTION = [
    f"__import__('os').system('touch {MARKER}')",
    "x = 1; x.__class__.__bases__",
    "exec(\"open('/tmp/x', 'w')\")",
    "eval('1+1')",
    "x = lambda: 0",
    "import os",
    "open('/etc/passwd')",
    "x = [1]",
    "x = {}",
    "x = 1 if 1 else 2",
    "x = f'{1}'",
    "x = `1`",
    "x = 1 @ 2",
    "x = 7 % 2",
    "x = 7 // 2",
    "x = __builtins__",
    "globals()",
    "x = 1; x()",
    "x = 1; tanh.__globals__",
    "x := 1",
    "x = 1 == 1",
]

BROKEN = [
    "",
    "   \n\t\n",
    "# only a comment",
    "x = 1; x = 2",
    "tanh = 1",
    "x = 1; y + 1",
    "x = 1; tanh(x, x)",
    "x = 1; tanh()",
    "x = 1; sinh(x)",
    "x = 1; (x",
    "x = 1; x)",
    "x = 1; 2x",
    "1\n2",
    "x =",
    "x = -1; x ** x",
    "x = 1; y = x; (-2) ** y",
    "x = 1,",
    "x = 1.2.3",
    "= 3",
]

UNICODE = [
    "ｘ = 1",              # fullwidth letter
    "\U0001d465 = 1",      # mathematical italic x
    "x = 1\x00",          # NUL
    "x = \ud800",          # lone surrogate
    "x = \u202e1",         # right-to-left override
    "x = \u200f1",         # right-to-left mark
    "x = 1\u00a0+ 1",      # no-break space
    "x = ١",               # Arabic-Indic digit one
]

NUMBERS = [
    "9**9**9",
    "x = 2; x ** 1e10",
    "10 ** 400",
    "x = 1e308; x * 10",
    "x = 1e999",
    "x = 0; log(x)",
    "x = -1; log(x)",
    "x = 1; x / 0",
    "x = 1; x / (x - 1)",
    "x = 0; x ** -1",
    "x = -8; x ** (1/3)",
    "x = 0; x ** 0.5",
    "x = 1000; exp(x)",
    "x = 1e-320; log(x)",
]

LIMITS = [
    "(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1),
    "x = 1\n" + "tanh(" * (MAX_DEPTH + 1) + "x" + ")" * (MAX_DEPTH + 1),
    "(" * 100_000,
    "x" * (MAX_CHARS + 1),
    "x = 1\ny = " + "x+" * (MAX_NODES + 10) + "x",
    "x = 1\ny = " + "-" * (MAX_NODES + 10) + "x",
    "x = 1\n" + "".join(f"v{i} = x + {i}\n" for i in range(MAX_NODES // 2 + 10)),
]


@pytest.mark.parametrize("text", INJECTION + BROKEN + UNICODE + NUMBERS + LIMITS,
                         ids=lambda t: repr(t[:40]))
def test_refused_with_a_position(text, no_code_execution):
    with pytest.raises(ExpressionError) as info, no_code_execution():
        parse(text)
    e = info.value
    lines = text.splitlines() or [""]
    assert 1 <= e.line <= max(1, len(lines))
    assert 1 <= e.col <= len(lines[e.line - 1]) + 1 if e.line <= len(lines) else e.col == 1
    assert e.message and "Traceback" not in e.message
    str(e).encode("utf-8")  # printable, even when the text held a lone surrogate
    assert not os.path.exists(MARKER)


def test_limits_are_enforced_at_the_boundary():
    assert parse("x = 1\n" + "(" * MAX_DEPTH + "x" + ")" * MAX_DEPTH).output.data == 1.0
    with pytest.raises(ExpressionError, match="characters"):
        parse(" " * MAX_CHARS + "x")


@pytest.mark.parametrize(("text", "line", "col", "words"), [
    ("x = 0\ny = log(x)", 2, 5, "positive"),
    ("a = 1\n\nb = a / (a - 1)", 3, 7, "division by zero"),
    ("x = -1\ny = x ** x", 2, 7, "positive"),
    ("x = 1\nx = 2", 2, 1, "already assigned"),
    ("x = 1\ny = (x", 2, 5, "never closed"),
    ("x = 1\ny = $", 2, 5, "'$'"),
    ("9**9**9", 1, 2, "overflow"),
])
def test_error_points_at_the_offending_token(text, line, col, words):
    with pytest.raises(ExpressionError) as info:
        parse(text)
    assert (info.value.line, info.value.col) == (line, col)
    assert words in info.value.message
