"""A graph built in Python, read directly into a Program of this engine's own Values.

`debug(root)` and `draw(root, path)` open a graph a script or notebook built: loops, an
MLP, a GPT's training step. The graph is walked (never executed: only `data`, the
parents, the op and the recorded local derivatives are read; nothing is written to the
user's Values, so their `grad` stays what it was) and copied, node by node, into this
engine's `Value`s with one `Instruction` each, so the window steps, checks, explains,
saves and rebuilds it like a parsed program. Three conventions are read:

- this project's `Value`: copied as is (its numbers and local derivatives, so the
  gradients are the same to the bit); a number folded into an operation becomes a
  constant node, as the language draws it;
- micrograd's (`_prev`, a set, and `_op`): each op must be one this engine knows and is
  applied by this engine's rules; an unknown op is refused by name; the two parents of
  a set are put in an order the numbers decide (which side of a '-' or '/' is which);
- microgpt's (`_children`, `_local_grads`, no op names): each node's op is recognised
  from its numbers. Where a recorded local derivative is not this engine's, the replay
  (`ImportedGraph.replay`) steps the graph with the recorded ones (see
  engine.checks.engine_check.replay); otherwise the graph is stepped by this engine.

Leaves reached from the caller's variables (engine.io.naming) are inputs, named by the
expression that reaches them; other leaves are constants (micrograd wraps every number
it meets as a Value). The program's text, for Save and the editor, is written only when
`Program.source` is first read (engine.io.graph_text), its names made identifiers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from engine._gc import collector_paused
from engine.core import ops
from engine.core.value import Value, _node
from engine.errors import shorten
from engine.io import naming
from engine.io.graph_text import graph_text
from engine.language.parser import MAX_NODES
from engine.language.program import CONST, INPUT, POW, Instruction, Program

DEFAULT_TITLE = "out"
_KNOWN = {*ops.BY_NAME, *ops.ALIASES}
_KNOWN_TEXT = " ".join(op.spelling if op.function or op.infix else op.name
                       for op in ops.OPS if op is not ops.POW_INPUT)
_RECOGNISED_TEXT = " ".join(("+", "*", "**", *(op.spelling for op in ops.RECOGNISED)))
_isfinite = math.isfinite
_APPLY = {op.name: getattr(Value, op.method) for op in ops.OPS}
_ADD, _SUB, _MUL, _DIV = ops.ADD.name, ops.SUB.name, ops.MUL.name, ops.DIV.name
_POW_INPUT = ops.POW_INPUT.name
_BINARY = frozenset(op.name for op in ops.BINARY)


class GraphImportError(ValueError):
    """The graph cannot be read (an unknown op, a number that is not finite, too many
    nodes); the message names the node or the node count."""


@dataclass
class ImportedGraph:
    """A graph read from Python: `program` (this engine's copies), `title` (the
    caller's variable bound to the root, else 'out'), `style` ('this engine',
    'micrograd' or 'microgpt'), `replay` (for a microgpt-style graph whose recorded
    local derivatives are not all this engine's: what engine.checks.engine_check.replay
    steps it with; None otherwise) and `kind` (the module-qualified name of the root's
    class: the user's own, whatever it is modelled on)."""

    program: Program
    title: str
    style: str
    replay: dict | None = None
    kind: str = ""

    def described(self) -> str:
        """The root's class in words: "this engine's Value", or the user's class and
        the engine it is modelled on ("demo.engine.Value, micrograd-style"; micrograd's
        own: "micrograd's Value (micrograd.engine.Value)")."""
        if self.style == "this engine":
            return "this engine's Value"
        kind = self.kind or "a Value"
        if kind.split(".")[0] == self.style:  # the engine's own class
            return f"{self.style}'s {kind.rsplit('.', 1)[-1]} ({kind})"
        return f"{kind}, {self.style}-style"


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def _style(root) -> str:
    if isinstance(root, Value):
        return "this engine"
    if getattr(root, "_children", None) is not None \
            and getattr(root, "_local_grads", None) is not None \
            and not isinstance(getattr(root, "_op", None), str):
        return "microgpt"
    if getattr(root, "_prev", None) is not None:
        return "micrograd"
    if getattr(root, "_children", None) is not None:
        return "microgpt"
    raise GraphImportError(f"{type(root).__name__} is not a graph node: debug() reads this "
                           "engine's Value, micrograd's (_prev, _op) and microgpt's "
                           "(_children, _local_grads)")


def _too_many(max_nodes: int) -> GraphImportError:
    return GraphImportError(f"the graph has more than {max_nodes:,} nodes (counting stopped "
                            f"at {max_nodes + 1:,}); the limit is {max_nodes:,}")


def import_graph(root, names: Mapping | None = None, scope=None, title: str | None = None,
                 max_nodes: int = MAX_NODES) -> ImportedGraph:
    """Read the graph under `root` into a Program of this engine's Values.

    `scope` is where the names come from: a frame, or a sequence of namespaces (the
    caller's locals, then globals); None names nothing by variable. `names` maps Values
    to names, added to or overriding those; a non-empty str `label` a Value has is kept.
    `title` is the output's name (default: the scope's variable bound to `root`, else
    the expression that reaches it, else 'out'). Raises GraphImportError naming the
    node for an op this engine does not know or a number that is not finite, and naming
    the count for more than `max_nodes` nodes. The user's Values are only read.
    """
    style = _style(root)
    namespaces = _namespaces(scope)
    stop = (type(root), Value)
    labels = naming.expression_names(namespaces, stop) if namespaces else {}
    if title is None:  # `loss`, else the expression that reaches it (`demo.loss`)
        title = (naming.variable_of(namespaces, root) or labels.get(id(root))
                 or DEFAULT_TITLE)
    builder = _Builder(labels, names or {})
    with collector_paused():  # some 130,000 objects are made for 65,000 nodes
        _walk(root, style, builder, max_nodes)
        builder.unique_labels(title)
        program = builder.program(title)
    replay = None
    if builder.theirs:
        replay = {"text": None, "order": None, "locals": builder.theirs, "grads": {},
                  "seed": 1.0}
    kind = type(root)
    return ImportedGraph(program, title, style, replay, f"{kind.__module__}.{kind.__qualname__}")


def _namespaces(scope) -> list:
    if scope is None:
        return []
    if hasattr(scope, "f_locals") and hasattr(scope, "f_globals"):  # a frame
        return [dict(scope.f_locals), scope.f_globals]
    return [dict(ns) for ns in scope]


def _walk(root, style: str, builder: _Builder, max_nodes: int) -> None:
    """Every node under `root` handed to `builder` once its parents have been, `root`
    last: a depth-first post-order with an explicit stack (a graph may be deep), each
    node's parents in order (a set's in an order that does not depend on ids).
    GraphImportError past `max_nodes` nodes."""
    if style == "micrograd":
        _walk_micrograd(root, builder, max_nodes)
        return
    if style == "microgpt" and not builder.overrides and not hasattr(root, "label"):
        _walk_microgpt(root, builder, max_nodes)
        return
    where = builder.where
    stack: list = [root]
    expanded: dict[int, list] = {}
    append, pop = stack.append, stack.pop
    ours = style == "this engine"
    attr = "_prev" if ours else "_children"
    finish = builder.ours if ours else builder.microgpt
    count = 0
    while stack:
        node = pop()
        key = id(node)
        if key in where:
            continue
        parents = expanded.pop(key, None)
        if parents is None:
            parents = _parents_of(node, attr, builder, count)
            if not ours:
                parents = [p for p in parents if not isinstance(p, (int, float))]
            if parents:
                expanded[key] = parents  # on the path from the root until finished
                append(node)
                for p in reversed(parents):
                    if id(p) in expanded:
                        raise _cycle(builder, node, p, count)
                    if id(p) not in where:
                        append(p)
                continue
        count += 1
        if count > max_nodes:
            raise _too_many(max_nodes)
        finish(node, key, parents)


_SEQUENCES = (list, tuple, set, frozenset)


def _parents_of(node, attr: str, builder: _Builder, count: int):
    """A node's parents, read once: a list, tuple or set (a generator would be used up
    by the first reading, and a product of two leaves would silently become a constant);
    GraphImportError for anything else."""
    parents = getattr(node, attr, None)
    if parents is None or type(parents) in _SEQUENCES:
        return parents or ()
    if isinstance(parents, _SEQUENCES):
        return parents
    raise GraphImportError(f"{_which(builder.labels.get(id(node), ''), count)} has {attr} "
                           f"of type {type(parents).__name__}: debug() reads a list, tuple "
                           "or set of parents")


def _cycle(builder: _Builder, node, parent, count: int) -> GraphImportError:
    """The graph loops back: `parent` is on the path from the root to `node`."""
    def named(v) -> str:
        label = getattr(v, "label", None)
        label = label if type(label) is str and label else builder.labels.get(id(v), "")
        op = getattr(v, "_op", "")
        what = f"{shorten(label)!r}" if label else f"a node ({shorten(str(op)) or 'leaf'})"
        return what
    return GraphImportError(f"the graph has a cycle: {named(parent)} is among the parents "
                            f"of {named(node)}, which it depends on; a computation graph "
                            "cannot loop back")


def _second_first(a, b, labels: dict) -> bool:
    """Whether a set's two parents go in the order (b, a): an operation before a leaf, a
    sum before another operation (`acc + w*x`, as Python wrote a running sum); of two
    leaves the one with the longer name (a model's parameter before a data point:
    `model.layers[0].neurons[3].w[1] * inputs[7][1]`); then the smaller value first.
    Ids (a set's order) never decide, so one graph gives one program, and the same
    computation on each sample is written the same way."""
    pa, pb = a._prev, b._prev
    if bool(pa) != bool(pb):
        return not pa
    if pa:
        sa, sb = a._op == _ADD, b._op == _ADD
        if sa != sb:
            return sb
    else:
        na, nb = len(labels.get(id(a), "")), len(labels.get(id(b), ""))
        if na != nb:
            return nb > na
    return b.data < a.data


def _walk_micrograd(root, builder: _Builder, max_nodes: int) -> None:
    """`_walk` for micrograd's graphs, its sums and products (most of a network) made
    here at once: the hot loop of reading 65,000 nodes.

    A node first reached is expanded: its parents are put in order, and if both are
    made already it is made at once (as it would be next); otherwise it is marked in
    `where` (-1, or -2 where its two parents go the other way round, so that they need
    not be kept; -3 for another count of parents, kept in `pending`) and stays on the
    stack under the parents still to make. Reached again while marked, it is made."""
    where, values, instructions = builder.where, builder.values, builder.instructions
    labels = builder.labels
    stack: list = [root]
    append, pop, add_value, add_instruction = (stack.append, stack.pop, values.append,
                                               instructions.append)
    finish = builder.micrograd
    # the quick path makes sums and products itself; a class with labels, or names
    # given, go through the builder
    quick = not builder.overrides and not hasattr(root, "label")
    count = line = 0
    get, label_of = where.get, labels.get
    pending: dict[int, list] = {}  # the parents of a node marked -3
    while stack:
        node = pop()
        key = id(node)
        at = get(key)
        if at is None:  # first reached: its parents walked first
            try:
                raw = node._prev
            except AttributeError:
                raw = None
            if raw.__class__ not in _SEQUENCES:
                raw = _parents_of(node, "_prev", builder, count)
            if not raw:
                count += 1
                if count > max_nodes:
                    raise _too_many(max_nodes)
                builder.line = line
                finish(node, key, ())
                line = builder.line
                continue
            try:
                if len(raw) == 2:
                    a, b = raw
                    pa, pb = a._prev, b._prev
                    if pa and pb:
                        sa, sb = a._op == _ADD, b._op == _ADD
                        swap = sb if sa != sb else b.data < a.data
                    else:
                        swap = _second_first(a, b, labels)
                    if swap:
                        a, b = b, a
                    i, j = get(id(a)), get(id(b))
                    if i is None or j is None or i < 0 or j < 0:  # not both made
                        if a is node or b is node:  # (it is not marked yet)
                            raise _cycle(builder, node, node, count)
                        where[key] = -2 if swap else -1
                        append(node)
                        if j is None:
                            append(b)
                        elif j < 0:
                            raise _cycle(builder, node, b, count)
                        if i is None:
                            append(a)
                        elif i < 0:
                            raise _cycle(builder, node, a, count)
                        continue
                    # both parents made already: made now, as it would be next
                else:
                    parents = list(raw)
                    _ = parents[0]._prev
                    a = None
            except AttributeError:
                parents = [p for p in raw if not isinstance(p, (int, float))]
                a = None
            if a is None:
                if parents:
                    where[key] = -3
                    pending[key] = parents
                    append(node)
                    for p in reversed(parents):
                        at = get(id(p))
                        if at is None:
                            append(p)
                        elif at < 0:
                            raise _cycle(builder, node, p, count)
                    continue
                count += 1
                if count > max_nodes:
                    raise _too_many(max_nodes)
                builder.line = line
                finish(node, key, ())
                line = builder.line
                continue
        elif at >= 0:
            continue  # reached again after it was made
        elif at == -3:  # its parents made: the list kept
            count += 1
            if count > max_nodes:
                raise _too_many(max_nodes)
            builder.line = line
            finish(node, key, pending.pop(key))
            line = builder.line
            continue
        else:
            a, b = node._prev
            if at == -2:
                a, b = b, a
            i, j = where[id(a)], where[id(b)]
        count += 1
        if count > max_nodes:
            raise _too_many(max_nodes)
        op = node._op
        if quick and (op == _ADD or op == _MUL):
            a, b = values[i], values[j]
            v = _new(Value)
            if op == _ADD:
                v.data = y = a.data + b.data
                v._ga = v._gb = 1.0
            else:
                v.data = y = a.data * b.data
                v._ga, v._gb = b.data, a.data
            if not _isfinite(y):
                raise GraphImportError(f"{_which(labels.get(key, ''), count - 1)} is "
                                       f"{y!r}, not a finite number")
            v.grad = 0.0
            v._a, v._b = a, b
            v._op = op
            v._mark = None
            v.label = label_of(key, "")
            line += 1
            where[key] = len(values)
            add_instruction(_tuple_new(Instruction, (op, (i, j), 0.0, line, 1)))
            add_value(v)
            continue
        builder.line = line
        finish(node, key, [a, b])
        line = builder.line


def _walk_microgpt(root, builder: _Builder, max_nodes: int) -> None:
    """`_walk` for microgpt's graphs without labels or names given: its sums and products
    whose numbers are exactly this engine's (most of a network) made here at once, the
    rest through the builder, as `_walk_micrograd` does for micrograd's (-1 in `where`:
    two parents of this class, read again from the node; -3: others, kept in
    `pending`)."""
    where, values, instructions = builder.where, builder.values, builder.instructions
    labels = builder.labels
    stack: list = [root]
    append, pop, add_value, add_instruction = (stack.append, stack.pop, values.append,
                                               instructions.append)
    finish = builder.microgpt
    kind = type(root)
    count = line = 0
    get = where.get
    pending: dict[int, tuple] = {}
    while stack:
        node = pop()
        key = id(node)
        at = get(key)
        if at is None:  # first reached: its parents walked first
            parents = getattr(node, "_children", None)
            if type(parents) is not tuple:
                parents = tuple(_parents_of(node, "_children", builder, count))
            if len(parents) == 2 and type(parents[0]) is kind and type(parents[1]) is kind:
                a, b = parents
                i, j = get(id(a)), get(id(b))
                if i is None or j is None or i < 0 or j < 0:  # not both made
                    if a is node or b is node:  # (it is not marked yet)
                        raise _cycle(builder, node, node, count)
                    where[key] = -1
                    append(node)
                    if j is None:
                        append(b)
                    elif j < 0:
                        raise _cycle(builder, node, b, count)
                    if i is None:
                        append(a)
                    elif i < 0:
                        raise _cycle(builder, node, a, count)
                    continue
            else:
                if parents and (type(parents[0]) is not kind or len(parents) > 2 or (
                        len(parents) == 2 and type(parents[1]) is not kind)):  # numbers?
                    parents = tuple(p for p in parents if not isinstance(p, (int, float)))
                if parents:
                    where[key] = -3
                    pending[key] = parents
                    append(node)
                    for p in reversed(parents):
                        at = get(id(p))
                        if at is None:
                            append(p)
                        elif at < 0:
                            raise _cycle(builder, node, p, count)
                    continue
                i = None
        elif at >= 0:
            continue  # reached again after it was made
        elif at == -3:
            parents = pending.pop(key)
            i = None
        else:
            parents = node._children
            a, b = parents
            i, j = where[id(a)], where[id(b)]
        count += 1
        if count > max_nodes:
            raise _too_many(max_nodes)
        if i is not None:  # two parents, made: exactly this engine's sum or product?
            a, b = values[i], values[j]
            x, z = a.data, b.data
            try:
                local, y = node._local_grads, node.data
                g, h = local
                op = _ADD if g == 1 and h == 1 and y == x + z else \
                    _MUL if g == z and h == x and y == x * z else None
            except (TypeError, AttributeError, ValueError):
                op = None
            if op is not None:
                v = _new(Value)
                if op == _ADD:
                    v.data = y = x + z
                    v._ga = v._gb = 1.0
                else:
                    v.data = y = x * z
                    v._ga, v._gb = z, x
                if not _isfinite(y):
                    raise GraphImportError(f"{_which(labels.get(key, ''), count - 1)} is "
                                           f"{y!r}, not a finite number")
                v.grad = 0.0
                v._a, v._b = a, b
                v._op = op
                v._mark = None
                v.label = labels.get(key, "")
                line += 1
                where[key] = len(values)
                add_instruction(_tuple_new(Instruction, (op, (i, j), 0.0, line, 1)))
                add_value(v)
                continue
        builder.line = line
        finish(node, key, parents)
        line = builder.line


class _Builder:
    """The instructions and this engine's Values, one user's node at a time (each after
    its parents): `where` maps the id of each user's node done to its copy's position
    (-1 while the walk is inside it: see `_walk_micrograd`)."""

    def __init__(self, labels: dict[int, str], names: Mapping):
        self.labels = labels        # expression names, by the id of the user's node
        self.overrides = {id(v): n for v, n in names.items() if isinstance(n, str) and n}
        self.where: dict[int, int] = {}
        self.instructions: list[Instruction] = []
        self.values: list[Value] = []
        self.theirs: dict[int, list[float]] = {}  # recorded local derivatives not ours
        self.other_name: dict[int, str] = {}  # a copy named by its label: its expression
        self.line = 0

    def _name(self, node, key: int) -> str:
        name = self.overrides.get(key)
        if name is not None:
            return name
        label = getattr(node, "label", None)
        if type(label) is str and label:
            expression = self.labels.get(key)
            if expression is not None:
                self.other_name[len(self.values)] = expression
            return label
        return self.labels.get(key, "")

    def _emit(self, op: str, args: tuple, number: float, value: Value, label: str) -> int:
        if op == CONST:
            line = self.line + 1  # the line of the statement that uses it
        else:
            self.line += 1
            line = self.line
        value.label = label
        position = len(self.values)
        self.instructions.append(_tuple_new(Instruction, (op, args, number, line, 1)))
        self.values.append(value)
        return position

    def _leaf(self, node, key: int) -> None:
        label = self._name(node, key)
        x = _number(node, label, len(self.values))
        v = _new(Value)
        v.data, v.grad, v.label, v._op, v._mark = x, 0.0, "", "", None
        v._a = v._b = None  # a leaf: no parents
        self.where[key] = self._emit(INPUT if label else CONST, (), x, v, label)

    def _constant(self, x: float) -> int:
        return self._emit(CONST, (), x, Value(x), "")

    def _finish(self, node, key: int, op: str, args: tuple, number: float,
                value: Value) -> None:
        label = self._name(node, key)
        if not _isfinite(value.data):
            raise GraphImportError(f"{_which(label, len(self.values))} is {value.data!r}, "
                                   "not a finite number")
        if not all(map(_isfinite, value._local)):
            raise GraphImportError(f"{_which(label, len(self.values))} has local derivatives "
                                   f"{value._local!r}, not all finite numbers")
        self.where[key] = self._emit(op, args, number, value, label)

    # -- this engine's Values: numbers and local derivatives copied --------------------------

    def ours(self, node: Value, key: int, parents) -> None:
        if not parents:
            self._leaf(node, key)
            return
        where, values = self.where, self.values
        args = [where[id(p)] for p in parents]
        op, local = node._op, node._local
        entry = ops.of(op)
        number = 0.0
        if entry is ops.POWER:
            name, number = POW, ops.exponent(op)
        else:
            name = entry.name
        if len(args) == 1 and (entry in ops.BINARY or entry is ops.POW_INPUT):
            args, local = self._unfold(entry, node, values[args[0]], args[0], local)
        value = _node(node.data, tuple(values[a] for a in args), op, tuple(local))
        self._finish(node, key, name, tuple(args), number, value)

    def _unfold(self, entry, node: Value, parent: Value, a: int, local: tuple):
        """A number folded into `node`'s operation made a constant operand: the operands'
        positions and the local derivatives (the parent's exactly as recorded)."""
        y, p, g = node.data, parent.data, local[0]
        if entry is ops.ADD:
            return [a, self._constant(y - p)], (g, 1.0)
        if entry is ops.SUB:
            if g > 0:
                return [a, self._constant(p - y)], (g, -1.0)
            return [self._constant(y + p), a], (1.0, g)
        if entry is ops.MUL:
            return [a, self._constant(g)], (g, p)
        if entry is ops.DIV:
            c = 1.0 / g if g else math.inf
            if _isfinite(c) and c and _close(p / c, y):
                return [a, self._constant(c)], (g, -y / c)
            return [self._constant(y * p), a], (1.0 / p, g)
        base = math.exp(g / y)  # a number to this power: d/dx = base^x ln base
        return [self._constant(base), a], (p * math.pow(base, p - 1.0), g)

    # -- micrograd's: this engine's rules -------------------------------------------------

    def micrograd(self, node, key: int, parents) -> None:
        if not parents:
            self._leaf(node, key)
            return
        where, values = self.where, self.values
        op = node._op
        entry = ops.of(ops.ALIASES.get(op, op)) if isinstance(op, str) else None
        if entry is None or (entry is ops.POWER and _exponent(op) is None):
            raise GraphImportError(f"the graph has an operation this engine does not know: "
                                   f"{shorten(repr(op))} (it knows {_KNOWN_TEXT})")
        args = [where[id(p)] for p in parents]
        if entry is ops.POWER:
            number = _exponent(op)
            self._apply(node, key, POW, args[:1], number, lambda a: a ** number)
            return
        if len(args) == 1 and entry.name in _BINARY or entry is ops.POW_INPUT:
            if len(args) == 1:  # a set keeps one of a value used twice: a + a, x ** x
                args = args * 2
            elif entry is ops.POW_INPUT:
                a, b = values[args[0]].data, values[args[1]].data
                if not (a > 0 and _close(a ** b, float(node.data))):
                    args = args[::-1]  # a set has no order: the numbers say
        if entry.name in (_SUB, _DIV) and len(args) == 2:
            a, b = values[args[0]].data, values[args[1]].data
            value = a - b if entry.name == _SUB else a / b if b else math.nan
            if not _close(value, float(node.data)):
                args = args[::-1]
        self._apply(node, key, entry.name, args, 0.0, _APPLY[entry.name])

    def _apply(self, node, key: int, name: str, args: list, number: float, rule) -> None:
        values = self.values
        try:
            value = rule(*[values[a] for a in args])
        except (ArithmeticError, ValueError) as e:
            label = self._name(node, key)
            raise GraphImportError(f"{_which(label, len(self.values))} cannot be computed by "
                                   f"this engine's rule for {name!r}: {e}") from None
        self._finish(node, key, name, tuple(args), number, value)

    # -- microgpt's: the op from the numbers ----------------------------------------------

    def microgpt(self, node, key: int, parents) -> None:
        if not parents:
            self._leaf(node, key)
            return
        args = [self.where[id(p)] for p in parents]
        if len(args) == 2 and self._sum_or_product(node, key, args):
            return
        try:
            local = tuple(float(g) for g in node._local_grads)
            y = float(node.data)
        except (TypeError, ValueError, AttributeError):
            raise GraphImportError(f"{_which(self._name(node, key), len(self.values))} has no "
                                   "numeric local derivatives (_local_grads)") from None
        if len(local) != len(args):  # the user's bug, shown as such, never filled in
            raise GraphImportError(
                f"{_which(self._name(node, key), len(self.values))} has {len(args)} children "
                f"but {len(local)} local derivative{'' if len(local) == 1 else 's'} "
                "(_local_grads): each child needs its own, in the same order")
        operands = [self.values[a] for a in args]
        try:
            name, number = _recognised(y, operands, local)
        except GraphImportError as e:
            raise GraphImportError(f"{_which(self._name(node, key), len(self.values))}{e}") \
                from None
        if name == POW:
            self._apply(node, key, POW, args, number, lambda a: a ** number)
        else:
            self._apply(node, key, name, args, 0.0, _APPLY[name])
        ours = self.values[-1]._local
        if len(local) != len(ours) or not all(
                a == b or _close(a, b) for a, b in zip(local, ours)):
            self.theirs[len(self.values) - 1] = list(local)

    def _sum_or_product(self, node, key: int, args: list) -> bool:
        """A microgpt-style sum or product (most of a network) whose numbers are exactly
        this engine's, made at once; False for anything else."""
        a, b = self.values[args[0]], self.values[args[1]]
        try:
            local, y = node._local_grads, node.data
            if len(local) != 2:
                return False
            if local[0] == 1 and local[1] == 1 and y == a.data + b.data:
                op, v = _ADD, _node(a.data + b.data, (a, b), _ADD, _ONES)
            elif local[0] == b.data and local[1] == a.data and y == a.data * b.data:
                op, v = _MUL, _node(a.data * b.data, (a, b), _MUL, (b.data, a.data))
            else:
                return False
        except (TypeError, AttributeError):
            return False
        self._finish(node, key, op, tuple(args), 0.0, v)
        return True

    def unique_labels(self, title: str) -> None:
        """One node per name: a label two nodes have gives way to the expression that
        reaches the node, else gets the node's position; the output is named `title` if
        nothing names it."""
        values = self.values
        if not values[-1].label:
            values[-1].label = title
        holders: dict[str, list[int]] = {}
        for i, v in enumerate(values):
            if v.label:
                holders.setdefault(v.label, []).append(i)
        taken = set(holders)
        for label, positions in holders.items():
            if len(positions) == 1:
                continue
            for i in positions:
                name = self.other_name.get(i)
                if name is None or name in taken:
                    name = f"{label}#{i}"
                taken.add(name)
                values[i].label = name

    def program(self, title: str) -> Program:
        names = {v.label: i for i, v in enumerate(self.values) if v.label}
        output = self.values[-1]
        return Program(graph_text, self.instructions, self.values, names,
                       len(self.values) - 1, output.label or title)


_ONES = (1.0, 1.0)
_new = object.__new__
_tuple_new = tuple.__new__


def _exponent(op: str) -> float | None:
    try:
        k = ops.exponent(op)
    except ValueError:
        return None
    return k if _isfinite(k) else None


def _number(node, label: str, k: int) -> float:
    try:
        x = float(node.data)
    except AttributeError:
        raise GraphImportError(f"{_which(label, k)} has no data: every node needs its "
                               "number in .data") from None
    except (TypeError, ValueError):
        x = math.nan
    if not _isfinite(x):
        raise GraphImportError(f"{_which(label, k)} holds {x!r}, which cannot be stepped: "
                               "every number must be finite")
    return x


def _which(label: str, k: int) -> str:
    return f"the node {shorten(label)!r}" if label else f"node {k:,} (counted parents first)"


def _recognised(y: float, operands: list, local: tuple) -> tuple[str, float]:
    """The op (and exponent) of a node that records local derivatives but no op name."""
    if len(operands) == 2:
        a, b = operands[0].data, operands[1].data
        if local == (1.0, 1.0) and (y == a + b or _close(y, a + b)):
            return _ADD, 0.0
        if y == a * b or _close(y, a * b):
            return _MUL, 0.0
    elif len(operands) == 1:
        x, g = operands[0].data, local[0]
        candidates = []  # a function whose value matches: (op, its local derivative)
        for op in ops.RECOGNISED:
            try:
                value = op.forward(x)
                if _close(y, value):
                    candidates.append((op, op.local(value, x)[0]))
            except (ArithmeticError, ValueError):  # outside its domain, or overflowing
                continue
        for op, right in candidates:  # its value and its local derivative: that op
            if g == right or _close(g, right):
                return op.name, 0.0
        if x and y:  # x ** p: p from the local derivative p·x^(p-1) = p·y/x
            p = round(g * x / y, 9)
            if (x > 0 or float(p).is_integer()) and _close(y, x ** p):
                return POW, p
        for op, _ in candidates:  # its value only: a rule the user got wrong
            if op.recognises is None or op.recognises(x, y, g):
                return op.name, 0.0
        if candidates:
            return candidates[0][0].name, 0.0
    raise GraphImportError(f", of value {y!r} with {len(operands)} parent(s), is no "
                           f"operation this engine knows ({_RECOGNISED_TEXT})")
