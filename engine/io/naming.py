"""Names for the Values of a graph built in Python, from the variables that reach them.

`debug(loss)` is called from a script or a notebook whose variables hold the model, the
data and the loss. Each Value those variables reach is named by the Python expression
that reaches it, as Python writes it: `model.layers[0].neurons[3].w[1]`, `inputs[7][0]`,
`state_dict['attn_wq'][2][5]`. The search is breadth first from the caller's locals,
then its globals. Where several expressions reach a Value, one of two steps or more
wins (`model.layers[0].neurons[3].w[1]`, `state_dict['wte'][5][3]`, `inputs[7][0]`: the
model's and the data's own structure) over a bare variable (`w3 = ...` kept for a
print), that over one attribute or string key (`loss` over `demo.loss`), and that over
one index (`params[17]`, a flat list gathered from the model, as microgpt's `params =
[p for mat in state_dict.values() ...]` and micrograd's `model.parameters()` make),
except that a computed Value's one index wins over a bare variable (`losses[6]` over
the loop's last `loss_t`, so the 7th of the losses is named as the other six).
Among equals the shortest wins (ties: the first variable, then the first element or
attribute). A container a variable holds is looked into again when a longer expression
reaches it (a loop's last `row` of a matrix).

No user code runs: only lists, tuples and dicts (read through the built-in types'
own methods, so a subclass's `__iter__` or `__getitem__` is never called), dict keys
that are a str or an int, and objects' attributes read from their instance `__dict__`
(`object.__getattribute__(obj, '__dict__')`, a real dict: no properties, no
`__getattr__`). Objects are told apart by `id()`, never by `__eq__` or `__hash__`. The
search does not descend into the graph's Values, modules, classes or functions, skips
names starting with '_', and stops after MAX_DEPTH steps from a variable, MAX_VISITS
objects, or MAX_ELEMENTS elements of one container.
"""

from __future__ import annotations

import keyword
import re
import types
from collections import deque
from collections.abc import Iterable, Mapping
from types import (
    BuiltinFunctionType,
    FunctionType,
    MethodType,
    ModuleType,
)

from engine.core.value import Value

MAX_DEPTH = 8          # model.layers[0].neurons[3].w[1] is 7 steps from `model`
MAX_VISITS = 300_000   # objects looked at, at most
MAX_ELEMENTS = 250_000  # elements of one list, tuple or dict looked at, at most
# a notebook's own variables: its history, not the user's model
SHELL_NAMES = frozenset(("In", "Out", "get_ipython", "exit", "quit"))
_ATOMS = (int, float, complex, str, bytes, bool, type(None))
_OPAQUE = (ModuleType, type, FunctionType, BuiltinFunctionType, MethodType)
_NOT_WORD = re.compile(r"\W+", re.ASCII)  # the language's names are ASCII


def expression_names(namespaces: Iterable[Mapping], stop_types: tuple[type, ...],
                     max_depth: int = MAX_DEPTH,
                     max_visits: int = MAX_VISITS) -> dict[int, str]:
    """The expression naming each object of `stop_types` (the graph's Value classes:
    named, not looked into) that the variables of `namespaces` (the caller's locals,
    then its globals) reach, by the object's id(): the best as the module says."""
    found: dict[int, tuple[int, str]] = {}  # id -> (rank, expression)
    held_by_variable: dict[int, bool] = {}  # id of each container met -> a variable's own
    queue: deque = deque()
    push = queue.append
    for namespace in namespaces:
        for name, obj in dict.items(namespace) if isinstance(namespace, dict) else ():
            if (type(name) is str and not name.startswith("_") and name not in SHELL_NAMES
                    and type(obj) not in _ATOMS and id(obj) not in held_by_variable):
                held_by_variable[id(obj)] = True
                push((obj, name, 1, _BARE))
    visits = len(queue)  # objects met (numbers and strings are not counted)
    while queue:
        obj, expr, depth, rank = queue.popleft()
        t = type(obj)
        if issubclass(t, stop_types):  # a Value (or a subclass of it): named, not read
            if rank == _INDEX_RANK and _computed(obj, t):
                rank = _COMPUTED_INDEX
            had = found.get(id(obj))
            if had is None or rank > had[0]:  # breadth first: the shortest of its rank
                found[id(obj)] = (rank, expr)
            continue
        if depth >= max_depth or visits >= max_visits:
            continue
        held = _children(obj, t)
        if held is None:
            continue
        kind, items = held
        depth += 1
        rank = _STRUCTURE if depth > 2 else _INDEX_RANK if kind == _INDEX else _ONE_STEP
        for n, (key, child) in enumerate(items):
            if n >= MAX_ELEMENTS:  # a long list of numbers is data, not the model
                break
            t = type(child)
            if t in _ATOMS:
                continue
            if not issubclass(t, stop_types):  # a container: looked into once, or twice
                before = held_by_variable.get(id(child))  # for a variable's own
                if before is not None and not (before and depth > 2):
                    continue
                held_by_variable[id(child)] = False
            visits += 1
            if visits >= max_visits:
                break
            push((child, f"{expr}[{key}]" if kind == _INDEX else f"{expr}[{key!r}]"
                  if kind == _KEY else f"{expr}.{key}", depth, rank))
    return {key: expr for key, (_, expr) in found.items()}


