"""What the graph shows: a box per value, an operation per computed value, an edge per
operand, constants folded into their operation unless asked for as boxes, and how much
room each piece and each edge label needs. Plain records for the layout and the scene."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from engine._gc import collector_paused
from engine.core import ops
from engine.core.explain import expression, number, op_symbol, value_text
from engine.core.stepping import Stepper
from engine.core.value import Value
from engine.numbers import agrees
from engine.numbers import number as digits
from engine.numbers import operand as bracketed
from gui.graph.bundles import JUNCTION, bundled_sources
from gui.graph.items import (
    OP_D,
    VALUE_H,
    VALUE_W,
    group_size,
    label_size,
    metrics_of,
    op_width,
    rounded,
    said,
    value_size,
)

LARGE = 1500      # above this many nodes, labels show only when zoomed in
NODES_PER_SLICE = 1000  # a large graph's spec is made this many nodes at a time


# the widest lines a box's 4-digit numbers make (box_numbers.continued): a box is as
# wide as they are, so that no value or gradient loses a digit to its border
WIDEST_NUMBERS = ("value ≈ -8.888…e+88", "grad ≈ -8.888…e+88", "value ≈ -0.0008888…")


@lru_cache(maxsize=1)
def numbers_width() -> float:
    """The width of a value box that writes every 4-digit number whole (items.ValueItem
    keeps 10 pixels of it clear of its borders)."""
    return max(map(metrics_of(8.5).horizontalAdvance, WIDEST_NUMBERS)) + 10.0


def box_size(title: str | None, numbers: float | None = None) -> tuple[float, float]:
    """A value box's room: its title's (items.value_size; None: a title worked out only
    when shown), and never narrower than its numbers: `numbers` wide (what the graph's
    own numbers need: `numbers_room`), else as wide as any 4-digit number makes them."""
    width = VALUE_W if title is None else value_size(title)[0]
    return max(width, numbers_width() if numbers is None else numbers), VALUE_H


def numbers_room(stepper: Stepper) -> list[float]:
    """The width each box of a small graph needs (node by node, in forward order) for
    the value and every gradient it will show (each as it is summed, contribution by
    contribution), as the scene writes them (`≈ -0.0005270…`), at most
    `numbers_width`: the lesson's neuron keeps its boxes but one, which writes
    -0.09999… whole, and a box of a tiny gradient widens."""
    nodes = stepper.forward_steps
    index = {id(node): i for i, node in enumerate(nodes)}
    lines = [[said("value", rounded(node.data, value_text(node, 4)))] for node in nodes]
    sums = [0.0] * len(nodes)
    for step in stepper.backward_steps:
        for c in step.contributions:
            i = index[id(c.parent)]
            sums[i] = g = sums[i] + c.contribution
            lines[i].append(said("grad", rounded(g, short(g))))
    advance, most = metrics_of(8.5).horizontalAdvance, numbers_width()
    return [min(most, max(map(advance, set(texts))) + 10.0) for texts in lines]


def box_title(node: Value) -> str:
    """A value box's title: its name, 'const', or for an unnamed result its formula."""
    if node.label:
        return node.label
    if not node.parents:
        return "const"
    return expression(node)


def contribution_label(local: float, upstream: float, contribution: float,
                       right: float | None = None) -> str:
    """'local × upstream' over '= contribution' in 4 significant digits, a negative
    upstream bracketed; '≈' where the factors as shown do not multiply out to the
    contribution as shown (each was rounded from the full number). With `right` (a
    user's engine used another local derivative than the right one) the right one on
    a line of its own."""
    a, b, c = short(local), bracketed(upstream, 4), short(contribution)
    text = f"{a} × {b}\n{agrees(float(a) * float(b.strip('()')), c, 4)} {c}"
    return text if right is None else f"{text}\nright: {short(right)}"


def short(x: float) -> str:
    """A number in at most 4 significant digits, for labels drawn on the graph."""
    return digits(x, 4)


