"""A pannable, zoomable view of the graph scene."""

from __future__ import annotations

import math

from PySide6.QtCore import QCoreApplication, QEvent, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsView

from gui.graph.framing import FIT_MARGIN, MARGIN_PX, shift, show_opened, show_start, zoom_anchor
from gui.graph.scene import GraphScene
from gui.graph.zoom_steps import fit_pressed, zoom_step

MIN_ZOOM, MAX_ZOOM = 0.02, 8.0  # what the wheel and Ctrl+=/- reach
LABELS_FROM_SCALE = 0.55  # in a large graph, labels appear from this zoom on
SMALLEST_TEXT_PT = 8.5    # the smallest text in the graph: boxes, edge labels, long op symbols
READABLE_PX = 6.75        # a fit never shows text smaller than this (the boxes' small print;
                          # titles are larger): the lesson's neuron fits whole at 1280 x 720
EDGE_BAND = 0.15          # a step that comes into this outer part of the view is centred
SCENE_MARGIN = 20.0       # scene units around the graph that the scroll bars reach


class GraphView(QGraphicsView):
    """Drag to pan, wheel (or Ctrl+=/Ctrl+-) to zoom, `fit()` to see everything.

    A fit is remembered until the user zooms or pans: while it holds, the view fits
    again whenever its size changes, so a fit made before the window had its final
    size (at start-up, or before the dock widgets settle) is redone once it has.
    """

    zoomed = Signal(float)
    double_clicked = Signal(object)  # the item under a double-click (None: none)

    def __init__(self, scene: GraphScene, parent=None):
        super().__init__(scene, parent)
        self.setRenderHints(QPainter.RenderHint.Antialiasing
                            | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setToolTip("Drag to pan, wheel to zoom, click a box to inspect it")
        self._labels_shown = True
        self._auto_fit: bool | None = None  # the `readable` of the fit to redo; None: none
        self._fitting = False
        self._pressed = False  # the last fit was Ctrl+0's (fit_pressed), none since
        self.fit_said = ""  # what Ctrl+0 said it did (the status bar's until the user moves)
        self._press = None  # where a left-button press started, to tell a drag from a click
        self._into = None  # (a grouped graph's quotient, unit -> the units with edges into it)
        self.opened = lambda: None  # the group the user opened last and is in (a grouped graph)
        for bar in (self.horizontalScrollBar(), self.verticalScrollBar()):
            bar.actionTriggered.connect(self._on_scroll_action)  # the user's, not setValue

    def graph_changed(self) -> None:
        """A new graph is in the scene: labels start as the scene set them, then fit
        (a large graph too: it opens at a readable size at its left end)."""
        self._labels_shown = not self.scene().large
        self.fit(readable=True)

    def graph_redrawn(self) -> None:
        """The graph was drawn again (a group opened or closed) at the same zoom: the
        scroll bars reach all of it, and no fit is redone."""
        bounds = self.scene().graph_rect()
        self._auto_fit = None
        self.setSceneRect(bounds.adjusted(-SCENE_MARGIN, -SCENE_MARGIN,
                                          SCENE_MARGIN, SCENE_MARGIN))
        self._settle_scroll_bars()
        self._labels_shown = not self.scene().large
        self._update_labels()

    def scale_factor(self) -> float:
        return self.transform().m11()

    def readable_scale(self) -> float:
        """The smallest zoom at which the graph's smallest text is READABLE_PX high."""
        return READABLE_PX * 72.0 / (SMALLEST_TEXT_PT * self.logicalDpiY())

    # -- the user's zoom and pan end an automatic fit --------------------------------------

    def wheelEvent(self, event) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.zoom_by(1.15 ** steps, event.position())
        event.accept()

    def zoom_by(self, factor: float, about: QPointF | None = None) -> None:
        """Zoom by `factor` keeping the viewport point `about` still (the wheel: the
        cursor); without one (Ctrl+= and Ctrl+-), the current step's box while it is on
        screen, else the view's centre."""
        new = self.scale_factor() * factor
        self._auto_fit = None
        # out no further than the whole graph (a huge one is far below 2%)
        if (factor > 1.0 and new > MAX_ZOOM) or (factor < 1.0 and new < self._min_zoom()):
            return
        about = zoom_anchor(self) if about is None else about
        if about is None:
            about = QPointF(self.viewport().rect().center())
        still = self.mapToScene(about.toPoint())
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.scale(factor, factor)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self._settle_scroll_bars()
        moved = self.mapFromScene(still) - about.toPoint()
        self._scroll_by(moved.x(), moved.y())
        self._update_labels()
        self.zoomed.emit(self.scale_factor())

    def set_zoom(self, scale: float) -> None:
        """Zoom to `scale` about the view's centre (the user's zoom from then on)."""
        self._auto_fit = None
        centre = self.mapToScene(self.viewport().rect().center())
        self.scale(scale / self.scale_factor(), scale / self.scale_factor())
        self._settle_scroll_bars()
        self.centerOn(centre)
        self._update_labels()
        self.zoomed.emit(self.scale_factor())

    def zoom_step(self, inward: bool) -> None:
        """Ctrl+= (`inward`) or Ctrl+-: 1.25× a press, or more between the whole graph's
        zoom and the readable one (three presses from one to the other: zoom_steps)."""
        whole = self._whole_scale() or self.scale_factor()
        self.zoom_by(zoom_step(self.scale_factor(), whole, self.readable_scale(), inward))

    def _whole_scale(self) -> float | None:
        """The zoom that fits the whole graph (None: no graph or no viewport)."""
        rect, port = self.scene().graph_rect(), self.viewport().rect()
        if rect.isEmpty() or port.isEmpty():
            return None
        return min(port.width() / (rect.width() + 2 * FIT_MARGIN),
                   port.height() / (rect.height() + 2 * FIT_MARGIN))

    def _min_zoom(self) -> float:
        whole = self._whole_scale()
        return MIN_ZOOM if whole is None else min(MIN_ZOOM, whole * 0.999)

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = event.position()
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        if self._press is not None and (event.position() - self._press).manhattanLength() > 3:
            self._auto_fit = None  # a drag pans the view
        super().mouseMoveEvent(event)

    def mouseDoubleClickEvent(self, event) -> None:
        self.double_clicked.emit(self.itemAt(event.position().toPoint()))
        event.accept()

    def mouseReleaseEvent(self, event) -> None:
        self._press = None
        super().mouseReleaseEvent(event)

    def _on_scroll_action(self, _action: int) -> None:
        self._auto_fit = None  # the user moved a scroll bar (or paged with the keyboard)

    @property
    def auto_fit(self) -> bool:
        """True while the last fit stands: no zoom or pan by the user since."""
        return self._auto_fit is not None

    # -- fitting ---------------------------------------------------------------------------

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._refit()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._refit()

    def _refit(self) -> None:
        if self._auto_fit is not None and not self._fitting:
            self.fit(readable=self._auto_fit)

    def fit_pressed(self) -> str:
        """Ctrl+0 (see zoom_steps.fit_pressed); what it returns is kept as `fit_said`."""
        return fit_pressed(self)

    def fit(self, readable: bool = False) -> None:
        """Show the whole graph, never magnified beyond 100%. With `readable` (Ctrl+0,
        a new graph), never shrink it so far that its smallest text is under READABLE_PX
        pixels: then show the group the user opened, or once stepping the current step
        and its parents, or else the graph's start (see show_start), and let the view
        follow the steps from there. The fit is redone on every resize until the user
        zooms or pans."""
        self._auto_fit = readable
        self._pressed = False  # fit_pressed says when this fit was Ctrl+0's
        self._fitting = True
        try:
            # scroll bars that come or go change the viewport: fit until it holds still
            for _ in range(3):
                size = self.viewport().size()
                self._fit_once(readable)
                if self.viewport().size() == size:
                    break
        finally:
            self._fitting = False
        self._update_labels()
        self.zoomed.emit(self.scale_factor())

    def _fit_once(self, readable: bool) -> None:
        scene = self.scene()
        bounds = scene.graph_rect()
        self.resetTransform()
        if bounds.isEmpty():
            return
        # the scene's own rect only grows: a small graph after a big one would scroll
        self.setSceneRect(bounds.adjusted(-SCENE_MARGIN, -SCENE_MARGIN,
                                          SCENE_MARGIN, SCENE_MARGIN))
        rect = bounds.adjusted(-FIT_MARGIN, -FIT_MARGIN, FIT_MARGIN, FIT_MARGIN)
        port = self.viewport().rect()
        if port.width() <= 0 or port.height() <= 0:
            return
        fitting = min(port.width() / rect.width(), port.height() / rect.height())
        # never magnified past 100%, unless a floor above it (a presentation's) asks
        scale = min(fitting, max(1.0, self.readable_scale()) if readable else 1.0)
        # a graph that fits at READABLE_PX is fitted whole, under a larger floor too (a
        # presentation's): at the largest scale that fits
        if readable and scale < GraphView.readable_scale(self) * 0.999:
            scale = self.readable_scale()
        self.scale(scale, scale)
        if scale <= fitting:
            self.centerOn(rect.center())
            return
        opened = self.opened()
        if opened is not None and show_opened(self, opened):
            self._auto_fit = readable  # framing the group is this fit's, not the user's zoom
        elif not self._show_step(center=True):
            self.show_start(rect)

    def show_start(self, rect: QRectF | None = None) -> None:
        """Where a graph too big to read whole opens (see framing.show_start)."""
        show_start(self, rect)

    # -- following the steps ---------------------------------------------------------------

    def step_items(self) -> list:
        """The drawn items of the current step: the node's box first, then its op circle
        and the boxes of the parents it used (forward) or that received a gradient
        (backward). In a grouped graph, the current unit's box (a collapsed group's, or a
        node's) and those of the units with an edge into it. Nodes the scene does not
        draw are left out. Empty before any step."""
        scene = self.scene()
        stepper = scene.stepper
        current = stepper.current if stepper is not None else None
        box = scene.current_item() if current is not None else None
        if box is None:
            return []
        items = [box]
        index = getattr(box, "index", None)
        op = getattr(scene, "op_items", {}).get(index) if index is not None else None
        if op is not None:
            items.append(op)
        node = getattr(current, "node", current)
        if scene.levels is not None:  # grouped: the units sending into the current one
            root = getattr(current, "root", False)
            parents = [] if root else self.senders(scene.levels.current_unit())
        elif hasattr(current, "contributions"):
            parents = [scene.value_item_of(c.parent) for c in current.contributions
                       if c.parent is not node]
        else:
            parents = [scene.value_item_of(parent) for parent in node.parents]
        for item in parents:
            if item is not None and item not in items:
                items.append(item)
        return items

    def senders(self, unit: int | None) -> list:
        """The drawn items of the units with an edge into `unit` of a grouped graph: its
        operands going forward, the units it sends gradients to going backward."""
        scene = self.scene()
        shown = scene.shown
        if shown is None or unit is None or shown.quotient is None:
            return []
        quotient = shown.quotient
        if self._into is None or self._into[0] is not quotient:
            into: dict[int, dict[int, None]] = {}
            for source, target, _ in quotient.edges:
                into.setdefault(target, {})[source] = None
            self._into = (quotient, into)
        items = []
        for source in self._into[1].get(unit, ()):
            item = (scene.group_items.get(-1 - source) if source < 0
                    else scene.value_item_of(scene.nodes[source]))
            if item is not None:
                items.append(item)
        return items

    def follow_step(self, center: bool = False) -> None:
        """Keep the current step's box, its op and its parents' boxes whole on screen and
        clear of its edges (centred if they come near one, or with `center`), zooming out
        as little as makes them fit (never below READABLE_PX text); else the box, leaning
        to them."""
        self._show_step(center=center)

    def _show_step(self, center: bool) -> bool:
        items = self.step_items()
        if not items:
            return False
        # to keep in view, most first: everything; the box, its op and its labels; ...
        box = items[0].sceneBoundingRect()
        near = box
        scene = self.scene()
        if len(items) > 1 and items[1] is scene.op_items.get(getattr(items[0], "index", None)):
            near = box.united(items[1].sceneBoundingRect())
        with_labels = QRectF(near)
        for rect in self._step_label_rects():
            with_labels = with_labels.united(rect)
        everything = QRectF(with_labels)
        for item in items[1:]:
            everything = everything.united(item.sceneBoundingRect())
        self._zoom_out_for(everything)
        scale = self.scale_factor()
        margin = MARGIN_PX / scale
        visible = self.mapToScene(self.viewport().rect()).boundingRect()
        tiers = [everything, with_labels, near, box]
        dx = shift(visible.left(), visible.right(), [(r.left(), r.right()) for r in tiers],
                    margin, center, EDGE_BAND * visible.width())
        dy = shift(visible.top(), visible.bottom(), [(r.top(), r.bottom()) for r in tiers],
                    margin, center, EDGE_BAND * visible.height())
        self._scroll_by(dx * scale, dy * scale)
        return True

    def _zoom_out_for(self, rect: QRectF) -> None:
        """Zoom out, about the view's centre, as little as makes `rect` fit with the
        margin, but never below the readable size (nor zoom in): a step whose parents
        do not fit at the zoom the user chose."""
        scale = self.scale_factor()
        port = self.viewport().rect()
        room_w, room_h = port.width() - 2 * MARGIN_PX, port.height() - 2 * MARGIN_PX
        if rect.isEmpty() or room_w <= 0 or room_h <= 0:
            return
        # a hair further out: whole pixels and the scroll bars must not leave it a hair
        # short of fitting (the step would then lean to an edge, not be centred)
        needed = min(room_w / rect.width(), room_h / rect.height()) * 0.995
        new = max(needed, self.readable_scale())
        if new >= scale * 0.999:
            return
        centre = self.mapToScene(port.center())
        self._auto_fit = None
        self.scale(new / scale, new / scale)
        self._settle_scroll_bars()
        self.centerOn(centre)
        self._update_labels()
        self.zoomed.emit(self.scale_factor())

    def _step_label_rects(self) -> list[QRectF]:
        """Where the labels of the gradients the current backward step sends are (a
        collapsed group's: those on the edges into it)."""
        scene = self.scene()
        current = scene.stepper.current if scene.stepper is not None else None
        if not hasattr(current, "contributions") or current.root:
            return []
        unit = scene.levels.current_unit() if scene.levels is not None else None
        if unit is not None and unit < 0:
            edges = scene.edges_into_group(-1 - unit)
        else:
            edges = [scene.edge_item(current.node, k) for k in range(len(current.contributions))]
        return [edge.label_rect() for edge in edges
                if edge is not None and not edge.label_rect().isEmpty()]

    def show_after_redraw(self, focus=None, opened: int | None = None) -> None:
        """A group opened or closed: with `opened` (the group just opened), zoom and
        pan to show what it holds and the current step (gui/graph/framing.py); else, the
        zoom kept, centre `focus` (the item of what was found or closed), then pan the
        least that brings the current step and the units it sends to in view; without a
        focus, the step centred, or the graph's start."""
        if opened is not None and show_opened(self, opened):
            return
        if focus is not None:
            self.centerOn(focus)
            self._show_step(center=False)
        elif not self._show_step(center=True):
            self.show_start()

    def _settle_scroll_bars(self) -> None:
        """The scroll bars a new zoom or scene rect needs come or go in a queued call:
        take it now, so that a scroll that follows has the viewport and ranges it will."""
        QCoreApplication.sendPostedEvents(self, QEvent.Type.MetaCall)

    def _scroll_by(self, dx: float, dy: float) -> None:
        # round away from zero, so that a box meant to be whole is never a pixel short
        for bar, d in ((self.horizontalScrollBar(), dx), (self.verticalScrollBar(), dy)):
            if d:
                bar.setValue(bar.value() + (math.ceil(d) if d > 0 else math.floor(d)))

    def _update_labels(self) -> None:
        scene = self.scene()
        if not scene.large:
            return
        show = self.scale_factor() >= LABELS_FROM_SCALE
        if show != self._labels_shown:
            scene.set_labels_visible(show)
            self._labels_shown = show
        self._label_visible_part()

    def _label_visible_part(self) -> None:
        scene = self.scene()
        if scene.large and scene.labels_visible:
            scene.show_labels_in(self.mapToScene(self.viewport().rect()).boundingRect())

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        super().scrollContentsBy(dx, dy)
        self._label_visible_part()  # a large graph's boxes get their texts as they appear
