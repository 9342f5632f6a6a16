"""The scalar `Value` and reverse-mode differentiation over the graph it records.

Each operation records, at forward time, its output's local derivative with respect to
each parent. The backward pass is then one loop that multiplies each local derivative by
the upstream gradient and adds it to the parent. There is no `_backward` closure per
node: a closure that captures its own output makes every graph a reference cycle that
only the garbage collector can free. A node keeps its (one or two) parents and their
local derivatives in slots of its own (`_a`, `_b`, `_ga`, `_gb`), not in tuples: one
object per node, and the graph is acyclic, freed by reference counting the moment it is
dropped. `_prev` and `_local` (micrograd's and the tools' view) are those slots as tuples.

Out of the collector's way (issue 27): a node is taken from a pool of blank nodes that
is filled a batch at a time (engine._gc.made_quietly): the batch is made in one burst
with the collector paused and lands in the oldest generation, so that building a graph,
even in a user's own loop, counts nothing towards the collector's next collection and
never makes it rescan the growing graph.

`backward()` applies the rules in the reverse of `topological_order` (the depth-first
post-order of the lesson, which the stepper walks), found by a walk without recursion
(and no walk at all for the run of one-parent nodes from the root): the stepper's last
step ends on `backward()`'s gradients to the bit because both add each node's
contributions in that one order. (Creation order is a topological order too and would
need no walk, but wherever a first operand is made after its second and both reach a
common node it adds that node's contributions in another order, which changes the last
bits of sums of three terms or more: see docs/performance.md.)

What each op is (its name on a node, its value, its local derivatives) is its entry in
engine/core/ops.py. The operators and the lesson's functions are written out here for speed
(a test holds each to its entry); the other functions are made from their entries.
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Iterable

from engine._gc import made_quietly
from engine.core import ops
from engine.core.ops import sigmoid


class Value:
    """A scalar that remembers how it was computed, so it can be differentiated.

    `data` is the number, `grad` the derivative of the last `backward()` root with
    respect to it, `parents` the ordered tuple of operands, `op` the operation's symbol
    ('' for a leaf) and `local_grads` d(self)/d(parent) for each parent, in order.
    """

    __slots__ = ("data", "grad", "label", "_op", "_a", "_b", "_ga", "_gb", "_mark",
                 "__weakref__")

    def __init__(self, data, label: str = "", _prev: tuple = (), _op: str = "",
                 _local: tuple = ()):
        self.data = float(data)
        self.grad = 0.0
        self.label = label
        self._op = _op
        self._mark = None
        self._prev = _prev
        self._local = _local

    # -- parents and local derivatives as tuples: micrograd's fields, the tools' view --------

    @property
    def _prev(self) -> tuple[Value, ...]:
        a = self._a
        if a is None:
            return ()
        b = self._b
        return (a,) if b is None else (a, b)

    @_prev.setter
    def _prev(self, parents) -> None:
        parents = tuple(parents)
        if len(parents) > 2:
            raise ValueError(f"a node has one or two parents, not {len(parents)}")
        self._a = parents[0] if parents else None
        self._b = parents[1] if len(parents) == 2 else None

    @property
    def _local(self) -> tuple[float, ...]:
        if self._a is None:
            return ()
        return (self._ga,) if self._b is None else (self._ga, self._gb)

    @_local.setter
    def _local(self, local) -> None:
        local = tuple(local)
        self._ga = local[0] if local else 0.0
        self._gb = local[1] if len(local) > 1 else 0.0

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
    # so a parsed program still shows every constant in its graph.) The commonest ops
    # fill their node in place: one call fewer per node. A node from the pool is blank
    # (no field set: see _blanks), so each op sets every field, `grad`, `label` and
    # `_mark` included, and `_b` (None) where there is no second parent.

    def __add__(self, other) -> Value:
        try:
            v = _take()
        except IndexError:  # the pool is empty
            v = _refill()
        v.grad, v.label, v._mark, v._op, v._ga = 0.0, "", None, "+", 1.0
        v._a = self
        if type(other) is Value or type(other) is not float and isinstance(other, Value):
            v.data = self.data + other.data
            v._b = other
            v._gb = 1.0
        else:
            v.data = self.data + other
            v._b = None
        return v

    def __sub__(self, other) -> Value:
        try:
            v = _take()
        except IndexError:
            v = _refill()
        v.grad, v.label, v._mark, v._op, v._ga = 0.0, "", None, "-", 1.0
        v._a = self
        if type(other) is Value or type(other) is not float and isinstance(other, Value):
            v.data = self.data - other.data
            v._b = other
            v._gb = -1.0
        else:
            v.data = self.data - other
            v._b = None
        return v

    def __mul__(self, other) -> Value:
        # d(ab)/da = b, d(ab)/db = a
        try:
            v = _take()
        except IndexError:  # the pool is empty
            v = _refill()
        v.grad, v.label, v._mark, v._op = 0.0, "", None, "*"
        v._a = self
        if type(other) is Value or type(other) is not float and isinstance(other, Value):
            v.data = self.data * other.data
            v._b = other
            v._ga = other.data
            v._gb = self.data
        else:
            v.data = self.data * other
            v._b = None
            v._ga = other
        return v

    def __truediv__(self, other) -> Value:
        # d(a/b)/da = 1/b, d(a/b)/db = -a/b^2, written -q/b so a tiny b cannot underflow b*b
        if isinstance(other, Value):
            q = self.data / other.data
            return _binary(q, self, other, "/", 1.0 / other.data, -q / other.data)
        return _unary(self.data / other, self, "/", 1.0 / other)

    def __pow__(self, exponent) -> Value:
        try:  # an exponent met before: a program uses one or two
            k, k_less_one, name = _POWERS[exponent]
        except (KeyError, TypeError):
            if isinstance(exponent, Value):  # d(x^y)/dy = x^y·ln x: a positive base only
                x, y = self.data, exponent.data
                out = _pow_input(x, y)
                return _binary(out, self, exponent, _POW_INPUT, *_pow_input_local(out, x, y))
            k, k_less_one, name = _power(exponent)
        x = self.data
        out = _pow(x, k)  # math.pow raises ValueError where ** would return a complex number
        if k_less_one is not None:  # k - 1 is exact, and k is not 0
            local = k * _pow(x, k_less_one)
        elif k == 0.0:
            local = 0.0
        else:
            # k is an even integer and k - 1 (odd) rounds back to k: x**(k-1) keeps the
            # sign of x, and its size is finite and non-zero only where |x| == 1
            local = k * math.copysign(math.pow(abs(x), k - 1.0), x)
        try:
            v = _take()
        except IndexError:  # the pool is empty
            v = _refill()
        v.grad, v.label, v._mark, v._b = 0.0, "", None, None
        v.data = out
        v._op = name
        v._a = self
        v._ga = local
        return v

    def __rpow__(self, base) -> Value:
        # a number raised to this Value: one parent, the exponent; the base is folded
        b = float(base)
        out = _pow_input(b, self.data)
        return _unary(out, self, _POW_INPUT, _pow_input_local(out, b, self.data)[1])

    def __radd__(self, other) -> Value:
        try:
            v = _take()
        except IndexError:  # the pool is empty
            v = _refill()
        v.grad, v.label, v._mark, v._b, v._op, v._ga = 0.0, "", None, None, "+", 1.0
        v._a = self
        v.data = other + self.data
        return v

    def __rsub__(self, other) -> Value:
        return _unary(other - self.data, self, "-", -1.0)

    def __rmul__(self, other) -> Value:
        try:
            v = _take()
        except IndexError:  # the pool is empty
            v = _refill()
        v.grad, v.label, v._mark, v._b, v._op = 0.0, "", None, None, "*"
        v._a = self
        v._ga = other
        v.data = other * self.data
        return v

    def __rtruediv__(self, other) -> Value:
        q = other / self.data
        return _unary(q, self, "/", -q / self.data)

    # -- unary operations ----------------------------------------------------------------

    def __neg__(self) -> Value:
        return _unary(-self.data, self, "neg", -1.0)

    def __pos__(self) -> Value:
        return self

    def __abs__(self) -> Value:
        return self.abs()

    def tanh(self) -> Value:
        t = _tanh(self.data)
        try:
            v = _take()
        except IndexError:  # the pool is empty
            v = _refill()
        v.grad, v.label, v._mark, v._b, v._op = 0.0, "", None, None, "tanh"
        v._a = self
        v.data = t
        v._ga = 1.0 - t * t  # tanh'(z) = 1 - tanh(z)^2
        return v

    def relu(self) -> Value:
        x = self.data
        try:
            v = _take()
        except IndexError:  # the pool is empty
            v = _refill()
        v.grad, v.label, v._mark, v._b, v._op = 0.0, "", None, None, "relu"
        v._a = self
        # relu'(0) = 0: the flat branch is the one that ran
        if x > 0.0:
            v.data, v._ga = x, 1.0
        else:
            v.data, v._ga = 0.0, 0.0
        return v

    def exp(self) -> Value:
        e = math.exp(self.data)
        return _unary(e, self, "exp", e)  # exp' = exp

    def log(self) -> Value:
        x = self.data
        return _unary(math.log(x), self, "log", 1.0 / x)  # raises ValueError for x <= 0

    def sigmoid(self) -> Value:
        s = sigmoid(self.data)
        return _unary(s, self, "sigmoid", s * (1.0 - s))

    # -- differentiation -----------------------------------------------------------------

    def backward(self) -> list[Value]:
        """Set dL/dL = 1 and accumulate d(self)/d(node) into every node's `grad`.

        Gradients add to what `grad` already holds (zero them first with `zero_grad`
        to start over). Returns the topological order used, parents before children.
        """
        self.grad = 1.0
        # From the root down to the first node of two parents (or a leaf), each node has
        # one parent and nothing else in the graph reaches it: its rule runs at once,
        # first, as in the reverse depth-first order, and needs no walk (a chain).
        node = self
        run: list[Value] | None = None
        if node._b is None and node._a is not None:
            run = []
            while node._b is None:
                a = node._a
                if a is None:
                    break
                run.append(node)
                a.grad += node._ga * node.grad
                node = a
        order: list[Value] = []
        _walk(node, object(), order)  # topological_order's order
        for node in reversed(order):
            a = node._a
            if a is not None:  # leaves have no rule
                g = node.grad
                a.grad += node._ga * g
                b = node._b
                if b is not None:
                    b.grad += node._gb * g
        if run:
            run.reverse()
            order += run
        return order


def value_method(op: ops.Op):
    """`Value`'s method for a function op of the table, made from its entry."""
    forward, local, name = op.forward, op.local, op.name

    def method(self: Value) -> Value:
        x = self.data
        out = forward(x)
        return _unary(out, self, name, local(out, x)[0])

    method.__name__ = method.__qualname__ = op.method
    method.__doc__ = f"{op.name}(self), its rule from engine.core.ops."
    return method