def folded_symbol(node: Value, folded: list[bool]) -> str:
    """The operation's symbol with its folded constants written in: '× 1.2', '2 −'."""
    symbol = op_symbol(node)
    if not any(folded):
        return symbol
    parts = [number(p.data) if f else "" for p, f in zip(node.parents, folded)]
    if node.op == ops.POW_INPUT.name and len(parts) == 2:  # '2^y', not '2 x^y'
        base, power = node.parents
        return (f"{bracketed(base.data) if folded[0] else 'x'}^"
                f"{bracketed(power.data) if folded[1] else 'y'}")
    if len(parts) == 2:
        left, right = parts
        return " ".join(part for part in (left, symbol, right) if part)
    return f"{symbol} {parts[0]}".strip()


@dataclass(frozen=True)
class GraphSpec:
    """What the layout places. Layout node k is `ids[k]`: 'v3' the box of value 3 (a
    constant's box too), 'o3' the operation that computes value 3. Edge e goes
    `edges[e]` = (source node, target node, label size or None) and stands for operand
    `keys[e]` = (value index i, parent position k) of value i, or (i, -1) for the edge
    from the operation to its result. A grouped picture adds 'g5' (collapsed group 5)
    and 'j5' (the junction of open group 5's bundled edges: gui/graph/bundles.py)."""

    ids: list[str]
    kinds: list[str]
    sizes: list[tuple[float, float]]
    edges: list[tuple[int, int, tuple[float, float] | None]]
    keys: list[tuple[int, int]]
    symbols: dict[int, str]
    folded: bool
    # an edge into a collapsed group: its index -> the operands it stands for
    operands: dict[int, tuple[tuple[int, int], ...]] = field(default_factory=dict)

    @property
    def radii(self) -> list[float]:
        """Operations are drawn with round ends; boxes are square."""
        return [OP_D / 2 if kind == "op" else 0.0 for kind in self.kinds]


def graph_spec(stepper: Stepper, roles: dict[Value, str], folded: bool = True) -> GraphSpec:
    """The nodes and edges to draw for `stepper`'s graph, constants folded or not."""
    with collector_paused():  # everything made here lives on: it would only be rescanned
        steps = graph_spec_steps(stepper, roles, folded)
        while True:
            try:
                next(steps)
            except StopIteration as done:
                return done.value


def graph_spec_steps(stepper: Stepper, roles: dict[Value, str], folded: bool = True,
                     nodes_per_slice: int = NODES_PER_SLICE):
    """`graph_spec` as a generator that yields (None) after every `nodes_per_slice`
    nodes and returns the spec, so that a large graph's is made a few ms at a time. The
    collector is left as the caller set it."""
    nodes = stepper.forward_steps
    index = {node: i for i, node in enumerate(nodes)}
    labels = {}
    for step in stepper.backward_steps if len(nodes) <= LARGE else ():
        if not step.root:
            i = index[step.node]
            for k, c in enumerate(step.contributions):
                labels[(i, k)] = contribution_label(c.local, c.upstream, c.contribution,
                                                    c.right)

    # a large graph's labels show only when zoomed in: they all get the room of the
    # widest label a number in 4 significant digits can make, measured once
    widest = (label_size("-8.888e-88 × (-8.888e-88)\n≈ -8.888e-88") if len(nodes) > LARGE
              else None)

    def hidden(node: Value) -> bool:
        return folded and roles.get(node) == "constant"

    room = None if widest else numbers_room(stepper)  # what its numbers need

    ids, kinds, sizes, edges, keys, symbols = [], [], [], [], [], {}
    where: dict[int, int] = {}
    for i, node in enumerate(nodes):
        if node.parents:
            flags = [hidden(p) for p in node.parents]
            symbol = folded_symbol(node, flags)
            symbols[i] = symbol
            op = len(ids)
            ids.append(f"o{i}")
            kinds.append("op")
            sizes.append((op_width(symbol), OP_D))
            for k, parent in enumerate(node.parents):
                if not flags[k]:
                    size = widest or label_size(labels.get((i, k), "0 × 0\n= 0"))
                    edges.append((where[index[parent]], op, size))
                    keys.append((i, k))
        elif hidden(node):
            continue
        where[i] = len(ids)
        ids.append(f"v{i}")
        kinds.append("constant" if roles.get(node) == "constant" else "value")
        # a large graph's titles are worked out only when shown: its boxes keep VALUE_W
        sizes.append(box_size(None) if widest else box_size(box_title(node), room[i]))
        if node.parents:
            edges.append((where[i] - 1, where[i], None))
            keys.append((i, -1))
        if i % nodes_per_slice == nodes_per_slice - 1:
            yield
    return GraphSpec(ids, kinds, sizes, edges, keys, symbols, folded)


