"""Each rule in words and numbers, for showing a local derivative to a learner.

`rule_text(node, i)` gives the derivative of `node` with respect to its i-th parent as
the rule, the rule with the numbers put in, and the result, e.g.
`d tanh(z)/dz = 1 - tanh(z)^2 = 1 - 0^2 = 1`. The result is the local derivative the
node recorded in the forward pass, so what is shown is what the engine used.
"""

from __future__ import annotations

import math

from engine.value import Value


def not_finite(x: float) -> str | None:
    """What an infinite or not-a-number value means, in words; None for a finite one."""
    if math.isnan(x):
        return "nan (not a number: an overflow met ∞ − ∞, 0 × ∞ or ∞ ÷ ∞)"
    if math.isinf(x):
        return f"{'' if x > 0 else '−'}∞ (overflow: too large for a float)"
    return None


def number(x: float) -> str:
    """A number as short as it can be while staying recognisable (6 significant digits);
    an infinite or not-a-number value says what it means."""
    if x == 0.0:
        return "0"
    return not_finite(x) or f"{x:.6g}"


def exact(x: float) -> str:
    """Every digit of a float (its repr), or what a non-finite one means."""
    return not_finite(x) or repr(x)


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
    if op == "*":
        return "×"
    if op == "/":
        return "÷"
    if op == "-":
        return "−"
    if op == "neg":
        return "−x"
    if op.startswith("**"):
        k = op[2:]
        return {"2": "x²", "3": "x³", "-1": "1/x"}.get(k, "x^" + k)
    return op


_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "neg": 3}


def expression(node: Value, depth: int = 3) -> str:
    """The node written out from named nodes and numbers, nested `depth` levels deep
    ('…' beyond), e.g. 'w1*x1 + w2*x2'."""
    if node.label or not node.parents:
        return display_name(node)
    if depth == 0:
        return "…"
    op = node.op
    args = [expression(p, depth - 1) for p in node.parents]
    if op.startswith("**"):
        base = args[0] if node.parents[0].label or not node.parents[0].parents else f"({args[0]})"
        return f"{base}^{op[2:]}"
    if op == "neg":
        return f"-{args[0]}" if _PRECEDENCE.get(node.parents[0].op, 9) >= 3 else f"-({args[0]})"
    if op in _PRECEDENCE:
        mine = _PRECEDENCE[op]
        wrapped = []
        for k, (p, a) in enumerate(zip(node.parents, args)):
            theirs = _PRECEDENCE.get(p.op, 9) if p.parents and not p.label else 9
            if theirs < mine or (k == 1 and theirs == mine and op in "-/"):
                a = f"({a})"
            wrapped.append(a)
        sep = f" {op} " if mine == 1 else op
        return sep.join(wrapped)
    return f"{op}({args[0]})"


def operand(node: Value) -> str:
    """The node as an operand in a formula: its name, its number, or its expression in
    parentheses."""
    if node.label or not node.parents:
        return display_name(node)
    return f"({expression(node, 2)})"


def formula(node: Value) -> str:
    """How the node was computed from its parents, e.g. 'tanh(z)' or 'w1 * x1'."""
    names = [operand(p) for p in node.parents]
    op = node.op
    if not op:
        return "input" if node.label else "constant"
    if op in ("+", "-", "*", "/"):
        return f"{names[0]} {op} {names[1]}"
    if op == "neg":
        return f"-{names[0]}"
    if op.startswith("**"):
        return f"{names[0]}^{op[2:]}"
    return f"{op}({names[0]})"


def rule_text(node: Value, i: int) -> str:
    """d node / d parent_i as rule, numbers and result; '' for a leaf."""
    if not node.parents:
        return ""
    parents = node.parents
    x = parents[i]
    n = operand(x)
    result = number(node.local_grads[i])
    op = node.op
    f = formula(node)
    if op == "+":
        return f"d({f})/d{n} = 1"
    if op == "-":
        return f"d({f})/d{n} = {'1' if i == 0 else '-1'}"
    if op == "*":
        other = parents[1 - i]
        return f"d({f})/d{n} = {operand(other)} = {result}"
    if op == "/":
        a, b = parents
        if i == 0:
            return f"d({f})/d{n} = 1/{operand(b)} = 1/{number(b.data)} = {result}"
        return (f"d({f})/d{n} = -a/b^2 = -{number(a.data)}/{number(b.data)}^2 = {result}")
    if op == "neg":
        return f"d(-{n})/d{n} = -1"
    if op.startswith("**"):
        k = float(op[2:])
        if k == 0:
            return f"d({n}^0)/d{n} = 0"
        return (f"d({n}^{op[2:]})/d{n} = {op[2:]}·{n}^{number(k - 1)} = "
                f"{op[2:]}·{number(x.data)}^{number(k - 1)} = {result}")
    if op == "tanh":
        return (f"d tanh({n})/d{n} = 1 - tanh({n})^2 = 1 - {number(node.data)}^2 = {result}")
    if op == "relu":
        side = ">" if x.data > 0 else "<="
        return (f"d relu({n})/d{n} = 1 if {n} > 0 else 0; "
                f"{n} = {number(x.data)} {side} 0, so {result}")
    if op == "exp":
        return f"d exp({n})/d{n} = exp({n}) = {result}"
    if op == "log":
        return f"d log({n})/d{n} = 1/{n} = 1/{number(x.data)} = {result}"
    if op == "sigmoid":
        s = number(node.data)
        return (f"d sigmoid({n})/d{n} = s·(1 - s) with s = {s}: {s}·(1 - {s}) = {result}")
    return f"d{op}/d{n} = {result}"
