"""The classic autograd bugs as engines (see engine.core.engines) beside the correct one.

Each runs the engine's own rules (the local derivatives every node recorded); the only
difference from the correct pass is the bug itself:

- `OVERWRITE`: `grad = local x upstream` instead of `+=`, so a node used twice keeps
  only the contribution of the last path applied (a + a reports 1.0).
- `NO_SORT`: each node's rule is applied when a breadth-first walk from the output,
  visiting parents in order, first meets it, so a node can pass its gradient on before
  every child has contributed (b = x*3; c = b*2; d = b + c reports dd/dx = 3).
- `NO_ZERO_GRAD`: gradients of one pass are left in place for the next
  (`gradients_with(program, NO_ZERO_GRAD, passes)`, and `train_xor(zero_grad=False)`),
  so two passes report twice the gradient; a single pass is the correct one.

`PITFALLS` maps the command line's names to the bugs it can switch on.
"""

from __future__ import annotations

from collections import deque

from engine.core.engines import Engine, node_name
from engine.core.value import Value
from engine.numbers import number


def breadth_first_order(output: Value) -> list[Value]:
    """Every node reachable from `output`, in the order a breadth-first walk meets it."""
    order, seen, queue = [], {output}, deque([output])
    while queue:
        node = queue.popleft()
        order.append(node)
        for parent in node._prev:
            if parent not in seen:
                seen.add(parent)
                queue.append(parent)
    return order


class _ClassicBug(Engine):
    """A bug of the pass itself: the nodes' own rules, applied wrongly. Its `problem`
    checks for both bugs' marks, the upstream first (so under `=` a node downstream of
    an overwritten gradient is told it was reached too early: the words the app has
    always used there)."""

    def problem(self, node, upstream, received, correct) -> str:
        expected = correct.get(node, 0.0)
        if upstream != expected:
            return (f"{node_name(node)} passed on a gradient of {number(upstream)}, but its "
                    f"gradient is {number(expected)}: not every path had reached it yet "
                    "(no topological sort)")
        for c in received:
            if c.after != c.before + c.contribution:
                return (f"{node_name(c.parent)} had {number(c.before)} and received "
                        f"{number(c.contribution)}, but now holds {number(c.after)}: '=' "
                        "overwrote what '+=' would have kept")
        return ""


class Overwrite(_ClassicBug):
    """`=` for `+=`: a parent keeps only the last contribution it received."""

    name = "overwrite"
    description = ("Bug: a gradient is set with = instead of added with +=, so a node used "
                   "twice keeps only the last path's contribution.")
    accumulates = False


class NoSort(_ClassicBug):
    """No topological sort: the rules are applied in breadth-first order."""

    name = "no-sort"
    description = ("Bug: no topological sort. Each node's rule runs when a breadth-first "
                   "walk from the output first meets it, perhaps before every path has "
                   "reached it.")

    def rule_order(self, output, forward_steps=None) -> list[Value]:
        return breadth_first_order(output)


class NoZeroGrad(_ClassicBug):
    """No `zero_grad`: a pass adds to what the last one left."""

    name = "no-zero-grad"
    description = ("Bug: no zero_grad between passes, so each backward pass adds to the "
                   "gradients the last one left.")
    zeroes_grad = False


OVERWRITE, NO_SORT, NO_ZERO_GRAD = Overwrite(), NoSort(), NoZeroGrad()
PITFALLS = {engine.name: engine for engine in (OVERWRITE, NO_SORT)}


def pitfall_named(name: str) -> Engine:
    """The classic bug the command line calls `name`; ValueError for any other name."""
    try:
        return PITFALLS[name]
    except KeyError:
        raise ValueError(f"unknown pitfall {name!r}; choose from "
                         f"{', '.join(PITFALLS)}") from None

