"""The computation graph as a QGraphicsScene that mirrors a Stepper.

Items are placed once per graph (from `layout.layered_layout`); `refresh` then sets the
labels and colours of only the items a step touched. The scene shows what the engine
holds: values the forward pass has revealed, gradients as the stepper wrote them, and
on each edge the contribution its backward step sent, as `local × upstream = result`.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainterPath
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsScene

from engine.explain import expression, op_symbol
from engine.stepping import BackwardStep, Stepper
from engine.value import Value
from gui.graph.items import (
    BACKWARD,
    CURRENT,
    EDGE,
    INK,
    OP_D,
    RECEIVED,
    VALUE_H,
    VALUE_W,
    WRONG,
    EdgeItem,
    OpItem,
    ValueItem,
    add_arrow,
    pen,
)
from gui.graph.layout import GraphLayout

GAP_AFTER_VALUE = 120.0 # edges leaving a value carry a label in the backward pass
GAP_AFTER_OP = 36.0
ROW_H = VALUE_H + 30.0
LARGE = 1500     # above this many nodes, labels show only when zoomed in
EDGES_PER_PATH = 24  # ops whose plain edges share one path item
MAX_DRAWN = 20_000  # above this many, the graph is not drawn: it would take minutes


def box_title(node: Value) -> str:
    """A value box's title: its name, 'const', or for an unnamed result its formula."""
    if node.label:
        return node.label
    if not node.parents:
        return "const"
    return expression(node)


def contribution_label(local: float, upstream: float, contribution: float) -> str:
    return f"{short(local)} × {short(upstream)}\n= {short(contribution)}"


def short(x: float) -> str:
    """A number in at most 4 significant digits, for labels drawn on the graph."""
    return "0" if x == 0.0 else f"{x:.4g}"