def sent_label(total: float, sent: int, paths: int, to: int = 1) -> str:
    """The label of an edge into a collapsed group: the gradient its backward steps sent
    along it so far, Σ local × upstream over the `paths` operands the edge stands for
    (`sent` of them so far), as one phrase on two lines ('Σ 0.001173 over' / '96 paths');
    one path's is just its number. None ('') if those operands are of `to` > 1 different
    nodes (a group of parameters, or a junction of several: 336 weights × 97 samples):
    their sum is no one node's gradient (`sent_tip` says so)."""
    if to > 1:
        return ""
    if paths == 1:
        return short(total)
    of = f"{sent:,} of {paths:,}" if sent < paths else f"{paths:,}"
    return f"Σ {short(total)} over\n{of} paths"


def sent_tip(total: float, sent: int, paths: int, to: int = 1) -> str:
    """`sent_label` in words, for the edge's tooltip: what the sum is, or for an edge to
    `to` > 1 nodes why it has no label."""
    if to > 1:
        so_far = f" ({sent:,} of them so far)" if sent < paths else ""
        return (f"The group sends gradients along this edge to {to:,} different nodes, "
                f"over {paths:,} paths{so_far}: no one number is theirs, so the edge has no "
                "label. Click a box it comes from, or open the group, to see each one's.")
    if paths == 1:
        return (f"The gradient the group sends along this edge: {number(total)} "
                "(local × upstream on the one path it stands for).")
    so_far = f", so far over {sent:,} of them" if sent < paths else ""
    return (f"The gradient the group sends along this edge: {number(total)}, the sum of "
            f"local × upstream over the {paths:,} paths it stands for{so_far}.")


# on two lines: the room an edge into a group keeps is as narrow as its sum
GROUP_LABEL_WIDEST = "Σ -8.888e-88 over\n8,888 of 8,888 paths"


def quotient_spec(shown, roles: dict[Value, str], folded: bool = True,
                  label_sizes: dict | None = None) -> GraphSpec:
    """The nodes and edges to draw for `shown` (a grouped.Shown): a shown node as
    `graph_spec` draws it, a collapsed group as one box 'g<id>' of kind 'group'. An edge
    into a shown operation stands for its operand (key (i, k)); an edge into a collapsed
    group for every operand between its source and the group (key (target unit, source
    unit), both codes of the quotient). `label_sizes` keeps an operand's label size
    between the pictures of one stepper (its contribution is the same in each)."""
    steps = quotient_spec_steps(shown, roles, folded, label_sizes)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


UNITS_PER_SLICE = 100  # a grouped picture's spec yields after this many units or edges