for _op in ops.FUNCTIONS:
    if not _op.written_out:
        setattr(Value, _op.method, value_method(_op))

_POW_INPUT = ops.POW_INPUT.name
_POWERS: dict = {}  # exponent: (k, k - 1 or None, op name), for the few a program uses


def _power(exponent) -> tuple[float, float | None, str]:
    """A number exponent's float `k`, `k - 1` if it is exact and k is not 0 (else None),
    and the op name of its nodes (ops.power_name); kept for the next `**`."""
    k = float(exponent)
    entry = (k, k - 1.0 if k != 0.0 and abs(k) < 2.0**53 else None, ops.power_name(k))
    if len(_POWERS) < 64 and k == k:  # kept under k: 2, 2.0 and numpy's 2.0 find it
        _POWERS[k] = entry
    return entry
_pow, _tanh = math.pow, math.tanh
_pow_input, _pow_input_local = ops.POW_INPUT.forward, ops.POW_INPUT.local


# -- making nodes ----------------------------------------------------------------------------

_pool: list[Value] = []    # blank nodes, made a batch at a time out of the collector's way
_take = _pool.pop
_BATCH = (256, 8192)       # the first batch, and the largest (each refill doubles it)
_batch = _BATCH[0]
# n blank Values, as a pickle: the class once, then per node BINGET of it, EMPTY_TUPLE and
# NEWOBJ, which calls the type's tp_new at once; `object.__new__` (or `Value.__new__`)
# first builds an argument tuple for each call, a sixth of what a node costs to make
_BLANKS = (b"\x80\x04"                                              # PROTO 4
           + b"\x8c" + bytes([len(Value.__module__)]) + Value.__module__.encode() + b"\x94"
           + b"\x8c" + bytes([len(Value.__qualname__)]) + Value.__qualname__.encode() + b"\x94"
           + b"\x93\x94"       # STACK_GLOBAL: the class, memo 2
           + b"](",             # EMPTY_LIST, MARK
           b"h\x02)\x81",       # BINGET 2, EMPTY_TUPLE, NEWOBJ
           b"e.")               # APPENDS, STOP
