"""The forward and backward passes as explicit steps that can be walked both ways.

A forward step reveals one node's value, in topological order. The first backward step
sets dL/dL = 1 (the root step); each later one applies one node's rule, handing every parent its
contribution (local derivative x upstream gradient). The whole plan is computed up
front from zero gradients, so every step knows each parent's gradient before and after
it: stepping forward writes `after`, stepping back writes `before`, and both are exact.
After the last step every gradient equals what `Value.backward()` gives, to the bit,
because the plan makes the same additions in the same order: walking the reference
order (`topological_order`), as they come; walking another topological order (a grouped
graph, group by group), a node whose contributions come out of the reference's order
re-adds those it has in that order (see `plan_in_slices`).
"""

from __future__ import annotations

import math
import operator
from bisect import bisect_right
from collections.abc import Generator, Iterator
from dataclasses import dataclass, fields, replace
from itertools import accumulate

from engine._gc import collector_paused
from engine.core.engines import CORRECT, Engine
from engine.core.value import Value, topological_order
from engine.numbers import count

_AT_ONCE = 1 << 62  # a slice size that makes the whole in one slice


@dataclass(frozen=True, slots=True)
class Contribution:
    """What one parent received in one backward step."""

    parent: Value
    local: float         # d(node)/d(parent), recorded in the forward pass
    upstream: float      # d(output)/d(node) when the node's rule was applied
    contribution: float  # local x upstream
    before: float        # the parent's gradient before this step
    after: float         # ... and after it
    right: float | None = None  # the correct local derivative, where an engine with
                                # rules of its own (see engines.Engine) used another one


@dataclass(frozen=True, slots=True)
class BackwardStep:
    """One node's rule applied (or, for the root step, dL/dL set to 1). Under an engine
    that is not the correct one, `problem` says in words how this step departs from the
    correct engine ('' if it does not)."""

    node: Value
    contributions: tuple[Contribution, ...]
    root: bool = False  # the first step: dL/dL = 1 at the output
    problem: str = ""


def backward_plan(output: Value, engine: Engine = CORRECT,
                  forward_steps: list[Value] | None = None,
                  reference: list[Value] | None = None) -> list[BackwardStep]:
    """The backward pass from zero gradients, as `engine` runs it, as a list of steps,
    the root step first. Under an engine that is not the correct one, each step says in
    `problem` how it departs from the correct engine; under an engine with rules of its
    own, a contribution whose local derivative is not the right one carries the right
    one (`right`). Leaves have no rule and get no step. `forward_steps`: the topological
    order walked, if not the reference one; `reference`: the reference one, if known
    (see `plan_in_slices`).
    """
    steps: list[BackwardStep] = []
    walk = forward_steps if forward_steps is not None else reference
    order = engine.rule_order(output, walk) if walk is not None else engine.rule_order(output)
    walked = None if forward_steps is reference else forward_steps
    for _ in plan_in_slices(output, engine, steps, order, 5_000, walked, reference):
        pass
    return steps


def known_steps(output: Value, engine: Engine, reference: list[Value],
                every: int = 5_000) -> Generator[None, None, dict | None]:
    """The rule steps of `output`'s plan walked in `reference` (its
    `topological_order`), by node, made `every` nodes at a time (yielding between): what
    a plan in another order may use again (`plan_in_slices`' `known`). None for an
    engine other than the correct one (its steps are always made anew)."""
    if not engine.is_correct or engine.own_rules or not engine.accumulates:
        return None
    steps: list[BackwardStep] = []
    with collector_paused():
        order = engine.rule_order(output, reference)
    for _ in plan_in_slices(output, engine, steps, order, every, None, reference):
        yield
    known: dict[Value, BackwardStep] = {}
    for a in range(1, len(steps), every):  # (the root step, steps[0], is no rule's)
        with collector_paused():
            known.update((step.node, step) for step in steps[a:a + every])
        yield
    return known


