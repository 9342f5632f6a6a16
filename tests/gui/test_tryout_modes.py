"""The Modes tab at 1280 x 720 after the s34 tryout: no label covers a data point (the
800 point covered 'reverse mode: 6.2 ms'), the ratio bars' labels never touch, no empty
unlabelled progress bar sits beside Start before a sweep, and the tab says its times are
measured on this machine and noisy."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QFontMetricsF

from engine.lesson.modes import SweepRow
from tests.gui import test_fits_1280
from tests.gui.test_fits_1280 import show

small_window = test_fits_1280.small_window  # the fixture: the window at 1280 x 720

# the tryout's sweep (load 1 to 6): reverse mode jumped to 6.9 ms at 800, 6.2 at 1,600
TRYOUT = [(2, 0.019, 0.025), (5, 0.055, 0.029), (10, 0.143, 0.033), (20, 0.541, 0.046),
          (50, 7.0, 0.129), (100, 20.0, 0.23), (200, 135.0, 0.398), (400, 240.0, 0.755),
          (800, 1700.0, 6.9), (1600, 4170.0, 6.26)]


def _rows() -> list[SweepRow]:
    return [SweepRow(n, f, r, f / r, 2e-16) for n, f, r in TRYOUT]


def _labels(plot: pg.PlotItem) -> list[tuple[str, QRectF]]:
    """Every text drawn in `plot` (its text items and its legend's), with its rect in
    the scene."""
    found = [(i.toPlainText(), i.sceneBoundingRect()) for i in plot.items
             if isinstance(i, pg.TextItem)]
    if plot.legend is not None:
        found += [(label.text, label.sceneBoundingRect()) for _, label in plot.legend.items]
    return found


def _points(plot: pg.PlotItem) -> list:
    """The data points' centres in the scene."""
    vb = plot.getViewBox()
    return [vb.mapViewToScene(p.pos()) for item in plot.listDataItems()
            for p in item.scatter.points()]


def test_the_modes_plots_labels_cover_no_point_and_touch_no_other(small_window, qtbot):
    tab = small_window.modes_tab
    show(small_window, qtbot, tab)
    tab.rows = _rows()
    tab._show_rows()
    qtbot.wait(50)
    timing = tab.timing_plot.getPlotItem()
    labels = _labels(timing)
    said = " ".join(text for text, _ in labels)
    assert "forward mode" in said and "reverse mode: 6.26 ms" in said, said
    points = _points(timing)
    assert len(points) == 2 * len(TRYOUT)
    for text, rect in labels:
        covered = [p for p in points if rect.adjusted(-4, -4, 4, 4).contains(p)]
        assert not covered, (text, rect, covered)
    ratio = tab.ratio_plot.getPlotItem()
    texts = sorted((i for i in ratio.items if isinstance(i, pg.TextItem)
                    and i.toPlainText().endswith("×")), key=lambda i: i.sceneBoundingRect().x())
    assert len(texts) == len(TRYOUT)
    inks = []  # each label's text, as wide as its letters (the item has a margin)
    for item in texts:
        width = QFontMetricsF(item.textItem.font()).horizontalAdvance(item.toPlainText())
        centre = item.sceneBoundingRect().center().x()
        inks.append((centre - width / 2, centre + width / 2, item.toPlainText()))
    for (_, right, a), (left, _, b) in zip(inks, inks[1:]):
        assert right + 4 <= left, (a, b, right, left)  # apart, not '339.1×319.3×'


def test_the_progress_bar_shows_once_started_and_the_tab_says_times_are_noisy(small_window,
                                                                               qtbot):
    tab = small_window.modes_tab
    show(small_window, qtbot, tab)
    assert not tab.bar.isVisible()  # nothing to say before a sweep
    intro = " ".join(label.text() for label in tab.findChildren(type(tab.state)))
    assert "measured on this machine" in intro and "noisy" in intro
    tab.sizes = (2,)
    tab.start_sweep()
    assert tab.bar.isVisible() and tab.bar.text().startswith("timed: ")
    qtbot.waitUntil(lambda: not tab.running, timeout=60_000)
    assert tab.bar.isVisible() and tab.bar.value() == 1000
