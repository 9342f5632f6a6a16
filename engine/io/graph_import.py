"""A graph built in Python, written as a program of the expression language.

`debug(root)` opens the window on a graph a script or notebook built: loops, an MLP,
what the language cannot say. The graph is walked (never executed: only `data`, the
parents and the op are read) and written out one statement per node, so the window
steps, checks and explains it like any program:

- this project's `Value`: written as is (a number folded into an operation comes back
  as a number in its statement);
- micrograd's style (`_prev`, `_op`): each op must be one this engine knows, and is
  differentiated by this engine's rules; an unknown op is refused by name;
- microgpt's style (`_children`, `_local_grads`, no op names): each node's op is
  recognised from its numbers, and the recorded local derivatives are kept, so the
  graph is stepped exactly as recorded (see engine_check.replay).
"""

from __future__ import annotations

import keyword
import math

from engine.checks.engine_check.adapter import local_grads_of, op_of, parents_of
from engine.core import ops
from engine.core.value import Value, topological_order
from engine.language import FUNCTIONS

_KNOWN = {*ops.BY_NAME, *ops.ALIASES}
_KNOWN_TEXT = " ".join(op.spelling if op.function or op.infix else op.name
                       for op in ops.OPS if op is not ops.POW_INPUT)


class GraphImportError(ValueError):
    """The graph cannot be written as a program (an unknown op, a number that is not
    finite); the message names the node."""


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def _num(x: float) -> str:
    if not math.isfinite(x):
        raise GraphImportError(f"the graph holds {x!r}, which a program cannot")
    return repr(float(x))


def _walk(root) -> list:
    if isinstance(root, Value):
        return topological_order(root)
    order, seen, stack = [], set(), [(root, False)]
    while stack:
        node, done = stack.pop()
        if done:
            order.append(node)
        elif id(node) not in seen:
            seen.add(id(node))
            stack.append((node, True))
            stack.extend((p, False) for p in reversed(parents_of(node)) if id(p) not in seen)
    return order


def _ours(node: Value, names: list[str]) -> str:
    """The right-hand side of `node`'s statement (this project's Value)."""
    op, parents, local = node.op, node.parents, node.local_grads
    a = names[0]
    entry = ops.of(op)
    if len(parents) == 2:
        return f"{a} {entry.infix} {names[1]}"
    if entry is ops.POW_INPUT:  # a number to this power: base^x, its local base^x·ln base
        return f"{_num(math.exp(local[0] / node.data))} ** {a}"
    p = parents[0].data
    # a number folded into the operation comes back as a number in its statement
    if entry is ops.ADD:
        return f"{a} + {_num(node.data - p)}"
    if entry is ops.SUB:
        return (f"{a} - {_num(p - node.data)}" if local[0] > 0
                else f"{_num(node.data + p)} - {a}")
    if entry is ops.MUL:
        return f"{a} * {_num(local[0])}"
    if entry is ops.DIV:
        c = 1.0 / local[0] if local[0] else math.inf
        if math.isfinite(c) and c and _close(p / c, node.data):
            return f"{a} / {_num(c)}"
        return f"{_num(node.data * p)} / {a}"
    return _unary(op, a)


def _unary(op: str, a: str) -> str:
    entry = ops.of(ops.ALIASES.get(op, op))
    if entry is ops.NEG:
        return f"-{a}"
    if entry is ops.POWER:
        return f"{a} ** ({op[2:]})"
    return f"{entry.spelling}({a})"


