"""The nodes of the pool are blank, and every op fills every field of its node; the power
op keeps an exponent it met once (issue 27: the engine at the pure-Python floor).

The pool's nodes are made by the unpickler with no field set (engine.core.value._blanks),
so a field an op forgot would raise AttributeError where it is first read. These tests
read every field of every kind of node made from a fresh pool, and hold the power op's
kept exponents to what the exponent itself gives, to the bit.
"""

import struct
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from engine.core import ops
from engine.core import value as value_module
from engine.core.value import Value, _binary, _node, _unary


def _made_fresh(make):
    value_module._pool.clear()  # the next node comes from a new batch of blanks
    return make()


MAKERS = {
    "add": lambda x, y: x + y, "add number": lambda x, y: x + 2.0, "radd": lambda x, y: 2 + x,
    "sub": lambda x, y: x - y, "sub number": lambda x, y: x - 2.0, "rsub": lambda x, y: 2 - x,
    "mul": lambda x, y: x * y, "mul number": lambda x, y: x * 2.0, "rmul": lambda x, y: 2 * x,
    "div": lambda x, y: x / y, "div number": lambda x, y: x / 2.0, "rdiv": lambda x, y: 2 / x,
    "pow": lambda x, y: x ** 3, "pow input": lambda x, y: x ** y, "rpow": lambda x, y: 2 ** x,
    "neg": lambda x, y: -x, "tanh": lambda x, y: x.tanh(), "relu": lambda x, y: x.relu(),
    "exp": lambda x, y: x.exp(), "log": lambda x, y: x.log(), "sigmoid": lambda x, y: x.sigmoid(),
    "sin": lambda x, y: x.sin(), "sqrt": lambda x, y: x.sqrt(), "abs": lambda x, y: abs(x),
    "unary": lambda x, y: _unary(1.0, x, "neg", -1.0),
    "binary": lambda x, y: _binary(1.0, x, y, "+", 1.0, 1.0),
    "node": lambda x, y: _node(1.0, (x, y), "*", (2.5, 1.5)),
}


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_every_field_of_a_node_from_a_fresh_pool_is_set(name):
    x, y = Value(1.5), Value(2.5)
    v = _made_fresh(lambda: MAKERS[name](x, y))
    assert v.grad == 0.0 and v.label == "" and v._mark is None and v.op
    assert len(v._prev) == len(v._local) in (1, 2) and v._prev[0] is not None
    assert v._b is None if len(v._prev) == 1 else v._b is y
    assert repr(v).startswith("Value(data=")
    v.backward()
    assert x.grad != 0.0


def test_a_node_from_a_fresh_pool_is_a_plain_value():
    v = _made_fresh(lambda: Value(2.0) * Value(3.0))
    assert type(v) is Value and v.data == 6.0 and v._local == (3.0, 2.0)
    assert all(type(b) is Value for b in value_module._blanks(3))


class Sub(Value):
    pass


def test_a_subclass_operand_is_a_parent_not_a_number():
    a, s = Value(2.0), Sub(3.0)
    for out in (a + s, a - s, a * s, s + a, s * a):
        assert len(out._prev) == 2 and out._prev[1] is (s if out._prev[0] is a else a)
    assert (a * s)._local == (3.0, 2.0) and (a - s)._local == (1.0, -1.0)


EXPONENTS = [2, 2.0, np.float64(2.0), True, 0, -0.0, 0.0, 3, -1, 0.5, Fraction(1, 2),
             Decimal("0.5"), Decimal("0.1"), 1e20, 2.0**53, -(2.0**54), float("inf"),
             float("nan"), np.array(2.0)]


def _expected(x: float, exponent) -> tuple:
    k = float(exponent)
    return ops.POWER.forward(x, k), ops.POWER.local(None, x, k)[0], ops.power_name(k)


def _bits(x: float) -> bytes:
    return struct.pack("<d", x)


@pytest.mark.parametrize("x", [1.5, -2.0, 0.25, 1.0, -1.0, 0.0])
def test_a_kept_exponent_gives_what_the_exponent_itself_gives(x):
    """Each exponent twice (the second `**` finds it kept), and after every other: the
    same value, local derivative and op name as the table's entry, to the bit."""
    for _ in range(2):
        for exponent in EXPONENTS:
            try:
                out, local, name = _expected(x, exponent)
            except (ValueError, OverflowError) as error:  # the table's own error
                with pytest.raises(type(error)):
                    Value(x) ** exponent
                continue
            v = Value(x) ** exponent
            assert (_bits(v.data), _bits(v._ga), v.op) == (_bits(out), _bits(local), name)
