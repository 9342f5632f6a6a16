"""The computation graph as a QGraphicsScene that mirrors a Stepper.

`spec.graph_spec` says what is drawn and how much room each piece needs;
`layout.layered_layout` places it; `build`
makes the items once per graph; `refresh` then sets the labels and colours of only the
items a step touched. The scene shows what the engine holds: values the forward pass has
revealed, gradients as the stepper wrote them, and on each edge the contribution its
backward step sent, as `local × upstream = result`.
"""
# size: one scene mirrors one stepper; build, refresh and lookups share its indexes

from __future__ import annotations

import math
import sys
from functools import partial
from itertools import accumulate
from operator import getitem, itemgetter

from PySide6.QtCore import QCoreApplication, QEvent, QRectF
from PySide6.QtGui import QPainterPath
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsLineItem,
    QGraphicsPathItem,
    QGraphicsScene,
)

from engine._gc import collector_paused
from engine.core.explain import value_text
from engine.core.stepping import BackwardStep, Stepper
from engine.core.value import Value
from gui.graph.items import (
    BACKWARD,
    CURRENT,
    EDGE,
    INK,
    RECEIVED,
    WRONG,
    EdgeItem,
    GroupItem,
    OpItem,
    ValueItem,
    add_head,
    junction_item,
    outputs_said,
    pen,
    rounded,
    segments_path,
)
from gui.graph.layout import Drawing
from gui.graph.levels import Sent
from gui.graph.parameters import parameter_note
from gui.graph.spec import (
    LARGE,
    GraphSpec,
    box_title,
    contribution_label,
    sent_label,
    sent_tip,
    short,
)

GRID_CELL = 400.0  # the cells of the grid that finds the boxes on screen
GRID_MARGIN = 80.0  # a box whose centre is this far outside the screen still shows
PIECE_W = 420.0   # edges are drawn in pieces about this wide, so a repaint stays local
STRIP_ELEMENTS = 3_000  # ... and a piece of more path elements than this is cut again
# a sliced build (`build_steps`) yields after this many items or routes: a few ms each
ITEMS_PER_SLICE = 250
ROUTES_PER_SLICE = 500
# ... and while it makes items, after this many: a box with its texts, or a group's,
# costs a few tenths of a ms (a grouped picture's few hundred of them held the window
# for 40-90 ms between two yields)
ITEMS_PER_YIELD = 25