def plan_in_slices(output: Value, engine: Engine, steps: list[BackwardStep],
                   order: list[Value], every: int = 5_000,
                   forward_steps: list[Value] | None = None,
                   reference: list[Value] | None = None,
                   known: dict[Value, BackwardStep] | None = None) -> Iterator[int]:
    """Make `backward_plan(output, engine)` into `steps` (appended to), applying the
    rules of `order` (`engine.rule_order(output, forward_steps)`), and yield how many
    nodes of the order are done after every `every` of them (0 while the correct
    gradients a wrong engine's steps are compared with are worked out first).

    `forward_steps`: the topological order the stepper walks, if not the reference one;
    `reference`: `topological_order(output)` (the order `Value.backward()` walks), if
    known. Where `order` is another topological order than the reference's reversed (a
    grouped graph walked group by group), a node's contributions can arrive in another
    order than `backward()` adds them in, and floating-point sums depend on it: for an
    engine that accumulates in the default rule order, a node whose contributions
    arrive out of that order holds, after each of them, the sum of those received so
    far added in the reference order, so that after the last step every gradient is
    `backward()`'s to the bit (each step's `before`/`after` are what the node held; its
    `after` may then differ from `before + contribution` by a rounding). An engine with
    a rule order of its own (no-sort, a user's engine replayed) adds in arrival order.

    `known`: for the correct engine, the rule steps of this graph's plan in the
    reference order (`known_steps`, made while a child groups the graph). A node none of
    whose parents receives out of the reference's order gets its known step itself: its
    upstream gradient is the reference's (every node ends with the reference's sum) and
    each parent's contributions come in the reference's sequence, so each `before` and
    `after` is the reference's too. A node with such a parent gets a new step, its
    other contributions the known ones. (Past EXACT_UP_TO contributions re-added, sums
    may differ from the reference's: the plan is then made again without `known`.)
    """
    accumulates = engine.accumulates
    own_rules = engine.local_grads if engine.own_rules else None
    checked = not engine.is_correct
    reorders = accumulates and type(engine).rule_order is Engine.rule_order
    if forward_steps is not None and reference is None and (checked or reorders):
        with collector_paused():
            reference = topological_order(output)
    if reference is not None and forward_steps is not None and _same(reference,
                                                                     forward_steps):
        forward_steps = None
    rank: dict[Value, int] | None = None
    disordered: set[Value] = set()
    if reorders and forward_steps is not None:
        rank = {}
        backwards = reference[::-1]
        for a in range(0, len(backwards), every):
            with collector_paused():
                rank.update(zip(backwards[a:a + every], range(a, a + every)))
            yield 0
        for _ in _arriving_out_of_order(order, rank, disordered, every):
            yield 0
        if not disordered:
            rank = None
    correct: dict[Value, float] = {}
    if checked:
        for _ in _final_gradients_in_slices(output, correct, every, reference):
            yield 0
    seed = engine.seed
    grads: dict[Value, float] = {output: seed}
    base = Contribution(output, seed, seed, seed, 0.0, seed)
    steps.append(BackwardStep(output, (base,), root=True, problem=engine.root_problem()))
    held: dict[Value, tuple[list[int], list[float], list[float]]] = {}
    plain = accumulates and not own_rules and not checked
    reusing = plain and known is not None
    reused = 0  # nodes of the order done with the known steps
    while reusing and reused < len(order):
        with collector_paused():
            if not _reused_rules(order[reused:reused + every], known, grads, steps, rank,
                                 disordered, held):
                reusing = False  # from the start again, without them
                del steps[1:]
                grads, held, reused = {output: seed}, {}, 0
                break
        reused += every
        yield min(reused, len(order))
    for start in range(reused, len(order), every):
        if plain:  # the correct engine's rules: the quick loop
            with collector_paused():
                _plain_rules(order[start:start + every], grads, steps, rank, disordered,
                             held)
            yield min(start + every, len(order))
            continue
        with collector_paused():  # per slice: the caller may stop iterating
            for node in order[start:start + every]:
                if not node._prev:
                    continue
                upstream = grads.get(node, 0.0)
                received = []
                for parent, local in zip(node._prev,
                                         own_rules(node) if own_rules else node._local):
                    before = grads.get(parent, 0.0)
                    contribution = local * upstream
                    if rank is not None and parent in disordered:
                        after = _in_reference_order(held, parent, rank[node], contribution)
                    else:
                        after = before + contribution if accumulates else contribution
                    grads[parent] = after
                    received.append(Contribution(parent, local, upstream, contribution,
                                                 before, after))
                if own_rules:  # where its rule gave another number, the right one beside
                    received = _with_right(engine, received, node._local)
                problem = engine.problem(node, upstream, received, correct) if checked else ""
                steps.append(BackwardStep(node, tuple(received), problem=problem))
        yield min(start + every, len(order))


