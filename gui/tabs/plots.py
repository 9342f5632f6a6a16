"""Plots shared by the tabs and the report: each draws into a pyqtgraph PlotItem.

Log axes are drawn the pyqtgraph way: the data are given as log10 values and the axis
shows them as powers of ten. A zero error has no logarithm; it is drawn at FLOOR and
said so in the legend.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics

from engine.checks.central_difference import StepError
from engine.lesson.modes import SweepRow, break_even_words
from engine.lesson.nn import XOR, decision_surface
from engine.lesson.rules import TOLERANCE, RuleError, worst
from engine.numbers import count, number, scientific
from gui.palette import colour, hex_of

FLOOR = 1e-17  # where an exact zero is drawn on a log axis
BAR = colour("blue")  # the theme's colours (gui/palette.py), changed in place
WORST = colour("red")
PASS = BAR                  # a rule within the tolerance
WORST_PASS = colour("deep_blue")  # the worst rule, still within it: darker, not red
FAIL = WORST                # red means above the tolerance, nothing else
LINE = colour("grey")


def _log(x: float) -> float:
    return math.log10(max(x, FLOOR))


def _decades(first: int, last: int) -> list[tuple[float, str]]:
    """Major ticks for a log axis: one per decade, labelled 1e-12 … (log10 positions)."""
    return [(float(k), f"1e{k}" if k < -2 or k > 3 else f"{10.0 ** k:g}")
            for k in range(first, last + 1)]


class FittedPlot(pg.PlotWidget):
    """A PlotWidget whose title breaks onto more lines when it is wider than the plot,
    rather than push the plot past the widget's edge (where it would be cut)."""

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if isinstance(getattr(self, "plotItem", None), pg.PlotItem):  # made by then
            fit_title(self.plotItem)


def plot_widget(parent=None, minimum_height: int = 0) -> pg.PlotWidget:
    """A PlotWidget on a white ground, as every plot of the app is drawn, at least
    `minimum_height` pixels tall (a squashed plot crowds its ticks on top of each other)."""
    # what a plot draws in no colour of its own (a title, a label) is in the theme's ink
    pg.setConfigOptions(background=hex_of("plot_ground"), foreground=hex_of("plot_text"))
    widget = FittedPlot(parent, background=colour("plot_ground"))
    if minimum_height:
        widget.setMinimumHeight(minimum_height)
    return widget


def _wrap(item, width: float) -> bool:
    """Wrap the text item `item` to `width`, centred, or unwrap it if it fits; True
    when that changed its height."""
    height = item.boundingRect().height()
    item.setTextWidth(-1)
    if item.boundingRect().width() > width:
        item.setTextWidth(width)
        option = item.document().defaultTextOption()
        option.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        item.document().setDefaultTextOption(option)
    return item.boundingRect().height() != height


def fit_title(plot: pg.PlotItem) -> None:
    """Wrap `plot`'s title and its bottom axis's caption to the width of its view box
    in its widget, centred; one line each when they fit."""
    label, view = plot.titleLabel, plot.getViewWidget()
    if view is None:
        return
    width = view.viewport().width()
    for side in ("left", "right"):
        axis = plot.getAxis(side)
        if axis.isVisible():
            width -= axis.width()
    width = max(40, width - 4)  # the layout's margins
    _wrap(label.item, width)
    label.updateMin()
    label.resizeEvent(None)
    bottom = plot.getAxis("bottom")
    if bottom.isVisible() and bottom.label.isVisible() and _wrap(bottom.label, width):
        bottom._adjustSize()  # the axis as tall as its caption's lines
        bottom.resizeEvent(None)
    if view.centralWidget is plot:  # laid out again in the room the widget has
        plot.setGeometry(view.range)


def set_title(plot: pg.PlotItem, text: str, **options) -> None:
    """Set `plot`'s title, wrapped to the plot's width (see fit_title)."""
    plot.setTitle(text, **options)
    fit_title(plot)


