"""What a grouped graph shows: the stepper's nodes, their groups, which groups are open,
and the quotient drawn for that (see gui/graph/groups/model.py).

Node i of the arrays is the stepper's forward step i: a grouping found on the graph in
another order is renumbered first (`renumbered`), and the stepper made with its order,
so that every group's forward steps, and backward steps, are one run.
"""
# Qt-free: renumbered in a child process, which never loads Qt (tests/test_structure.py).

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import replace
from itertools import chain, groupby

from gui.graph.groups.model import (
    GraphArrays,
    Group,
    Grouping,
    Quotient,
    unit_group,
)
from gui.graph.groups.titles import has_constant, layer_said
from gui.graph.quotients import Buckets, changed_quotient_steps

STEPS_PER_SLICE = 5_000
RULES_PER_SLICE = 1_000  # a backward step's contributions cost a few µs each
NESTED_SPREAD = 1e-3  # the starts of an opened group's children, spread in their order
KEPT = 12  # the quotients (and drawings) of the last few sets of open groups are kept
# (a picture, the PREPARED openings of it, and those of the one opened from it)


def renumbered(arrays: GraphArrays, grouping: Grouping) -> tuple[GraphArrays, Grouping]:
    """The same graph and groups with node i renamed to its place in `grouping.order`,
    so that the new order is range(n) and group g's members are nodes first..last-1."""
    order = grouping.order
    new = [0] * len(order)
    for place, i in enumerate(order):
        new[i] = place
    parents = [tuple(new[p] for p in arrays.parents[i]) for i in order]
    pick = [arrays.ops, arrays.labels, arrays.roles]
    ops, labels, roles = ([column[i] for i in order] for column in pick)
    groups = [replace(g, nodes=sorted(new[i] for i in g.nodes), children=list(g.children))
              for g in grouping.groups]
    group_of = [grouping.group_of[i] for i in order] if grouping.group_of else [-1] * len(order)
    return (GraphArrays(parents, ops, labels, roles, new[arrays.output]),
            Grouping(list(range(len(order))), groups, group_of))


class Kept:
    """What the pictures of one grouped stepper share, whichever groups are open: the
    operands filed by group, the last few quotients and drawings, the gradient sent along
    an edge into a collapsed group and a group's outputs (both the same in every picture
    that has the edge or the group)."""

    def __init__(self):
        self.buckets = Buckets()
        self.quotients: dict[frozenset, Quotient] = {}
        self.drawings: dict[tuple, tuple] = {}  # (open groups, folded) -> (spec, drawing)
        self.seen: dict[tuple, tuple] = {}  # the same, of the pictures shown: going_back.py
        self.sends: dict[tuple[int, int], tuple] = {}  # (group unit, source unit) -> sent
        self.exits: dict[int, int] = {}  # group -> how many of its nodes are used outside
        self.label_sizes: dict[tuple[int, int], tuple] = {}  # operand -> its label's room

    @staticmethod
    def keep(store: dict, key, value) -> None:
        """`store[key] = value`, the oldest entry let go of past KEPT."""
        store.pop(key, None)
        store[key] = value
        while len(store) > KEPT:
            del store[next(iter(store))]


