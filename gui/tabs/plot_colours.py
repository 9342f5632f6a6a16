"""The plots drawn in one colour set, drawn again in the other when the theme changes
(gui/theme.py): pyqtgraph items keep the colours they were given."""

from __future__ import annotations

import pyqtgraph as pg

from gui import palette
from gui.palette import colour


def _retinted(color, old: str, new: str):
    """`color` of the set `old` in the set `new` (the same name), or None if it is none of
    its colours."""
    name = palette.name_of(pg.mkColor(color), old)
    return None if name is None else palette.qcolor(palette.SETS[new][name])


def retint_plot(plot: pg.PlotItem, old: str, new: str) -> None:
    """What `plot` drew in the colours of the set `old`, in those of `new`: its axes, its
    title, its texts, its curves and their symbols."""
    for name in ("left", "bottom", "right", "top"):
        axis = plot.getAxis(name)
        axis.setPen(pg.mkPen(colour("axis")))
        axis.setTextPen(pg.mkPen(colour("plot_text")))
    title = plot.titleLabel
    if title.text and title.opts.get("color") is not None:
        color = _retinted(title.opts["color"], old, new)
        if color is not None:
            title.setText(title.text, color=color.name())
    for item in plot.items:
        if isinstance(item, pg.TextItem):
            color = _retinted(item.color, old, new)
            if color is not None:
                item.setColor(color)
        elif isinstance(item, pg.PlotDataItem):
            _retint_curve(item, old, new)
        elif isinstance(item, pg.BarGraphItem):
            _retint_bars(item, old, new)
        elif isinstance(item, pg.ScatterPlotItem):
            for spot in item.points():
                for get, put, making in ((spot.brush, spot.setBrush, pg.mkBrush),
                                         (spot.pen, spot.setPen, pg.mkPen)):
                    now = making(get())
                    color = _retinted(now.color(), old, new)
                    if color is not None:
                        now.setColor(color)
                        put(now)
        elif isinstance(item, pg.InfiniteLine):
            color = _retinted(item.pen.color(), old, new)
            if color is not None:
                item.pen.setColor(color)
            if getattr(item, "label", None) is not None:
                color = _retinted(item.label.color, old, new)
                if color is not None:
                    item.label.setColor(color)


def _retint_bars(item: pg.BarGraphItem, old: str, new: str) -> None:
    changes = {}
    for key in ("brush", "brushes"):
        value = item.opts.get(key)
        if value is None:
            continue
        many = key == "brushes"
        brushes = [pg.mkBrush(v) for v in (value if many else [value])]
        for brush in brushes:
            color = _retinted(brush.color(), old, new)
            if color is not None:
                brush.setColor(color)
        changes[key] = brushes if many else brushes[0]
    if changes:
        item.setOpts(**changes)


def _retint_curve(item: pg.PlotDataItem, old: str, new: str) -> None:
    changes = {}
    for key in ("pen", "symbolBrush", "symbolPen"):
        value = item.opts.get(key)
        if value is None:
            continue
        making = pg.mkBrush if key == "symbolBrush" else pg.mkPen
        now = making(value)
        color = _retinted(now.color(), old, new)
        if color is not None:
            now.setColor(color)
            changes[key] = now
    if "pen" in changes:
        item.setPen(changes["pen"])
    if "symbolBrush" in changes:
        item.setSymbolBrush(changes["symbolBrush"])
    if "symbolPen" in changes:
        item.setSymbolPen(changes["symbolPen"])


def retint_all(old: str, new: str) -> None:
    """Every plot of the app, drawn in the set `old`, in the set `new` (gui/theme.py)."""
    from PySide6.QtWidgets import QApplication

    for widget in QApplication.allWidgets():
        if isinstance(widget, pg.PlotWidget):
            widget.setBackground(colour("plot_ground"))
            retint_plot(widget.getPlotItem(), old, new)