# A plan's steps made with each slot set through its descriptor, not the frozen
# `__init__`'s per-field `object.__setattr__` (making them was a third of a plan's time):
# the same objects in every way (equality, hash, repr), every field given, in order.
_new = object.__new__
_c_parent, _c_local, _c_upstream, _c_contribution, _c_before, _c_after, _c_right = (
    getattr(Contribution, f.name).__set__ for f in fields(Contribution))
_s_node, _s_contributions, _s_root, _s_problem = (
    getattr(BackwardStep, f.name).__set__ for f in fields(BackwardStep))


def _contribution(parent, local, upstream, contribution, before, after, right):
    c = _new(Contribution)
    _c_parent(c, parent)
    _c_local(c, local)
    _c_upstream(c, upstream)
    _c_contribution(c, contribution)
    _c_before(c, before)
    _c_after(c, after)
    _c_right(c, right)
    return c


def _step(node, contributions, root, problem):
    s = _new(BackwardStep)
    _s_node(s, node)
    _s_contributions(s, contributions)
    _s_root(s, root)
    _s_problem(s, problem)
    return s


def _plain_rules(nodes: list[Value], grads: dict[Value, float], steps: list[BackwardStep],
                 rank: dict[Value, int] | None, disordered: set[Value], held: dict) -> None:
    """`plan_in_slices`' loop over `nodes` for an engine that applies the correct rules
    and accumulates: the same steps, made with fewer calls."""
    contribution_of, step_of, get, add = _contribution, _step, grads.get, steps.append
    for node in nodes:
        parents = node._prev
        if not parents:
            continue
        upstream = get(node, 0.0)
        received = []
        for parent, local in zip(parents, node._local):
            before = get(parent, 0.0)
            contribution = local * upstream
            if rank is not None and parent in disordered:
                after = _in_reference_order(held, parent, rank[node], contribution)
            else:
                after = before + contribution
            grads[parent] = after
            received.append(contribution_of(parent, local, upstream, contribution, before,
                                            after, None))
        add(step_of(node, tuple(received), False, ""))


def _reused_rules(nodes: list[Value], known: dict[Value, BackwardStep],
                  grads: dict[Value, float], steps: list[BackwardStep],
                  rank: dict[Value, int] | None, disordered: set[Value],
                  held: dict) -> bool:
    """`_plain_rules` with the `known` steps used again (see `plan_in_slices`); False,
    with steps partly added, if a node would be re-added past EXACT_UP_TO or one of
    `nodes` has no known step (then `known` cannot be used)."""
    add = steps.append
    for node in nodes:
        parents = node._prev
        if not parents:
            continue
        step = known.get(node)
        if step is None:
            return False
        if rank is None or not any(p in disordered for p in parents):
            add(step)
            continue
        r = rank[node]
        received = []
        for c in step.contributions:
            parent = c.parent
            if parent in disordered:
                entry = held.get(parent)
                if entry is not None and len(entry[0]) >= EXACT_UP_TO:
                    return False
                before = grads.get(parent, 0.0)
                after = grads[parent] = _in_reference_order(held, parent, r, c.contribution)
                c = _contribution(parent, c.local, c.upstream, c.contribution, before, after,
                                  None)
            received.append(c)
        add(_step(node, tuple(received), False, ""))
    return True


def _same(a: list[Value], b: list[Value]) -> bool:
    """Whether two orders are the same nodes in the same order (by identity)."""
    return len(a) == len(b) and all(map(operator.is_, a, b))