class Shown:
    """A grouped stepper's picture: which groups are open, and the quotient for that.

    `stepper.forward_steps[i]` is node i of `arrays` (see the module's docstring)."""

    def __init__(self, stepper, arrays: GraphArrays, grouping: Grouping,
                 expanded: set[int] | None = None):
        self.stepper = stepper
        self.arrays = arrays
        self.grouping = grouping
        self.expanded: set[int] = set(expanded or ())
        self.step_of: dict[int, int] = {}  # node -> its backward step (rule) number
        self.first_grad: dict[int, int] = {}  # node -> the first step that gives it one
        self.index: dict = {}  # Value -> node number, with `step_of` (`index_steps`)
        self.quotient: Quotient | None = None  # made by `quotient_steps`, in slices
        self.shared = Kept()  # what every picture of this stepper can reuse
        self._before: Shown | None = None  # the picture this one is opened from

    def quotient_steps(self) -> Iterator[None]:
        """Make `quotient` (what model.quotient makes) a slice at a time: with the order
        range(n), a collapsed group's nodes are one run of `unit_of`, set in one go; the
        operands only of what changed since the picture this was opened from, once the
        operands are filed (`bucket_steps`; see gui/graph/quotients.py)."""
        if self.quotient is not None:
            return
        key = frozenset(self.expanded)
        before, self._before = self._before, None
        kept = self.shared.quotients.get(key)
        if kept is not None:
            self.quotient = kept
            return
        yield from self._made_quotient_steps(before)
        self.shared.keep(self.shared.quotients, key, self.quotient)

    def bucket_steps(self) -> Iterator[None]:
        """File the graph's operands by the groups that hold them (once per stepper), so
        that a quotient is made again from the one before (see `quotient_steps`)."""
        yield from self.shared.buckets.fill_steps(self.arrays, self.groups,
                                                  self.grouping.group_of)

    def _made_quotient_steps(self, before: Shown | None) -> Iterator[None]:
        arrays, groups = self.arrays, self.grouping.groups
        n = len(arrays)
        unit_of = list(range(n))
        todo = self.grouping.top()
        while todo:
            group = groups[todo.pop()]
            if group.id in self.expanded:
                todo.extend(group.children)
            else:
                unit_of[group.first:group.last] = [-1 - group.id] * (group.last - group.first)
        units = [u for u, _ in groupby(unit_of)]  # groups are runs: one unit each
        yield
        if before is not None and before.quotient is not None and self.shared.buckets.done:
            self.quotient = yield from changed_quotient_steps(
                before.quotient, before.expanded, self.expanded, units, unit_of, arrays,
                groups, self.shared.buckets)
            return
        edges: dict[tuple, list[tuple[int, int]]] = {}
        parents = arrays.parents
        for a in range(0, n, STEPS_PER_SLICE):
            for c in range(a, min(n, a + STEPS_PER_SLICE)):
                t = unit_of[c]
                for k, p in enumerate(parents[c]):
                    s = unit_of[p]
                    if s != t:
                        key = (s, t) if t < 0 else (s, t, k)
                        edges.setdefault(key, []).append((c, k))
            yield
        self.quotient = Quotient(units, unit_of,
                                 [(key[0], key[1], tuple(ops)) for key, ops in edges.items()])

    @property
    def groups(self) -> list[Group]:
        return self.grouping.groups

    def starts(self, ids: list[str], before: Shown, before_ids: list[str],
               centers: list[tuple[float, float]]) -> list[float]:
        """Where each node of this picture's spec (`ids`: 'v3', 'o3', 'g5') starts across
        its layer, from the picture `before` (its spec's ids and its drawing's
        `centers`): the y it had there, else the y of the box that held it (a group
        opened), else the mean y of what it holds (a group closed)."""
        was = {i: c[1] for i, c in zip(before_ids, centers)}
        unit_of = before.quotient.unit_of
        span = self._span
        ys: list[float] = []
        holding: list[tuple[int, int, int]] = []  # (place, first, last) of a closed group
        for place, i in enumerate(ids):
            y = was.get(i)
            if y is None:
                a, b = span(i)
                u = unit_of[a]
                holder = f"g{-1 - u}" if u < 0 else (f"v{u}" if f"v{u}" in was else f"o{u}")
                ha, hb = span(holder)
                y = was.get(holder) if ha <= a and b <= hb else None
                if y is not None and holder[0] == "g":
                    y += self._nested_offset(int(holder[1:]), a)
                if y is None:
                    holding.append((place, a, b))
            ys.append(0.0 if y is None else y)
        if holding:
            inside = sorted((span(i)[0], y) for i, y in was.items())
            for place, a, b in holding:
                between = self._between_siblings(ids[place], was)
                held = inside[bisect_left(inside, (a, -1e300)):bisect_left(inside, (b, -1e300))]
                ys[place] = (between if between is not None
                             else sum(y for _, y in held) / len(held) if held else 0.0)
        return ys

    def _nested_offset(self, h: int, a: int) -> float:
        """How far past its holder's start (group `h`, a box before) node `a` starts, when
        `h` opens with one of its children open too (Find, a level): each child in its
        order (a hair apart), so that the child opened lies between its siblings and its
        inside starts at one place (layout/reuse.py keeps it between them); 0 for a node
        directly in `h`, or when no child of `h` is open (its inside then starts as one)."""
        group = self.groups[h]
        if not any(c in self.expanded for c in group.children):
            return 0.0
        chain = self.grouping.ancestors(a)
        k = chain.index(h) if h in chain else len(chain)
        if k + 1 >= len(chain):
            return 0.0
        child = self.groups[chain[k + 1]]
        return NESTED_SPREAD * (child.first - group.first + 1) / (group.last - group.first + 1)

    def _between_siblings(self, spec_id: str, was: dict[str, float]) -> float | None:
        """A group closed again starts midway between its siblings just before and after
        it (the boxes of its parent's other groups, as they were), so that it keeps its
        place among them: what it held may have been drawn anywhere (after the last of
        them, tryout of session 33). None for a node, or a group with no such pair."""
        if spec_id[0] != "g":
            return None
        group = self.groups[int(spec_id[1:])]
        parent = group.parent
        siblings = (self.groups[parent].children if parent >= 0 else self.grouping.top())
        firsts = sorted((self.groups[h].first, was[f"g{h}"]) for h in siblings
                        if f"g{h}" in was)
        k = bisect_left(firsts, (group.first, -1e300))
        if 0 < k < len(firsts):
            return (firsts[k - 1][1] + firsts[k][1]) / 2
        return None

    def _span(self, spec_id: str) -> tuple[int, int]:
        """The run of nodes a spec node stands for."""
        k = int(spec_id[1:])
        if spec_id[0] in "gj":  # a group, or the junction of its bundled edges
            return self.groups[k].first, self.groups[k].last
        return k, k + 1

    def index_steps(self) -> Iterator[None]:
        """Fill `index` (yielding after every STEPS_PER_SLICE nodes), `step_of` and
        `first_grad` (after every RULES_PER_SLICE backward steps)."""
        index = self.index = {}
        nodes = self.stepper.forward_steps
        for a in range(0, len(nodes), STEPS_PER_SLICE):
            index.update(zip(nodes[a:a + STEPS_PER_SLICE], range(a, a + STEPS_PER_SLICE)))
            yield
        for j, step in enumerate(self.stepper.backward_steps):
            if not step.root:
                self.step_of[index[step.node]] = j
            for c in step.contributions:
                self.first_grad.setdefault(index[c.parent], j)
            if j % RULES_PER_SLICE == RULES_PER_SLICE - 1:
                yield

    # -- what is open ----------------------------------------------------------------------

    def opened(self, expanded: set[int]) -> Shown:
        """The same graph with exactly `expanded` open (its steps' indexes shared)."""
        other = Shown.__new__(Shown)
        other.stepper, other.arrays, other.grouping = self.stepper, self.arrays, self.grouping
        other.step_of, other.first_grad, other.index = self.step_of, self.first_grad, self.index
        other.expanded = set(expanded)
        other.quotient = None
        other.shared = self.shared
        other._before = self if self.quotient is not None else None
        return other

    def expanding(self, g: int) -> set[int]:
        """What is open once `g` is opened (and every group that holds it)."""
        chain = self.ancestors_of_group(g)
        return self.expanded | set(chain) | {g}

    def collapsing(self, g: int) -> set[int]:
        """What is open once `g` is closed (the groups inside it close with it)."""
        inside = {h for h in self.expanded if g in self.ancestors_of_group(h)}
        return self.expanded - inside - {g}

    def revealing(self, node: int) -> set[int]:
        """What is open once every group that hides `node` is opened."""
        return self.expanded | set(self.grouping.ancestors(node))

    def to_level(self, level: int) -> set[int]:
        """Every group above depth `level` open (0: everything collapsed)."""
        return {g.id for g in self.groups if self.grouping.depth(g.id) < level}

    def ancestors_of_group(self, g: int) -> list[int]:
        """The groups that hold group `g`, outermost first (not `g` itself)."""
        chain = []
        g = self.groups[g].parent
        while g >= 0:
            chain.append(g)
            g = self.groups[g].parent
        return chain[::-1]

    def holders(self, unit: int) -> list[int]:
        """The open groups that hold `unit` (a node or a collapsed group), outermost
        first: what the breadcrumb shows."""
        if unit < 0:
            return self.ancestors_of_group(unit_group(unit))
        return [g for g in self.grouping.ancestors(unit) if g in self.expanded]

    def unit_of_node(self, node: int) -> int:
        return self.quotient.unit_of[node]

    def members(self, g: int) -> range:
        """Group g's nodes (a run of node numbers: the order is range(n))."""
        group = self.groups[g]
        return range(group.first, group.last)

    # -- the unit a step is about ------------------------------------------------------------

    def node_at(self, position: int) -> int:
        """The node the step at `position` (1-based) is about; -1 at the start."""
        stepper = self.stepper
        n = len(stepper.forward_steps)
        if position <= 0:
            return -1
        if position <= n:
            return position - 1
        return self.index[stepper.backward_steps[position - n - 1].node]

    def unit_at(self, position: int) -> int | None:
        """The unit the step at `position` is about (None at the start)."""
        node = self.node_at(position)
        return None if node < 0 else self.quotient.unit_of[node]

    def received(self, levels) -> set[int]:
        """The units the step at the level shown just taken (`levels`, its LevelSteps)
        sent a gradient to: every parent of every rule in its run (a group's backward
        step applies many, each to its own parents; the last alone is not all of
        them), the unit itself left out; empty before the backward steps' own."""
        start, end = levels.current_span()
        n = len(self.stepper.forward_steps)
        if end <= n:
            return set()
        # each rule sends to its node's operands: read in C loops over node numbers (a
        # stack of 97 samples' step applies 62,000 rules)
        rules = levels.rule_nodes(max(start, n + 1), end)  # the root's step sends nothing
        parents = chain.from_iterable(map(self.arrays.parents.__getitem__, rules))
        units = set(map(self.quotient.unit_of.__getitem__, parents))
        units.discard(levels.current_unit())
        return units

    def group_title(self, g: int) -> str:
        return self.groups[g].title

    def describe(self, g: int) -> str:
        """A sentence for the status bar and the tooltip: what group g is, how to open it."""
        group = self.groups[g]
        what = {"names": "parameters", "structure": "one computation",
                "stack": f"the same computation × {group.instances:,}",
                "instance": "one instance of a repeated computation"}.get(group.kind, "a group")
        constants = (" Each c in its title is a constant: click the box to see which."
                     if has_constant(group.title) else "")
        layer = f" {layer_said(group.title)}" if layer_said(group.title) else ""
        return (f"{group.title}: {group.members:,} nodes ({what}).{layer}{constants} "
                "Double-click it or press + to open it; − closes the group around the "
                "selection again.")