class GraphScene(QGraphicsScene):
    """Items for one program's graph, kept in step with `stepper`."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._forget()
        self.labels_visible = True
        # Qt sends every item of a scene an event, after sorting them all, whenever the
        # scene's window becomes active or inactive, and when a view is given the scene
        # (most of a tenth of a second at 20,000 nodes, on the GUI thread). None of our
        # items is a panel or cares: one activation counted now, while the scene is
        # empty, keeps Qt's count from ever falling to zero again, so it never walks them.
        QCoreApplication.sendEvent(self, QEvent(QEvent.Type.WindowActivate))

    def _forget(self) -> None:
        self.stepper: Stepper | None = None
        self.spec: GraphSpec | None = None
        self.drawing: Drawing | None = None
        self.nodes: list[Value] = []
        self.value_items: list[ValueItem] = []   # drawn boxes, in node order
        self._box: dict[int, ValueItem] = {}     # value index -> its box
        self.op_items: dict[int, OpItem] = {}    # value index -> its operation
        self._edge_of: dict[tuple[int, int], int] = {}  # (i, k) -> edge index
        self._edges: dict[int, EdgeItem] = {}    # the edges styled so far
        self._index: dict[Value, int] = {}
        self._step_of: dict[int, int] = {}       # node -> its backward step number
        self._first_grad: dict[int, int] = {}    # node -> first step that sets grad
        self._realized: set = set()              # large graph: boxes given their texts
        self._grid: dict | None = None           # large graph: boxes by where they are
        self._layer: QGraphicsPathItem | None = None  # holds the plain edges
        self.shown = None  # a grouped graph's grouped.Shown, or None
        self.levels = None  # ... and its steps at the level drawn (levels.LevelSteps)
        self._received: tuple = (None, set())  # (position, levels) -> the units sent to
        self.group_items: dict[int, GroupItem] = {}  # collapsed group -> its box
        self.junctions: dict[int, QGraphicsPathItem] = {}  # open group -> its bundle's dot
        self._group_edges: dict[int, list[int]] = {}  # collapsed group -> edges into it
        # an edge into a collapsed group: its consumers' first and last backward step,
        # and the gradient it has sent once both are taken, with how many operands
        self._sends: dict[int, tuple[int, int, float, int]] = {}
        # ... and how many different nodes those operands are of (the nodes it sends
        # gradients to): more than one, its sum is no one node's gradient, and unlabelled
        self._to: dict[int, int] = {}

    @property
    def large(self) -> bool:
        if self.shown is not None:
            return len(self.shown.quotient.units) > LARGE
        return len(self.nodes) > LARGE

    def show_note(self, text: str) -> None:
        """A sentence instead of a graph (one not drawn)."""
        self.clear()
        self._forget()
        self.setSceneRect(QRectF())  # grows with the note again
        note = self.addSimpleText(text)
        note.setBrush(INK)

    def build(self, stepper: Stepper, spec: GraphSpec, drawing: Drawing,
              roles: dict[Value, str], shown=None) -> None:
        """Replace the scene's items with `stepper`'s graph as `spec` and `drawing` say
        (`shown`: a grouped graph's grouped.Shown the spec was made from)."""
        # thousands of item wrappers are made here and all live on: a collection would
        # only rescan them (and everything else alive)
        with collector_paused():
            for _ in self.build_steps(stepper, spec, drawing, roles, shown):
                pass

    def build_steps(self, stepper: Stepper, spec: GraphSpec, drawing: Drawing,
                    roles: dict[Value, str], shown=None):
        """`build` as a generator: it yields (None) after each slice of about
        ITEMS_PER_SLICE items or ROUTES_PER_SLICE routes, so that a caller can draw a
        large graph a few milliseconds at a time. The graph is complete when it ends;
        a caller that stops iterating leaves a scene half built, to be thrown away.
        The collector is left as the caller set it."""
        self.clear()
        self._forget()
        self.labels_visible = True
        self.stepper, self.spec, self.drawing = stepper, spec, drawing
        self.shown = shown
        # known from the layout, and set before any item is added: without it Qt works
        # out the scene's bounds from every new item in one go on the event loop
        self.setSceneRect(self.graph_rect().adjusted(-40, -40, 40, 40))
        self.nodes = stepper.forward_steps
        # a BSP tree finds the few items a step repaints without asking every item for
        # its bounds (at 5,000 nodes a step costs 2.5-3.8 ms with it, 6-30 ms without)
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        # its depth fixed from the start: left to Qt, the tree is made again from every
        # item whenever their count doubles, the last time in one go on the event loop
        self.setBspTreeDepth(max(5, math.ceil(math.log2(len(spec.ids) + 2))))
        if shown is not None:  # indexed once per stepper, not once per drawing
            self._index, self._step_of, self._first_grad = (shown.index, shown.step_of,
                                                            shown.first_grad)
        else:
            self._index = dict(zip(self.nodes, range(len(self.nodes))))
        yield
        index = self._index
        for j, s in enumerate(stepper.backward_steps if shown is None else ()):
            if not s.root:
                self._step_of[index[s.node]] = j
            for c in s.contributions:
                self._first_grad.setdefault(index[c.parent], j)
            if j % ROUTES_PER_SLICE == ROUTES_PER_SLICE - 1:
                yield
        large = self.large
        # a large graph's boxes are found by a grid of their centres (`show_labels_in`),
        # filled here, a slice at a time, rather than at the first fit
        grid = self._grid = {} if large else None
        made = 0  # items made since the last yield, a group's box counted as 5
        for k, node_id in enumerate(spec.ids):
            i = int(node_id[1:])
            x, y = drawing.centers[k]
            if node_id[0] == "g":
                made += 4
                group = shown.groups[i]
                item = GroupItem(i, group.title, group.members, group.instances,
                                 spec.sizes[k], shown.describe(i))
                self.group_items[i] = item
                outputs = self._outputs(i)
                if outputs > 1:
                    item.set_state(outputs_said(outputs, group.members), "", INK, 1.0, True,
                                   numbers=False)
            elif node_id[0] == "o":
                item = OpItem(i, spec.symbols[i], spec.sizes[k][0], labels=not large)
                self.op_items[i] = item
            elif node_id[0] == "j":
                item = self.junctions[i] = junction_item(
                    f"The edges from the parameters of {shown.groups[i].title}, bundled: "
                    "one edge from here into each box they feed")
            else:
                node = self.nodes[i]
                title = partial(box_title, node) if large else box_title(node)
                role = roles.get(node, "intermediate")
                item = ValueItem(i, role, title, labels=not large, width=spec.sizes[k][0],
                                 note=parameter_note(node.label) if role == "input" else "")
                self._box[i] = item
                self.value_items.append(item)
            item.setPos(x, y)
            self.addItem(item)
            if grid is not None:
                grid.setdefault((int(x // GRID_CELL), int(y // GRID_CELL)), []).append(item)
            made += 1
            if made >= ITEMS_PER_YIELD:
                made = 0
                if k % ITEMS_PER_SLICE < ITEMS_PER_YIELD:  # each query costs 1-2 ms
                    self._index_new_items()
                yield
        self._index_new_items()
        yield
        self._edge_of = dict(zip(spec.keys, range(len(spec.keys))))
        for e, (t, _) in enumerate(spec.keys):
            if t < 0:
                self._group_edges.setdefault(-1 - t, []).append(e)
        yield from self._draw_plain_edges()
        if large:
            self.set_labels_visible(False)
        if stepper.position:
            # at the start the items are made as they must look; later, every node is
            # redrawn as the stepper left it
            current = stepper.current
            for k, i in enumerate(self._drawn_nodes()):
                self._draw_node(i, current)
                if k % ITEMS_PER_YIELD == ITEMS_PER_YIELD - 1:
                    yield

    def _index_new_items(self) -> None:
        """Put the items added since the last call into the scene's index now, a slice's
        worth at a time: Qt would otherwise index them all at the first paint, a quarter
        of a second at 20,000 nodes in one go."""
        self.items(QRectF(-1e9, -1e9, 1.0, 1.0))  # any query brings the index up to date

    def dismantle_steps(self):
        """Remove every item, yielding after each ITEMS_PER_SLICE: `clear()` of a large
        graph's scene holds the thread for most of a second. The scene is empty at the
        end; a caller may stop early and throw the scene away."""
        # popped from the end: boxes, operations, then the edges' layer's children before it
        items = [] if self._layer is None else [self._layer, *self._layer.childItems()]
        items += [*self.group_items.values(), *self.op_items.values(), *self.value_items]
        drawing, spec = self.drawing, self.spec
        self._forget()
        while items:
            for _ in range(min(ITEMS_PER_SLICE, len(items))):
                # Python owns a removed item: it is deleted with its last reference
                self.removeItem(items.pop())
            yield
        self.clear()  # what is left is few: styled edges, notes
        # the drawing's and the spec's lists hold tens of thousands of small tuples: let
        # go of at once, they would hold the thread for a twentieth of a second. Emptied
        # only when this is the last holder: the references are then `drawing` or
        # `spec`, the tuple below, `holder` and getrefcount's own
        for holder, names in ((drawing, ("routes", "centers", "label_centers", "own_from")),
                              (spec, ("edges", "keys", "sizes", "ids", "kinds"))):
            if holder is None or sys.getrefcount(holder) > 4:
                continue
            for name in names:
                big = getattr(holder, name)
                while big:
                    del big[-ROUTES_PER_SLICE:]
                    yield
        del drawing, spec

    def graph_rect(self) -> QRectF:
        """The graph's extent in the scene (what a fit must show)."""
        if self.drawing is None:
            return self.itemsBoundingRect()
        x0, y0, x1, y1 = self.drawing.bounds
        return QRectF(x0, y0, x1 - x0, y1 - y0)

    # -- edges --------------------------------------------------------------------------------

    def _own_segments(self, e: int) -> list:
        """The part of edge e that is its own: all of it, or for a bus edge the drop
        from the lane (the lane itself is shared with its source's other bus edges)."""
        route = self.drawing.routes[e]
        return route[self.drawing.own_from[e]:]

    def _draw_plain_edges(self):
        """Every edge in its plain style, as a few shared paths, one per strip of the
        scene PIECE_W wide: a step's repaint then redraws only the strips it touches.
        A generator: it yields after every ROUTES_PER_SLICE routes."""
        strips: dict[int, QPainterPath] = {}
        long_lines: list = []  # each its own item: a thin band that few repaints meet
        drawing = self.drawing
        own_from = drawing.own_from
        for e, route in enumerate(drawing.routes):
            _add_to_strips(strips, route[own_from[e]:] if own_from[e] else route, True,
                           long_lines)
            if e % ROUTES_PER_SLICE == ROUTES_PER_SLICE - 1:
                yield
        for t, trunk in enumerate(drawing.trunks.values()):
            _add_to_strips(strips, trunk, False, long_lines)
            if t % ROUTES_PER_SLICE == ROUTES_PER_SLICE - 1:
                yield
        plain = pen(EDGE.rgba(), 1.0)
        # one layer under everything holds them: its children need no stacking of their own
        layer = QGraphicsPathItem()
        layer.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)
        layer.setZValue(-2)
        self.addItem(layer)
        self._layer = layer
        elements = 0
        for path in strips.values():
            QGraphicsPathItem(path, layer).setPen(plain)
            elements += path.elementCount()
            if elements > 2 * STRIP_ELEMENTS:  # indexed a few at a time: Qt works out
                elements = 0                    # each one's bounds, curve by curve
                self._index_new_items()
                yield
        for k, ((x0, y0), (x1, y1)) in enumerate(long_lines):
            QGraphicsLineItem(x0, y0, x1, y1, layer).setPen(plain)
            if k % ITEMS_PER_SLICE == ITEMS_PER_SLICE - 1:
                self._index_new_items()
                yield
        self._index_new_items()

    def _edge(self, e: int, plain_style: bool) -> EdgeItem | None:
        """Edge e's own item, made on first need. An edge still in the plain style needs
        none: the shared paths draw it."""
        edge = self._edges.get(e)
        if edge is None:
            if plain_style:
                return None
            segments = self._own_segments(e)
            pieces = []
            for _, part in _by_strip(segments):
                pieces.append(segments_path(part))
            add_head(pieces[-1], segments[-1][-1])
            edge = self._edges[e] = EdgeItem(self, pieces, self.drawing.label_centers[e])
            if not self.labels_visible:
                edge.set_labels_visible(False)
        return edge

    def set_labels_visible(self, visible: bool) -> None:
        """Show or hide every text. In a large graph texts are made only for the boxes
        that have been on screen (`show_labels_in`): making thousands would take seconds."""
        self.labels_visible = visible
        boxes = self._realized if self.large else [*self.value_items, *self.op_items.values(),
                                                   *self.group_items.values()]
        for item in boxes:
            item.set_labels_visible(visible)
        for edge in self._edges.values():
            edge.set_labels_visible(visible)

    def show_labels_in(self, rect: QRectF) -> None:
        """In a large graph with labels on, give the boxes in `rect` their texts. The
        boxes are found in a grid of their centres: asking Qt for the items in a rect
        makes it work out the bounds of every item in the scene (0.3 s at 20,000 nodes)."""
        if not (self.large and self.labels_visible):
            return
        if self._grid is None:
            self._grid = {}
            for item in [*self.value_items, *self.op_items.values()]:
                p = item.pos()
                key = (int(p.x() // GRID_CELL), int(p.y() // GRID_CELL))
                self._grid.setdefault(key, []).append(item)
        realized = self._realized
        area = rect.adjusted(-GRID_MARGIN, -GRID_MARGIN, GRID_MARGIN, GRID_MARGIN)
        for gx in range(int(area.left() // GRID_CELL), int(area.right() // GRID_CELL) + 1):
            for gy in range(int(area.top() // GRID_CELL), int(area.bottom() // GRID_CELL) + 1):
                for item in self._grid.get((gx, gy), ()):
                    if item not in realized and area.contains(item.pos()):
                        item.set_labels_visible(True)
                        realized.add(item)

    # -- keeping up with the stepper ---------------------------------------------------------

    def drawn_counts(self) -> list[int]:
        """For k = 0 … len(nodes): how many of the first k nodes are drawn (in C loops:
        a large graph has tens of thousands)."""
        drawn = self._box.keys() | self.op_items.keys()
        return list(accumulate(map(drawn.__contains__, range(len(self.nodes))), initial=0))

    def unit_drawn(self, unit: int) -> bool:
        """Whether the quotient's `unit` (a node, or a collapsed group) is in the picture."""
        if unit < 0:
            return -1 - unit in self.group_items
        return unit in self._box or unit in self.op_items

    def is_drawn(self, node: Value) -> bool:
        """Whether `node` has a box or an operation of its own in the picture."""
        i = self._index.get(node)
        return i is not None and (i in self._box or i in self.op_items)

    def _touched_by(self, position: int) -> set[int]:
        """Nodes whose drawing the step at `position` (1-based) affects."""
        stepper = self.stepper
        n_forward = len(stepper.forward_steps)
        if position <= 0:
            return set()
        if position <= n_forward:
            return {position - 1}
        step = stepper.backward_steps[position - n_forward - 1]
        return {self._index[step.node]} | {self._index[c.parent] for c in step.contributions}

    def refresh(self, changed_from: int | None = None) -> None:
        """Redraw after the stepper moved from `changed_from`; everything if None."""
        stepper = self.stepper
        if stepper is None:
            return
        current = stepper.current
        if changed_from is None or abs(stepper.position - changed_from) > 1:
            indices = self._drawn_nodes()
            groups = self.group_items
        else:
            # the step undone or taken, and the one that was or becomes current
            indices = self._touched_by(changed_from) | self._touched_by(stepper.position)
            if self.shown is not None:  # and what the step before and this one sent to
                unit_of = self.shown.quotient.unit_of
                units = ({unit_of[i] for i in indices} | self._received[1]
                         | self.received_units())
                groups = {-1 - u for u in units if u < 0} & self.group_items.keys()
                indices = [u for u in units if u >= 0]
            else:
                groups = ()
        for i in indices:
            self._draw_node(i, current)
        for g in groups:
            self._draw_group(g, current)

    def received_units(self) -> set[int]:
        """The units the step at the level shown just taken sent a gradient to (see
        grouped.Shown.received), worked out once per position."""
        key = (self.stepper.position, self.levels)
        if self._received[0] != key:
            self._received = (key, self.shown.received(self.levels) if self.levels else set())
        return self._received[1]

    def group_edge_steps(self):
        """Work out `_sends` for the edges into collapsed groups, yielding after every
        ROUTES_PER_SLICE operands: one stands for thousands (the parameters used by 100
        samples), summed once rather than at every step."""
        steps, step_of, counted = self.stepper.backward_steps, self._step_of, 0
        kept = self.shown.shared.sends  # an edge's operands are the same in every picture
        parents = self.shown.arrays.parents
        for e, operands in self.spec.operands.items():
            self._to[e] = len({parents[c][k] for c, k in operands})
            self._sends[e] = sends = kept.get(self.spec.keys[e])
            if sends is not None:
                continue
            js = [step_of[c] for c, _ in operands]
            total = sum(steps[j].contributions[k].contribution
                        for j, (_, k) in zip(js, operands))
            self._sends[e] = kept[self.spec.keys[e]] = (min(js), max(js), total, len(operands))
            counted += len(operands)
            if counted > ROUTES_PER_SLICE:
                counted = 0
                yield
        if self.stepper.position:  # the groups as the stepper left them
            for g in list(self.group_items):
                self._draw_group(g, self.stepper.current)  # its edges' sums, maybe
                yield

    def _sent(self, e: int, done: int):
        """What the backward steps taken (`done`, the root's included) sent along edge e
        into a collapsed group (levels.Sent), or None while nothing has been."""
        first, last, total, paths = self._sends.get(e, (done, done, 0.0, 0))
        if done <= first:
            return None
        if done > last:
            return Sent(total, paths, paths)
        return self.levels.sent((0, 0, self.spec.operands[e])) if self.levels else None

    def refresh_steps(self):
        """Redraw every drawn box, operation and group as the stepper is now, yielding
        after every ITEMS_PER_YIELD of them (a jump in a picture of thousands of edges)."""
        for k, i in enumerate(self._drawn_nodes()):
            self._draw_node(i, self.stepper.current)
            if k % ITEMS_PER_YIELD == ITEMS_PER_YIELD - 1:
                yield
        for g in list(self.group_items):
            self._draw_group(g, self.stepper.current)
            yield

    def _drawn_nodes(self):
        """The nodes with a box or an operation of their own: all of them, ungrouped."""
        if self.shown is None:
            return range(len(self.nodes))
        return sorted(self._box.keys() | self.op_items.keys())

    def _outputs(self, g: int) -> int:
        """How many of group g's nodes are used outside it (its outputs): one for a
        piece with one output, many for a group of parameters; worked out once."""
        kept = self.shown.shared.exits  # the same in every picture with g collapsed
        if g not in kept:
            parents, source, used = self.shown.arrays.parents, -1 - g, set()
            for s, _, operands in self.shown.quotient.edges:
                if s == source:  # each operand's parent, read in C loops
                    used.update(map(getitem, map(parents.__getitem__, map(itemgetter(0),
                                                                          operands)),
                                    map(itemgetter(1), operands)))
            kept[g] = len(used) or 1
        return kept[g]

    def _draw_group(self, g: int, current) -> None:
        """Group g's box and the edges into it, as the stepper has got: its output's
        value once its forward is done, the gradient it sent each parent once its
        backward steps are."""
        shown, stepper = self.shown, self.stepper
        members = shown.members(g)
        position = stepper.position
        n_forward = len(stepper.forward_steps)
        done = position - n_forward
        here = shown.node_at(position)
        is_current = here in members
        received = not is_current and -1 - g in self.received_units()
        revealed = position >= members.stop
        output = members.stop - 1
        has_grad = self._first_grad.get(output, len(stepper.backward_steps)) < done
        node = self.nodes[output]
        border, width = ((CURRENT, 3.0) if is_current else (RECEIVED, 2.5) if received
                         else (INK, 1.0))
        outputs = self._outputs(g)
        if outputs > 1:  # no one value is the group's: the box says how many it has
            self.group_items[g].set_state(outputs_said(outputs, len(members)), "", border, width,
                                          faint=not revealed, numbers=False)
        else:
            self.group_items[g].set_state(rounded(node.data, value_text(node, 4)) if revealed
                                          else "?", rounded(node.grad, short(node.grad))
                                          if has_grad else "", border,
                                          width, faint=not revealed)
        for e in self._group_edges.get(g, ()):
            sent = self._sent(e, done)
            edge = self._edge(e, sent is None and not revealed)
            if edge is None:
                continue
            if sent is not None:
                to = self._to.get(e, 1)
                edge.set_style(CURRENT if is_current else BACKWARD, 2.2 if is_current else 1.2,
                               True, sent_label(sent.total, sent.sent, sent.paths, to),
                               is_current, sent_tip(sent.total, sent.sent, sent.paths, to))
            else:
                edge.set_style(INK if revealed else EDGE, 1.4 if revealed else 1.0, False)

    def _draw_node(self, i: int, current) -> None:
        stepper = self.stepper
        node = self.nodes[i]
        n_forward = len(stepper.forward_steps)
        backward_done = stepper.position - n_forward  # backward steps taken
        revealed = stepper.is_revealed(node)
        box = self._box.get(i)
        if box is not None:
            has_grad = self._first_grad.get(i, len(stepper.backward_steps)) < backward_done
            border, width = INK, 1.0
            if isinstance(current, BackwardStep) and current.node is node and current.problem:
                border, width = WRONG, 3.5
            elif current is node or (isinstance(current, BackwardStep) and current.node is node):
                border, width = CURRENT, 3.0
            elif (i in self.received_units() if self.levels is not None else
                  isinstance(current, BackwardStep) and any(c.parent is node
                                                            for c in current.contributions)):
                border, width = RECEIVED, 2.5
            box.set_state(rounded(node.data, value_text(node, 4)) if revealed else "?",
                          rounded(node.grad, short(node.grad)) if has_grad else "", border, width,
                          faint=not revealed)
        if i in self.op_items:
            self._draw_op(i, current, revealed, backward_done)

    def _draw_op(self, i: int, current, revealed: bool, backward_done: int) -> None:
        stepper = self.stepper
        is_current = (current is self.nodes[i]
                      or (isinstance(current, BackwardStep) and current.node is self.nodes[i]))
        self.op_items[i].set_active(CURRENT if is_current else None)
        forward = (INK, 1.4, False) if revealed else (EDGE, 1.0, False)
        self._style(i, -1, *forward)
        j = self._step_of[i]
        step = stepper.backward_steps[j]
        for k, c in enumerate(step.contributions):
            if j >= backward_done:
                self._style(i, k, *forward)
                continue
            color = WRONG if step.problem else (CURRENT if is_current else BACKWARD)
            self._style(i, k, color, 2.2 if is_current else 1.2, True,
                        contribution_label(c.local, c.upstream, c.contribution, c.right),
                        is_current)

    def _style(self, i: int, k: int, color, width: float, dashed: bool, label: str = "",
               bold: bool = False) -> None:
        e = self._edge_of.get((i, k))
        if e is None:
            return  # a folded constant's operand: not drawn
        plain = color is EDGE and width == 1.0 and not dashed and not label
        edge = self._edge(e, plain)
        if edge is not None:
            edge.set_style(color, width, dashed, label, bold)

    # -- looking things up ----------------------------------------------------------------------

    def current_item(self) -> ValueItem | None:
        """The box of the node the last step was about, if it has one."""
        current = self.stepper.current if self.stepper else None
        if current is None or not self._index:
            return None
        node = getattr(current, "node", current)
        return self.value_item_of(node)

    def value_item_of(self, node: Value) -> ValueItem | None:
        """The box drawn for `node`, or None (a folded constant has none)."""
        i = self._index.get(node)
        if i is None:
            return None
        box = self._box.get(i)
        if box is None and self.shown is not None:  # hidden in a collapsed group: its box
            unit = self.shown.quotient.unit_of[i]
            return self.group_items.get(-1 - unit) if unit < 0 else None
        return box

    def group_at(self, item) -> int | None:
        """The collapsed group drawn by `item` (its box or a text in it), or None."""
        while item is not None and not isinstance(item, GroupItem):
            item = item.parentItem()
        return None if item is None else item.group

    def edge_item(self, node: Value, k: int) -> EdgeItem | None:
        """The styled item of the edge from `node`'s k-th parent (k = -1: the edge from
        its operation to it), or None while that edge is plain or not drawn."""
        e = self._edge_of.get((self._index[node], k))
        return None if e is None else self._edges.get(e)

    def edges_into_group(self, g: int) -> list[EdgeItem]:
        """The styled items of the edges into collapsed group `g` (plain ones left out)."""
        return [self._edges[e] for e in self._group_edges.get(g, ()) if e in self._edges]

    def node_at(self, item) -> Value | None:
        """The Value drawn by `item` (a value box, an op circle or a label inside one)."""
        while item is not None and not isinstance(item, (ValueItem, OpItem)):
            item = item.parentItem()
        return None if item is None else self.nodes[item.index]

    # -- the picture as data --------------------------------------------------------------------

    def export_nodes(self) -> list[dict]:
        """Every drawn node: its id, kind, label and box in scene coordinates."""
        records = []
        for k, node_id in enumerate(self.spec.ids if self.spec else ()):
            i = int(node_id[1:])
            if node_id[0] == "g":
                records.append(self._group_record(i))
                continue
            if node_id[0] == "o":
                item, label = self.op_items[i], self.spec.symbols[i]
            elif node_id[0] == "j":
                item, label = self.junctions[i], ""
            else:
                item, label = self._box[i], box_title(self.nodes[i])
            records.append({"id": node_id, "kind": self.spec.kinds[k], "label": label,
                            "rect": item.sceneBoundingRect().adjusted(0.5, 0.5, -0.5, -0.5)})
        return records

    def _group_record(self, g: int) -> dict:
        """A collapsed group's record, as the export writes it (export.group_record):
        its name, how many nodes it stands for and, for a stack, how many instances."""
        from gui.graph.export import group_record  # noqa: PLC0415 - QtSvg, when exported

        rect = self.group_items[g].sceneBoundingRect().adjusted(0.5, 0.5, -0.5, -0.5)
        return group_record(self.shown.groups[g], rect)

    def export_edges(self) -> list[dict]:
        """Every drawn edge: its ends' ids, its whole curve (a QPainterPath, no head) and
        its label as shown now (text on one line and box), or None."""
        records = []
        for e, (u, v, _) in enumerate(self.spec.edges if self.spec else ()):
            edge = self._edges.get(e)
            label = None
            if edge is not None and edge.label and edge.tag is not None and edge.tag.isVisible():
                label = {"text": edge.label.replace("\n", " "), "rect": edge.label_rect()}
            records.append({"source": self.spec.ids[u], "target": self.spec.ids[v],
                            "path": segments_path(self.drawing.routes[e]), "label": label})
        return records


def _add_to_strips(strips: dict, segments, head: bool,
                   long_lines: list) -> None:
    """Append an edge's `segments` to the path of the strip where it starts (one tight
    loop: a big graph has tens of thousands of segments); a line longer than a strip
    goes to `long_lines` instead, and what follows it to the strip where it resumes."""
    if not segments:
        return
    path, here = None, None
    for seg in segments:
        a = seg[0]
        if len(seg) == 2:
            b = seg[1]
            if abs(b[0] - a[0]) > PIECE_W:
                long_lines.append(seg)
                path, here = None, None
                continue
        if path is None:
            k = int(a[0] // PIECE_W)
            path = strips.get(k)
            if path is None or path.elementCount() > STRIP_ELEMENTS:
                if path is not None:  # full: kept under a key of its own
                    strips[(k, len(strips))] = path
                path = strips[k] = QPainterPath()
        if a != here:
            path.moveTo(a[0], a[1])
        if len(seg) == 2:
            path.lineTo(b[0], b[1])
        else:
            c1, c2, b = seg[1], seg[2], seg[3]
            path.cubicTo(c1[0], c1[1], c2[0], c2[1], b[0], b[1])
        here = b
    if head:
        x, y = segments[-1][-1]
        if path is None:
            k = int(x // PIECE_W)
            path = strips.get(k)
            if path is None:
                path = strips[k] = QPainterPath()
        path.moveTo(x - 7, y - 4)
        path.lineTo(x, y)
        path.lineTo(x - 7, y + 4)


def _by_strip(segments) -> list[tuple[int, list]]:
    """`segments` grouped into runs that start in the same strip of the scene; a long
    straight line is cut where it crosses from one strip to the next."""
    groups: list[tuple[int, list]] = []
    for seg in segments:
        parts = [seg]
        if len(seg) == 2 and abs(seg[1][0] - seg[0][0]) > PIECE_W:
            parts = _cut(seg)
        for part in parts:
            strip = int(part[0][0] // PIECE_W)
            if groups and groups[-1][0] == strip:
                groups[-1][1].append(part)
            else:
                groups.append((strip, [part]))
    return groups


def _cut(line) -> list:
    (x0, y0), (x1, y1) = line
    pieces = max(1, int(abs(x1 - x0) // PIECE_W) + 1)
    points = [(x0 + (x1 - x0) * t / pieces, y0 + (y1 - y0) * t / pieces)
              for t in range(pieces + 1)]
    return [(points[t], points[t + 1]) for t in range(pieces)]
