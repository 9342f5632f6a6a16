"""The inspector's place of a node in the forward order, counted as the step counter
counts it: the counter's forward steps are the values computed (and the inputs), a
folded constant is no step of its own; with the constants shown as nodes (Ctrl+K) they
are steps too, and the node's place among all of them is said beside it."""

from __future__ import annotations

from array import array
from itertools import accumulate
from weakref import WeakKeyDictionary

from engine.numbers import count

_STEPS_BEFORE: WeakKeyDictionary = WeakKeyDictionary()  # stepper -> steps among the first k


def is_constant(node) -> bool:
    """An unnamed leaf: a number of the program, folded into its consumer's box."""
    return node._a is None and not node.label


def steps_before(stepper) -> array:
    """For k = 0 … n: how many of the first k forward nodes are steps, constants left
    out (made once per stepper: one pass over its nodes)."""
    found = _STEPS_BEFORE.get(stepper)
    if found is None:
        flags = (not is_constant(v) for v in stepper.forward_steps)
        found = _STEPS_BEFORE[stepper] = array("i", accumulate(flags, initial=0))
    return found


def forward_place(node, stepper) -> str:
    """'forward step 50 of 118, as the step counter counts (node 83 of 196 with the 78
    constants, steps only when shown as nodes, Ctrl+K)'; 'node 2 of 4 in the forward
    order' when the program has no constants."""
    n = len(stepper.forward_steps)
    k = stepper.forward_position(node)
    before = steps_before(stepper)
    constants = n - before[-1]
    if not constants:
        return f"node {k + 1:,} of {n:,} in the forward order"
    everything = (f"node {k + 1:,} of {n:,} with the {count(constants, 'constant')}, "
                  "steps only when shown as nodes, Ctrl+K")
    if is_constant(node):
        return (f"a constant: no forward step of its own, as the step counter counts "
                f"({before[-1]:,} steps); {everything}")
    return (f"forward step {before[k + 1]:,} of {before[-1]:,}, as the step counter counts "
            f"({everything})")
