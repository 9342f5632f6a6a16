"""The op table is the one place an op is spelled: no module of engine/, gui/ or cli/
names an op in a string of its own, and what `Value` and `Dual` write out for speed is
held to the table's entries."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pytest

from engine.checks.engine_check.cases import NEEDS, RULES
from engine.core import ops
from engine.core.forward_mode import Dual
from engine.core.value import Value
from engine.language import FUNCTIONS
from engine.lesson.rules import CASES

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("engine", "gui", "cli")

# An op's name in a string: 'sigmoid', 'neg', 'pow', micrograd's 'ReLU', or a framework's
# spelling, 'tf.sigmoid'. (Operator symbols such as '+' are everywhere in text, so for
# them only a comparison with an op, `op == "*"`, is looked for.)
NAMES = ({op.name for op in ops.OPS if op.name.isalpha()} | set(ops.ALIASES)
         | {s for op in ops.OPS for s in (op.tensorflow, op.pytorch, op.jax)})
SYMBOLS = {op.name for op in ops.OPS if not op.name.isalpha()}

# where an op may still be spelled, and why
ALLOWED = {
    # the table itself
    "engine/core/ops.py": None,
    # Value's hot methods are written out for speed, each node's op a constant;
    # test_values_written_out_rules_are_the_tables holds every one to its entry
    "engine/core/value.py": {"neg", "tanh", "relu", "exp", "log", "sigmoid"},
}


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _names_an_op(node: ast.AST) -> bool:
    return ((isinstance(node, ast.Name) and node.id.endswith("op"))
            or (isinstance(node, ast.Attribute) and node.attr.endswith("op")))


def _constants(node: ast.AST) -> list[ast.Constant]:
    if isinstance(node, ast.Constant):
        return [node]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e for e in node.elts if isinstance(e, ast.Constant)]
    return []


def op_spellings(source: str) -> list[tuple[int, str]]:
    """(line, text) of every op spelled in `source` outside the table's way."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in docs and node.value in NAMES):
            found.append((node.lineno, node.value))
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_names_an_op(s) for s in sides):
                found += [(c.lineno, c.value) for s in sides for c in _constants(s)
                          if c.value in SYMBOLS]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "startswith" and _names_an_op(node.func.value)):
            found += [(c.lineno, c.value) for c in node.args
                      if isinstance(c, ast.Constant) and c.value in SYMBOLS]
    return found


def test_no_module_but_the_table_spells_an_op():
    spelled = []
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            allowed = ALLOWED.get(name, set())
            if allowed is None:
                continue
            for line, text in op_spellings(path.read_text(encoding="utf-8")):
                if text not in allowed:
                    spelled.append(f"{name}:{line}: {text!r}")
    assert spelled == []


def test_the_scan_finds_what_it_looks_for():
    """The scan itself: each kind of spelling it is meant to catch is caught."""
    source = ('"""sigmoid in a docstring is words."""\n'
              'a = "sigmoid"\n'
              'if node.op == "*": pass\n'
              'if op in ("+", "-"): pass\n'
              'b = op.startswith("**")\n'
              'c = {"tanh": "tf.math.log"}\n'
              'd = "x + y"\n')
    assert op_spellings(source) == [(2, "sigmoid"), (3, "*"), (4, "+"), (4, "-"), (5, "**"),
                                    (6, "tanh"), (6, "tf.math.log")]


def test_the_allow_list_is_short_and_each_exception_still_needed():
    assert len(ALLOWED) <= 3
    for name, allowed in ALLOWED.items():
        if allowed is None:
            continue
        texts = {text for _, text in op_spellings((ROOT / name).read_text(encoding="utf-8"))}
        assert texts == allowed, name  # an exception no longer needed is removed


# -- what is written out for speed, held to the table --------------------------------------

POINTS = (-2.5, -1.0, -0.3, 0.0, 0.4, 1.0, 2.0, 7.5)


def _in_domain(op: ops.Op, *operands: float) -> bool:
    if op.domain is not None and op.domain(*operands) is not None:
        return False
    try:
        op.local(op.forward(*operands), *operands)
    except (ArithmeticError, ValueError):
        return False
    return True


@pytest.mark.parametrize("op", ops.FUNCTIONS, ids=lambda op: op.name)
def test_values_written_out_rules_are_the_tables_functions(op):
    checked = 0
    for x in POINTS:
        if not _in_domain(op, x):
            continue
        node = getattr(Value(x), op.method)()
        assert ops.of(node.op) is op and node.op == op.name
        assert node.data == op.forward(x)
        assert node.local_grads == op.local(node.data, x)
        dual = getattr(Dual(x, 0.75), op.method)()
        assert dual.primal == node.data
        assert dual.tangent == pytest.approx(op.tangent(node.data, (x,), (0.75,)), rel=1e-15)
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize("op", [*ops.BINARY, ops.POW_INPUT], ids=lambda op: op.name)
def test_values_written_out_rules_are_the_tables_operators(op):
    checked = 0
    for a in POINTS:
        for b in POINTS:
            if not _in_domain(op, a, b):
                continue
            x, y = Value(a), Value(b)
            node = op.call(x, y)
            assert node.op == op.name and node.parents == (x, y)
            assert node.data == op.forward(a, b)
            assert node.local_grads == pytest.approx(op.local(node.data, a, b), rel=1e-15)
            checked += 1
    assert checked >= 20


def test_values_negation_and_number_power_are_the_tables():
    for x in POINTS:
        node = -Value(x)
        assert node.op == ops.NEG.name and node.local_grads == ops.NEG.local(-x, x)
        for k in (2.0, 3.0, -1.0, 0.5, 0.0):
            if not _in_domain(ops.POWER, x, k):
                continue
            node = Value(x) ** k
            assert ops.of(node.op) is ops.POWER and ops.exponent(node.op) == k
            assert node.op == ops.power_name(k)
            assert node.data == ops.POWER.forward(x, k)
            assert node.local_grads == ops.POWER.local(node.data, x, k)


def test_every_function_of_the_table_is_in_the_language_and_checked():
    assert FUNCTIONS == tuple(op.name for op in ops.FUNCTIONS)
    assert FUNCTIONS == ("tanh", "relu", "exp", "log", "sigmoid", "sin", "cos", "sqrt", "abs")
    for op in ops.OPS:
        assert op.checks and op.rules, op.name
        assert op.tensorflow.startswith("tf.") and op.pytorch.startswith("torch.")
        assert op.jax.startswith(("jnp.", "jax."))
        for check in op.checks:
            assert check.name in RULES and NEEDS[check.name] == (check.method,)
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)) == sum(len(op.rules) for op in ops.OPS) + 2


def test_the_50_digit_references_are_the_forward_functions():
    from decimal import Decimal, localcontext

    for op in ops.FUNCTIONS:
        for x in POINTS:
            if not _in_domain(op, x):
                continue
            with localcontext() as ctx:
                ctx.prec = 50
                value = op.reference(Decimal(repr(x)))
            assert float(value) == pytest.approx(op.forward(x), rel=2e-16, abs=1e-300), op.name
    with localcontext() as ctx:
        ctx.prec = 50
        assert float(ops.SIN.reference(Decimal(100))) == pytest.approx(math.sin(100), rel=1e-15)
        assert str(ops.COS.reference(Decimal(0)))[:10] == "1.00000000"
