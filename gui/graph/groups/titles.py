"""A group's title, said as what it computes: `relu(Σ 16 terms + b)`, `softmax(27)`,
`rmsnorm(16)`, `Σ 100 terms`, `tanh(…)`; an instance by a name inside (`inputs[7]`)."""
# Qt-free: grouped in a child process, which never loads Qt (tests/test_structure.py).

from __future__ import annotations

import re

from engine.core import ops
from gui.graph.groups.model import GraphArrays
from gui.graph.groups.names import path_parts

_ADD, _MUL, _DIV, _EXP = ops.ADD.name, ops.MUL.name, ops.DIV.name, ops.EXP.name
_MAX_CALLS = 12  # a title says at most this many nested operations
_NAMED_TERMS = 2  # a Σ names at most this many of its leaf terms
# how tightly an op's title binds: a sum 1, a product 2; - and ÷ group to the left
_BINDS = {ops.ADD.name: 1, ops.SUB.name: 1, ops.MUL.name: 2, ops.DIV.name: 2}
_LEFT_ONLY = {ops.SUB.name, ops.DIV.name}


_CONSTANT = re.compile(r"(?<![\w.\[])c(?![\w\[(])")  # a title's `c`, not a name's


def has_constant(title: str) -> bool:
    """Whether `title` says a number of the program (an unnamed leaf) as `c`."""
    return _CONSTANT.search(title) is not None


_LAYER = re.compile(r"layer\((\d+) → (\d+)\)")  # `layer(24 → 4)` in a title


def layer_said(title: str) -> str:
    """What a title's `layer(24 → 4)` means, in a sentence ('' if it says none): how
    many results the group computes alike and from how many values made outside it."""
    found = _LAYER.search(title)
    if found is None:
        return ""
    reads, results = found[1], found[2]
    return (f"layer({reads} → {results}) is {results} results computed alike, as a layer's "
            f"neurons are, each from the same {reads} values made outside it.")


def closes_at_end(text: str) -> bool:
    """True if the first '(' of text is closed by its last character."""
    depth = 0
    for k, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch == ")":
            return k == len(text) - 1
    return False


def short_name(label: str) -> str:
    """A leaf's name shortened to its last part: '…neurons[3].b' → 'b', '….w[0]' → 'w[0]'."""
    parts = path_parts(label)
    if parts is None:
        return label
    k = len(parts) - 1
    while k > 0 and parts[k].startswith("[") and parts[k][1] not in "'\"":
        k -= 1
    last = parts[k][2:-2] if parts[k].startswith("[") else parts[k].lstrip(".")
    return last + "".join(parts[k + 1:])


def row_name(prefix: str) -> str:
    """A row's path said from its last two named steps: "state_dict['wte'][5]" →
    'wte[5]', 'model.layers[0].neurons[3]' → 'layers[0].neurons[3]'."""
    parts = path_parts(prefix)
    if parts is None or len(parts) < 2:
        return prefix
    named = [k for k, p in enumerate(parts) if k and not (p.startswith("[")
                                                        and p[1] not in "'\"")]
    start = named[-2] if len(named) >= 2 and parts[named[-1]].startswith(".") else (
        named[-1] if named else 0)
    text = "".join(parts[start:])
    if text.startswith("['") or text.startswith('["'):
        end = text.index(text[1], 2)
        text = text[2:end] + text[end + 2:]
    return text.lstrip(".")


def extends(inner: str, outer: str) -> bool:
    """True if the path `inner` is the path `outer` and more steps: 'model.layers[1]'
    extends 'model', 'model.layers[1].neurons[3]' extends 'model.layers[1]'."""
    return (len(inner) > len(outer) and inner.startswith(outer)
            and inner[len(outer)] in ".[" and path_parts(inner) is not None)


def path_said(titles: list[str]) -> str:
    """Nested groups' titles, outermost first, said as one path: a title the next one
    extends is left unsaid (['model', 'model.layers[1]'] → 'model.layers[1]'), the
    others joined by ' › ' (['losses[7]', 'softmax(27)'] → 'losses[7] › softmax(27)')."""
    return " › ".join(t for k, t in enumerate(titles)
                      if k + 1 == len(titles) or not extends(titles[k + 1], t))


