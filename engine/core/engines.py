"""Engine variants: the correct backward pass, and each way of getting it wrong, as
objects of one small protocol.

An `Engine` says how a backward pass runs: the order its rules are applied in
(`rule_order`), the local derivatives it uses for a node (`local_grads`), whether a
contribution is added to a parent's gradient (`+=`) or replaces it (`=`)
(`accumulates`), whether gradients are zeroed between passes (`zeroes_grad`), and how a
step departs from the correct engine, in words (`problem`). `stepping.backward_plan`
and `Stepper` run any engine; nothing else needs to know which one it is.

The objects: `CORRECT` (here); the three classic bugs `OVERWRITE`, `NO_SORT` and
`NO_ZERO_GRAD` (engine.core.pitfalls); a learner's multiply rule
(engine.lesson.learn.multiply_rule); a user's engine replayed from what it recorded
(engine.checks.engine_check.replay).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from engine.core.value import Value, topological_order

if TYPE_CHECKING:
    from engine.core.stepping import Contribution


class Engine:
    """How a backward pass runs. A variant overrides what it does differently from the
    correct engine, whose behaviour every default here is.

    `name` is how the app names it ('overwrite', 'your multiply rule'), `description`
    one sentence for the user, `blame` the words that say a wrong gradient came from it
    ('with this bug'). `own_rules` is True for an engine whose `local_grads` may differ
    from the local derivatives each node recorded (the inspector then shows the right
    one beside it); `is_correct` only for the correct engine, whose steps need no
    comparing with anything.
    """

    name = "engine"
    description = ""
    blame = "with this bug"
    accumulates = True   # a contribution is added (+=); False: it replaces (=)
    zeroes_grad = True   # every gradient is set to 0 before the next pass
    own_rules = False
    is_correct = False
    seed = 1.0           # dL/dL, what the pass starts from at the output

    def rule_order(self, output: Value, forward_steps: list[Value] | None = None
                   ) -> list[Value]:
        """The nodes in the order their rules are applied (leaves included; they have
        no rule): children before parents. `forward_steps`: `output`'s topological
        order, if known."""
        if forward_steps is None:
            forward_steps = topological_order(output)
        return forward_steps[::-1]

    def local_grads(self, node: Value) -> tuple[float, ...]:
        """The local derivatives this engine multiplies by at `node`, one per parent."""
        return node._local

    def agrees(self, used: float, right: float) -> bool:
        """Whether a number this engine gave equals the correct engine's but for
        rounding (a rule written another way may round differently)."""
        return math.isclose(used, right, rel_tol=1e-9, abs_tol=1e-12)

    def root_problem(self) -> str:
        """How the first step (dL/dL set at the output) departs from the correct
        engine's, in words; '' if it does not."""
        return ""

    def problem(self, node: Value, upstream: float, received: list[Contribution],
                correct: dict[Value, float]) -> str:
        """How the step that applied `node`'s rule departs from the correct engine, in
        words; '' if it does not. `upstream`: the gradient the node passed on;
        `received`: what each parent got; `correct`: every node's gradient after the
        correct pass."""
        return ""

    def can_step(self, program) -> bool:
        """Whether this engine can run `program`'s backward pass (a replayed engine runs
        only the program it was recorded on)."""
        return True

    def __repr__(self) -> str:
        return f"<engine {self.name!r}>"


class CorrectEngine(Engine):
    """The backward pass as it should be: reverse topological order, the rules each node
    recorded, `+=`, every gradient zeroed between passes."""

    name = "correct"
    description = ("The correct engine: each node's rule applied once every path has "
                   "reached it, contributions added with +=, gradients zeroed between passes.")
    is_correct = True


CORRECT = CorrectEngine()


def node_name(node: Value) -> str:
    """A node as a sentence names it: its label in quotes, or 'this node'."""
    return f"'{node.label}'" if node.label else "this node"


class OwnRulesEngine(Engine):
    """An engine with rules of its own (a learner's multiply rule, say): its
    `local_grads` are applied in the correct order, with `+=`, and a step is wrong where
    a local derivative differs from the right one, or where a wrong one earlier in the
    pass reached the gradient the node passes on. A subclass gives `local_grads` and
    `wrong_local`, the words for a wrong local derivative."""

    own_rules = True

    def wrong_local(self, node: Value, i: int, used: float, right: float) -> str:
        """Why the step at `node` is wrong, in words, for its `i`-th parent, whose local
        derivative was `used` where the right one is `right`."""
        raise NotImplementedError

    def problem(self, node: Value, upstream: float, received: list[Contribution],
                correct: dict[Value, float]) -> str:
        expected = correct.get(node, 0.0)
        if not self.agrees(upstream, expected):
            return (f"{node_name(node)} passed on a gradient of {upstream:.6g}, but its "
                    f"gradient is {expected:.6g}: a wrong local derivative earlier in the "
                    "pass reached it")
        for i, (c, right) in enumerate(zip(received, node._local)):
            if not self.agrees(c.local, right):
                return self.wrong_local(node, i, c.local, right)
        return ""
