"""Independent checks of a gradient: the central difference."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.core import ops
from engine.errors import ExpressionError
from engine.language import Program
from engine.language.program import CONST, INPUT, POW

DEFAULT_H = 1e-6
BUDGET = 20_000_000   # node evaluations the differences of all inputs may take together
SAMPLED = 64          # inputs whose share of the graph is measured to estimate the work
PROGRESS_AFTER_S = 1.0


class TooMuchWork(ValueError):
    """Central differences of every input would take too long: the message gives the
    figure and the limit."""


def _forward(ins, args: list[float]) -> float:
    if ins.op == POW:
        return ops.POWER.forward(args[0], ins.number)
    return ops.BY_NAME[ins.op].forward(*args)


class _Graph:
    """The program's numbers and who uses each node, for evaluating only what an input
    changes."""

    def __init__(self, program: Program):
        self.instructions = program.instructions
        self.base = [v.data for v in program.values]
        self.users: list[list[int]] = [[] for _ in self.instructions]
        for j, ins in enumerate(self.instructions):
            if ins.op not in (INPUT, CONST):
                for a in set(ins.args):
                    self.users[a].append(j)
        self.output = program.output_index
        position = {id(v): i for i, v in enumerate(program.values)}
        self.index = {name: position[id(v)] for name, v in program.inputs.items()}

    def downstream(self, i: int) -> list[int]:
        """The nodes that depend on node `i`, in the program's (topological) order."""
        seen = {i}
        todo = [i]
        while todo:
            for j in self.users[todo.pop()]:
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
        seen.discard(i)
        return sorted(seen)

    def output_at(self, i: int, x: float, down: list[int]) -> float | None:
        """The output with node `i` set to `x`, recomputing only `down`; None where a
        value cannot be computed or is not finite (the step left the domain)."""
        changed = {i: x}
        base, instructions = self.base, self.instructions
        try:
            for j in down:
                ins = instructions[j]
                y = _forward(ins, [changed[a] if a in changed else base[a] for a in ins.args])
                if not math.isfinite(y):
                    return None
                changed[j] = y
        except (ArithmeticError, ValueError):
            return None
        return changed.get(self.output, base[self.output])


def central_differences(program: Program, h: float = DEFAULT_H,
                        progress: Callable[[int, int], None] | None = None
                        ) -> dict[str, float | None]:
    """`central_difference` of every input, evaluating for each only the nodes that
    depend on it, in floats. TooMuchWork, before any is computed, when the work (the
    inputs times the share of the graph each one reaches, estimated from a sample) is
    over BUDGET node evaluations. `progress(done, total)` is called now and then once
    the work has taken a second."""
    graph = _Graph(program)
    names = list(graph.index)
    sample = random.Random(0).sample(names, min(SAMPLED, len(names)))
    reached = sum(len(graph.downstream(graph.index[n])) for n in sample)
    estimate = 2 * reached / max(1, len(sample)) * len(names)
    if estimate > BUDGET:
        raise TooMuchWork(
            f"central differences of all {len(names):,} inputs would evaluate about "
            f"{estimate:,.0f} nodes; the limit is {BUDGET:,} (each input's difference "
            "recomputes what depends on it, twice): leave out --fd")
    result = {}
    started = last = time.monotonic()
    for k, name in enumerate(names):
        i = graph.index[name]
        down = graph.downstream(i)
        x = graph.base[i]
        up, low = graph.output_at(i, x + h, down), graph.output_at(i, x - h, down)
        result[name] = None if up is None or low is None else (up - low) / (2.0 * h)
        now = time.monotonic()
        if progress is not None and now - started > PROGRESS_AFTER_S and now - last > 0.5:
            progress(k + 1, len(names))
            last = now
    return result


def central_difference(program: Program, name: str, h: float = DEFAULT_H) -> float | None:
    """(f(x + h) - f(x - h)) / 2h for the input `name` of `program`.

    Returns None when the program cannot be evaluated at x - h or x + h (the step
    leaves the domain, as for log near 0). KeyError if `name` is not an input.
    """
    x = program.inputs[name].data
    try:
        up = program.rebuild(**{name: x + h}).output.data
        down = program.rebuild(**{name: x - h}).output.data
    except ExpressionError:
        return None
    return (up - down) / (2.0 * h)


STEP_SIZES = tuple(10.0 ** -k for k in range(1, 14))  # 1e-1 ... 1e-13


@dataclass(frozen=True)
class StepError:
    """The central difference's error at one step size h, against the reference."""

    h: float
    central: float | None  # None where the step leaves the program's domain
    error: float | None


def step_size_errors(program: Program, name: str, reference: float,
                     steps=STEP_SIZES) -> list[StepError]:
    """|central difference - reference| for each h: truncation error falls as h
    shrinks, then round-off error rises. KeyError if `name` is not an input."""
    rows = []
    for h in steps:
        fd = central_difference(program, name, h)
        rows.append(StepError(h, fd, None if fd is None else abs(fd - reference)))
    return rows