def _arriving_out_of_order(order: list[Value], rank: dict[Value, int],
                           disordered: set[Value], every: int) -> Iterator[None]:
    """Into `disordered`, the nodes that, with the rules applied in `order`, receive a
    contribution from a node of lower `rank` (its place in the reference's rule order)
    after one of higher rank, yielding after every `every` nodes. ValueError if `order`
    is not a rule order of the graph `rank` ranks: a rule applied twice, before a
    consumer's, or never."""
    last: dict[Value, int] = {}
    applied = len(rank)  # marks a node whose rule was applied: above every rank
    rules = 0
    for a in range(0, len(order), every):
        with collector_paused():
            for node in order[a:a + every]:
                parents = node._prev
                if not parents:
                    continue
                r = rank.get(node)
                if r is None or last.get(node) == applied:
                    raise ValueError("the forward steps are not a topological order of "
                                     "the graph")
                for parent in parents:
                    seen = last.get(parent, -1)
                    if seen > r:
                        if seen == applied:
                            raise ValueError("the forward steps are not a topological order "
                                             "of the graph: a node comes before one of its "
                                             "operands")
                        disordered.add(parent)
                    else:
                        last[parent] = r
                last[node] = applied
                rules += 1
        yield
    if rules != sum(1 for node in rank if node._prev):
        raise ValueError("the forward steps are not a topological order of the graph")


EXACT_UP_TO = 4_096  # a node's contributions added in the reference's order, up to this many


def _in_reference_order(held: dict[Value, tuple[list[int], list[float], list[float]]],
                        parent: Value, rank: int, contribution: float) -> float:
    """`parent`'s gradient once `contribution` (from the rule of rank `rank`) is added to
    those it has received so far, all added in the order of their ranks, from 0.0, as
    the reference backward pass adds them. `held[parent]`: the ranks received, their
    contributions, and the running sums (one more: 0.0 first), all in rank order."""
    entry = held.get(parent)
    if entry is None:
        entry = held[parent] = ([], [], [0.0])
    ranks, terms, sums = entry
    if len(ranks) >= EXACT_UP_TO:  # past this many, added as they come (O(1) each, not
        ranks.append(rank)         # O(k): a node 100,000 nodes use, in reverse, would
        terms.append(contribution)  # take billions of additions); the last bits may
        sums.append(sums[-1] + contribution)  # then differ from backward()'s
        return sums[-1]
    j = bisect_right(ranks, rank)  # after an equal rank: a + a, operands in order
    ranks.insert(j, rank)
    terms.insert(j, contribution)
    del sums[j + 1:]
    sums += accumulate(terms[j:], operator.add, initial=sums[j])
    sums.pop(j + 1)  # `initial` came out again
    return sums[-1]


def _with_right(engine: Engine, received: list[Contribution],
                right: tuple[float, ...]) -> list[Contribution]:
    """`received` with the right local derivative set on each contribution whose own
    differs from it (beyond what `engine` allows for rounding)."""
    return [c if engine.agrees(c.local, r) else replace(c, right=r)
            for c, r in zip(received, right)]


def _final_gradients_in_slices(output: Value, grads: dict[Value, float], every: int,
                               forward_steps: list[Value] | None = None) -> Iterator[None]:
    """Every node's gradient after the correct backward pass, into `grads`, on the side
    (the nodes' own `grad` is left as it was), yielding after every `every` nodes."""
    if forward_steps is None:
        with collector_paused():
            forward_steps = topological_order(output)
    grads[output] = 1.0
    order = forward_steps[::-1]
    for start in range(0, len(order), every):
        with collector_paused():
            for node in order[start:start + every]:
                g = grads.get(node, 0.0)
                for parent, local in zip(node._prev, node._local):
                    grads[parent] = grads.get(parent, 0.0) + local * g
        yield


def first_wrong_step(steps: list[BackwardStep]) -> int | None:
    """The index of the first backward step that departs from the correct engine."""
    return next((i for i, s in enumerate(steps) if s.problem), None)


def gradients_with(program, engine: Engine = CORRECT, passes: int = 1) -> dict[str, float]:
    """Each input's gradient after `passes` backward passes of `engine`, each on a fresh
    copy of `program` (as a training step builds a fresh graph); what a pass leaves is
    kept for the next one only if the engine does not zero gradients between passes.
    The program's own graph is not touched."""
    totals = {name: 0.0 for name in program.inputs}
    for _ in range(passes):
        copy = program.rebuild()
        Stepper(copy.output, engine).run_to_end()
        for name, leaf in copy.inputs.items():
            totals[name] = totals[name] + leaf.grad if not engine.zeroes_grad else leaf.grad
    return totals


