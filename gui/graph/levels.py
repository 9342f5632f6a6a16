"""The steps at the level shown: a grouped graph stepped a unit of its quotient at a time.

A collapsed group's forward pass is one step, its backward pass one more (the run of
its members' backward steps; a group of leaves has none); a node shown as itself is one
step each way, as in an ungrouped graph; the backward pass starts with its own step,
dL/dL = 1. A forward step that reveals nothing drawn (a constant folded into its
operation, shown as itself) is taken with the step after it, as the Graph tab has always
done. Each step at the level shown is a run of the stepper's own steps: the stepper
walks `grouping.order`, in which every group is contiguous, so under an engine that
applies the rules in the reverse of that order (the correct one, and every engine but
those with a rule order of their own) a collapsed group's backward pass is one run. An
engine whose rule order breaks a group's contiguity (no-sort's breadth-first order, a
user's engine replayed) makes a collapsed group's backward pass several runs: each
maximal run is one step, and the group is the current unit of each.

API (helper D's Graph tab drives it; the session owns the stepper and its position):

    levels = LevelSteps(stepper, arrays, grouping, expanded=set(), folded=())
        node i of `arrays` is stepper.forward_steps[k] where grouping.order[k] == i;
        `folded`: the nodes drawn folded into their operation (no box of their own)
    levels.next_position() -> int | None      one step on at the level shown (None: end)
    levels.previous_position() -> int | None  one step back (None: at the start)
    levels.step() / levels.back() -> bool     the same, seeking the stepper itself
    levels.current_unit() -> int | None       the unit of the last step taken (None at 0)
    levels.current_span() -> (int, int)       the stepper positions it went from and to
    levels.units_between(a, b) -> set[int]    the units the steps between two positions
                                              touched (what a move changed)
    levels.revealed(unit) -> bool             its forward step taken (a group: whole)
    levels.rules_applied(unit) -> (int, int)  how many of its rules the steps taken have
                                              applied, of how many (a leaf: (0, 0))
    levels.level() -> int                     the innermost expanded group holding the
                                              current unit, -1 for the top
    levels.progress() -> str                  'forward 3/12', 'backward 3/41 · inside inputs[7]'
    levels.counts() -> (int, int)             forward and backward steps at this level
    levels.quotient                           the Quotient shown (units, unit_of, edges)
    levels.expanded                           the groups open (a frozenset)
    levels.set_expanded(expanded, quotient=None) -> int
    levels.expand(g) -> int, levels.collapse(g) -> int
        the position to seek the stepper to: expanding the group whose step was just
        taken goes to where its first inner step was just taken (Right then steps
        inside it), except at the end of the pass, which stays done; collapsing a
        group the position is inside goes to the end of that group's step (its step
        taken whole); otherwise the position is kept
    levels.sent(edge) -> Sent | None          what the backward steps taken so far sent
                                              along a quotient edge: Σ local × upstream
    levels.sent_text(edge) -> str             'Σ 0.1234 (16 paths)', '' before any was sent
    levels.node_index(value) -> int           a Value's node index in `arrays`
    levels.consumer_group(value) -> int       the group `value`'s contribution is listed
                                              under (outermost instance, top group, -1)
"""
# Qt-free: plain bookkeeping over the stepper, tested without a window.

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Collection, Generator, Iterable, Mapping
from dataclasses import dataclass
from itertools import accumulate, groupby
from operator import attrgetter, itemgetter

from engine.core.stepping import Stepper
from engine.core.value import Value
from engine.numbers import number
from gui.graph.groups.model import (
    GraphArrays,
    Grouping,
    Quotient,
    quotient,
    unit_group,
)

RULES_PER_SLICE = 10_000  # `LevelSteps.made_steps` yields after this many backward steps
_node_of = attrgetter("node")


@dataclass(frozen=True, slots=True)
class Sent:
    """What the backward steps taken so far sent along one edge of the quotient."""

    total: float  # Σ local × upstream over the operands the edge stands for, sent so far
    sent: int     # how many of them have been sent
    paths: int    # how many operands the edge stands for