class GraphScene(QGraphicsScene):
    """Items for one program's graph, kept in step with `stepper`."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.stepper: Stepper | None = None
        self.nodes: list[Value] = []
        self.value_items: list[ValueItem] = []
        self.op_items: dict[int, OpItem] = {}
        self._edge_specs: dict[int, list] = {}  # op i -> (start, end, bend) per edge
        self._edges: dict[tuple[int, int], EdgeItem] = {}  # the edges styled so far
        self._index: dict[Value, int] = {}
        self._step_of: dict[int, int] = {}              # node -> its backward step number
        self._first_grad: dict[int, int] = {}           # node -> first step that sets grad
        self.labels_visible = True

    @property
    def large(self) -> bool:
        return len(self.nodes) > LARGE

    def show_too_large(self, stepper: Stepper) -> None:
        """A graph too large to draw: a sentence instead of items."""
        self.clear()
        self.stepper = None
        self.nodes, self.value_items, self.op_items = [], [], {}
        self._edge_specs, self._edges, self._index = {}, {}, {}
        n = len(stepper.forward_steps)
        note = self.addSimpleText(
            f"This graph has {n:,} nodes, more than the {MAX_DRAWN:,} this view draws.\n"
            "Stepping, the inspector and the other tabs still work on it.")
        note.setBrush(INK)

    def build(self, stepper: Stepper, layout: GraphLayout, roles: dict[Value, str]) -> None:
        """Replace the scene's items with `stepper`'s graph placed by `layout`."""
        self.clear()
        self.labels_visible = True
        self.stepper = stepper
        self._roles = roles  # TEMPORARY: for export_nodes
        # a large static scene paints faster with no index than with a BSP tree
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex
                                if len(stepper.forward_steps) > LARGE
                                else QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        self.nodes = stepper.forward_steps
        self._index = {node: i for i, node in enumerate(self.nodes)}
        self._step_of = {self._index[s.node]: j for j, s in enumerate(stepper.backward_steps)
                         if not s.seed}
        self._first_grad = {}
        for j, s in enumerate(stepper.backward_steps):
            for c in s.contributions:
                self._first_grad.setdefault(self._index[c.parent], j)
        xs = self._layer_positions(layout)
        self.value_items, self.op_items = [], {}
        self._edge_specs, self._edges = {}, {}
        large = self.large
        for i, node in enumerate(self.nodes):
            title = partial(box_title, node) if large else box_title(node)
            item = ValueItem(i, roles.get(node, "intermediate"), title, labels=not large)
            item.setPos(xs[layout.layer[("v", i)]], layout.row[("v", i)] * ROW_H)
            self.addItem(item)
            self.value_items.append(item)
        # plain edges are drawn by shared paths, a few dozen ops' edges each, so that a
        # repaint only redraws the paths near what changed
        plain, in_chunk = QPainterPath(), 0
        for i, node in enumerate(self.nodes):
            if node.parents:
                self._add_op(i, node, xs[layout.layer[("o", i)]], layout.row[("o", i)] * ROW_H,
                             plain)
                in_chunk += 1
                if in_chunk == EDGES_PER_PATH:
                    self._add_plain(plain)
                    plain, in_chunk = QPainterPath(), 0
        self._add_plain(plain)
        if large:
            self.set_labels_visible(False)
        self.refresh()

    def _layer_positions(self, layout: GraphLayout) -> list[float]:
        has_value = [False] * layout.layers
        for (kind, _), layer in layout.layer.items():
            if kind == "v":
                has_value[layer] = True
        xs, x = [], 0.0
        for layer in range(layout.layers):
            width = VALUE_W if has_value[layer] else OP_D
            xs.append(x + width / 2)
            x += width + (GAP_AFTER_VALUE if has_value[layer] else GAP_AFTER_OP)
        return xs

    def _add_plain(self, path: QPainterPath) -> None:
        if not path.isEmpty():
            shared = QGraphicsPathItem(path)
            shared.setPen(pen(EDGE.rgba(), 1.0))
            shared.setZValue(-2)
            self.addItem(shared)

    def _add_op(self, i: int, node: Value, x: float, y: float, plain: QPainterPath) -> None:
        op = OpItem(i, op_symbol(node), labels=not self.large)
        op.setPos(x, y)
        self.addItem(op)
        self.op_items[i] = op
        specs = []
        seen: dict[int, int] = {}
        for parent in node.parents:
            p = self._index[parent]
            repeat = seen.get(p, 0)
            seen[p] = repeat + 1
            start = self.value_items[p].pos() + QPointF(VALUE_W / 2, 0)
            specs.append((start, QPointF(x - OP_D / 2, y), 18.0 * repeat))
        end = self.value_items[i].pos() - QPointF(VALUE_W / 2, 0)
        specs.append((QPointF(x + OP_D / 2, y), end, 0.0))  # op -> value, last
        for start, stop, bend in specs:
            add_arrow(plain, start, stop, bend)
        self._edge_specs[i] = specs

    def _edge(self, i: int, k: int, plain_style: bool) -> EdgeItem | None:
        """Edge k of op i (the last one leads to the value): made on first need. An edge
        still in the plain style needs no item: the shared path draws it."""
        key = (i, k)
        edge = self._edges.get(key)
        if edge is None:
            if plain_style:
                return None
            edge = self._edges[key] = EdgeItem(*self._edge_specs[i][k])
            self.addItem(edge)
            if edge.tag is not None:
                self.addItem(edge.tag)
        return edge

    def set_labels_visible(self, visible: bool) -> None:
        self.labels_visible = visible
        for item in self.value_items:
            item.set_labels_visible(visible)
        for op in self.op_items.values():
            op.set_labels_visible(visible)
        for edge in self._edges.values():
            edge.set_labels_visible(visible)

    # -- keeping up with the stepper ---------------------------------------------------------

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
        if changed_from is None or abs(stepper.position - changed_from) > 1:
            indices = range(len(self.nodes))
        else:
            # the step undone or taken, and the one that was or becomes current
            indices = self._touched_by(changed_from) | self._touched_by(stepper.position)
        current = stepper.current
        for i in indices:
            self._draw_node(i, current)

    def _draw_node(self, i: int, current) -> None:
        stepper = self.stepper
        node = self.nodes[i]
        n_forward = len(stepper.forward_steps)
        backward_done = stepper.position - n_forward  # backward steps taken
        revealed = stepper.is_revealed(node)
        has_grad = self._first_grad.get(i, len(stepper.backward_steps)) < backward_done
        border, width = INK, 1.0
        if isinstance(current, BackwardStep) and current.node is node and current.problem:
            border, width = WRONG, 3.5
        elif current is node or (isinstance(current, BackwardStep) and current.node is node):
            border, width = CURRENT, 3.0
        elif isinstance(current, BackwardStep) and any(c.parent is node
                                                       for c in current.contributions):
            border, width = RECEIVED, 2.5
        self.value_items[i].set_state(short(node.data) if revealed else "?",
                                      short(node.grad) if has_grad else "", border, width,
                                      faint=not revealed)
        if i in self.op_items:
            self._draw_op(i, current, revealed, backward_done)

    def _draw_op(self, i: int, current, revealed: bool, backward_done: int) -> None:
        stepper = self.stepper
        is_current = (current is self.nodes[i]
                      or (isinstance(current, BackwardStep) and current.node is self.nodes[i]))
        self.op_items[i].set_active(CURRENT if is_current else None)
        n_in = len(self._edge_specs[i]) - 1
        forward = (INK, 1.4, False) if revealed else (EDGE, 1.0, False)
        self._style(i, n_in, *forward)
        j = self._step_of[i]
        step = stepper.backward_steps[j]
        for k, c in enumerate(step.contributions):
            if j >= backward_done:
                self._style(i, k, *forward)
                continue
            color = WRONG if step.problem else (CURRENT if is_current else BACKWARD)
            self._style(i, k, color, 2.2 if is_current else 1.2, True,
                        contribution_label(c.local, c.upstream, c.contribution), is_current)

    def _style(self, i: int, k: int, color, width: float, dashed: bool, label: str = "",
               bold: bool = False) -> None:
        plain = color is EDGE and width == 1.0 and not dashed and not label
        edge = self._edge(i, k, plain)
        if edge is not None:
            edge.set_style(color, width, dashed, label, bold)
            if label and not self.labels_visible:
                edge.set_labels_visible(False)

    def current_item(self) -> ValueItem | None:
        """The box of the node the last step was about, if any."""
        current = self.stepper.current if self.stepper else None
        if current is not None and not self._index:
            return None
        node = getattr(current, "node", current)
        return None if node is None else self.value_item_of(node)

    def value_item_of(self, node: Value) -> ValueItem:
        return self.value_items[self._index[node]]

    def node_at(self, item) -> Value | None:
        """The Value drawn by `item` (a value box, an op circle or a label inside one)."""
        while item is not None and not isinstance(item, (ValueItem, OpItem)):
            item = item.parentItem()
        return None if item is None else self.nodes[item.index]


    # -- TEMPORARY: the export interface of the new scene, on the old one ---------------

    def export_nodes(self) -> list[dict]:
        """TEMPORARY stand-in for the new scene's export_nodes."""
        roles = getattr(self, "_roles", {})
        out = []
        for i, item in enumerate(self.value_items):
            node = self.nodes[i]
            kind = "constant" if roles.get(node) == "constant" else "value"
            out.append({"id": f"v{i}", "kind": kind, "label": box_title(node),
                        "rect": item.mapRectToScene(item.rect())})
        for i, op in self.op_items.items():
            out.append({"id": f"o{i}", "kind": "op", "label": op.symbol_text,
                        "rect": op.mapRectToScene(op.rect())})
        return out

    def export_edges(self) -> list[dict]:
        """TEMPORARY stand-in for the new scene's export_edges."""
        out = []
        for i, specs in self._edge_specs.items():
            parents = [self._index[p] for p in self.nodes[i].parents]
            for k, (start, end, bend) in enumerate(specs):
                source, target = (f"v{parents[k]}", f"o{i}") if k < len(parents) \
                    else (f"o{i}", f"v{i}")
                dx = max(30.0, (end.x() - start.x()) / 2)
                path = QPainterPath(start)
                path.cubicTo(QPointF(start.x() + dx, start.y() + bend),
                             QPointF(end.x() - dx, end.y() + bend), end)
                label = None
                edge = self._edges.get((i, k))
                if edge is not None and edge.tag is not None and edge.tag.isVisible():
                    text = edge.tag.childItems()[0].text()
                    label = {"text": " ".join(text.split("\n")),
                             "rect": QRectF(edge.tag.sceneBoundingRect())}
                out.append({"source": source, "target": target, "path": path,
                            "label": label})
        return out
