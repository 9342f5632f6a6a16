"""Writing the graph scene to PNG, SVG or JSON files.

The JSON is the contract that tests and tools outside the project read: every drawn node
with its box (a group's with its name, members and instances: `group_record`), every
drawn edge as points along its curve, in scene coordinates (y down), from the scene's
`export_nodes` and `export_edges`, and every named leaf's value and gradient.
"""

from __future__ import annotations

import json
import math
import os
import stat

from PySide6.QtCore import QBuffer, QIODevice, QRectF, QSize, Qt
from PySide6.QtGui import QImage, QPainter, QPainterPath
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsScene

from engine.io.files import write_atomic
from gui.palette import colour, theme

MARGIN = 20.0
MAX_PIXELS = 8000  # PNG side limit, so a huge graph cannot exhaust memory
MIN_PIXELS = 16    # ... and the shortest side a PNG may have
MIN_POINTS = 16    # points per edge in the JSON, at least
CURVE_PIECES = 8   # a cubic piece is followed by at least this many straight pieces
FORMATS = ("png", "svg", "json")


def graph_records(scene, stepper=None) -> dict:
    """The drawn graph as plain data: {"nodes": [{"id", "kind", "label", "box"}],
    "edges": [{"source", "target", "path", "label"}], "values": [{"name", "value",
    "grad"}]}, boxes as [x, y, w, h] and paths as [[x, y], ...] (at least 16 points
    along the drawn curve, from its first point to its last), in scene coordinates,
    every coordinate rounded to 2 decimals. A node the scene exports already as a record
    (a group's, made by `group_record`) is kept as it is. `values`: every named leaf of
    the whole graph, drawn or not, with its value and its gradient after the steps
    taken (`leaf_values`), from `stepper` (the scene's own if None)."""
    nodes = [n if "box" in n else
             {"id": n["id"], "kind": n["kind"], "label": n["label"], "box": _box(n["rect"])}
             for n in scene.export_nodes()]
    edges = []
    for e in scene.export_edges():
        label = e["label"]
        edges.append({
            "source": e["source"],
            "target": e["target"],
            "path": [[round(x, 2), round(y, 2)] for x, y in path_points(e["path"])],
            "label": None if label is None else {"text": label["text"],
                                                 "box": _box(label["rect"])},
        })
    stepper = stepper if stepper is not None else getattr(scene, "stepper", None)
    return {"nodes": nodes, "edges": edges,
            "values": leaf_values(stepper) if stepper is not None else []}


def group_record(group, rect: QRectF, node_id: str | None = None,
                 label: str | None = None) -> dict:
    """A drawn group's record in the JSON (`group`: a gui.graph.groups.model.Group,
    `rect` its box in scene coordinates, as drawn): {"id" ('g<id>' unless given),
    "kind": "group", "label" (what the box shows; its title unless given), "box",
    "name" (its title), "members" (how many nodes it stands for), "instances" (how
    many instances a stack stacks, 0 for any other group)}."""
    return {"id": node_id if node_id is not None else f"g{group.id}", "kind": "group",
            "label": group.title if label is None else label, "box": _box(rect),
            "name": group.title, "members": group.members, "instances": group.instances}


def leaf_values(stepper) -> list[dict]:
    """Every named leaf (an input: a leaf with a name) of `stepper`'s graph, in the
    order the stepper walks the graph, as {"name", "value", "grad"}: its value and its
    gradient as the steps taken so far left it (a number that is not finite as None)."""
    return [{"name": v.label, "value": _finite(v.data), "grad": _finite(v.grad)}
            for v in stepper.forward_steps if not v.parents and v.label]


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _box(rect: QRectF) -> list[float]:
    return [round(rect.x(), 2), round(rect.y(), 2), round(rect.width(), 2),
            round(rect.height(), 2)]


