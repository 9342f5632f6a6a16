"""A parsed program: its instructions, and the `Value` graph they build.

The parser turns text into a flat list of instructions (one per graph node). Building
replays that list through `Value`'s own rules, checking every result before the next
node is made, so a domain error is reported at the token that caused it. The same list
can be replayed with other input values (`Program.rebuild`), which is how a central
difference or another framework evaluates exactly the same program.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from functools import cached_property
from typing import NamedTuple

from engine._gc import collector_paused
from engine.core import ops
from engine.core.value import Value, topological_order, zero_grad
from engine.errors import ExpressionError
from engine.numbers import number

INPUT, CONST = "input", "const"
POW = ops.POWER.name          # x ** number: the exponent is the instruction's number
POW_INPUT = ops.POW_INPUT.name  # x ** y with y depending on an input: two operands
FUNCTIONS = ops.FUNCTION_NAMES
BINARY = tuple(op.name for op in ops.BINARY)
NEG = ops.NEG.name

# how each instruction is applied to Values: through Value's own methods and operators
_APPLY = {op.name: getattr(Value, op.method) for op in ops.OPS}


class Instruction(NamedTuple):
    """One graph node: `op` is 'input', 'const', or the name of an op of the table
    (engine.core.ops: '**' with a number exponent, 'pow' with an exponent that depends on an
    input, 'neg', a binary symbol, a function name); `args` index earlier instructions;
    `number` is the value of an input or constant, or the exponent of '**'; `line`/`col`
    locate the token that made it."""

    op: str
    args: tuple[int, ...]
    number: float
    line: int
    col: int


def _fmt(x: float) -> str:
    return number(x)


def _domain_error(op: str, args: list[Value], k: float) -> str | None:
    """Why `op` cannot be applied to these operands, or None if it can (the table's
    domain check)."""
    check = _DOMAIN[op]
    if op == POW:
        return check(args[0].data, k)
    if len(args) == 1:
        return check(args[0].data)
    return check(args[0].data, args[1].data)


def _describe(op: str, args: list[Value], k: float) -> str:
    if op == POW:
        return f"{_fmt(args[0].data)} ** {_fmt(k)}"
    entry = ops.BY_NAME[op]
    if entry.infix:
        return f"{_fmt(args[0].data)} {entry.infix} {_fmt(args[1].data)}"
    if op == NEG:
        return f"-({_fmt(args[0].data)})"
    return f"{op}({_fmt(args[0].data)})"


_DOMAIN = {op.name: op.domain for op in ops.OPS if op.domain is not None}
_isfinite = math.isfinite


def apply_instruction(ins: Instruction, args: list[Value]) -> Value:
    """The Value that `ins` makes from `args`; ExpressionError at `ins` if it is not finite."""
    op, k = ins.op, ins.number
    reason = _domain_error(op, args, k) if op in _DOMAIN else None
    if reason is None:
        try:
            out = args[0] ** k if op == POW else _APPLY[op](*args)
        except OverflowError:
            reason = f"overflow: {_describe(op, args, k)} is too large to represent"
        except (ValueError, ZeroDivisionError):
            reason = f"{_describe(op, args, k)} cannot be computed"
        else:
            if not _isfinite(out.data):
                reason = f"overflow: {_describe(op, args, k)} is too large to represent"
            elif not all(map(_isfinite, out._local)):
                reason = f"the derivative of {_describe(op, args, k)} is too large to represent"
            else:
                return out
    raise ExpressionError(reason, ins.line, ins.col)


def build_values(instructions, labels: dict[int, str],
                 overrides: dict[str, float]) -> list[Value]:
    """Replay `instructions` into Values, inputs named in `overrides` set anew.
    Raises ExpressionError at the instruction whose value cannot be computed."""
    values: list[Value] = []
    for _ in values_in_slices(instructions, labels, overrides, values):
        pass
    return values


def values_in_slices(instructions, labels: dict[int, str], overrides: dict[str, float],
                     values: list[Value], every: int = 5_000) -> Iterator[int]:
    """Replay `instructions` into `values` (appended to), as `build_values` does, yielding
    how many are built after every `every` instructions, so that a caller can do other
    work in between (a window drawing frames). Raises what `build_values` raises."""
    n = len(instructions)
    for start in range(len(values), n, every):
        with collector_paused():  # paused per slice only: the caller may stop iterating
            for i in range(start, min(start + every, n)):
                ins = instructions[i]
                label = labels.get(i, "")
                if ins.op == INPUT:
                    v = Value(overrides.get(label, ins.number))
                elif ins.op == CONST:
                    v = Value(ins.number)
                else:
                    v = apply_instruction(ins, [values[a] for a in ins.args])
                v.label = label
                values.append(v)
        yield len(values)


class Program:
    """A parsed program and its graph.

    `output` is the output Value and `output_name` its name; `inputs` maps each input's
    name to its leaf Value, in declaration order; `names` maps every assigned name
    (inputs, intermediates, aliases) to its Value; `values` holds one Value per
    instruction, `instructions` the instructions that made them; `source` is the text.
    A Program made without text (a graph read from Python) is given a function of the
    Program that writes its text, called the first time `source` is read.
    """

    def __init__(self, source: str | Callable[[Program], str],
                 instructions: list[Instruction], values: list[Value],
                 names: dict[str, int], output_index: int, output_name: str):
        self._source = source
        self.instructions = tuple(instructions)
        self.values = values
        self.output_name = output_name
        self.output = values[output_index]
        label = self.output.label  # `loss = b`: the output is b's node, titled by both
        if label and label != output_name and not label.startswith(f"{output_name} = ") \
                and self.instructions[output_index].op != INPUT:
            self.output.label = f"{output_name} = {label}"
        self._name_index = dict(names)
        self.output_index = output_index
        self.names = {name: values[i] for name, i in names.items()}
        self.inputs = {name: values[i] for name, i in names.items()
                       if self.instructions[i].op == INPUT and values[i].label == name}

    @property
    def source(self) -> str:
        """The program's text (written now, if the Program was made without it)."""
        if callable(self._source):
            self._source = self._source(self)
        return self._source

    @property
    def has_text(self) -> bool:
        """Whether the text exists already (False for a graph read from Python whose
        text was never asked for)."""
        return not callable(self._source)

    @cached_property
    def nodes(self) -> list[Value]:
        """The output's graph in topological order, parents first, output last."""
        return topological_order(self.output)

    def position(self, value: Value) -> tuple[int, int]:
        """The (line, col) of the token that made `value`; KeyError if not in the program."""
        for v, ins in zip(self.values, self.instructions):
            if v is value:
                return ins.line, ins.col
        raise KeyError(value)

    def zero_grad(self) -> None:
        """Set every node's gradient to 0."""
        zero_grad(self.values)

    def rebuild(self, **inputs: float) -> Program:
        """A new Program from the same instructions, the named inputs set to new values.

        Raises ExpressionError if a value cannot be computed at the new point, and
        KeyError for a name that is not an input.
        """
        for name in inputs:
            if name not in self.inputs:
                raise KeyError(name)
        labels = {i: v.label for i, v in enumerate(self.values) if v.label}
        values = build_values(self.instructions, labels, inputs)
        return Program(self._source, list(self.instructions), values, self._name_index,
                       self.output_index, self.output_name)

    def __repr__(self) -> str:
        return (f"Program(output {self.output_name} = {self.output.data!r}, "
                f"inputs {list(self.inputs)}, {len(self.instructions)} nodes)")
