"""Forward mode: dual numbers carrying a primal value and a tangent.

The rules are the Value rules, applied forward: every operation computes its output's
primal and, by the chain rule, its tangent (d output / d t along the direction that the
inputs' tangents give).
One pass gives one directional derivative, so a full gradient takes one pass per
parameter: the cost the lesson measures against reverse mode.

Every op's dual-number rule is its entry's in engine/core/ops.py (`Op.tangent`): the lesson's
ops are written out below for speed (as in `Value`), the others made from the table, and
`program_jvp` runs a parsed program through the table's rules.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from engine.core import ops
from engine.core.ops import sigmoid
from engine.language.program import CONST, INPUT, POW, Program


class Dual:
    """A number `primal` with its derivative `tangent` along one direction."""

    __slots__ = ("primal", "tangent")

    def __init__(self, primal: float, tangent: float = 0.0):
        self.primal = float(primal)
        self.tangent = float(tangent)

    def __repr__(self) -> str:
        return f"Dual(primal={self.primal!r}, tangent={self.tangent!r})"

    def __add__(self, other) -> Dual:
        if isinstance(other, Dual):
            return Dual(self.primal + other.primal, self.tangent + other.tangent)
        return Dual(self.primal + other, self.tangent)

    def __sub__(self, other) -> Dual:
        if isinstance(other, Dual):
            return Dual(self.primal - other.primal, self.tangent - other.tangent)
        return Dual(self.primal - other, self.tangent)

    def __mul__(self, other) -> Dual:
        if isinstance(other, Dual):  # (ab)' = a'b + ab'
            return Dual(self.primal * other.primal,
                        self.tangent * other.primal + self.primal * other.tangent)
        return Dual(self.primal * other, self.tangent * other)

    def __truediv__(self, other) -> Dual:
        if isinstance(other, Dual):  # (a/b)' = a'/b - (a/b) b'/b
            q = self.primal / other.primal
            return Dual(q, self.tangent / other.primal - q * other.tangent / other.primal)
        return Dual(self.primal / other, self.tangent / other)

    def __pow__(self, exponent) -> Dual:
        if isinstance(exponent, Dual):
            return _pow_input(self, exponent)
        k = float(exponent)
        local = 0.0 if k == 0.0 else k * math.pow(self.primal, k - 1.0)
        return Dual(math.pow(self.primal, k), local * self.tangent)

    def __rpow__(self, base) -> Dual:
        return _pow_input(Dual(base), self)

    def __radd__(self, other) -> Dual:
        return Dual(other + self.primal, self.tangent)

    def __rsub__(self, other) -> Dual:
        return Dual(other - self.primal, -self.tangent)

    def __rmul__(self, other) -> Dual:
        return Dual(other * self.primal, other * self.tangent)

    def __rtruediv__(self, other) -> Dual:
        q = other / self.primal
        return Dual(q, -q * self.tangent / self.primal)

    def __neg__(self) -> Dual:
        return Dual(-self.primal, -self.tangent)

    def tanh(self) -> Dual:
        t = math.tanh(self.primal)
        return Dual(t, (1.0 - t * t) * self.tangent)

    def relu(self) -> Dual:
        x = self.primal
        return Dual(x if x > 0.0 else 0.0, self.tangent if x > 0.0 else 0.0)

    def exp(self) -> Dual:
        e = math.exp(self.primal)
        return Dual(e, e * self.tangent)

    def log(self) -> Dual:
        return Dual(math.log(self.primal), self.tangent / self.primal)

    def sigmoid(self) -> Dual:
        s = sigmoid(self.primal)
        return Dual(s, s * (1.0 - s) * self.tangent)


def _pow_input(x: Dual, y: Dual) -> Dual:
    entry = ops.POW_INPUT
    out = entry.forward(x.primal, y.primal)
    return Dual(out, entry.tangent(out, (x.primal, y.primal), (x.tangent, y.tangent)))


def dual_method(op: ops.Op):
    """`Dual`'s method for a function op of the table, made from its entry."""
    forward = op.forward

    def method(self: Dual) -> Dual:
        x = self.primal
        out = forward(x)
        return Dual(out, op.tangent(out, (x,), (self.tangent,)))

    method.__name__ = method.__qualname__ = op.method
    return method


for _op in ops.FUNCTIONS:
    if not _op.written_out:
        setattr(Dual, _op.method, dual_method(_op))
Dual.__abs__ = Dual.abs


def program_jvp(program: Program, tangents: dict[str, float]) -> tuple[float, float]:
    """(the program's output, its derivative along `tangents`, input name -> tangent,
    inputs not named having 0), in one forward pass through the table's dual rules."""
    primals: list[float] = []
    dots: list[float] = []
    for ins, value in zip(program.instructions, program.values):
        if ins.op == INPUT:
            p, t = value.data, tangents.get(value.label, 0.0)
        elif ins.op == CONST:
            p, t = ins.number, 0.0
        else:
            entry = ops.BY_NAME[ins.op]
            args = tuple(primals[a] for a in ins.args)
            arg_dots = tuple(dots[a] for a in ins.args)
            if ins.op == POW:
                args += (ins.number,)
            p = entry.forward(*args)
            t = entry.tangent(p, args, arg_dots)
        primals.append(p)
        dots.append(t)
    return primals[program.output_index], dots[program.output_index]


def jvp(f: Callable, primals: Sequence[float], tangents: Sequence[float]) -> tuple[float, float]:
    """(f(primals), the derivative of f at primals along tangents), in one forward pass.

    `f` takes a list of numbers and must use only operations Dual supports.
    """
    out = f([Dual(p, t) for p, t in zip(primals, tangents)])
    return out.primal, out.tangent


def forward_gradient(f: Callable, primals: Sequence[float]) -> list[float]:
    """The full gradient of scalar `f` at `primals` by forward mode: one pass per input."""
    n = len(primals)
    return [jvp(f, primals, [1.0 if j == i else 0.0 for j in range(n)])[1] for i in range(n)]