def style(plot: pg.PlotItem) -> None:
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        axis.setPen(pg.mkPen(colour("axis")))
        axis.setTextPen(pg.mkPen(colour("plot_text")))
        # no SI prefix: pyqtgraph still works one out when told not to, while the axis
        # has a label, and a log axis then reads 1000 times its values (0.001 for 1e-6)
        axis.setSIPrefixEnableRanges(())
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
    brushes = [pg.mkBrush(c) for c in bar_colours(rows)]
    bars = pg.BarGraphItem(x0=[left] * len(rows), x1=[_log(r.error_fd) for r in rows],
                           y=ys, height=0.6, brushes=brushes, pen=pg.mkPen(None))
    plot.addItem(bars)
    line = pg.InfiniteLine(pos=math.log10(TOLERANCE), angle=90,
                           pen=pg.mkPen(LINE, width=1.5, style=Qt.PenStyle.DashLine),
                           label="1e-9", labelOpts={"position": 0.95, "color": colour("axis")})
    plot.addItem(line)
    left_axis = plot.getAxis("left")
    left_axis.setTicks([[(y, r.name) for y, r in zip(ys, rows)]])
    # room for the longest case name (a new op's row brings its own), before the layout
    names = QFontMetrics(left_axis.style.get("tickFont") or QFont())
    left_axis.setWidth(max(150, max(names.horizontalAdvance(r.name) for r in rows) + 16))
    first = math.floor(left)
    plot.getAxis("bottom").setTicks([_decades(first, -8)])
    failing = sum(r.error_fd > TOLERANCE for r in rows)
    verdict = "all below 1e-9" if not failing else "red is above 1e-9"
    plot.setLabel("bottom", f"|autograd − central difference| (h = 1e-6): {verdict}")
    fit_title(plot)
    set_title(plot, f"{count(len(rows), 'case')}, worst error {scientific(bad.error_fd)} on "
              f"{bad.name}", color=hex_of("plot_text"))
    plot.setXRange(left, math.log10(TOLERANCE) + 0.5, padding=0.02)
    plot.setYRange(-0.7, len(rows) - 0.3, padding=0)
    plot.setMouseEnabled(x=False, y=False)


def bar_colours(rows: list[RuleError]) -> list[QColor]:
    """Each rule's bar colour: red above the tolerance (a failure), blue within it, the
    worst passing case a darker blue."""
    bad = worst(rows)
    return [FAIL if r.error_fd > TOLERANCE else WORST_PASS if r is bad else PASS
            for r in rows]


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


FORWARD = colour("red")
REVERSE = colour("blue")


def empty_hint(plot: pg.PlotItem, text: str) -> None:
    """A plot with nothing to show yet: no axes (their ticks would mean nothing), a
    grey word on what fills it."""
    plot.clear()
    plot.setLogMode(x=False, y=False)
    plot.showGrid(x=False, y=False)
    for side in ("left", "bottom"):
        plot.hideAxis(side)
    plot.setRange(xRange=(0, 1), yRange=(0, 1), padding=0)
    hint = pg.TextItem(text, color=colour("plot_hint"), anchor=(0.5, 0.5))
    plot.addItem(hint, ignoreBounds=True)
    hint.setPos(0.5, 0.5)


def _axes_back(plot: pg.PlotItem) -> None:
    for side in ("left", "bottom"):
        plot.showAxis(side)