_unpickle = pickle.loads


def _blanks(n: int) -> list[Value]:
    """`n` blank Values: no field set (each op sets them all)."""
    return _unpickle(_BLANKS[0] + _BLANKS[1] * n + _BLANKS[2])


def _refill() -> Value:
    """A blank node, the pool filled again first (made_quietly)."""
    global _batch
    _pool.extend(made_quietly(_blanks, _batch))
    _batch = min(2 * _batch, _BATCH[1])
    return _take()


def _unary(data: float, a: Value, op: str, ga: float) -> Value:
    try:
        v = _take()
    except IndexError:
        v = _refill()
    v.grad, v.label, v._mark, v._b = 0.0, "", None, None
    v.data, v._op = data, op
    v._a, v._ga = a, ga
    return v


def _binary(data: float, a: Value, b: Value, op: str, ga: float, gb: float) -> Value:
    try:
        v = _take()
    except IndexError:
        v = _refill()
    v.grad, v.label, v._mark = 0.0, "", None
    v.data, v._op = data, op
    v._a, v._ga = a, ga
    v._b, v._gb = b, gb
    return v


def _node(data: float, parents: tuple, op: str, local: tuple) -> Value:
    """A new result node of one or two `parents`, with their `local` derivatives (or a
    leaf, with none). Skips __init__'s conversion: `data` is already a float."""
    try:
        v = _take()
    except IndexError:
        v = _refill()
    v.grad, v.label, v._mark = 0.0, "", None
    v.data, v._op = data, op
    v._prev = parents
    v._local = local
    return v