class _PlanIndex:
    """Which contributions of a backward plan go to each node, found without a scan.

    Made once per stepper, the first time it is needed, from flat lists and dicts that
    C loops fill: a few large objects rather than some for every node, so it is quick to
    make and leaves the garbage collector next to nothing to scan.
    """

    def __init__(self, steps: list[BackwardStep]):
        for _ in self._fill(steps, _AT_ONCE):
            pass

    @classmethod
    def in_slices(cls, steps: list[BackwardStep],
                  every: int) -> Generator[None, None, _PlanIndex]:
        """The same index made a slice of about `every` steps at a time."""
        index = cls.__new__(cls)
        yield from index._fill(steps, every)
        return index

    def _fill(self, steps: list[BackwardStep], every: int) -> Iterator[None]:
        self.contributions: list[Contribution] = []
        self.owner: list[int] = []
        for a in range(0, len(steps), every):
            chunk = steps[a:a + every]
            self.contributions += [c for step in chunk for c in step.contributions]
            self.owner += [i for i, step in enumerate(chunk, a) for _ in step.contributions]
            yield
        contributions = self.contributions
        n = len(contributions)
        self.parents = [c.parent for c in contributions[:every]]
        for a in range(every, n, every):
            yield
            self.parents += [c.parent for c in contributions[a:a + every]]
        parents = self.parents
        self.last, self.first = {}, {}
        for a in range(0, n, every):  # the last position written wins
            yield
            self.last.update(zip(parents[a:a + every], range(a, a + every)))
        for a in range(n - n % every if n % every else n - every, -1, -every):
            yield  # from the end back: the first position is written last
            b = min(a + every, n)
            self.first.update(zip(reversed(parents[a:b]), range(b - 1, a - 1, -1)))
        self.several: dict[Value, list[int]] = {}  # positions of nodes that receive often

    def positions(self, node: Value) -> list[int]:
        """The positions in `contributions` of those that go to `node`, in order."""
        first = self.first.get(node)
        if first is None:
            return []
        last = self.last[node]
        if first == last:
            return [first]
        found = self.several.get(node)
        if found is None:  # once per node: list.index finds each by identity, in C
            found, k = [first], first
            while k != last:
                k = self.parents.index(node, k + 1, last + 1)
                found.append(k)
            self.several[node] = found
        return found