def modes_timing(plot: pg.PlotItem, rows: list[SweepRow]) -> None:
    """Milliseconds per full gradient against parameter count, log-log, both modes, with
    the break-even point marked."""
    if not rows:
        empty_hint(plot, "Press Start to time both modes")
        return
    plot.clear()
    _axes_back(plot)
    style(plot)
    plot.setLogMode(x=True, y=True)
    plot.showGrid(x=True, y=True, alpha=0.25)
    plot.setLabel("bottom", "parameters N")
    plot.setLabel("left", "ms per full gradient")
    ordered = sorted(rows, key=lambda r: r.n)
    ns = [r.n for r in ordered]
    # named in a legend in the upper left corner, where no point is (both costs grow
    # with N): a label beside the last point covered the point before it (s34 tryout)
    if plot.legend is None:  # its entries go with the curves (plot.clear)
        plot.addLegend(offset=(8, 8), labelTextColor=colour("plot_text"))
    last = ordered[-1]
    for times, color, symbol, text in ((lambda r: r.forward_ms, FORWARD, "o", "forward mode"),
                                       (lambda r: r.reverse_ms, REVERSE, "s", "reverse mode")):
        plot.plot(ns, [max(times(r), 1e-6) for r in ordered], pen=pg.mkPen(color, width=2),
                  symbol=symbol, symbolSize=7, symbolBrush=color, symbolPen=None,
                  name=f"{text}: {number(times(last), 3)} ms")
    values = [math.log10(max(v, 1e-6)) for r in ordered for v in (r.forward_ms, r.reverse_ms)]
    plot.setYRange(min(values) - 0.3, max(values) + 0.3, padding=0)
    plot.getAxis("bottom").setTicks([[(math.log10(n), f"{n:,}") for n in ns]])
    plot.getAxis("left").setTicks([_decades(math.floor(min(values) - 0.3),
                                            math.ceil(max(values) + 0.3))])
    even = break_even_words(ordered)
    if even.at is not None and len(ordered) > 1:
        line = pg.InfiniteLine(pos=math.log10(even.at), angle=90,
                               pen=pg.mkPen(LINE, style=Qt.PenStyle.DashLine),
                               label=even.label,
                               labelOpts={"position": 0.5, "color": colour("axis")})
        plot.addItem(line)


def ratio_said(ratio: float) -> str:
    """A bar's label, short enough for ten bars side by side at 1280 px: '0.8×', '54×',
    '666×', '1.2k×' (the table has every digit)."""
    if ratio >= 1000:
        return f"{ratio / 1000:.1f}k×"
    return f"{ratio:.1f}×" if ratio < 10 else f"{ratio:.0f}×"


def modes_ratio(plot: pg.PlotItem, rows: list[SweepRow]) -> None:
    """Forward ms / reverse ms as bars on a log axis, one per size, each labelled with its
    value: a ratio of 2 and one of 1,000 both show. Each bar rises from a third of a
    decade below the smallest ratio (or below 1), so that none is flat."""
    ordered = sorted(rows, key=lambda r: r.n)
    if not ordered:
        empty_hint(plot, "forward ÷ reverse, once sizes are timed")
        return
    plot.clear()
    _axes_back(plot)
    style(plot)
    plot.setLogMode(x=False, y=True)
    plot.showGrid(x=False, y=True, alpha=0.25)
    plot.setLabel("bottom", "parameters N")
    plot.setLabel("left", "forward ÷ reverse")
    xs = list(range(len(ordered)))
    logs = [math.log10(max(r.ratio, 1e-6)) for r in ordered]
    base = min(min(logs), 0.0) - 0.35
    top = max(max(logs), 0.0) + 0.5  # room for the labels above the bars
    plot.addItem(pg.BarGraphItem(x=xs, y0=[base] * len(xs), y1=logs, width=0.7,
                                 brush=pg.mkBrush(FORWARD), pen=pg.mkPen(None)))
    for x, r, y in zip(xs, ordered, logs):
        text = pg.TextItem(ratio_said(r.ratio), color=colour("plot_text"), anchor=(0.5, 1.0))
        text.setPos(x, y)
        plot.addItem(text)
    plot.getAxis("bottom").setTicks([[(x, f"{r.n:,}") for x, r in zip(xs, ordered)]])
    plot.getAxis("left").setTicks([_decades(math.ceil(base), math.floor(top))])
    plot.addItem(pg.InfiniteLine(pos=0.0, angle=0,  # a ratio of 1: the modes cost alike
                                 pen=pg.mkPen(LINE, style=Qt.PenStyle.DashLine)))
    plot.setYRange(base, top, padding=0)
    plot.setXRange(-0.7, len(ordered) - 0.3, padding=0)  # room for the last label


