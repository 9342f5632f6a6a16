"""The op table: everything the app knows about an operation, one entry per op.

Like PyTorch's `derivatives.yaml`, without code generation: each `Op` holds the op's
forward function, its local derivatives, its domain check, its spelling in the
expression language, its inspector formula, its 50-digit reference, its TensorFlow,
PyTorch and JAX spelling, its check-engine cases with the likely causes of a wrong
answer, and its row in the Rules tab. The parser, the program builder, the inspector,
the reference, forward mode, the TensorFlow check, code export, check-engine, graph
import and the Rules tab read this table; none of them spells an op itself (a test,
tests/engine/test_op_table.py, scans engine/, gui/ and cli/ for op names in strings).

Adding a function op is one entry here and its tests: give it its forward function,
its local derivative, a domain check if it has one, its inspector template, a 50-digit
reference, its three framework spellings, a check-engine check with a case or two and
the bugs it can name, and a Rules-tab row; mark it `function=True` and put it in OPS.
The file is long on purpose: one entry per op, read top to bottom, like PyTorch's table.

How `Value` relates to the table: `Value`'s operators and the methods of the ops the
lesson trains with (`tanh relu exp log sigmoid`) stay written out in engine/core/value.py,
because one call fewer per node is what keeps an XOR epoch fast; a test holds each of
them to the table (the same `op` string, the same value and local derivatives at many
points). Every other function op (`sin cos sqrt abs`) is made into a `Value` method
from its entry here (`Value.sin` is `value_method(SIN)`), and so is its `Dual` rule.

Calling conventions, for every op: `forward(*operands)` is the value, `local(out,
*operands)` the tuple of d out/d operand (one per parent), `domain(*operands)` why the
op cannot be applied there (None if it can). The power with a number exponent, whose
exponent is part of the op (`**3` on a node), gets that exponent as a last operand.
The dual-number rule of every op is the chain rule over `local`: the tangent out is
Σ local_i · tangent_i (`Op.tangent`).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, localcontext

from engine.numbers import number


@dataclass(frozen=True)
class Check:
    """One check of check-engine: `name` as reported, the class `method` it needs (a
    class without it is reported missing), its cases as (formula, input names, points),
    and the bugs it can name, each a sentence and the local derivatives that bug would
    compute from (a, b, out, k)."""

    name: str
    method: str
    cases: tuple[tuple[str, str, tuple[tuple[float, ...], ...]], ...]
    bugs: tuple[tuple[str, Callable], ...] = ()
    reflected: bool = False  # 2 + x: the user's __radd__ and friends


@dataclass(frozen=True)
class RuleRow:
    """One row of the Rules tab: a one-input program, its derivative as calculus gives
    it, and that derivative as a learner writes it."""

    name: str
    program: str
    analytic: Callable[[float], float]
    formula: str


@dataclass(frozen=True)
class Op:
    """One operation. `name` is what a node records (`Value.op`, `Instruction.op`) and
    `spelling` how the language writes it (a function's name, or an operator); `symbol`
    labels its node on the graph. `explain` gives, per operand, the inspector's rule and
    its numbers as a template (see engine.core.explain); `tensorflow`, `pytorch` and `jax`
    name the framework function (an infix op is written with `infix` instead)."""

    name: str
    spelling: str
    symbol: str
    arity: int
    forward: Callable
    local: Callable
    reference: Callable
    tensorflow: str
    pytorch: str
    jax: str
    checks: tuple[Check, ...]
    rules: tuple[RuleRow, ...] = ()
    domain: Callable | None = None
    explain: tuple[str, ...] = ()
    infix: str = ""             # '+' for a + b in Python and every framework
    method: str = ""            # Value's method: 'tanh', '__add__'
    function: bool = False      # called by name in the language: tanh(x)
    keeps_zero: bool = False    # f(0) = 0, so round-off in its operand stays round-off
    lesson: bool = False        # one of the lesson's activations (engine.lesson.nn)
    written_out: bool = False   # Value's method is written out in engine/core/value.py
    python: Callable | None = None  # an operator as Python applies it to any values
    aliases: tuple[str, ...] = ()   # other engines' names for it on a node ('ReLU')
    # graph import: besides its value, what tells this op apart on a node that records
    # its local derivative g but no op name: recognises(x, y, g)
    recognises: Callable | None = None
    # a lesson activation on a numpy array, numpy(np, z): numpy is handed in, not imported
    # here, so that the window starts without it
    numpy: Callable | None = None

    def call(self, *operands):
        """The op applied to values of any engine (a user's, numbers): its operator, or
        its method by name."""
        if self.python is not None:
            return self.python(*operands)
        return getattr(operands[0], self.method)()

    def tangent(self, out: float, operands: tuple, tangents: tuple) -> float:
        """The dual-number rule: d out along the direction the operands' tangents give."""
        return sum(g * t for g, t in zip(self.local(out, *operands), tangents))


# -- the functions the table's entries are made of --------------------------------------

def sigmoid(x: float) -> float:
    """1 / (1 + e^-x), in whichever of two forms keeps exp from overflowing."""
    if x >= 0.0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _power(x: float, k: float) -> float:
    return math.pow(x, k)  # raises ValueError where ** would return a complex number


def _power_local(out: float, x: float, k: float) -> tuple[float]:
    if k == 0.0:
        return (0.0,)
    if abs(k) < 2.0**53:  # k - 1 is exact
        return (k * math.pow(x, k - 1.0),)
    # k is an even integer and k - 1 (odd) rounds back to k: x**(k-1) keeps the sign of
    # x, and its size is finite and non-zero only where |x| == 1
    return (k * math.copysign(math.pow(abs(x), k - 1.0), x),)


def _pow_input(x: float, y: float) -> float:
    if x <= 0.0:
        raise ValueError(f"x**y with y a Value needs a positive base (d(x^y)/dy = x^y·ln x), "
                         f"not {x!r}")
    return math.pow(x, y)


def _pow_input_local(out: float, x: float, y: float) -> tuple[float, float]:
    # d(x^y)/dx = y·x^(y-1), d(x^y)/dy = x^y·ln x
    return (y * math.pow(x, y - 1.0), out * math.log(x))


def _sqrt_local(out: float, x: float) -> tuple[float]:
    if out == 0.0:
        raise ValueError("sqrt has no finite derivative at 0")
    return (0.5 / out,)


def _abs_local(out: float, x: float) -> tuple[float]:
    # abs'(0) = 0, as relu'(0) = 0
    return (1.0 if x > 0.0 else -1.0 if x < 0.0 else 0.0,)


# -- domain checks: why an op cannot be applied, in the words the user sees ---------------

def _division_domain(x: float, y: float) -> str | None:
    return f"division by zero: {number(x)} / 0" if y == 0.0 else None


def _log_domain(x: float) -> str | None:
    return f"log needs a positive number, but its argument is {number(x)}" if x <= 0.0 else None


def _sqrt_domain(x: float) -> str | None:
    if x < 0.0:
        return f"sqrt needs a number that is not negative, but its argument is {number(x)}"
    if x == 0.0:
        return "the derivative of sqrt(x) is infinite at x = 0 (1/(2·sqrt(x)))"
    return None


def _power_domain(x: float, k: float) -> str | None:
    if x == 0.0 and k < 0.0:
        return f"0 cannot be raised to a negative power ({number(k)})"
    if x < 0.0 and not k.is_integer():
        return (f"a negative number ({number(x)}) cannot be raised to a fractional "
                f"power ({number(k)})")
    if x == 0.0 and 0.0 < k < 1.0:
        return f"the derivative of x**{number(k)} is infinite at x = 0"
    return None


def _pow_input_domain(x: float, y: float) -> str | None:
    if x <= 0.0:
        return (f"the base of ** must be positive when its exponent depends on an input "
                f"(d(x^y)/dy = x^y·ln x), but the base is {number(x)}")
    return None


# -- 50-digit references (decimal has exp, ln and sqrt, not these) -----------------------

_PI = Decimal("3.14159265358979323846264338327950288419716939937510582097494459230781640")


def _d_tanh(x: Decimal) -> Decimal:
    if x < 0:
        return -_d_tanh(-x)
    e = (-2 * x).exp()
    return (1 - e) / (1 + e)


def _d_sigmoid(x: Decimal) -> Decimal:
    if x >= 0:
        return 1 / (1 + (-x).exp())
    e = x.exp()
    return e / (1 + e)


def _d_sin(x: Decimal) -> Decimal:
    """sin by its Taylor series, after reducing x to [-π, π], 10 digits to spare."""
    with localcontext() as ctx:
        ctx.prec += 10
        two_pi = 2 * _PI
        x = x - two_pi * (x / two_pi).to_integral_value()
        term, total, n = x, x, 1
        while True:
            term = -term * x * x / ((2 * n) * (2 * n + 1))
            if total + term == total:
                break
            total += term
            n += 1
    return +total


def _d_cos(x: Decimal) -> Decimal:
    return _d_sin(x + _PI / 2)


def _d_power(x: Decimal, k: float) -> Decimal:
    if float(k).is_integer():
        return x ** int(k)
    return x ** Decimal(repr(k))


# -- the table ------------------------------------------------------------------------------

def _sq(x):
    return x * x


ADD = Op(
    "+", "+", "+", 2, lambda a, b: a + b, lambda o, a, b: (1.0, 1.0), lambda a, b: a + b,
    "tf.add", "torch.add", "jnp.add",
    checks=(Check("add", "__add__", (("x + y", "x y", ((1.5, -2.0), (0.25, 3.0))),)),
            Check("radd", "__radd__", (("2 + x", "x", ((1.5,), (-3.0,))),
                                       ("2 + (2 + x)", "x", ((0.5,),))), reflected=True)),
    rules=(RuleRow("add", "x = 1.5\ny = x + 2.5", lambda x: 1.0, "1"),),
    explain=("1", "1"), infix="+", method="__add__", python=operator.add)

SUB = Op(
    "-", "-", "−", 2, lambda a, b: a - b, lambda o, a, b: (1.0, -1.0), lambda a, b: a - b,
    "tf.subtract", "torch.sub", "jnp.subtract",
    checks=(Check("sub", "__sub__", (("x - y", "x y", ((1.5, -2.0), (0.25, 3.0))),
                                     ("x - (y - z)", "x y z", ((1.0, 2.0, 0.5),)))),
            Check("rsub", "__rsub__", (("2 - x", "x", ((1.5,), (-3.0,))),
                                       ("2 - (2 - x)", "x", ((0.5,),))), reflected=True)),
    rules=(RuleRow("subtraction", "x = 1.5\ny = x - 2.5", lambda x: 1.0, "1"),),
    explain=("1", "-1"), infix="-", method="__sub__", python=operator.sub)

_MUL_BUGS = (("the rule multiplies by the wrong operand: d(x·y)/dx received x instead of y "
              "(each operand's own value instead of the other one's)",
              lambda a, b, o, k: (a, b)),)

MUL = Op(
    "*", "*", "×", 2, lambda a, b: a * b, lambda o, a, b: (b, a), lambda a, b: a * b,
    "tf.multiply", "torch.mul", "jnp.multiply",
    checks=(Check("mul", "__mul__", (("x * y", "x y", ((3.0, -2.0), (0.5, 4.0), (-1.5, -0.25))),
                                     ("(x * y) * z", "x y z", ((1.5, -2.0, 3.0),))), _MUL_BUGS),
            Check("rmul", "__rmul__", (("2 * x", "x", ((1.5,), (-3.0,))),
                                       ("2 * (2 * x)", "x", ((0.5,),))), _MUL_BUGS,
                  reflected=True)),
    rules=(RuleRow("multiply", "x = 1.5\ny = x * 2.0", lambda x: 2.0, "2"),),
    explain=("{y}", "{x}"), infix="*", method="__mul__", keeps_zero=True,
    python=operator.mul)

DIV = Op(
    # d(a/b)/db = -a/b^2, written -q/b so a tiny b cannot underflow b*b
    "/", "/", "÷", 2, lambda a, b: a / b, lambda o, a, b: (1.0 / b, -o / b),
    lambda a, b: a / b, "tf.divide", "torch.div", "jnp.divide",
    checks=(Check("div", "__truediv__", (("x / y", "x y", ((3.0, -2.0), (0.5, 4.0))),
                                         ("(x / y) / z", "x y z", ((1.5, -2.0, 3.0),))),
                  (("d(x/y)/dy received -1/y² instead of -x/y²",
                    lambda a, b, o, k: (1 / b, -1 / _sq(b))),
                   ("d(x/y)/dx received y instead of 1/y", lambda a, b, o, k: (b, -a / _sq(b))))),
            Check("rdiv", "__rtruediv__", (("2 / x", "x", ((4.0,), (-0.5,))),
                                           ("2 / (2 / x)", "x", ((1.5,),))),
                  (("d(2/x)/dx received -1/x² instead of -2/x²",
                    lambda a, b, o, k: (-1 / _sq(b),)),), reflected=True)),
    rules=(RuleRow("division", "x = 1.5\ny = x / 2.5", lambda x: 0.4, "1/2.5"),),
    domain=_division_domain, infix="/", method="__truediv__", python=operator.truediv)

POWER = Op(
    # the exponent is a number, part of the op: a node records '**3'
    "**", "**", "x^k", 1, _power, _power_local, _d_power, "tf.pow", "torch.pow", "jnp.power",
    checks=(Check("pow", "__pow__", (("x ** 3", "x", ((1.5,), (-2.0,), (0.5,))),
                                     ("x ** 2", "x", ((-1.25,),)),
                                     ("x ** -1", "x", ((2.0,),)),
                                     ("x ** 0.5", "x", ((4.0,),)),
                                     ("(x ** 3) ** 2", "x", ((1.2,),))),
                  (("n·x^n instead of n·x^(n-1)", lambda a, b, o, k: (k * a ** k,)),
                   ("x^(n-1) instead of n·x^(n-1): the factor n is missing",
                    lambda a, b, o, k: (a ** (k - 1),)),
                   ("n·x instead of n·x^(n-1)", lambda a, b, o, k: (k * a,)))),),
    rules=(RuleRow("power (cube)", "x = 1.5\ny = x**3", lambda x: 3 * x * x, "3x²"),),
    domain=_power_domain, infix="**", method="__pow__",
    # an integer exponent stays an int, as a learner's engine may expect: x ** 3
    python=lambda x, k: x ** (int(k) if float(k).is_integer() else k))

NEG = Op(
    "neg", "-", "−x", 1, lambda a: -a, lambda o, a: (-1.0,), lambda a: -a,
    "tf.negative", "torch.neg", "jnp.negative",
    checks=(Check("neg", "__neg__", (("-x", "x", ((2.5,), (-1.0,))),
                                     ("-(-x)", "x", ((0.75,),)))),),
    rules=(RuleRow("negation", "x = 1.5\ny = -x", lambda x: -1.0, "-1"),),
    explain=("-1",), method="__neg__", keeps_zero=True, python=operator.neg)

TANH = Op(
    "tanh", "tanh", "tanh", 1, math.tanh, lambda o, x: (1.0 - o * o,), _d_tanh,
    "tf.tanh", "torch.tanh", "jnp.tanh", numpy=lambda np, z: np.tanh(z),
    checks=(Check("tanh", "tanh", (("tanh(x)", "x", ((0.5,), (-1.2,), (2.0,))),
                                   ("tanh(tanh(x))", "x", ((0.8,),))),
                  (("1 - t instead of 1 - t² (t = tanh(x))", lambda a, b, o, k: (1 - o,)),
                   ("1 - x² (x, the input) instead of 1 - t² (t, the output)",
                    lambda a, b, o, k: (1 - a * a,)))),),
    rules=(RuleRow("tanh", "x = 0.5\ny = tanh(x)", lambda x: 1 - math.tanh(x) ** 2,
                   "1 - tanh²(x)"),),
    explain=("1 - tanh({xarg})^2 = 1 - {ob}^2 {sign} {result}",),
    method="tanh", function=True, keeps_zero=True, lesson=True, written_out=True)

RELU = Op(
    # relu'(0) = 0: the flat branch is the one that ran
    "relu", "relu", "relu", 1, lambda x: x if x > 0.0 else 0.0,
    lambda o, x: (1.0 if x > 0.0 else 0.0,), lambda x: x if x > 0 else Decimal(0),
    "tf.nn.relu", "torch.relu", "jax.nn.relu", numpy=lambda np, z: np.maximum(z, 0.0),
    # both sides of the kink, never on it (relu'(0) is a convention, not a bug)
    checks=(Check("relu", "relu", (("relu(x)", "x", ((-1.5,), (0.7,), (2.0,))),
                                   ("relu(relu(x))", "x", ((1.3,), (-0.4,)))),
                  (("relu passes the gradient for negative inputs: relu'(x) is 0 for x < 0",
                    lambda a, b, o, k: (1.0,)),
                   ("relu blocks the gradient for positive inputs: relu'(x) is 1 for x > 0",
                    lambda a, b, o, k: (0.0,)),
                   ("relu multiplies by its input instead of by 1 for x > 0",
                    lambda a, b, o, k: (a if a > 0 else 0.0,)))),),
    rules=(RuleRow("relu (x > 0)", "x = 1.5\ny = relu(x)", lambda x: 1.0, "1"),),
    explain=("1 if {x} > 0 else 0; {x} = {xn} {above} 0, so {result}",),
    aliases=("ReLU",), recognises=lambda x, y, g: g in (0, 1),
    method="relu", function=True, keeps_zero=True, lesson=True, written_out=True)

EXP = Op(
    "exp", "exp", "exp", 1, math.exp, lambda o, x: (o,), lambda x: x.exp(),
    "tf.exp", "torch.exp", "jnp.exp",
    checks=(Check("exp", "exp", (("exp(x)", "x", ((0.5,), (-1.0,))),
                                 ("exp(exp(x))", "x", ((0.3,),))),
                  (("x (the input) instead of e^x", lambda a, b, o, k: (a,)),)),),
    rules=(RuleRow("exp", "x = 0.5\ny = exp(x)", math.exp, "exp(x)"),),
    explain=("exp({xarg}) = exp({xn}) = {result}",),
    recognises=lambda x, y, g: math.isclose(g, y, rel_tol=1e-9, abs_tol=1e-12),
    method="exp", function=True, written_out=True)

LOG = Op(
    "log", "log", "log", 1, math.log, lambda o, x: (1.0 / x,), lambda x: x.ln(),
    "tf.math.log", "torch.log", "jnp.log",
    checks=(Check("log", "log", (("log(x)", "x", ((2.0,), (0.5,))),
                                 ("log(log(x))", "x", ((3.0,),))),
                  (("x instead of 1/x", lambda a, b, o, k: (a,)),
                   ("log(x) instead of 1/x", lambda a, b, o, k: (o,)))),),
    rules=(RuleRow("log", "x = 1.5\ny = log(x)", lambda x: 1 / x, "1/x"),),
    domain=_log_domain, explain=("1/{x} = 1/{xo} {sign} {result}",),
    method="log", function=True, written_out=True)

SIGMOID = Op(
    "sigmoid", "sigmoid", "sigmoid", 1, sigmoid, lambda o, x: (o * (1.0 - o),), _d_sigmoid,
    "tf.sigmoid", "torch.sigmoid", "jax.nn.sigmoid",
    numpy=lambda np, z: 0.5 * (1.0 + np.tanh(0.5 * z)),  # the logistic sigmoid, no overflow
    checks=(Check("sigmoid", "sigmoid", (("sigmoid(x)", "x", ((0.5,), (-2.0,))),
                                         ("sigmoid(sigmoid(x))", "x", ((1.0,),))),
                  (("s instead of s·(1 - s) (s = sigmoid(x))", lambda a, b, o, k: (o,)),
                   ("x·(1 - x) (x, the input) instead of s·(1 - s) (s, the output)",
                    lambda a, b, o, k: (a * (1 - a),)),
                   ("1 - s instead of s·(1 - s)", lambda a, b, o, k: (1 - o,)))),),
    rules=(RuleRow("sigmoid", "x = 0.5\ny = sigmoid(x)",
                   lambda x: sigmoid(x) * (1 - sigmoid(x)), "σ(x)(1 - σ(x))"),),
    explain=("s·(1 - s) with s = sigmoid({xarg}) = {on}: {on}·(1 - {on}) {sign} {result}",),
    method="sigmoid", function=True, lesson=True, written_out=True)

SIN = Op(
    "sin", "sin", "sin", 1, math.sin, lambda o, x: (math.cos(x),), _d_sin,
    "tf.sin", "torch.sin", "jnp.sin",
    checks=(Check("sin", "sin", (("sin(x)", "x", ((0.5,), (-2.0,), (3.0,))),
                                 ("sin(sin(x))", "x", ((1.2,),))),
                  (("-cos(x) instead of cos(x): the sign is wrong",
                    lambda a, b, o, k: (-math.cos(a),)),
                   ("sin(x) instead of cos(x)", lambda a, b, o, k: (o,)))),),
    rules=(RuleRow("sin", "x = 0.5\ny = sin(x)", math.cos, "cos(x)"),),
    explain=("cos({xarg}) = cos({xn}) {sign} {result}",),
    method="sin", function=True, keeps_zero=True)

COS = Op(
    "cos", "cos", "cos", 1, math.cos, lambda o, x: (-math.sin(x),), _d_cos,
    "tf.cos", "torch.cos", "jnp.cos",
    checks=(Check("cos", "cos", (("cos(x)", "x", ((0.5,), (-2.0,), (3.0,))),
                                 ("cos(cos(x))", "x", ((1.2,),))),
                  (("sin(x) instead of -sin(x): the sign is wrong",
                    lambda a, b, o, k: (math.sin(a),)),
                   ("cos(x) instead of -sin(x)", lambda a, b, o, k: (o,)))),),
    rules=(RuleRow("cos", "x = 0.5\ny = cos(x)", lambda x: -math.sin(x), "-sin(x)"),),
    explain=("-sin({xarg}) = -sin({xn}) {sign} {result}",),
    method="cos", function=True)

SQRT = Op(
    "sqrt", "sqrt", "sqrt", 1, math.sqrt, _sqrt_local, lambda x: x.sqrt(),
    "tf.sqrt", "torch.sqrt", "jnp.sqrt",
    checks=(Check("sqrt", "sqrt", (("sqrt(x)", "x", ((4.0,), (0.25,), (2.0,))),
                                   ("sqrt(sqrt(x))", "x", ((3.0,),))),
                  (("1/sqrt(x) instead of 1/(2·sqrt(x)): the factor 1/2 is missing",
                    lambda a, b, o, k: (1 / o,)),
                   ("sqrt(x)/2 instead of 1/(2·sqrt(x))", lambda a, b, o, k: (o / 2,)))),),
    rules=(RuleRow("sqrt", "x = 2.0\ny = sqrt(x)", lambda x: 0.5 / math.sqrt(x),
                   "1/(2·sqrt(x))"),),
    domain=_sqrt_domain, explain=("1/(2·sqrt({xarg})) = 1/(2·{on}) {sign} {result}",),
    method="sqrt", function=True)

ABS = Op(
    "abs", "abs", "abs", 1, abs, _abs_local, abs, "tf.abs", "torch.abs", "jnp.abs",
    checks=(Check("abs", "abs", (("abs(x)", "x", ((-1.5,), (0.7,), (2.0,))),
                                 # nested in itself only: a case that used another rule
                                 # would fail when that one is wrong
                                 ("abs(abs(x))", "x", ((1.25,), (-0.5,)))),
                  (("abs passes the gradient unchanged for negative inputs: abs'(x) is -1 "
                    "for x < 0", lambda a, b, o, k: (1.0,)),
                   ("abs'(x) is x instead of its sign", lambda a, b, o, k: (a,)))),),
    rules=(RuleRow("abs (x < 0)", "x = -1.5\ny = abs(x)", lambda x: -1.0, "-1"),),
    explain=("1 if {x} > 0, -1 if {x} < 0, else 0; {x} = {xn}, so {result}",),
    method="abs", function=True, keeps_zero=True)

POW_INPUT = Op(
    # an exponent that depends on an input: two parents, the base and the exponent
    "pow", "**", "x^y", 2, _pow_input, _pow_input_local, lambda x, y: x ** y,
    "tf.pow", "torch.pow", "jnp.power",
    checks=(Check("pow_input", "__rpow__", (("x ** y", "x y", ((1.5, 2.5), (0.5, -1.5))),
                                            ("2 ** x", "x", ((1.5,), (-0.5,))),
                                            ("x ** x", "x", ((1.3,),))),
                  (("d(x^y)/dy received x^y instead of x^y·ln x",
                    lambda a, b, o, k: (b * a ** (b - 1), o)),
                   ("d(x^y)/dx received x^y·ln x as if the base were the exponent",
                    lambda a, b, o, k: (o * math.log(a), o * math.log(a))))),),
    rules=(RuleRow("power, input exponent (2^x)", "x = 1.5\ny = 2**x",
                   lambda x: 2 ** x * math.log(2), "2^x·ln 2"),),
    domain=_pow_input_domain,
    explain=("{y}·{x}^({y} - 1) = {yn}·{xb}^({yn} - 1) {sign} {result}",
             "{x}^{y}·ln({x}) = {on}·ln({xn}) {sign} {result}"),
    infix="**", method="__pow__", python=operator.pow)

OPS: tuple[Op, ...] = (ADD, SUB, MUL, DIV, POWER, NEG, TANH, RELU, EXP, LOG, SIGMOID,
                       SIN, COS, SQRT, ABS, POW_INPUT)
BY_NAME: dict[str, Op] = {op.name: op for op in OPS}
FUNCTIONS: tuple[Op, ...] = tuple(op for op in OPS if op.function)
FUNCTION_NAMES: tuple[str, ...] = tuple(op.name for op in FUNCTIONS)
BINARY: tuple[Op, ...] = (ADD, SUB, MUL, DIV)  # infix, two operands, in the language
ACTIVATIONS: tuple[str, ...] = tuple(op.name for op in OPS if op.lesson)
DEFAULT_ACTIVATION = TANH.name
CHECKS: tuple[Check, ...] = (
    tuple(c for op in OPS if not op.function and op is not POW_INPUT for c in op.checks
          if not c.reflected)
    + tuple(c for op in OPS for c in op.checks if c.reflected)
    + tuple(c for op in OPS if op.function for c in op.checks)
    + POW_INPUT.checks)
OP_OF_CHECK: dict[str, Op] = {c.name: op for op in OPS for c in op.checks}
CHECK_BY_NAME: dict[str, Check] = {c.name: c for c in CHECKS}
ALIASES: dict[str, str] = {alias: op.name for op in OPS for alias in op.aliases}
# the order graph import tries the functions in, on a node with no op name: exp before
# the others (its value alone can match another's), relu before abs (equal for x > 0)
RECOGNISED: tuple[Op, ...] = (EXP, LOG, TANH, RELU, SIGMOID, SIN, COS, SQRT, ABS)


def of(name: str) -> Op | None:
    """The entry of the op a node records: '+', 'tanh', '**3' (the power), or None."""
    op = BY_NAME.get(name)
    if op is None and name.startswith("**"):
        return POWER
    return op


def exponent(name: str) -> float:
    """The number exponent of a power node's op, '**3' -> 3.0; ValueError if it has none."""
    return float(name[2:])


def power_name(k: float) -> str:
    """The op a power node records: '**3', '**0.5', '**-1', '**1e+20'."""
    return "**" + (str(int(k)) if float(k).is_integer() and abs(k) < 1e15 else repr(k))
