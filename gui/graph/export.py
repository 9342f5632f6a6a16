"""Writing the graph scene to PNG or SVG files, and the window to a screenshot."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsScene

MARGIN = 20.0
MAX_PIXELS = 8000  # PNG side limit, so a huge graph cannot exhaust memory


def write_scene(scene: QGraphicsScene, path: str) -> bool:
    """Draw the whole scene into `path` (.svg for a drawing, anything else as PNG).
    Returns False if the file could not be written."""
    source = scene.itemsBoundingRect().adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN)
    if path.lower().endswith(".svg"):
        generator = QSvgGenerator()
        generator.setFileName(path)
        generator.setSize(QSize(int(source.width()), int(source.height())))
        generator.setViewBox(QRectF(0, 0, source.width(), source.height()))
        generator.setTitle("Computation graph")
        painter = QPainter(generator)
        scene.render(painter, QRectF(0, 0, source.width(), source.height()), source)
        painter.end()
        return True
    scale = min(2.0, MAX_PIXELS / max(source.width(), source.height(), 1.0))
    image = QImage(int(source.width() * scale), int(source.height() * scale),
                   QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    scene.render(painter, QRectF(image.rect()), source, Qt.AspectRatioMode.KeepAspectRatio)
    painter.end()
    return image.save(path)
