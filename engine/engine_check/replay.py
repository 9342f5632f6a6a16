"""A failing case stepped as the user's engine did it, on this project's own `Value`s.

The child process sends, for the case's program: the order in which the user's backward
applied the rules, each operation's local derivatives by the user's rules, every node's
final gradient and the root's. Here the program is parsed again (no user code runs) and
a backward plan is made from those numbers: the Graph tab steps it like any other, with
the user's local derivative on each edge beside the right one, and the first step that
departs from the correct engine marked.
"""

from __future__ import annotations

import math

from engine.engine_check.diagnosis import close
from engine.explain import formula, number, operand
from engine.language import Program, parse
from engine.stepping import BackwardStep, Contribution, Stepper
from engine.value import Value, topological_order

RECORDED = "your engine"  # the stepper's `pitfall` when it replays a user's engine


def _name(node: Value) -> str:
    return f"'{node.label}'" if node.label else "this node"


def _plan(program: Program, replay: dict, overwrite: bool) -> list[BackwardStep]:
    values = program.values
    index = {v: i for i, v in enumerate(values)}
    output = program.output
    order = topological_order(output)
    rules = [n for n in reversed(order) if n.parents]
    recorded = [values[i] for i in (replay.get("order") or []) if values[i].parents]
    seen = set(recorded)
    # a node the user's engine has no rule for (arithmetic of constants) goes last
    rules = [n for n in recorded if n in set(rules)] + [n for n in rules if n not in seen]
    seed = replay.get("seed", 1.0)
    seed = 1.0 if seed is None or math.isnan(seed) else seed
    steps = [BackwardStep(output, (Contribution(output, seed, seed, seed, 0.0, seed),),
                          root=True,
                          problem="" if close(seed, 1.0) else
                          f"dL/dL was never set to 1: the root's gradient is {number(seed)}")]
    grads: dict[Value, float] = {output: seed}
    theirs = replay.get("locals") or {}
    passed: dict[Value, float] = {}  # the gradient each node passed on
    for node in rules:
        upstream = grads.get(node, 0.0)
        locals_ = theirs.get(index[node]) or theirs.get(str(index[node]))
        received, problem = [], ""
        for k, (parent, right) in enumerate(zip(node.parents, node.local_grads)):
            local = right
            if locals_ is not None and k < len(locals_) and locals_[k] is not None:
                local = locals_[k]
            before = grads.get(parent, 0.0)
            contribution = local * upstream
            after = contribution if overwrite else before + contribution
            grads[parent] = after
            differs = not close(local, right)
            received.append(Contribution(parent, local, upstream, contribution, before, after,
                                         right if differs else None))
            if differs and not problem:
                problem = (f"d({formula(node)})/d{operand(parent)} is "
                           f"{number(local)} by your engine's rule; the right local "
                           f"derivative is {number(right)}")
            elif overwrite and not problem and before != 0.0:
                problem = (f"{_name(parent)} had {number(before)} and received "
                           f"{number(contribution)}, but now holds {number(after)}: '=' "
                           "overwrote what '+=' would have kept")
        steps.append(BackwardStep(node, tuple(received), problem=problem))
        passed[node] = upstream
    # a node that passed its gradient on before it had all of it: the order is wrong
    for j, step in enumerate(steps):
        node = step.node
        if not step.root and not step.problem and not close(passed[node], grads[node]):
            steps[j] = BackwardStep(node, step.contributions, problem=(
                f"{_name(node)} passed on a gradient of {number(passed[node])}, but its "
                f"gradient is {number(grads[node])} once every path has reached it: the "
                "rules are not applied in reverse topological order"))
    return steps


def recorded_stepper(replay: dict, program: Program | None = None
                     ) -> tuple[Program, Stepper, str]:
    """The case's program (`program`, or the replay's text parsed), a stepper that
    replays the user's engine on it, and a note ('' or why the replay does not
    reproduce the user's final gradients exactly). Raises ExpressionError if the
    case's text does not parse (it always should)."""
    if program is None:
        program = parse(replay["text"])
    theirs = {int(k): v for k, v in (replay.get("grads") or {}).items()}
    values = program.values
    note = ""
    chosen = None
    for overwrite in (False, True):
        steps = _plan(program, replay, overwrite)
        finals = _finals(steps)
        if all(close(finals.get(values[i], 0.0), g) for i, g in theirs.items()
               if not values[i].parents and not math.isnan(g)):
            chosen = steps
            break
    if chosen is None:
        chosen = _plan(program, replay, False)
        note = ("the replay does not reproduce your engine's final gradients exactly: the "
                "inputs show what its local derivatives give in the order it used")
    stepper = Stepper.__new__(Stepper)
    stepper._start(program.output, RECORDED, topological_order(program.output), chosen)
    return program, stepper, note


def _finals(steps: list[BackwardStep]) -> dict[Value, float]:
    finals: dict[Value, float] = {}
    for step in steps:
        for c in step.contributions:
            finals[c.parent] = c.after
    return finals