# how good a name an expression is (higher wins; see the module's docstring): one index,
# one attribute or string key, a bare variable, a computed Value's one index, two steps
# or more
_INDEX_RANK, _ONE_STEP, _BARE, _COMPUTED_INDEX, _STRUCTURE = 0, 1, 2, 3, 4
_PARENTS = ("_prev", "_children")  # micrograd's and microgpt's


def _computed(obj, t: type) -> bool:
    """Whether Value `obj` has parents, read without running the user's code: this
    engine's own slot; micrograd's `_prev` or microgpt's `_children` from the instance
    `__dict__` or a slot of the class (read by the slot's own C descriptor: a property of
    that name is not run), a list, tuple or set (anything else counts as none)."""
    if t is Value:
        return obj._a is not None
    attributes = None
    if _plain_dict(t):
        try:
            attributes = object.__getattribute__(obj, "__dict__")
        except (AttributeError, TypeError):
            attributes = None
    for name in _PARENTS:
        parents = (dict.get(attributes, name) if type(attributes) is dict
                   else None) or _slot(obj, t, name)
        if type(parents) in (set, frozenset, tuple, list):
            return len(parents) > 0
    return False


def _slot(obj, t: type, name: str):
    """`obj`'s slot `name` as its class's C member descriptor reads it, or None."""
    for klass in type.__dict__["__mro__"].__get__(t):
        held = type.__dict__["__dict__"].__get__(klass).get(name)
        if held is not None:
            if type(held) is not types.MemberDescriptorType:
                return None
            try:
                return held.__get__(obj, t)
            except AttributeError:  # the slot is empty
                return None
    return None


_INDEX, _KEY, _ATTRIBUTE = 0, 1, 2
_BIG = 10**18  # an int key past this is data (and past 4,300 digits, not even printable)
# how a class without a `__dict__` of its own holds it (in C: no user code runs)
_SLOTS = (types.GetSetDescriptorType, types.MemberDescriptorType)


def _plain_dict(t: type) -> bool:
    """Whether `t`'s instances keep their attributes the usual way: no class on its MRO
    defines `__dict__` itself (a property there would run the user's code)."""
    for klass in type.__dict__["__mro__"].__get__(t):
        held = type.__dict__["__dict__"].__get__(klass).get("__dict__")
        if held is not None and type(held) not in _SLOTS:
            return False
    return True


def _children(obj, t: type):
    """(how they are written, (key, child) pairs) for what `obj` holds, or None for what
    is not looked into."""
    if issubclass(t, list):
        return _INDEX, enumerate(list.__iter__(obj))
    if issubclass(t, tuple):
        return _INDEX, enumerate(tuple.__iter__(obj))
    if issubclass(t, dict):
        return _KEY, ((key, item) for key, item in dict.items(obj)
                      if type(key) is str or type(key) is int and -_BIG < key < _BIG)
    if issubclass(t, _OPAQUE) or issubclass(t, _ATOMS) or not _plain_dict(t):
        return None
    try:
        attributes = object.__getattribute__(obj, "__dict__")
    except (AttributeError, TypeError):
        return None
    if type(attributes) is not dict:
        return None
    return _ATTRIBUTE, ((key, item) for key, item in dict.items(attributes)
                        if type(key) is str and not key.startswith("_") and key.isidentifier())


def variable_of(namespaces: Iterable[Mapping], obj) -> str | None:
    """The first variable (not starting with '_') of `namespaces` bound to `obj`."""
    for namespace in namespaces:
        if not isinstance(namespace, dict):
            continue
        for name, value in dict.items(namespace):
            if value is obj and type(name) is str and name.isidentifier() \
                    and not name.startswith("_") and name not in SHELL_NAMES:
                return name
    return None


def identifier(name: str, taken: set[str] | frozenset = frozenset()) -> str:
    """`name` made a name the expression language accepts, clashing with nothing in
    `taken`: `model.layers[0].w[1]` -> `model_layers_0_w_1`,
    `state_dict['wte'][4][2]` -> `state_dict_wte_4_2`."""
    base = _NOT_WORD.sub("_", name).strip("_") or "v"
    if base[0].isdigit():
        base = f"v_{base}"
    if keyword.iskeyword(base):
        base += "_"
    candidate, k = base, 2
    while candidate in taken:
        candidate = f"{base}_{k}"
        k += 1
    return candidate