class Stepper:
    """Walks a graph's forward then backward pass one step at a time, both ways.

    `position` counts the steps taken, from 0 to `total`. The first
    `len(forward_steps)` steps reveal values; the rest are `backward_steps`. The stepper
    writes the nodes' `grad` as it goes (all zero at position 0).
    """

    def __init__(self, output: Value, engine: Engine = CORRECT,
                 forward_steps: list[Value] | None = None,
                 reference: list[Value] | None = None):
        with collector_paused():  # a step and a record per node, all kept
            if forward_steps is None:
                if reference is None:
                    reference = topological_order(output)
                forward_steps = reference
            backward_steps = backward_plan(output, engine, forward_steps, reference)
        for _ in self._start_in_slices(output, engine, forward_steps, backward_steps,
                                       _AT_ONCE):
            pass

    def _start_in_slices(self, output: Value, engine: Engine,
                         forward_steps: list[Value], backward_steps: list[BackwardStep],
                         every: int) -> Iterator[None]:
        self.output = output
        self.engine = engine
        self.forward_steps = forward_steps
        self.backward_steps = backward_steps
        self._order: dict[Value, int] = {}
        for a in range(0, len(forward_steps), every):
            self._order.update(zip(forward_steps[a:a + every], range(a, a + every)))
            for node in forward_steps[a:a + every]:  # as `reset` does
                node.grad = 0.0
            yield
        self._index: _PlanIndex | None = None  # made when first needed
        self._rule_steps: dict[Value, BackwardStep] | None = None  # likewise
        self._backward_positions: list[int] | None = None  # likewise
        self.position = 0

    @classmethod
    def in_slices(cls, output: Value, engine: Engine = CORRECT, every: int = 5_000,
                  forward_steps: list[Value] | None = None,
                  reference: list[Value] | None = None,
                  known: dict[Value, BackwardStep] | None = None,
                  ) -> Generator[tuple[int, int], None, Stepper]:
        """Make the same Stepper as `Stepper(output, engine, forward_steps, reference)` a
        slice at a time: yield (done, total) after each slice of work and return the
        stepper (`yield from`, or StopIteration.value). `known`: `known_steps` of the
        graph, to be used again (see `plan_in_slices`)."""
        return (yield from cls._made_in_slices(output, engine, every, forward_steps,
                                               cls.__new__(cls), reference, known))

    @staticmethod
    def _made_in_slices(output: Value, engine: Engine, every: int,
                        forward_steps: list[Value] | None, stepper: Stepper,
                        reference: list[Value] | None = None,
                        known: dict[Value, BackwardStep] | None = None,
                        ) -> Generator[tuple[int, int], None, Stepper]:
        """`stepper` (made but not initialised) made `output`'s stepper, a slice of
        about `every` nodes at a time. `forward_steps`: the topological order to walk
        (found elsewhere: by a child process, a grouping); `reference`:
        `topological_order(output)`, the order `Value.backward()` walks, if known (found
        by a child process: otherwise it is found here, in one go, if needed). Either
        may be None: the walk is then the reference order. Any topological order
        reaches the same gradients, to the bit (see `plan_in_slices`)."""
        if forward_steps is None:
            if reference is None:
                with collector_paused():
                    reference = topological_order(output)
            forward_steps = reference
        n = len(forward_steps)
        total = 3 * n
        yield n, total
        with collector_paused():
            order = engine.rule_order(output, forward_steps)
        steps: list[BackwardStep] = []
        walked = None if forward_steps is reference else forward_steps
        for done in plan_in_slices(output, engine, steps, order, every, walked, reference,
                                   known):
            yield n + done, total
        with collector_paused():
            for k, _ in enumerate(stepper._start_in_slices(output, engine, forward_steps,
                                                           steps, every)):
                yield 2 * n + min(n, (k + 1) * every) // 2, total
            # what the first backward step would make
            index_slices = _PlanIndex.in_slices(steps, every)
            while True:
                try:
                    next(index_slices)
                except StopIteration as done:
                    stepper._index = done.value
                    break
                yield 2 * n + n // 2, total
        yield total, total
        return stepper

    @property
    def total(self) -> int:
        return len(self.forward_steps) + len(self.backward_steps)

    @property
    def phase(self) -> str:
        """'start', 'forward', 'backward' or 'done'."""
        if self.position == 0:
            return "start"
        if self.position <= len(self.forward_steps):
            return "forward"
        return "done" if self.position == self.total else "backward"

    def progress(self) -> str:
        """The phase and the step within it, e.g. 'forward 3/12' or 'backward 5/9'."""
        n_forward = len(self.forward_steps)
        if self.position == 0:
            return (f"ready: {n_forward:,} forward and "
                    f"{count(len(self.backward_steps), 'backward step')}")
        if self.position <= n_forward:
            return f"forward {self.position}/{n_forward}"
        done = " (done)" if self.position == self.total else ""
        return f"backward {self.position - n_forward}/{len(self.backward_steps)}{done}"

    def is_revealed(self, node: Value) -> bool:
        """Whether the forward pass has reached `node` yet."""
        return self._order.get(node, len(self._order)) < self.position

    def received(self, node: Value) -> list[tuple[BackwardStep, Contribution]]:
        """What `node` has received in the backward steps taken so far: (step,
        contribution) for each gradient handed to it, in the order it arrived (twice
        from one step if the node is both operands, as in a + a)."""
        taken = self.position - len(self.forward_steps)
        if taken <= 0:
            return []
        plan = self._plan_index()
        steps, owner, flat = self.backward_steps, plan.owner, plan.contributions
        return [(steps[owner[k]], flat[k]) for k in plan.positions(node) if owner[k] < taken]

    def consumers(self, node: Value) -> list[Value]:
        """The nodes that take `node` as an operand, each once, in the forward order:
        the owners of the contributions it receives in the plan (no scan of the graph:
        a parameter used by 100 samples costs 100 lookups, at any graph's size). The
        root step's dL/dL = 1, handed to the output by no node, is not a use."""
        plan = self._plan_index()
        steps, owner = self.backward_steps, plan.owner
        users = {step.node for step in [steps[owner[k]] for k in plan.positions(node)]
                 if not step.root}
        return sorted(users, key=self._order.__getitem__)

    def final_grad(self, node: Value) -> float:
        """The node's gradient after the whole backward pass, as the plan makes it."""
        plan = self._plan_index()
        positions = plan.positions(node)
        return plan.contributions[positions[-1]].after if positions else 0.0

    def local_derivatives(self, node: Value) -> tuple[tuple[float, float | None], ...]:
        """For each of `node`'s parents, (the local derivative this stepper's backward
        pass multiplies by, the right one or None where they agree). They differ only
        under an engine with rules of its own (a learner's multiply rule, a user's
        engine replayed); () for a leaf."""
        if not node.parents:
            return ()
        if not self.engine.own_rules:  # the node's own rules
            return tuple((local, None) for local in node.local_grads)
        if self._rule_steps is None:
            self._rule_steps = {s.node: s for s in self.backward_steps if not s.root}
        step = self._rule_steps.get(node)
        if step is None:
            return tuple((local, None) for local in node.local_grads)
        return tuple((c.local, c.right) for c in step.contributions)

    def forward_position(self, node: Value) -> int:
        """`node`'s place in `forward_steps` (KeyError for a node not in the graph)."""
        return self._order[node]

    def backward_positions(self) -> list[int]:
        """Each backward step's node, as its place in `forward_steps` (the root step's is
        the output's). Made once, then kept."""
        if self._backward_positions is None:
            self._backward_positions = list(map(self._order.__getitem__,
                                                [s.node for s in self.backward_steps]))
        return self._backward_positions

    def _plan_index(self) -> _PlanIndex:
        if self._index is None:
            self._index = _PlanIndex(self.backward_steps)
        return self._index

    @property
    def current(self) -> Value | BackwardStep | None:
        """The last step taken: a node (forward), a BackwardStep, or None at the start."""
        n_forward = len(self.forward_steps)
        if self.position == 0:
            return None
        if self.position <= n_forward:
            return self.forward_steps[self.position - 1]
        return self.backward_steps[self.position - n_forward - 1]

    def step(self) -> bool:
        """Take one step; False (and nothing changes) if already at the end."""
        if self.position == self.total:
            return False
        self.position += 1
        step = self.current
        if isinstance(step, BackwardStep):
            for c in step.contributions:
                c.parent.grad = c.after
        return True

    def back(self) -> bool:
        """Undo the last step exactly; False if at the start."""
        if self.position == 0:
            return False
        step = self.current
        if isinstance(step, BackwardStep):
            for c in reversed(step.contributions):
                c.parent.grad = c.before
        self.position -= 1
        return True

    def reset(self) -> None:
        """Back to position 0: nothing revealed, every gradient 0."""
        for node in self.forward_steps:
            node.grad = 0.0
        self.position = 0

    def seek(self, position: int) -> None:
        """Walk to `position`, clamped to 0..total."""
        position = max(0, min(position, self.total))
        # what `step` and `back` would do one at a time, in one tight loop: a forward
        # step changes nothing but the position (Run to end at 200,000 nodes)
        n, steps = len(self.forward_steps), self.backward_steps
        here, there = max(0, self.position - n), max(0, position - n)
        for k in range(here, there):  # only the steps between are touched
            for c in steps[k].contributions:
                c.parent.grad = c.after
        for k in range(here - 1, there - 1, -1):
            for c in reversed(steps[k].contributions):
                c.parent.grad = c.before
        self.position = position

    def run_to_end(self) -> None:
        self.seek(self.total)


def gradient_error(program, steps: list[BackwardStep]):
    """An ExpressionError for the first node whose gradient in the plan `steps` is not a
    finite number (an overflow: `x = 1e-300; c = 1e200; y = x*c*c` gives dy/dx = 1e400),
    at that node's place in `program`; None if every gradient is finite. The command
    line refuses such a program, and so does the window."""
    from engine.core.explain import expression
    from engine.errors import ExpressionError, shorten

    for step in steps:
        for c in step.contributions:
            if math.isfinite(c.after) and math.isfinite(c.contribution):
                continue
            node = c.parent
            what = (f"'{shorten(node.label)}'" if node.label
                    else shorten(expression(node, 2)))
            try:
                line, col = program.position(node)
            except KeyError:  # a constant folded into its operation
                line, col = program.position(step.node)
            return ExpressionError(f"the gradient with respect to {what} is too large to "
                                   "represent (it overflows a float)", line, col)
    return None