def _micrograd(node, names: list[str], parents: list) -> str:
    op = op_of(node)
    if not (op in _KNOWN or ops.of(op) is ops.POWER):
        raise GraphImportError(f"the graph has an operation this engine does not know: "
                               f"{op!r} (it knows {_KNOWN_TEXT})")
    if ops.of(op) is ops.POWER:
        try:
            ops.exponent(op)
        except ValueError:
            raise GraphImportError(f"the graph has an operation this engine does not "
                                   f"know: {op!r}") from None
    if ops.of(op) is ops.POW_INPUT:
        if len(names) == 1:  # x ** x: a set of parents keeps one
            return f"{names[0]} ** {names[0]}"
        a, b = (float(p.data) for p in parents)  # a set has no order: the numbers say
        if not (a > 0 and _close(a ** b, float(node.data))):
            names = names[::-1]
        return f"{names[0]} ** {names[1]}"
    if op in _BINARY:
        if len(names) == 1:  # a set of parents keeps one of a value used twice
            names = names * 2
            parents = parents * 2
        a, b = parents
        if op in _UNORDERED:  # a set has no order: the numbers say which side is which
            value = (a.data - b.data if op == ops.SUB.name
                     else a.data / b.data if b.data else math.nan)
            if not _close(float(value), float(node.data)):
                names = names[::-1]
        return f"{names[0]} {op} {names[1]}"
    return _unary(op, names[0])


_BINARY = tuple(op.name for op in ops.BINARY)
_UNORDERED = (ops.SUB.name, ops.DIV.name)


def _recognised(node, names: list[str], parents: list, local: tuple) -> str:
    """The op of a node that records local derivatives but no op name, from its numbers."""
    y = float(node.data)
    if len(parents) == 2:
        a, b = float(parents[0].data), float(parents[1].data)
        if _close(y, a + b) and _close(local[0], 1) and _close(local[1], 1):
            return f"{names[0]} + {names[1]}"
        if _close(y, a * b):
            return f"{names[0]} * {names[1]}"
    elif len(parents) == 1:
        x, g = float(parents[0].data), float(local[0])
        a = names[0]
        for op in ops.RECOGNISED:
            try:
                value = op.forward(x)
            except (ArithmeticError, ValueError):  # outside its domain, or overflowing
                continue
            if _close(y, value) and (op.recognises is None or op.recognises(x, y, g)):
                return f"{op.spelling}({a})"
        if x and y:
            k = round(g * x / y, 9)
            if (x > 0 or float(k).is_integer()) and _close(y, x ** k):
                return f"{a} ** ({_num(k)})"
    raise GraphImportError(f"a node of value {y!r} with {len(parents)} parent(s) is no "
                           f"operation this engine knows ({_RECOGNISED_TEXT})")


_RECOGNISED_TEXT = " ".join(("+", "*", "**", *(op.spelling for op in ops.RECOGNISED)))


def graph_program(root, output_name: str = "out") -> tuple[str, dict | None]:
    """The program text of the graph under `root`, and, for a graph that records its
    local derivatives (microgpt's style), the replay that steps it as recorded (None
    otherwise). Raises GraphImportError for a graph it cannot write."""
    nodes = _walk(root)
    ours = isinstance(root, Value)
    recorded = not ours and all(local_grads_of(n) is not None for n in nodes
                                if parents_of(n)) and op_of(root) is None
    names: dict[int, str] = {}
    used = set(FUNCTIONS) | {output_name}
    lines, locals_by_name = [], {}
    for k, node in enumerate(nodes):
        label = getattr(node, "label", "")
        parents = node.parents if ours else parents_of(node)
        is_root = node is root
        name = output_name if is_root else (
            label if isinstance(label, str) and label.isidentifier()
            and not keyword.iskeyword(label) and label not in used else f"v{k}")
        used.add(name)
        names[id(node)] = name
        if not parents:
            lines.append(f"{name} = {_num(float(node.data))}")
            continue
        args = [names[id(p)] for p in parents]
        if ours:
            rhs = _ours(node, args)
        elif recorded:
            local = tuple(float(g) for g in local_grads_of(node))
            rhs = _recognised(node, args, parents, local)
            locals_by_name[name] = list(local)
        else:
            rhs = _micrograd(node, args, list(parents))
        lines.append(f"{name} = {rhs}")
    if len(nodes) == 1:  # a lone leaf: it is the output
        lines = [lines[0]]
    text = "\n".join(lines) + "\n"
    if not recorded:
        return text, None
    from engine.language import parse

    program = parse(text)
    index = {id(v): i for i, v in enumerate(program.values)}
    local_grads = {index[id(program.names[n])]: g for n, g in locals_by_name.items()}
    return text, {"text": text, "order": None, "locals": local_grads, "grads": {},
                  "seed": 1.0}