class LevelSteps:
    """The stepper's steps grouped into the steps at the level shown (see the module)."""

    def __init__(self, stepper: Stepper, arrays: GraphArrays, grouping: Grouping,
                 expanded: Iterable[int] = (), folded: Collection[int] = (),
                 shown: Quotient | None = None):
        for _ in self._made_steps(stepper, arrays, grouping, expanded, folded, shown):
            pass

    @classmethod
    def made_steps(cls, stepper: Stepper, arrays: GraphArrays, grouping: Grouping,
                   expanded: Iterable[int] = (), folded: Collection[int] = (),
                   shown: Quotient | None = None,
                   index: Mapping[Value, int] | None = None) -> Generator[None, None, LevelSteps]:
        """`LevelSteps(...)` made a few ms at a time: yields (None) between its pieces,
        returns it. `index`: each Value's place in the stepper's forward steps, if known
        (grouped.Shown's): the backward steps' places are read from it in slices."""
        levels = cls.__new__(cls)
        yield from levels._made_steps(stepper, arrays, grouping, expanded, folded, shown,
                                      index)
        return levels

    def _made_steps(self, stepper, arrays, grouping, expanded, folded, shown, index=None):
        if (len(stepper.forward_steps) != len(arrays) or len(grouping.order) != len(arrays)
                or (len(arrays) and grouping.order[-1] != arrays.output)):
            raise ValueError("the stepper, the arrays and the grouping are not of one graph")
        self.stepper, self.arrays, self.grouping = stepper, arrays, grouping
        self.folded = frozenset(folded)
        order = grouping.order
        if index is None:
            positions = stepper.backward_positions()
        else:  # the same places, from the index, a slice at a time (200,000: 60-130 ms)
            positions, steps = [], stepper.backward_steps
            for a in range(0, len(steps), RULES_PER_SLICE):
                positions.extend(map(index.__getitem__,
                                     map(_node_of, steps[a:a + RULES_PER_SLICE])))
                yield
        yield
        self._backward_nodes = list(map(order.__getitem__, positions))
        # the usual case, noted once: the nodes in order, the rules in the reverse order
        self._in_order = order == list(range(len(order)))
        yield
        self._mirrored = self._backward_nodes == order[::-1]
        # the backward steps' units, read by one C call (a map over 65,000 nodes: 4 ms)
        nodes = self._backward_nodes
        self._backward_units = (itemgetter(*nodes) if len(nodes) > 1
                                else lambda units: [units[i] for i in nodes])
        yield
        # each node's rule step, as an index into backward_steps (-1: a leaf)
        self._rule_step = [-1] * len(arrays)
        steps = stepper.backward_steps
        for j, i in enumerate(self._backward_nodes):
            if not steps[j].root:
                self._rule_step[i] = j
            if j % RULES_PER_SLICE == RULES_PER_SLICE - 1:
                yield
        self._group_rules: dict[int, list[int]] = {}  # a group's rule steps, sorted
        self._places: list[int] | None = None
        self.expanded: frozenset[int] = frozenset()
        self.quotient: Quotient = shown  # set below
        self._stops: list[int] = [0]
        self._prepared: tuple[Quotient, list[int]] | None = None  # see prepare_steps
        yield
        self._set(frozenset(expanded), shown)

    # -- the level shown ----------------------------------------------------------------

    def _set(self, expanded: frozenset[int], shown: Quotient | None) -> None:
        self.expanded = expanded
        self.quotient = shown if shown is not None else quotient(self.arrays, self.grouping,
                                                                 set(expanded))
        prepared, self._prepared = self._prepared, None
        self._stops = (prepared[1] if prepared is not None and prepared[0] is self.quotient
                       else self._find_stops())

    def prepare_steps(self, shown: Quotient) -> Generator[None, None, None]:
        """Work out, a few ms at a time, where the steps end with `shown` (the quotient of
        a picture drawn in the background) drawn: `set_expanded` with it looks them up."""
        stops = yield from self._stops_steps(shown)
        self._prepared = (shown, stops)

    def _find_stops(self) -> list[int]:
        """The stepper positions a step at the level shown ends at, 0 first."""
        steps = self._stops_steps(self.quotient)
        while True:
            try:
                next(steps)
            except StopIteration as done:
                return done.value

    def _stops_steps(self, shown: Quotient) -> Generator[None, None, list[int]]:
        unit_of = shown.unit_of
        forward = (unit_of if self._in_order
                   else list(map(unit_of.__getitem__, self.grouping.order)))
        folded = self.folded
        n = len(forward)
        # forward step k + 1 ends a step if the next one is of another unit, unless it
        # reveals nothing drawn (then it is taken with the next)
        stops = [0]
        # by runs of one unit (groupby runs in C: a few ms at 65,000 nodes, not 60)
        units, lengths = _runs(forward)
        ends = list(accumulate(lengths))
        stops += [end for u, end in zip(units, ends[:-1]) if u not in folded]
        if n:
            stops.append(n)
        yield
        if self._mirrored:  # the backward pass meets the same runs, last first
            size, back_ends = n, list(accumulate(reversed(lengths)))
        else:
            backward = self._backward_units(unit_of)
            yield
            size, back_ends = len(backward), list(accumulate(_runs(backward)[1]))
        if size:
            stops.append(n + 1)  # the root step: dL/dL = 1
            stops += [n + end for end in back_ends[:-1] if end >= 2]
            if size > 1:
                stops.append(n + size)
        return stops

    def set_expanded(self, expanded: Iterable[int], shown: Quotient | None = None) -> int:
        """Show the graph with the groups in `expanded` open (`shown`: its quotient, if
        already made) and return the position the stepper is to be at (see the module)."""
        expanded = frozenset(expanded)
        position = self.stepper.position
        unit = self.current_unit()
        start = self._run_start(position)
        self._set(expanded, shown)
        if (unit is not None and unit < 0 and unit_group(unit) in expanded
                and position < self.stepper.total):
            # the step just taken was this group's: go to its first inner step (not at
            # the end of the pass: a pass that is done stays done)
            return self._stops[bisect_right(self._stops, start)]
        if position in self._stops:
            return position
        return self._stops[bisect_right(self._stops, position)]  # its step taken whole

    def expand(self, g: int) -> int:
        """`set_expanded` with group `g` opened too."""
        return self.set_expanded(self.expanded | {g})

    def collapse(self, g: int) -> int:
        """`set_expanded` with group `g` closed (and everything inside it)."""
        inside = {h for h in self.expanded if g in self._chain(h)}
        return self.set_expanded(self.expanded - inside)

    def _chain(self, g: int) -> list[int]:
        return [g, *self._chain(self.grouping.groups[g].parent)] if g >= 0 else []

    def _run_start(self, position: int) -> int:
        """Where the step at the level shown that ends at (or holds) `position` began."""
        k = bisect_left(self._stops, position)
        return self._stops[k - 1] if k > 0 else 0

    # -- moving ---------------------------------------------------------------------------

    def next_position(self) -> int | None:
        """The position one step on at the level shown; None at the end."""
        k = bisect_right(self._stops, self.stepper.position)
        return self._stops[k] if k < len(self._stops) else None

    def previous_position(self) -> int | None:
        """The position one step back at the level shown; None at the start."""
        k = bisect_left(self._stops, self.stepper.position)
        return self._stops[k - 1] if k > 0 else None

    def step(self) -> bool:
        """Take one step at the level shown (seeking the stepper); False at the end."""
        there = self.next_position()
        if there is None:
            return False
        self.stepper.seek(there)
        return True

    def back(self) -> bool:
        """Undo one step at the level shown; False at the start."""
        there = self.previous_position()
        if there is None:
            return False
        self.stepper.seek(there)
        return True

    # -- where it is ---------------------------------------------------------------------

    def _node_at(self, position: int) -> int | None:
        """The node of the stepper's step that ends at `position` (None at 0)."""
        n = len(self.grouping.order)
        if position <= 0:
            return None
        if position <= n:
            return self.grouping.order[position - 1]
        return self._backward_nodes[position - n - 1]

    def current_unit(self) -> int | None:
        """The unit of the last step taken, at the level shown; None at the start."""
        node = self._node_at(self.stepper.position)
        return None if node is None else self.quotient.unit_of[node]

    def current_span(self) -> tuple[int, int]:
        """The positions the step at the level shown just taken went from and to."""
        position = self.stepper.position
        return self._run_start(position), position

    def units_between(self, a: int, b: int) -> set[int]:
        """The units of the stepper's steps between positions `a` and `b` (either way
        round): what a move from one to the other changed, at the level shown."""
        a, b = sorted((a, b))
        n = len(self.grouping.order)
        unit_of = self.quotient.unit_of
        nodes = self.grouping.order[a:min(b, n)]
        nodes += self._backward_nodes[max(a - n, 0):max(b - n, 0)]
        return set(map(unit_of.__getitem__, nodes))

    def rule_nodes(self, a: int, b: int) -> list[int]:
        """The nodes whose rules the backward steps between positions a <= b apply."""
        n = len(self.grouping.order)
        return self._backward_nodes[max(a - n, 0):max(b - n, 0)]

    def level(self) -> int:
        """The innermost expanded group holding the current unit; -1 at the top level
        (and at the start)."""
        unit = self.current_unit()
        if unit is None:
            return -1
        if unit < 0:
            return self.grouping.groups[unit_group(unit)].parent
        return self.grouping.group_of[unit] if self.grouping.group_of else -1

    def counts(self) -> tuple[int, int]:
        """How many forward and backward steps there are at the level shown."""
        n = len(self.grouping.order)
        forward = bisect_right(self._stops, n) - 1
        return forward, len(self._stops) - 1 - forward

    def progress(self) -> str:
        """The phase and the step within it at the level shown, and the level:
        'forward 3/12', 'backward 3/41 · inside inputs[7]', 'backward 41/41 (done)'."""
        position = self.stepper.position
        n_forward, n_backward = self.counts()
        if position == 0:
            return f"ready: {n_forward:,} forward and {n_backward:,} backward steps"
        taken = bisect_right(self._stops, position) - 1
        part = "" if position in self._stops else " (part way)"
        if position <= len(self.grouping.order):
            text = f"forward {taken}/{n_forward}{part}"
        else:
            done = " (done)" if position == self.stepper.total else ""
            text = f"backward {taken - n_forward}/{n_backward}{part}{done}"
        g = self.level()
        return text if g < 0 else f"{text} · inside {self.grouping.groups[g].title}"

    def revealed(self, unit: int) -> bool:
        """Whether the forward pass has revealed `unit` (a group: all its members)."""
        if unit >= 0:
            return self.stepper.position > self._place(unit)
        return self.stepper.position >= self.grouping.groups[unit_group(unit)].last

    def rules_applied(self, unit: int) -> tuple[int, int]:
        """How many of `unit`'s rules (its members' backward steps; a node has one, a
        leaf none) the steps taken have applied, and how many it has."""
        taken = self.stepper.position - len(self.grouping.order)
        if unit >= 0:
            j = self._rule_step[unit]
            return (int(0 <= j < taken), int(j >= 0))
        g = unit_group(unit)
        found = self._group_rules.get(g)
        if found is None:
            group = self.grouping.groups[g]
            rule_step = self._rule_step
            found = sorted(j for j in map(rule_step.__getitem__,
                                          self.grouping.order[group.first:group.last])
                           if j >= 0)
            self._group_rules[g] = found
        return bisect_left(found, max(taken, 0)), len(found)

    def _place(self, node: int) -> int:
        """Node `node`'s place in `grouping.order` (the stepper's forward steps)."""
        if self._places is None:
            self._places = [0] * len(self.grouping.order)
            for k, i in enumerate(self.grouping.order):
                self._places[i] = k
        return self._places[node]

    # -- what an edge carried -------------------------------------------------------------

    def sent(self, edge: tuple[int, int, tuple[tuple[int, int], ...]]) -> Sent | None:
        """What the backward steps taken so far sent along `edge` (a quotient edge:
        source unit, target unit, the operands it stands for): the sum of local ×
        upstream over the operands whose consumer's rule has been applied, how many
        those are, and how many there are. None while none has been sent."""
        taken = self.stepper.position - len(self.grouping.order)  # root step included
        if taken <= 1:
            return None
        steps, rule_step = self.stepper.backward_steps, self._rule_step
        total, sent = 0.0, 0
        for consumer, k in edge[2]:
            j = rule_step[consumer]
            if 0 <= j < taken:
                total += steps[j].contributions[k].contribution
                sent += 1
        return Sent(total, sent, len(edge[2])) if sent else None

    def sent_text(self, edge: tuple[int, int, tuple[tuple[int, int], ...]]) -> str:
        """An edge's label for what it has sent: 'Σ 0.1234 (16 paths)' once every path
        has sent, 'Σ 0.1234 (5 of 16 paths)' part way, '' before anything was sent."""
        s = self.sent(edge)
        if s is None:
            return ""
        paths = "path" if s.paths == 1 else "paths"
        of = f"{s.sent} of {s.paths}" if s.sent < s.paths else f"{s.paths}"
        return f"Σ {number(s.total, 4)} ({of} {paths})"  # as the edges' labels: 4 digits

    # -- lookups --------------------------------------------------------------------------

    def node_index(self, value: Value) -> int:
        """`value`'s node index in the arrays (KeyError for a Value not in the graph)."""
        return self.grouping.order[self.stepper.forward_position(value)]

    def consumer_group(self, value: Value) -> int:
        """The group a contribution `value`'s rule sent is listed under, in the
        inspector: the outermost instance holding `value`, else its top-level group;
        -1 if no group holds it."""
        chain = self.grouping.ancestors(self.node_index(value))
        for g in chain:
            if self.grouping.groups[g].kind == "instance":
                return g
        return chain[0] if chain else -1


def _runs(sequence: list[int]) -> tuple[list[int], list[int]]:
    """The value of each run of equal items in `sequence`, and each run's length."""
    units, lengths = [], []
    for u, run in groupby(sequence):
        units.append(u)
        lengths.append(len(list(run)))
    return units, lengths
