"""The scalar `Value` and reverse-mode differentiation over the graph it records.

Each operation records, at forward time, its output's local derivative with respect to
each parent (`local_grads`, in parent order). The backward pass is then one loop that
multiplies each local derivative by the upstream gradient and adds it to the parent.
There is no `_backward` closure per node: a closure that captures its own output makes
every graph a reference cycle that only the garbage collector can free, which costs
speed and makes a live window pause. Plain tuples keep the graph acyclic, so a graph is
freed by reference counting the moment it is dropped.

What each op is (its name on a node, its value, its local derivatives) is its entry in
engine/core/ops.py. The operators and the lesson's functions are written out here for speed
(a test holds each to its entry); the other functions are made from their entries.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from engine.core import ops
from engine.core.ops import sigmoid


class Value:
    """A scalar that remembers how it was computed, so it can be differentiated.

    `data` is the number, `grad` the derivative of the last `backward()` root with
    respect to it, `parents` the ordered tuple of operands, `op` the operation's symbol
    ('' for a leaf) and `local_grads` d(self)/d(parent) for each parent, in order.
    """

    __slots__ = ("data", "grad", "label", "_prev", "_op", "_local", "_mark", "__weakref__")

    def __init__(self, data, label: str = "", _prev: tuple = (), _op: str = "",
                 _local: tuple = ()):
        self.data = float(data)
        self.grad = 0.0
        self.label = label
        self._prev = _prev
        self._op = _op
        self._local = _local
        self._mark = None

    # -- read-only views used by the debugger -------------------------------------------

    @property
    def parents(self) -> tuple[Value, ...]:
        return self._prev

    @property
    def op(self) -> str:
        return self._op

    @property
    def local_grads(self) -> tuple[float, ...]:
        return self._local

    def __repr__(self) -> str:
        name = f", label={self.label!r}" if self.label else ""
        op = f", op={self._op!r}" if self._op else ""
        return f"Value(data={self.data!r}, grad={self.grad!r}{name}{op})"

    # -- binary operations ---------------------------------------------------------------

    # A plain number on either side is folded into the operation: the node keeps one
    # parent and its local derivative, and no Value is made for the constant. (The
    # expression language turns its numbers into constant nodes before it gets here,
    # so a parsed program still shows every constant in its graph.)

    def __add__(self, other) -> Value:
        if isinstance(other, Value):
            return _node(self.data + other.data, (self, other), "+", (1.0, 1.0))
        return _node(self.data + other, (self,), "+", (1.0,))

    def __sub__(self, other) -> Value:
        if isinstance(other, Value):
            return _node(self.data - other.data, (self, other), "-", (1.0, -1.0))
        return _node(self.data - other, (self,), "-", (1.0,))

    def __mul__(self, other) -> Value:
        # d(ab)/da = b, d(ab)/db = a
        if isinstance(other, Value):
            return _node(self.data * other.data, (self, other), "*",
                         (other.data, self.data))
        return _node(self.data * other, (self,), "*", (other,))

    def __truediv__(self, other) -> Value:
        # d(a/b)/da = 1/b, d(a/b)/db = -a/b^2, written -q/b so a tiny b cannot underflow b*b
        if isinstance(other, Value):
            q = self.data / other.data
            return _node(q, (self, other), "/", (1.0 / other.data, -q / other.data))
        return _node(self.data / other, (self,), "/", (1.0 / other,))

    def __pow__(self, exponent) -> Value:
        if isinstance(exponent, Value):  # d(x^y)/dy = x^y·ln x: a positive base only
            x, y = self.data, exponent.data
            out = _pow_input(x, y)
            return _node(out, (self, exponent), _POW_INPUT, _pow_input_local(out, x, y))
        k = float(exponent)
        x = self.data
        # math.pow raises ValueError where ** would return a complex number
        out = math.pow(x, k)
        if k == 0.0:
            local = 0.0
        elif abs(k) < 2.0**53:  # k - 1 is exact
            local = k * math.pow(x, k - 1.0)
        else:
            # k is an even integer and k - 1 (odd) rounds back to k: x**(k-1) keeps the
            # sign of x, and its size is finite and non-zero only where |x| == 1
            local = k * math.copysign(math.pow(abs(x), k - 1.0), x)
        return _node(out, (self,), ops.power_name(k), (local,))

    def __rpow__(self, base) -> Value:
        # a number raised to this Value: one parent, the exponent; the base is folded
        b = float(base)
        out = _pow_input(b, self.data)
        return _node(out, (self,), _POW_INPUT, (_pow_input_local(out, b, self.data)[1],))

    def __radd__(self, other) -> Value:
        return _node(other + self.data, (self,), "+", (1.0,))

    def __rsub__(self, other) -> Value:
        return _node(other - self.data, (self,), "-", (-1.0,))

    def __rmul__(self, other) -> Value:
        return _node(other * self.data, (self,), "*", (other,))

    def __rtruediv__(self, other) -> Value:
        q = other / self.data
        return _node(q, (self,), "/", (-q / self.data,))

    # -- unary operations ----------------------------------------------------------------

    def __neg__(self) -> Value:
        return _node(-self.data, (self,), "neg", (-1.0,))

    def __pos__(self) -> Value:
        return self

    def __abs__(self) -> Value:
        return self.abs()

    def tanh(self) -> Value:
        t = math.tanh(self.data)
        return _node(t, (self,), "tanh", (1.0 - t * t,))  # tanh'(z) = 1 - tanh(z)^2

    def relu(self) -> Value:
        x = self.data
        # relu'(0) = 0: the flat branch is the one that ran
        return _node(x if x > 0.0 else 0.0, (self,), "relu", (1.0 if x > 0.0 else 0.0,))

    def exp(self) -> Value:
        e = math.exp(self.data)
        return _node(e, (self,), "exp", (e,))  # exp' = exp

    def log(self) -> Value:
        x = self.data
        return _node(math.log(x), (self,), "log", (1.0 / x,))  # raises ValueError for x <= 0

    def sigmoid(self) -> Value:
        s = sigmoid(self.data)
        return _node(s, (self,), "sigmoid", (s * (1.0 - s),))

    # -- differentiation -----------------------------------------------------------------

    def backward(self) -> list[Value]:
        """Set dL/dL = 1 and accumulate d(self)/d(node) into every node's `grad`.

        Gradients add to what `grad` already holds (zero them first with `zero_grad`
        to start over). Returns the topological order used, parents before children.
        """
        order = topological_order(self)
        self.grad = 1.0
        for node in reversed(order):
            parents = node._prev
            if parents:  # leaves have no rule
                # every operation has one or two parents: written out, this loop is
                # about three times faster than a zip over them
                g = node.grad
                local = node._local
                parents[0].grad += local[0] * g
                if len(parents) == 2:
                    parents[1].grad += local[1] * g
        return order


def value_method(op: ops.Op):
    """`Value`'s method for a function op of the table, made from its entry."""
    forward, local, name = op.forward, op.local, op.name

    def method(self: Value) -> Value:
        x = self.data
        out = forward(x)
        return _node(out, (self,), name, local(out, x))

    method.__name__ = method.__qualname__ = op.method
    method.__doc__ = f"{op.name}(self), its rule from engine.core.ops."
    return method


