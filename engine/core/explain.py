"""Each rule in words and numbers, for showing a local derivative to a learner.

`rule_text(node, i)` gives the derivative of `node` with respect to its i-th parent as
the rule in the operands' own names, the rule with the numbers put in, and the result,
e.g. `d tanh(z)/dz = 1 - tanh(z)^2 = 1 - (-0.905148)^2 = 0.180707`. The result is the
local derivative the node recorded in the forward pass, so what is shown is what the
engine used; where the numbers as shown (rounded to 6 digits) do not work out to the
result as shown, the last sign is '≈' instead of '='. An engine with rules of its own
(a learner's multiply rule, a user's engine replayed) may multiply by another number:
`used_rule_text` writes that one.

`roundoff(node)` says why a value that should be 0 is not quite (e.g. the neuron's
z = 0.5 - 0.6 + 0.1 = 2.8e-17): such a value is shown as '≈ 0'.
"""

from __future__ import annotations

import math

from engine.core import ops
from engine.core.value import Value
from engine.numbers import ROUNDOFF_OF_SUM, agrees, number, scientific
from engine.numbers import operand as bracketed

__all__ = [
    "display_name", "expression", "formula", "number", "op_symbol", "operand_name", "roundoff",
    "rule_text", "used_rule_text", "value_text"]

TINY = 1e-9       # a value carried from round-off is shown as ≈ 0 up to this size
_CARRY_DEPTH = 30  # how far back round-off is traced through operations that keep 0


def display_name(node: Value, fallback: str = "x") -> str:
    """The node's label, a constant's value, or `fallback`."""
    if node.label:
        return node.label
    if not node.parents:
        return number(node.data)
    return fallback


def op_symbol(node: Value) -> str:
    """A short symbol for the node's operation: '+', '×', 'x²', 'tanh', ... or '' for a leaf."""
    op = node.op
    entry = ops.of(op)
    if entry is ops.POWER:
        k = op[2:]
        return {"2": "x²", "3": "x³", "-1": "1/x"}.get(k, "x^" + _exponent(k))
    return entry.symbol if entry is not None else op


def _exponent(k: str) -> str:
    """An exponent as written after '^': bracketed if negative, 'x^(-1)'."""
    return f"({k})" if k.startswith("-") else k


_PRECEDENCE = {ops.ADD.name: 1, ops.SUB.name: 1, ops.MUL.name: 2, ops.DIV.name: 2,
               ops.NEG.name: 3}
_POW_INPUT, _NEG = ops.POW_INPUT.name, ops.NEG.name
_BINARY = tuple(op.name for op in ops.BINARY)
_SUMS = (ops.ADD.name, ops.SUB.name)


def _is_atom(node: Value) -> bool:
    """A name or a number that needs no brackets (a negative constant does)."""
    return bool(node.label) or (not node.parents and node.data >= 0)


def expression(node: Value, depth: int = 3) -> str:
    """The node written out from named nodes and numbers, nested `depth` levels deep
    ('…' beyond), e.g. 'w1*x1 + w2*x2'."""
    if node.label or not node.parents:
        return display_name(node)
    if depth == 0:
        return "…"
    op = node.op
    args = [expression(p, depth - 1) for p in node.parents]
    if ops.of(op) is ops.POWER:
        base = args[0] if _is_atom(node.parents[0]) else f"({args[0]})"
        return f"{base}^{_exponent(op[2:])}"
    if op == _POW_INPUT:
        wrapped = [a if _is_atom(p) else f"({a})" for p, a in zip(node.parents, args)]
        return "^".join(wrapped) if len(wrapped) == 2 else f"a number^{wrapped[0]}"
    if op == _NEG:
        parent = node.parents[0]
        simple = _is_atom(parent) or _PRECEDENCE.get(parent.op, 9) >= 3
        return f"-{args[0]}" if simple else f"-({args[0]})"
    if op in _PRECEDENCE and len(args) == 2:
        mine = _PRECEDENCE[op]
        wrapped = []
        for k, (p, a) in enumerate(zip(node.parents, args)):
            if not p.parents and not p.label:  # a number: bracketed if negative
                theirs = 9 if p.data >= 0 else 0
            else:
                theirs = _PRECEDENCE.get(p.op, 9) if p.parents and not p.label else 9
            if theirs < mine or (k == 1 and theirs == mine and op in "-/"):
                a = f"({a})"
            wrapped.append(a)
        sep = f" {op} " if mine == 1 else op
        return sep.join(wrapped)
    if op in _PRECEDENCE:  # a number folded into the operation (built in Python)
        return f"{args[0]} {op} a number"
    return f"{op}({args[0]})"


