"""The user's value class, seen through the two conventions learners write.

micrograd's: `_prev` (a set of parents), `_op`, a `_backward` closure per node.
microgpt's: `_children` (parents in order) and `_local_grads` (the local derivative of
the node with respect to each child, recorded in the forward pass).
Only `Value(float)`, the operators, `backward()`, `.data` and `.grad` are required.

Runs only in the child process that checks an engine: everything here calls user code.
"""

from __future__ import annotations

import math

from engine.core import ops
from engine.language.program import CONST, INPUT, POW

PARENT_ATTRS = ("_prev", "_children")


def parents_of(node) -> list:
    """The node's parents as a list (a set's order is whatever it is)."""
    for name in PARENT_ATTRS:
        parents = getattr(node, name, None)
        if parents is not None:
            try:
                return [p for p in parents if not isinstance(p, (int, float))]
            except TypeError:
                return []
    return []


def local_grads_of(node):
    """The node's recorded local derivatives (microgpt's `_local_grads`), or None."""
    return getattr(node, "_local_grads", None)


def op_of(node) -> str | None:
    op = getattr(node, "_op", None)
    return op if isinstance(op, str) else None


def as_float(x) -> float:
    """A number the user's engine holds (`data`, `grad`), as a float; NaN if it is not one."""
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def apply_op(op: str, args: list, k: float):
    """Apply one instruction's operation to user values (numbers stay numbers), as the
    op table says Python applies it."""
    entry = ops.BY_NAME.get(op)
    if entry is None:
        raise ValueError(f"unknown operation {op!r}")
    return entry.call(*args, k) if op == POW else entry.call(*args)


def replay(cls, instructions) -> list:
    """The user's values for `instructions`, one per instruction; a constant stays the
    plain number it is."""
    values: list = []
    for ins in instructions:
        if ins.op == INPUT:
            values.append(cls(ins.number))
        elif ins.op == CONST:
            values.append(ins.number)
        else:
            values.append(apply_op(ins.op, [values[a] for a in ins.args], ins.number))
    return values


def graph_nodes(root) -> list:
    """Every user node `root` depends on, parents before children, by our own walk
    (with a stack: the user's graphs may be deep)."""
    return inner_nodes(root, [])


def inner_nodes(out, operands: list) -> list:
    """The nodes the user's engine made for one operation: those between `out` and the
    operation's operands, in our topological order (parents first, `out` last)."""
    stop = {id(o) for o in operands}
    order, seen, stack = [], set(stop), [(out, False)]
    while stack:
        node, done = stack.pop()
        if done:
            order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        for p in reversed(parents_of(node)):
            if id(p) not in seen:
                stack.append((p, False))
    return order


def probe_locals(out, operands: list) -> list[float] | None:
    """d(out)/d(operand) for each operand as the user's rules compute it for this one
    operation (the gradients it leaves on its operands when `out.grad` is 1 and the
    user's rules of the nodes in between are applied in a correct order). Needs a
    `_backward` per node or `_local_grads`; None otherwise. Leaves every grad it
    touched at 0."""
    nodes = inner_nodes(out, operands)
    touched = nodes + operands
    for n in touched:
        n.grad = 0.0
    try:
        if all(callable(getattr(n, "_backward", None)) for n in nodes):
            out.grad = 1.0
            for n in reversed(nodes):
                n._backward()
            got = [as_float(o.grad) for o in operands]
        elif all(local_grads_of(n) is not None for n in nodes):
            grads = {id(out): 1.0}
            for n in reversed(nodes):
                g = grads.get(id(n), 0.0)
                for child, local in zip(parents_of(n), local_grads_of(n)):
                    grads[id(child)] = grads.get(id(child), 0.0) + as_float(local) * g
            got = [grads.get(id(o), 0.0) for o in operands]
        else:
            return None
    finally:
        for n in touched:
            n.grad = 0.0
    if len(operands) == 2 and operands[0] is operands[1]:
        # one total for both edges (a + a), and `=` makes it the last edge's alone: the
        # replay takes the right local derivatives and finds out which it was
        return None
    return got


class _RecordingLocals(tuple):
    """A node's `_local_grads` that notes when the backward loop reads them."""

    def __new__(cls, values, note):
        self = super().__new__(cls, values)
        self._note = note
        return self

    def __iter__(self):
        self._note()
        return super().__iter__()

    def __getitem__(self, i):
        self._note()
        return super().__getitem__(i)


def record_rule_order(nodes: list, key: dict[int, int]) -> list[int]:
    """Make the user's backward note the order in which it applies the rules of `nodes`
    (their `_backward`, or the reading of their `_local_grads`); returns the list it
    fills with `key[id(node)]`, each node once."""
    order: list[int] = []
    seen: set[int] = set()

    def note(i: int):
        if i not in seen:
            seen.add(i)
            order.append(i)

    for node in nodes:
        i = key.get(id(node))
        if i is None:
            continue
        closure = getattr(node, "_backward", None)
        try:
            if callable(closure):
                def wrapped(closure=closure, i=i):
                    note(i)
                    return closure()
                node._backward = wrapped
            elif isinstance(local_grads_of(node), (tuple, list)):
                node._local_grads = _RecordingLocals(node._local_grads, lambda i=i: note(i))
        except (AttributeError, TypeError):
            pass  # a class that will not have it: the order stays unknown
    return order


# the class's methods, by the check that names each rule
METHODS = {check.method: check.name for check in ops.CHECKS}


class CallRecorder:
    """Wraps the class's operator methods to see which ones each operation is built on
    (a `__sub__` written as `self + (-other)` calls `__neg__` and `__add__`): `nested`
    collects the rules called from inside another one while `recording`."""

    def __init__(self, cls):
        self.depth = 0
        self.recording = False
        self.nested: set[str] = set()
        for method, rule in METHODS.items():
            original = getattr(cls, method, None)
            if not callable(original):
                continue
            try:
                setattr(cls, method, self._wrap(original, rule))
            except (AttributeError, TypeError):
                pass  # a class that will not be patched: nothing is recorded for it

    def _wrap(self, original, rule: str):
        def wrapped(*args, **kwargs):
            if self.recording and self.depth > 0:
                self.nested.add(rule)
            self.depth += 1
            try:
                return original(*args, **kwargs)
            finally:
                self.depth -= 1
        wrapped.__name__ = getattr(original, "__name__", rule)
        return wrapped
