"""Exercise 3: what `a` receives in `a + a` and `a * a`, with += and with =."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.engines import CORRECT
from engine.core.pitfalls import OVERWRITE
from engine.core.stepping import Stepper
from engine.language import parse

CASES = {
    "a + a": "a = 3.0\nb = a + a\n",
    "a * a": "a = 3.0\nc = a * a\n",
}
ENGINES = {"+=": CORRECT, "=": OVERWRITE}


@dataclass(frozen=True)
class Delivery:
    """One path's gradient arriving at a: what it held, what came, what it holds."""

    before: float
    contribution: float
    after: float


@dataclass(frozen=True)
class Accumulation:
    case: str
    engine: str
    deliveries: tuple[Delivery, ...]
    position_before: int  # the stepper's position just before the last delivery
    total_steps: int

    @property
    def gradient(self) -> float:
        return self.deliveries[-1].after


def accumulate(case: str, engine: str) -> Accumulation:
    """Step `case` ('a + a' or 'a * a') backwards with `engine` ('+=' or '='), and
    return what `a` received, path by path. KeyError for an unknown case or engine."""
    program = parse(CASES[case])
    stepper = Stepper(program.output, ENGINES[engine])
    a = program.inputs["a"]
    stepper.run_to_end()
    received = stepper.received(a)
    deliveries = tuple(Delivery(c.before, c.contribution, c.after) for _, c in received)
    last_step = received[-1][0]
    index = stepper.backward_steps.index(last_step)
    position = len(stepper.forward_steps) + index  # the next step delivers it
    return Accumulation(case, engine, deliveries, position, stepper.total)