_FUNCTIONS = ops.FUNCTION_NAMES


def operand_name(node: Value) -> str:
    """The node as an operand in a formula: its name, its number (bracketed if
    negative), a function call, or its expression in parentheses."""
    if node.label:
        return node.label
    if not node.parents:
        return bracketed(node.data)
    if node.op in _FUNCTIONS:
        return expression(node, 2)
    return f"({expression(node, 2)})"


def _argument(node: Value) -> str:
    """The node as a function's argument: no brackets of its own, 'log(-z)'."""
    if node.label:
        return node.label
    return number(node.data) if not node.parents else expression(node, 2)


def formula(node: Value) -> str:
    """How the node was computed from its parents, e.g. 'tanh(z)' or 'w1 * x1'."""
    op = node.op
    if not op:
        return "input" if node.label else "constant"
    names = [operand_name(p) for p in node.parents]
    if op in _BINARY:
        if len(names) == 1:
            return f"{names[0]} {op} a number"
        return f"{names[0]} {op} {names[1]}"
    if op == _NEG:
        return f"-{names[0]}"
    if ops.of(op) is ops.POWER:
        return f"{names[0]}^{_exponent(op[2:])}"
    if op == _POW_INPUT:
        return "^".join(names) if len(names) == 2 else f"a number^{names[0]}"
    return f"{op}({_argument(node.parents[0])})"


def _d(node: Value, n: str) -> str:
    """'d(a / b)/db', 'd tanh(z)/dz', 'd(s + e)/d(exp(z))': the derivative written out."""
    f = formula(node)
    if n[0] != "(" and not n.replace(".", "").replace("_", "").isalnum():
        n = f"({n})"
    if node.op in _FUNCTIONS:
        return f"d {f}/d{n}"
    return f"d({f})/d{n}"


def rule_text(node: Value, i: int) -> str:
    """d node / d parent_i as rule, numbers and result; '' for a leaf."""
    if not node.parents:
        return ""
    parents = node.parents
    x = parents[i]
    n = operand_name(x)
    local = node.local_grads[i]
    result = number(local)
    op = node.op
    d = _d(node, n)

    def worked(rule: str, numbers: str, compute) -> str:
        try:
            sign = agrees(compute(), result)
        except (ArithmeticError, ValueError):  # the shown numbers overflow: say so
            sign = "≈"
        return f"{d} = {rule} = {numbers} {sign} {result}"

    entry = ops.of(op)
    if entry is not None and entry.arity == 2 and len(parents) == 1:  # a folded number
        return f"{d} = {result}"
    if entry is not None and entry.explain:
        return f"{d} = {_worked(entry, node, i, result)}"
    # the division and the power with a number exponent: their numbers are shown in a
    # form of their own (a base bracketed, the exponent less one worked out)
    if op == ops.DIV.name:
        a, b = parents
        b_num = bracketed(b.data)
        if i == 0:
            return worked(f"1/{operand_name(b)}", f"1/{b_num}", lambda: 1 / _shown(b_num))
        b_num = _base(b.data)
        a_num = bracketed(a.data)
        return worked(f"-{operand_name(a)}/{operand_name(b)}^2", f"-{a_num}/{b_num}^2",
                      lambda: -_shown(a_num) / _shown(b_num) ** 2)
    if entry is ops.POWER:
        k_text = op[2:]
        k = float(k_text)
        if k == 0:
            return f"{d} = 0"
        x_num = _base(x.data)
        if k == 2:
            x_num = bracketed(x.data)
            return worked(f"2·{n}", f"2·{x_num}", lambda: 2 * _shown(x_num))
        k_less = number(k - 1)
        return worked(f"{k_text}·{n}^{_exponent(k_less)}",
                      f"{k_text}·{x_num}^{_exponent(k_less)}",
                      lambda: k * _shown(x_num) ** (k - 1))
    return f"d{op}/d{n} = {result}"


