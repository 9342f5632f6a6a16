"""Plots shared by the tabs and the report: each draws into a pyqtgraph PlotItem.

Log axes are drawn the pyqtgraph way: the data are given as log10 values and the axis
shows them as powers of ten. A zero error has no logarithm; it is drawn at FLOOR and
said so in the legend.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from engine.checks import StepError
from engine.rules import TOLERANCE, RuleError, worst

FLOOR = 1e-17  # where an exact zero is drawn on a log axis
BAR = QColor("#2563eb")
WORST = QColor("#dc2626")
LINE = QColor("#6b7280")


def _log(x: float) -> float:
    return math.log10(max(x, FLOOR))


def plot_widget(parent=None) -> pg.PlotWidget:
    """A PlotWidget on a white ground, as every plot of the app is drawn."""
    widget = pg.PlotWidget(parent, background="w")
    return widget


def style(plot: pg.PlotItem) -> None:
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        axis.setPen(pg.mkPen("#374151"))
        axis.setTextPen(pg.mkPen("#111827"))
        axis.enableAutoSIPrefix(False)
    plot.showGrid(x=True, y=False, alpha=0.25)


def rule_bars(plot: pg.PlotItem, rows: list[RuleError]) -> None:
    """Horizontal bars of |autograd - central difference| per rule on a log axis, the
    dashed line at 1e-9, and the worst case named in the title."""
    plot.clear()
    style(plot)
    plot.setLogMode(x=True, y=False)
    bad = worst(rows)
    left = _log(min(r.error_fd for r in rows)) - 1.0
    ys = list(range(len(rows)))[::-1]  # first case at the top
    brushes = [pg.mkBrush(WORST if r is bad else BAR) for r in rows]
    bars = pg.BarGraphItem(x0=[left] * len(rows), x1=[_log(r.error_fd) for r in rows],
                           y=ys, height=0.6, brushes=brushes, pen=pg.mkPen(None))
    plot.addItem(bars)
    line = pg.InfiniteLine(pos=math.log10(TOLERANCE), angle=90,
                           pen=pg.mkPen(LINE, width=1.5, style=Qt.PenStyle.DashLine),
                           label="1e-9", labelOpts={"position": 0.95, "color": "#374151"})
    plot.addItem(line)
    plot.getAxis("left").setTicks([[(y, r.name) for y, r in zip(ys, rows)]])
    plot.setLabel("bottom", "|autograd − central difference| (h = 1e-6)")
    plot.setTitle(f"{len(rows)} cases, worst error {bad.error_fd:.2e} on {bad.name}",
                  color="#111827")
    plot.setXRange(left, math.log10(TOLERANCE) + 0.5, padding=0.02)
    plot.setYRange(-0.7, len(rows) - 0.3, padding=0)
    plot.setMouseEnabled(x=False, y=False)


def step_size_curve(plot: pg.PlotItem, rows: list[StepError], autodiff_error: float,
                    name: str) -> None:
    """The central difference's error against h (log-log), and autodiff's as a line."""
    plot.clear()
    style(plot)
    plot.setLogMode(x=True, y=True)
    plot.showGrid(x=True, y=True, alpha=0.25)
    points = [(r.h, max(r.error, FLOOR)) for r in rows if r.error is not None]
    if points:
        hs, errors = zip(*points)
        plot.plot(hs, errors, pen=pg.mkPen(BAR, width=2), symbol="o", symbolSize=7,
                  symbolBrush=BAR, symbolPen=None)
    shown = max(autodiff_error, FLOOR)
    h_all = [r.h for r in rows]
    plot.plot([min(h_all), max(h_all)], [shown, shown],
              pen=pg.mkPen(WORST, width=2, style=Qt.PenStyle.DashLine))
    plot.setLabel("bottom", f"step h of the central difference in {name}")
    plot.setLabel("left", "|error|")
    plot.getViewBox().invertX(True)  # smaller steps to the right, as one would try them
    plot.setMouseEnabled(x=False, y=False)