def loss_curve(plot: pg.PlotItem) -> pg.PlotDataItem:
    """An empty loss-against-epoch curve on a log axis, made once and updated in place."""
    style(plot)
    plot.setLogMode(x=False, y=True)
    plot.showGrid(x=True, y=True, alpha=0.25)
    plot.setLabel("bottom", "epoch")
    plot.setLabel("left", "loss")
    curve = plot.plot(pen=pg.mkPen(BAR, width=2))
    plot.disableAutoRange()
    curve.setDownsampling(auto=True, method="peak")
    curve.setClipToView(True)
    return curve


def loggable_losses(losses) -> tuple[np.ndarray, np.ndarray]:
    """(epochs, losses) without the values a log axis cannot show: zero, negative, not
    finite. Epochs count from 1."""
    y = np.asarray(losses, dtype=float)
    x = np.arange(1, len(y) + 1, dtype=float)
    keep = np.isfinite(y) & (y > 0)
    return x[keep], y[keep]


def update_loss_curve(curve: pg.PlotDataItem, losses, epochs: int | None = None) -> None:
    """Show `losses` (epoch 1 first) against an x axis running to `epochs`. Values a log
    axis cannot show (zero, negative, not finite) are left out, so a diverged run still
    draws. For a run of any length, give `show_loss_points` a LossHistory's points."""
    x, y = loggable_losses(losses)
    show_loss_points(curve, x, y, max(epochs or 0, len(losses)))


def show_loss_points(curve: pg.PlotDataItem, x: np.ndarray, y: np.ndarray,
                     epochs: int) -> None:
    """Draw the points (x epochs, y positive finite losses) against an x axis running to
    `epochs`. The axes move only when the data leave whole decades or the epoch count
    changes: redrawing axes every frame would cost more than the curve."""
    curve.setData(x, y)
    plot = curve.getViewBox()
    if plot is None:
        return
    x_max = float(max(epochs, 10))
    low, high = -3.0, 1.0  # 1e-3 .. 10 until the data leave it
    if len(y):
        logs = np.log10(y)
        low = min(low, float(np.floor(logs.min())))
        high = max(high, float(np.ceil(logs.max())))
    wanted = (x_max, low, high)
    if getattr(curve, "_range", None) != wanted:
        curve._range = wanted
        plot.setRange(xRange=(0, x_max), yRange=(low, high), padding=0.02)


SURFACE_MARGIN = 0.25
DOT_SIZE = 18
DOT_FILL = {True: "#1e40af", False: "#c2410c"}  # target 1 (blue), target 0 (orange)
DOT_RING, DOT_EDGE = "#fafafa", "#111318"
SURFACE_COLORS = pg.ColorMap([0.0, 0.5, 1.0],
                             [(234, 88, 12), (248, 248, 248), (37, 99, 235)])