def path_points(path: QPainterPath, minimum: int = MIN_POINTS) -> list[tuple[float, float]]:
    """Points along `path`, element by element: a straight piece is followed exactly by
    its ends (cut into more pieces only to reach `minimum` points), a cubic by at least
    CURVE_PIECES chords. Starts at the path's first point and ends at its last."""
    pieces = []  # (control points, length): 2 points for a line, 4 for a cubic
    current = None
    k, count = 0, path.elementCount()
    while k < count:
        element = path.elementAt(k)
        point = (element.x, element.y)
        if element.isMoveTo() or current is None:
            current = point
            k += 1
        elif element.isLineTo():
            pieces.append(((current, point), math.dist(current, point)))
            current = point
            k += 1
        else:  # CurveTo, then two CurveToData: control 2 and the end
            c2, end = path.elementAt(k + 1), path.elementAt(k + 2)
            controls = (current, point, (c2.x, c2.y), (end.x, end.y))
            pieces.append((controls, _polyline_length(
                [_cubic(controls, t / 16) for t in range(17)])))
            current = controls[3]
            k += 3
    if not pieces:
        first = (path.elementAt(0).x, path.elementAt(0).y) if count else (0.0, 0.0)
        return [first] * minimum
    total = sum(length for _, length in pieces) or 1.0
    points = [pieces[0][0][0]]
    for controls, length in pieces:
        n = max(1 if len(controls) == 2 else CURVE_PIECES,
                math.ceil(minimum * length / total))
        for j in range(1, n + 1):
            t = j / n
            if len(controls) == 2:
                (x0, y0), (x1, y1) = controls
                points.append(controls[1] if j == n else (x0 + (x1 - x0) * t,
                                                          y0 + (y1 - y0) * t))
            else:
                points.append(controls[3] if j == n else _cubic(controls, t))
    while len(points) < minimum:  # only for pieces of length 0
        points.insert(1, points[0])
    return points


def _cubic(controls, t: float) -> tuple[float, float]:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = controls
    u = 1 - t
    a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
    return (a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3)


def _polyline_length(points) -> float:
    return sum(math.dist(p, q) for p, q in zip(points, points[1:]))


def write_scene(scene: QGraphicsScene, path: str, stepper=None) -> bool:
    """Write the whole scene to `path`: .json as graph_records (its values from
    `stepper`, the scene's own if None), .svg as a drawing, anything else as PNG.
    Returns False if the file could not be written."""
    lower = path.lower()
    try:  # a FIFO or a device would block the writer or never hold the file
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
    except FileNotFoundError:
        pass
    except OSError:
        return False
    if lower.endswith(".json"):
        try:
            write_atomic(path, json.dumps(graph_records(scene, stepper), ensure_ascii=False) + "\n")
        except OSError:
            return False
        return True
    source = _source(scene)
    if lower.endswith(".svg"):
        buffer = QBuffer()  # drawn in memory, so a bad path is a False, not a Qt warning
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        generator = QSvgGenerator()
        generator.setOutputDevice(buffer)
        generator.setSize(QSize(int(source.width()), int(source.height())))
        generator.setViewBox(QRectF(0, 0, source.width(), source.height()))
        generator.setTitle("Computation graph")
        painter = QPainter(generator)
        if theme() != "light":  # a light picture stays as it was: no ground of its own
            painter.fillRect(QRectF(0, 0, source.width(), source.height()), colour("background"))
        scene.render(painter, QRectF(0, 0, source.width(), source.height()), source)
        painter.end()
        return _write(path, bytes(buffer.data()))
    if picture_problem(scene, path) is not None:
        return False
    width, height = _png_size(source)
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(colour("background"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    scene.render(painter, QRectF(image.rect()), source, Qt.AspectRatioMode.KeepAspectRatio)
    painter.end()
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        return False
    return _write(path, bytes(buffer.data()))


def _write(path: str, data: bytes) -> bool:
    """`data` written whole or not at all (a full disk leaves the old file)."""
    try:
        write_atomic(path, data)
    except OSError:
        return False
    return True


def _source(scene) -> QRectF:
    return scene.itemsBoundingRect().adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN)


def _png_size(source: QRectF) -> tuple[int, int]:
    scale = min(2.0, MAX_PIXELS / max(source.width(), source.height(), 1.0))
    return int(source.width() * scale), int(source.height() * scale)


def picture_problem(scene, path: str) -> str | None:
    """Why the scene cannot be written to `path` as a PNG (a graph so long that at
    MAX_PIXELS on its long side its short side is under MIN_PIXELS), with the sizes and
    the limits; None if it can (or `path` is not a PNG)."""
    if path.lower().endswith((".svg", ".json")):
        return None
    source = _source(scene)
    width, height = _png_size(source)
    if min(width, height) >= MIN_PIXELS:
        return None
    return (f"the picture would be {width:,} × {height:,} pixels (the graph is "
            f"{source.width():,.0f} × {source.height():,.0f} units, and a PNG's longer side "
            f"is at most {MAX_PIXELS:,} pixels): too long for one picture with a side of at "
            f"least {MIN_PIXELS}; export it as SVG or JSON")
