"""A pannable, zoomable view of the graph scene."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsView

from gui.graph.scene import GraphScene

LABELS_FROM_SCALE = 0.55  # in a large graph, labels appear from this zoom on
READABLE_SCALE = 0.6      # a new graph is never shown smaller than this: it scrolls instead


class GraphView(QGraphicsView):
    """Drag to pan, wheel (or Ctrl+=/Ctrl+-) to zoom, `fit()` to see everything."""

    zoomed = Signal(float)

    def __init__(self, scene: GraphScene, parent=None):
        super().__init__(scene, parent)
        self.setRenderHints(QPainter.RenderHint.Antialiasing
                            | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setToolTip("Drag to pan, wheel to zoom, click a box to inspect it")
        self._labels_shown = True

    def graph_changed(self) -> None:
        """A new graph is in the scene: labels start as the scene set them, then fit."""
        self._labels_shown = not self.scene().large
        self.fit(readable=not self.scene().large)

    def scale_factor(self) -> float:
        return self.transform().m11()

    def wheelEvent(self, event) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.zoom_by(1.15 ** steps)
        event.accept()

    def zoom_by(self, factor: float) -> None:
        new = self.scale_factor() * factor
        if 0.02 <= new <= 8.0:
            self.scale(factor, factor)
            self._update_labels()
            self.zoomed.emit(self.scale_factor())

    def fit(self, readable: bool = False) -> None:
        """Show the whole graph, never magnified beyond 100%. With `readable`, never
        shrink below READABLE_SCALE either: show the graph's left end (where the
        forward pass starts) and let the view follow the steps from there."""
        scene = self.scene()
        rect = scene.itemsBoundingRect().adjusted(-20, -20, 20, 20)
        self.resetTransform()
        if rect.isEmpty():
            return
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        if self.scale_factor() > 1.0:
            self.resetTransform()
            self.centerOn(rect.center())
        elif readable and self.scale_factor() < READABLE_SCALE:
            self.resetTransform()
            self.scale(READABLE_SCALE, READABLE_SCALE)
            visible = self.viewport().width() / READABLE_SCALE
            self.centerOn(rect.left() + visible / 2, rect.center().y())
        self._update_labels()
        self.zoomed.emit(self.scale_factor())

    def follow(self, item) -> None:
        """Scroll just enough to keep `item` in view."""
        if item is not None:
            self.ensureVisible(item, 80, 40)

    def _update_labels(self) -> None:
        scene = self.scene()
        if not scene.large:
            return
        show = self.scale_factor() >= LABELS_FROM_SCALE
        if show != self._labels_shown:
            scene.set_labels_visible(show)
            self._labels_shown = show