def decision_surface_items(plot: pg.PlotItem) -> pg.ImageItem:
    """An image of the network's output over the input square with the four XOR points
    marked (dark blue for target 1, dark orange for target 0); returns the image."""
    style(plot)
    # not locked to a square: a locked plot in a tall box shows white bands above 1.25
    # and below -0.25, where the surface is not computed
    plot.setAspectLocked(False)
    plot.setLabel("bottom", "x1")
    plot.setLabel("left", "x2")
    # no grid on a heat map: its lines at every tick read as stripes in the surface
    plot.showGrid(x=False, y=False)
    image = pg.ImageItem(axisOrder="row-major")
    image.setColorMap(SURFACE_COLORS)
    plot.addItem(image)
    xs, ys = [x[0] for x, _ in XOR], [x[1] for x, _ in XOR]
    # a dark ring around a light one around the target's colour, darker than the
    # surface's: a dot shows, and shows its class, on blue, white or orange alike (the
    # surface is the same in either theme, and so are they)
    plot.addItem(pg.ScatterPlotItem(xs, ys, size=DOT_SIZE + 6, brush=pg.mkBrush(DOT_EDGE),
                                    pen=pg.mkPen(DOT_EDGE)))
    plot.addItem(pg.ScatterPlotItem(xs, ys, size=DOT_SIZE, pen=pg.mkPen(DOT_RING, width=2.5),
                                    brush=[pg.mkBrush(DOT_FILL[t > 0.5]) for _, t in XOR]))
    plot.setRange(xRange=(-SURFACE_MARGIN, 1 + SURFACE_MARGIN),
                  yRange=(-SURFACE_MARGIN, 1 + SURFACE_MARGIN), padding=0)
    plot.setMouseEnabled(x=False, y=False)
    return image


def update_decision_surface(image: pg.ImageItem, parameters, hidden: int,
                            activation: str, resolution: int = 64) -> None:
    """The output sampled on a 64 x 64 grid (cheap enough for every frame), drawn
    interpolated on a grid 4 times finer: 64 cells drawn nearest-neighbour read as bands
    of flat colour with a step between each."""
    surface = decision_surface(parameters, hidden, activation, resolution, SURFACE_MARGIN)
    surface = np.nan_to_num(surface, nan=0.5, posinf=1.0, neginf=0.0)
    fine = _interpolated(surface, SURFACE_FINENESS * (resolution - 1) + 1)
    image.setImage(np.clip(fine, 0.0, 1.0), levels=(0.0, 1.0))
    # after setImage: the rect maps the image's pixels. The samples sit at the cells'
    # centres, so the image reaches half a cell past the first and last sample
    half = (1 + 2 * SURFACE_MARGIN) / (fine.shape[0] - 1) / 2
    span = 1 + 2 * SURFACE_MARGIN + 2 * half
    image.setRect(-SURFACE_MARGIN - half, -SURFACE_MARGIN - half, span, span)


SURFACE_FINENESS = 4


def _interpolated(samples: np.ndarray, points: int) -> np.ndarray:
    """A square grid of evenly spaced samples interpolated linearly onto `points` x
    `points`, both grids spanning the same square edge to edge (under a millisecond for
    64 to 253; a matrix product through BLAS took 25 ms on a busy machine)."""
    n = samples.shape[0]
    where = np.linspace(0, n - 1, points)
    low = np.minimum(np.floor(where).astype(int), n - 2)
    weight = where - low
    rows = samples[low] * (1 - weight)[:, None] + samples[low + 1] * weight[:, None]
    return rows[:, low] * (1 - weight) + rows[:, low + 1] * weight


def two_losses(plot: pg.PlotItem, right, wrong) -> None:
    """Two loss curves on a log axis: the correct run (blue) and the buggy one (red)."""
    plot.clear()
    style(plot)
    plot.setLogMode(x=False, y=True)
    plot.showGrid(x=True, y=True, alpha=0.25)
    plot.setLabel("bottom", "epoch")
    plot.setLabel("left", "loss (sum over the 4 rows)")
    logs = []
    for losses, color in ((right, BAR), (wrong, WORST)):
        x, y = loggable_losses(losses)
        plot.plot(x, y, pen=pg.mkPen(color, width=2))
        logs += [math.log10(v) for v in (np.min(y), np.max(y))] if len(y) else []
    if logs:  # a label a decade: pyqtgraph's own labels the minor ticks too, on top of each other
        plot.getAxis("left").setTicks([_decades(math.floor(min(logs)), math.ceil(max(logs)))])

