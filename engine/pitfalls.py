"""The classic autograd bugs as switchable variants of the real backward pass.

Each variant runs the engine's own rules (the local derivatives every node recorded);
the only difference from the correct pass is the bug itself:

- `overwrite`: `grad = local x upstream` instead of `+=`, so a node used twice keeps only
  the contribution of the last path applied (a + a reports 1.0).
- `no-sort`: each node's rule is applied when a breadth-first walk from the output,
  visiting parents in order, first meets it, so a node can pass its gradient on before
  every child has contributed (b = x*3; c = b*2; d = b + c reports dd/dx = 3).
- no zero-grad: gradients of one pass are left in place for the next
  (`accumulated_gradients`, and `train_xor(zero_grad=False)`), so two passes report
  twice the gradient.
"""

from __future__ import annotations

from collections import deque

from engine.value import Value, topological_order

OVERWRITE, NO_SORT = "overwrite", "no-sort"
PITFALLS = (OVERWRITE, NO_SORT)


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


def rule_order(output: Value, pitfall: str | None = None) -> list[Value]:
    """The nodes in the order their rules are applied: children before parents, or as
    the `no-sort` bug would. Raises ValueError for an unknown pitfall. (A pitfall may
    also be an engine variant with rules of its own, such as a learner's multiply rule,
    any object with `local_grads(node)`: its rules run in the correct order.)"""
    if hasattr(pitfall, "local_grads"):
        return topological_order(output)[::-1]
    if pitfall not in (None, OVERWRITE, NO_SORT):
        raise ValueError(f"unknown pitfall {pitfall!r}; choose from {', '.join(PITFALLS)}")
    if pitfall == NO_SORT:
        return breadth_first_order(output)
    return topological_order(output)[::-1]


def accumulated_gradients(program, passes: int) -> dict[str, float]:
    """Each input's gradient after `passes` forward and backward passes without zeroing
    in between (the forgotten `zero_grad`): every pass builds a fresh graph, as a
    training step does, but the inputs keep adding what each backward pass gives."""
    totals = {name: 0.0 for name in program.inputs}
    for _ in range(passes):
        copy = program.rebuild()
        copy.output.backward()
        for name, leaf in copy.inputs.items():
            totals[name] += leaf.grad
    return totals