for _op in ops.FUNCTIONS:
    if not _op.written_out:
        setattr(Value, _op.method, value_method(_op))

_POW_INPUT = ops.POW_INPUT.name
_pow_input, _pow_input_local = ops.POW_INPUT.forward, ops.POW_INPUT.local


def _node(data: float, parents: tuple, op: str, local: tuple) -> Value:
    """A new result node. Skips __init__'s conversion: `data` is already a float."""
    v = _new(Value)
    v.data = data
    v.grad = 0.0
    v.label = ""
    v._prev = parents
    v._op = op
    v._local = local
    v._mark = None
    return v


_new = object.__new__


def topological_order(root: Value) -> list[Value]:
    """Every node `root` depends on, parents before children, `root` last.

    Depth-first, parents visited in order: the recursive post-order of the lesson.
    Each walk marks the nodes it has finished with a token of its own (`_mark`), which
    is quicker than a set; so, like `backward()` itself, two threads must not walk one
    graph at once. Past 400 levels deep the walk carries on with an explicit stack, so
    a chain of a million nodes is fine and costs the same per node as a short one.
    """
    order: list[Value] = []
    token = object()
    try:
        _visit(root, token, order.append, 0)
    except RecursionError:
        # Called with little of the recursion limit left. The nodes finished so far are
        # emitted and marked, those on the abandoned path are neither: the stack walk
        # skips the first and finishes the rest, in the order the recursion would have.
        _walk_with_stack(root, token, order.append)
    return order


_RECURSION_DEPTH = 400  # below Python's default limit of 1,000


def _visit(node: Value, token: object, emit, depth: int) -> None:
    # A module function, not a closure: a closure that calls itself is a reference
    # cycle, and one per walk woke the garbage collector every few hundred epochs.
    for parent in node._prev:
        if parent._mark is not token:
            if depth < _RECURSION_DEPTH:
                _visit(parent, token, emit, depth + 1)
            else:  # deep graph: the stack walk does this branch, with no unwinding
                _walk_with_stack(parent, token, emit)
    emit(node)  # may itself raise RecursionError: mark only once it is emitted
    node._mark = token


def _walk_with_stack(root: Value, token: object, emit) -> None:
    """`_visit` without recursion.

    A node on top of the stack rescans its (one or two) parents for the next unfinished
    one instead of keeping an iterator: nothing is allocated per node, so the garbage
    collector stays idle and the cost per node stays flat as graphs grow.
    """
    stack = [root]
    push, pop = stack.append, stack.pop
    while stack:
        node = stack[-1]
        for parent in node._prev:
            if parent._mark is not token:
                push(parent)
                break
        else:
            pop()
            if node._mark is not token:
                emit(node)
                node._mark = token


def zero_grad(values: Iterable[Value]) -> None:
    """Set `grad` to 0.0 on every value given."""
    for v in values:
        v.grad = 0.0