def _worked(entry: ops.Op, node: Value, i: int, result: str) -> str:
    """The table's inspector formula for operand i, names and numbers filled in: in a
    template, {x} is the first operand as an operand, {xarg} as a function's argument,
    {xn} its number, {xb} its number as a base, {xo} its number as an operand (and {y}...
    the second's); {on} and {ob} the output's number; {above} is '>' or '<=' (x > 0?);
    {sign} is '=' if the numbers as shown work out to the result as shown, else '≈'."""
    parents = node.parents
    fields = {"result": result, "on": number(node.data), "ob": _base(node.data),
              "above": ">" if parents[0].data > 0 else "<="}
    for key, p in zip("xy", parents):
        fields.update({key: operand_name(p), key + "arg": _argument(p), key + "n": number(p.data),
                       key + "b": _base(p.data), key + "o": bracketed(p.data)})
    template = entry.explain[i]
    if "{result}" not in template:  # a rule with no numbers to work out: '1', 'y'
        text = template.format(**fields)
        return result if text in (result, f"({result})") else f"{text} = {result}"
    if "{sign}" in template:
        try:
            shown = [_shown(number(p.data)) for p in parents]
            fields["sign"] = agrees(entry.local(_shown(number(node.data)), *shown)[i], result)
        except (ArithmeticError, ValueError):  # the shown numbers overflow: say so
            fields["sign"] = "≈"
    return template.format(**fields)


def used_rule_text(node: Value, i: int, local: float) -> str:
    """d node / d parent_i as another engine's rule gave it, `local` (which may differ
    from the node's own), e.g. 'd(w2 * x2)/dw2 = -0.3'; '' for a leaf."""
    if not node.parents:
        return ""
    result = "cannot be computed" if math.isnan(local) else number(local)
    return f"{_d(node, operand_name(node.parents[i]))} = {result}"


def _base(x: float) -> str:
    """A number raised to a power: bracketed if negative or in scientific notation, so
    '(-1.5)^2' and '(2.77556e-17)^2' cannot be misread."""
    text = number(x)
    return f"({text})" if text.startswith("-") or "e" in text else text


def _shown(text: str) -> float:
    """The number a reader sees in `text` ('(-1.5)' is -1.5)."""
    return float(text.strip("()"))


# -- round-off ---------------------------------------------------------------------------

_KEEPS_ZERO = tuple(op.name for op in ops.OPS if op.keeps_zero)  # f(0) = 0: round-off stays


def roundoff(node: Value) -> str:
    """Why `node`'s value is round-off that should read as 0, in one line; '' if it is
    not. A sum or difference is round-off when it is below 1e-15 of its operands (they
    cancelled, and what is left is their rounding error); an operation that maps 0 to 0
    (×, negation, tanh, relu, a positive power, a division's numerator) carries round-off
    from its operand."""
    return _roundoff(node, _CARRY_DEPTH)


def _roundoff(node: Value, depth: int) -> str:
    v = node.data
    if v == 0.0 or not node.parents or abs(v) >= TINY or depth == 0:
        return ""
    op, parents = node.op, node.parents
    if op in _SUMS:
        scale = max(abs(p.data) for p in parents)
        if len(parents) == 1:
            scale = max(scale, abs(v - parents[0].data))
        if abs(v) <= ROUNDOFF_OF_SUM * scale:
            return _cancelled(node, scale)
        return ""
    sources = []
    if op in _KEEPS_ZERO or (ops.of(op) is ops.POWER and ops.exponent(op) > 0):
        sources = parents
    elif op == ops.DIV.name:
        sources = parents[:1]
    for p in sources:
        if _roundoff(p, depth - 1):
            name = p.label or expression(p, 2)
            return (f"round-off carried from {name} (≈ 0): {formula(node)} would be 0 if "
                    f"{name} were exactly 0")
    return ""


def _cancelled(node: Value, scale: float) -> str:
    if len(node.parents) == 2:
        a, b = node.parents
        sum_text = f"{number(a.data)} {node.op} {bracketed(b.data)}"
    else:
        sum_text = formula(node)
    return (f"round-off, read it as 0: {sum_text} cancel to within "
            f"{scientific(abs(node.data) / scale, 2)} of their size, the error left by rounding "
            f"decimals to binary")


def value_text(node: Value, digits: int = 6) -> str:
    """The node's value as shown on the graph: '≈ 0' for round-off, else its number."""
    return "≈ 0" if _roundoff(node, _CARRY_DEPTH) else number(node.data, digits)
