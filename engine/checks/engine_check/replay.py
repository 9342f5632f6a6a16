"""A failing case stepped as the user's engine did it, on this project's own `Value`s.

The child process sends, for the case's program: the order in which the user's backward
applied the rules, each operation's local derivatives by the user's rules, every node's
final gradient and the root's. Here the program is parsed again (no user code runs) and
those numbers become an engine (see engine.core.engines) that runs only on that program:
the Graph tab steps it like any other, with the user's local derivative on each edge
beside the right one, and the first step that departs from the correct engine marked.
"""

from __future__ import annotations

import math

from engine.checks.engine_check.diagnosis import same_number
from engine.core.engines import Engine, node_name
from engine.core.explain import formula, number, operand_name
from engine.core.value import Value, topological_order
from engine.language import Program, parse


class RecordedEngine(Engine):
    """A user's engine as it ran on one program: the order it applied the rules in, its
    local derivatives (the right ones where it recorded none), `=` or `+=`, and the
    root gradient it started from. `label` names the user's engine (its file)."""

    name = "your engine"
    description = ("Your engine, replayed from what it recorded on this case: its order, "
                   "its local derivatives, and = or += as it did it.")
    blame = "with your engine"
    own_rules = True

    def __init__(self, program: Program, replay: dict, overwrite: bool = False,
                 label: str = "your engine"):
        self.program = program
        self.label = label
        self.accumulates = not overwrite
        seed = replay.get("seed", 1.0)
        self.seed = 1.0 if seed is None or math.isnan(seed) else seed
        values = program.values
        index = {v: i for i, v in enumerate(values)}
        theirs = replay.get("locals") or {}
        self._locals: dict[Value, tuple[float, ...]] = {}
        for node in values:
            if not node.parents:
                continue
            locals_ = theirs.get(index[node]) or theirs.get(str(index[node]))
            self._locals[node] = tuple(
                locals_[k] if locals_ is not None and k < len(locals_)
                and locals_[k] is not None else right
                for k, right in enumerate(node.local_grads))
        rules = [n for n in reversed(topological_order(program.output)) if n.parents]
        recorded = [values[i] for i in (replay.get("order") or []) if values[i].parents]
        seen, known = set(recorded), set(rules)
        # a node the user's engine has no rule for (arithmetic of constants) goes last
        self._order = [n for n in recorded if n in known] + [n for n in rules if n not in seen]
        self.passed, self.final_grads = self._own_pass()

    def _own_pass(self) -> tuple[dict[Value, float], dict[Value, float]]:
        """The gradient each node passed on, and each node's gradient at the end of this
        engine's pass: a node that passed on less than it ended with was applied too
        early, which only the whole pass shows (so it is run here once first)."""
        output = self.program.output
        grads, passed = {output: self.seed}, {}
        for node in self._order:
            upstream = grads.get(node, 0.0)
            for parent, local in zip(node.parents, self._locals[node]):
                contribution = local * upstream
                grads[parent] = (grads.get(parent, 0.0) + contribution if self.accumulates
                                 else contribution)
            passed[node] = upstream
        return passed, grads

    def rule_order(self, output, forward_steps=None) -> list[Value]:
        return self._order

    def local_grads(self, node: Value) -> tuple[float, ...]:
        return self._locals[node]

    def agrees(self, used: float, right: float) -> bool:
        return same_number(used, right)  # as the checks compare the user's numbers

    def root_problem(self) -> str:
        if self.agrees(self.seed, 1.0):
            return ""
        return f"dL/dL was never set to 1: the root's gradient is {number(self.seed)}"

    def problem(self, node, upstream, received, correct) -> str:
        for c in received:
            if c.right is not None:
                return (f"d({formula(node)})/d{operand_name(c.parent)} is {number(c.local)} by "
                        "your engine's rule; the right local derivative is "
                        f"{number(c.right)}")
            if not self.accumulates and c.before != 0.0:
                return (f"{node_name(c.parent)} had {number(c.before)} and received "
                        f"{number(c.contribution)}, but now holds {number(c.after)}: '=' "
                        "overwrote what '+=' would have kept")
        passed, final = self.passed[node], self.final_grads.get(node, 0.0)
        if not self.agrees(passed, final):
            return (f"{node_name(node)} passed on a gradient of {number(passed)}, but its "
                    f"gradient is {number(final)} once every path has reached it: the rules "
                    "are not applied in reverse topological order")
        return ""

    def can_step(self, program) -> bool:
        return program is self.program


def recorded_engine(replay: dict, program: Program | None = None,
                    label: str = "your engine") -> tuple[Program, RecordedEngine, str]:
    """The case's program (`program`, or the replay's text parsed), the user's engine
    as it ran on it (named `label`), and a note ('' or why the replay does not
    reproduce the user's final gradients exactly). Raises ExpressionError if the
    case's text does not parse (it always should)."""
    if program is None:
        program = parse(replay["text"])
    theirs = {int(k): v for k, v in (replay.get("grads") or {}).items()}
    values = program.values
    for overwrite in (False, True):  # whichever gives the user's final gradients
        engine = RecordedEngine(program, replay, overwrite, label)
        finals = engine.final_grads
        if all(same_number(finals.get(values[i], 0.0), g) for i, g in theirs.items()
               if not values[i].parents and not math.isnan(g)):
            return program, engine, ""
    note = ("the replay does not reproduce your engine's final gradients exactly: the "
            "inputs show what its local derivatives give in the order it used")
    return program, RecordedEngine(program, replay, False, label), note