# -- the depth-first order ------------------------------------------------------------------------

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
        # Called with little of the recursion limit left: the walk starts over with an
        # explicit stack and a token of its own (what the recursion marked is ignored).
        order.clear()
        _walk_with_stack(root, object(), order.append)
    return order


_RECURSION_DEPTH = 400  # below Python's default limit of 1,000


def _visit(node: Value, token: object, emit, depth: int) -> None:
    # A module function, not a closure: a closure that calls itself is a reference
    # cycle, and one per walk woke the garbage collector every few hundred epochs.
    parent = node._a
    if parent is not None:
        if parent._mark is not token:
            if depth < _RECURSION_DEPTH:
                _visit(parent, token, emit, depth + 1)
            else:  # deep graph: the stack walk does this branch, with no unwinding
                _walk_with_stack(parent, token, emit)
        parent = node._b
        if parent is not None and parent._mark is not token:
            if depth < _RECURSION_DEPTH:
                _visit(parent, token, emit, depth + 1)
            else:
                _walk_with_stack(parent, token, emit)
    emit(node)  # may itself raise RecursionError: mark only once it is emitted
    node._mark = token


def _walk(root: Value, token: object, order: list) -> None:
    """`_visit` without recursion: the same order appended to `order`, nothing
    allocated per node.

    A node is marked when it is first reached (in a graph without cycles nothing below
    it on the stack can reach it again) and emitted once its parents are. Going down, a
    node is pushed only while one of its parents is walked; coming back up to it, its
    first parent is done (it was walked first), so only its second is looked at. A
    parent that is a leaf, or (coming back up) whose own parents are done, is emitted
    at once instead of being walked.
    """
    stack: list[Value] = []
    node = root
    root._mark = token
    while True:
        while True:  # down: the first parent not yet reached, else the second
            parent = node._a
            if parent is not None and parent._mark is not token:
                parent._mark = token
                if parent._a is not None:
                    stack.append(node)
                    node = parent
                    continue
                order.append(parent)  # a leaf
            parent = node._b
            if parent is not None and parent._mark is not token:
                parent._mark = token
                if parent._a is not None:
                    stack.append(node)
                    node = parent
                    continue
                order.append(parent)
            break
        order.append(node)
        while stack:  # up: each node's first parent is done; its second may not be
            node = stack.pop()
            parent = node._b
            if parent is not None and parent._mark is not token:
                parent._mark = token
                a, b = parent._a, parent._b
                if a is not None and (a._mark is not token
                                      or b is not None and b._mark is not token):
                    stack.append(node)
                    node = parent
                    break
                order.append(parent)  # a leaf, or its parents are done
            order.append(node)
        else:
            return


def _walk_with_stack(root: Value, token: object, emit) -> None:
    """`_walk`, each node handed to `emit` in turn (topological_order's deep branches)."""
    order: list[Value] = []
    _walk(root, token, order)
    for node in order:
        emit(node)


def zero_grad(values: Iterable[Value]) -> None:
    """Set `grad` to 0.0 on every value given."""
    for v in values:
        v.grad = 0.0