def stepped_said(phase: str, title: str) -> str:
    """The step counter's `phase` ('forward 2/12 · inside model') and the title of the
    group just stepped: 'forward 2/12 · inside model.layers[1]' where its path extends
    the one it is inside, else 'forward 5/12 · inside loss · reg_loss'."""
    head, inside, outer = phase.rpartition(" · inside ")
    if inside and extends(title, outer):
        return f"{head}{inside}{title}"
    return f"{phase} · {title}"


class Describer:
    """Titles for the nodes of one graph; `heads` is each node's chain head."""

    def __init__(self, arrays: GraphArrays, head: list[int]):
        self.arrays = arrays
        self.head = head
        self.calls = 0  # functions of functions being said
        self.within: set[int] | None = None  # if set: a result outside it is said '…'
        self.constants: list[int] | None = None  # if set: each leaf said 'c', in order

    def terms(self, v: int) -> list[int]:
        """The operands of the chain v is the last link of, in operand order."""
        parents, head = self.arrays.parents, self.head
        found, stack = [], [v]
        while stack:
            u = stack.pop()
            for p in reversed(parents[u]):
                if head[p] == v and p != v:
                    stack.append(p)
                else:
                    found.append(p)
        return found[::-1]

    def counted(self, v: int) -> list[int]:
        """The terms of v's chain but its numbers (an unnamed leaf: the 0 `sum` starts
        from, in microgpt's engine)."""
        parents, labels = self.arrays.parents, self.arrays.labels
        return [t for t in self.terms(v) if parents[t] or labels[t]]

    def leaf(self, v: int) -> str:
        label = self.arrays.labels[v]
        if not label and self.constants is not None:
            self.constants.append(v)
        return short_name(label) if label else "c"

    def chain(self, v: int) -> str:
        """A chain of + as Σ of its terms (its unnamed constants, micrograd's 0, left
        unsaid), a chain of * as Π; a product of three or fewer as it is written."""
        terms = self.terms(v)
        op, parents, labels = self.arrays.ops, self.arrays.parents, self.arrays.labels
        counted = self.counted(v)
        if op[v] == _ADD and len(counted) >= 2 and all(op[t] == _EXP for t in counted):
            return f"Σ exp ({len(counted)})"
        if op[v] == _MUL and len(terms) <= 3 or len(terms) == 2:  # as written
            entry = ops.of(op[v])
            return f" {entry.symbol} ".join(self.operand(t, 1, _BINDS[op[v]]) for t in terms)
        results = sum(1 for t in terms if parents[t])
        named = [t for t in terms if not parents[t] and labels[t]]
        if len(named) > _NAMED_TERMS or not results:
            results, named = results + len(named), []
        if not results:
            results = len(terms)
        sign, word, joiner = (("Σ", "terms", " + ") if op[v] == _ADD
                              else ("Π", "factors", " · "))
        return f"{sign} {results} {word}" + "".join(joiner + self.leaf(t) for t in named)

    def binary(self, v: int, budget: int) -> str:
        a, b = self.arrays.parents[v]
        entry = ops.of(self.arrays.ops[v])
        symbol = entry.symbol if entry is not None else self.arrays.ops[v]
        if budget <= 0 and (self.arrays.parents[a] or self.arrays.parents[b]):
            return "…"
        mine = _BINDS.get(self.arrays.ops[v], 3)
        left = self.operand(a, budget - 1, mine)
        right = self.operand(b, budget - 1, mine + (self.arrays.ops[v] in _LEFT_ONLY))
        return f"{left} {symbol} {right}"

    def operand(self, v: int, budget: int, binds: int = 4) -> str:
        """v's title as an operand of an op that binds `binds` tightly (+ 1, × 2)."""
        text = self.describe(v, budget)
        return f"({text})" if self.binding(v, text) < binds else text

    def binding(self, v: int, text: str) -> int:
        """How tightly v's title holds together: 1 a sum (a Σ said in words too), 2 a
        product, 3 a power, 4 a name or a call."""
        op, parents = self.arrays.ops[v], self.arrays.parents[v]
        if " " not in text or not parents or text.endswith(")") and text[0].isalpha() \
                and text.index("(") < text.find(" ") and closes_at_end(text):
            return 4
        if text.startswith(("Σ", "Π")):  # 'Σ 8 terms ÷ c' would read as Σ (8 terms ÷ c)
            return 1
        return _BINDS.get(op, 3)

    def inverse_of(self, v: int) -> int:
        """u if v is u**-1 (how microgpt divides: e * total**-1), else -1."""
        op = self.arrays.ops[v]
        if ops.of(op) is ops.POWER and ops.exponent(op) == -1:
            return self.arrays.parents[v][0]
        return -1

    def softmax_size(self, v: int) -> int:
        """N if v is one output of a softmax over N (exp / Σ exp, or exp · (Σ exp)**-1),
        else 0."""
        arrays = self.arrays
        if len(arrays.parents[v]) != 2:
            return 0
        num, den = arrays.parents[v]
        if arrays.ops[v] == _MUL and arrays.ops[num] != _EXP:
            num, den = den, num
        if arrays.ops[v] == _MUL:
            den = self.inverse_of(den)
        elif arrays.ops[v] != _DIV:
            return 0
        terms = self.counted(den) if den >= 0 and arrays.ops[den] == _ADD else []
        if arrays.ops[num] == _EXP and terms and all(  # one: a head at position 0
                arrays.ops[t] == _EXP for t in terms):
            return len(terms)
        return 0

    def rms_size(self, v: int) -> int:
        """N if v is rmsnorm's scale, (Σ x·x / N + ε)^-0.5, else 0."""
        arrays = self.arrays
        if ops.of(arrays.ops[v]) is not ops.POWER or ops.exponent(arrays.ops[v]) != -0.5:
            return 0
        u = arrays.parents[v][0]
        while arrays.ops[u] in (_ADD, _DIV, _MUL) and self.terms(u) == list(
                arrays.parents[u]) and self._by_number(u) >= 0:  # ÷ N, + ε
            u = self._by_number(u)
        terms = self.counted(u) if arrays.ops[u] == _ADD else []
        squares = all(arrays.ops[t] == _MUL and len(set(arrays.parents[t])) == 1
                      and len(arrays.parents[t]) == 2 for t in terms)
        return len(terms) if len(terms) >= 2 and squares else 0

    def _by_number(self, u: int) -> int:
        """The operand a one-operand op, or an op with one unnamed leaf operand (a
        number), applies to; -1 if it has none."""
        ps = self.arrays.parents[u]
        if len(ps) == 1:
            return ps[0]
        numbers = [p for p in ps if not self.arrays.parents[p] and not self.arrays.labels[p]]
        if len(ps) == 2 and len(numbers) == 1:
            return ps[1] if numbers[0] == ps[0] else ps[0]
        return -1

    def describe(self, v: int, budget: int = 2) -> str:
        """What node v computes, `budget` levels of binary operands deep (and functions
        of functions, `tanh(tanh(…))`, at most _MAX_CALLS deep)."""
        if self.calls >= _MAX_CALLS:
            return "…"
        self.calls += 1
        try:
            return self._describe(v, budget)
        finally:
            self.calls -= 1

    def _describe(self, v: int, budget: int) -> str:
        arrays = self.arrays
        op, parents = arrays.ops[v], arrays.parents[v]
        if not parents:
            return self.leaf(v)
        if self.within is not None and v not in self.within:
            return "…"
        if k := self.softmax_size(v):
            return f"softmax({k})"
        if k := self.rms_size(v):
            return f"1/rms({k})"
        if op in (_ADD, _MUL) and self.terms(v) != list(parents):
            return self.chain(v)
        if len(parents) == 1:
            entry = ops.of(op)
            if entry is not None and entry.function or op in (ops.NEG.name, ops.RELU.name):
                return f"{op}({self.describe(parents[0], budget)})"
            symbol = entry.symbol if entry is not None and entry.arity == 2 else op
            binds = 3 if entry is ops.POWER else _BINDS.get(op, 3)
            inner = self.operand(parents[0], budget - 1, binds) if budget > 0 else "…"
            if entry is ops.POWER and ops.exponent(op) == -1:
                return f"1/{inner}"  # microgpt's division: a * b**-1
            return f"{inner}{op}" if entry is ops.POWER else f"{inner} {symbol} c"
        if op in (_ADD, _MUL) and len(parents) == 2 and budget <= 0:
            return self.chain(v)
        return self.binary(v, budget)