def quotient_spec_steps(shown, roles: dict[Value, str], folded: bool = True,
                        label_sizes: dict | None = None):
    """`quotient_spec` as a generator yielding (None) every UNITS_PER_SLICE units and
    edges (boxes and labels are measured by Qt's font metrics: hundreds of them would
    hold the window for tens of ms); returns the spec."""
    q, nodes = shown.quotient, shown.stepper.forward_steps
    unit_of = q.unit_of

    def hidden(i: int) -> bool:  # a folded constant shown as itself
        return folded and unit_of[i] == i and roles.get(nodes[i]) == "constant"

    ids, kinds, sizes, edges, keys, symbols, operands_of = [], [], [], [], [], {}, {}
    out: dict[int, int] = {}  # unit -> the spec node its edges leave from
    into: dict[int, int] = {}  # unit -> the spec node its edges enter
    bundled, junctions = bundled_sources(shown), {}  # junctions: bundle -> its spec node
    waiting = {holder: len(members) for holder, members in bundled.values()}

    def joined(u: int) -> None:  # after a bundle's last source: its junction
        holder = bundled[u][0]
        waiting[holder] -= 1
        if not waiting[holder]:
            junctions[holder] = len(ids)
            ids.append(f"j{holder}")
            kinds.append("junction")
            sizes.append(JUNCTION)

    for place, u in enumerate(q.units):
        if place % UNITS_PER_SLICE == UNITS_PER_SLICE - 1:
            yield
        if u < 0:
            g = shown.groups[-1 - u]
            out[u] = into[u] = len(ids)
            ids.append(f"g{g.id}")
            kinds.append("group")
            sizes.append(_group_room(g.title, g.kind == "stack"))
            if u in bundled:
                joined(u)
            continue
        node = nodes[u]
        if node.parents:
            flags = [hidden(shown.index[p]) for p in node.parents]
            symbols[u] = folded_symbol(node, flags)
            into[u] = len(ids)
            ids.append(f"o{u}")
            kinds.append("op")
            sizes.append((op_width(symbols[u]), OP_D))
        elif hidden(u):
            continue
        out[u] = len(ids)
        ids.append(f"v{u}")
        kinds.append("constant" if roles.get(node) == "constant" else "value")
        sizes.append(box_size(None))
        if u in bundled:
            joined(u)
        if node.parents:
            edges.append((into[u], out[u], None))
            keys.append((u, -1))
    yield from _quotient_edges(shown, label_sizes, out, into, bundled, junctions,
                               (edges, keys, operands_of))
    return GraphSpec(ids, kinds, sizes, edges, keys, symbols, folded, operands_of)


def _quotient_edges(shown, label_sizes: dict | None, out: dict, into: dict, bundled: dict,
                    junctions: dict, made: tuple):
    """`quotient_spec_steps`' edges, appended to `made` (edges, keys, operands_of): an
    operand's edge with its label's room, an edge into a group with the group label's,
    and a bundle's sources through its junction (one edge per source into it, one out
    of it per group it sends to). Yields as the units' loop does."""
    edges, keys, operands_of = made
    label_sizes = {} if label_sizes is None else label_sizes
    q, steps, step_of = shown.quotient, shown.stepper.backward_steps, shown.step_of
    n_nodes = len(shown.stepper.forward_steps)
    group_room = label_size(GROUP_LABEL_WIDEST)
    through: dict[tuple, int] = {}  # (bundle, target) or (source,) -> its edge
    for place, (s, t, operands) in enumerate(q.edges):
        if place % UNITS_PER_SLICE == UNITS_PER_SLICE - 1:
            yield
        if s not in out:
            continue  # from a folded constant
        if t >= 0:
            (c, k), = operands
            size = label_sizes.get((c, k)) or _label_room(label_sizes, steps, step_of, c, k)
            edges.append((out[s], into[t], size))
            keys.append((c, k))
        elif s in bundled and bundled[s][0] in junctions:  # through its bundle's junction
            holder, members = bundled[s]
            j = junctions[holder]
            if (s,) not in through:
                through[(s,)] = len(edges)
                edges.append((out[s], j, None))
                keys.append((n_nodes + holder, s))
            e = through.get((holder, t))
            if e is None:
                e = through[(holder, t)] = len(edges)
                edges.append((j, into[t], group_room))
                keys.append((t, (holder, members)))  # what it sends: these sources'
                operands_of[e] = ()
            operands_of[e] += tuple(operands)
        else:
            operands_of[len(edges)] = operands
            edges.append((out[s], into[t], group_room))
            keys.append((t, s))


_group_room = lru_cache(maxsize=4_096)(group_size)  # a title's room, measured once


def _label_room(label_sizes: dict, steps, step_of: dict, c: int, k: int) -> tuple:
    """The room operand k of node c's label needs, kept in `label_sizes`."""
    j = step_of.get(c)
    label = contribution_label(*_parts(steps[j].contributions[k])) if j is not None \
        else "0 × 0\n= 0"
    size = label_sizes[(c, k)] = label_size(label)
    return size


def _parts(c) -> tuple:
    return c.local, c.upstream, c.contribution, c.right
