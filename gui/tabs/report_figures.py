"""The report's figures, drawn offscreen by the same plot code as the tabs."""

from __future__ import annotations

import os
from pathlib import Path

FIGURE_SIZE = (1200, 520)


def _panel(*titles: str):
    """A white widget holding one PlotWidget per title, side by side."""
    from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

    from gui.tabs import plots

    widget = QWidget()
    widget.setStyleSheet("background: white;")
    row = QHBoxLayout(widget)
    plots_out = []
    for title in titles:
        column = QVBoxLayout()
        label = QLabel(f"<b>{title}</b>")
        column.addWidget(label)
        plot = plots.plot_widget()
        column.addWidget(plot, 1)
        row.addLayout(column)
        plots_out.append(plot)
    widget.resize(*FIGURE_SIZE)
    return widget, plots_out


def _save(widget, path: Path) -> bool:
    from PySide6.QtWidgets import QApplication

    widget.show()
    for _ in range(3):  # let the layouts and the axes settle before the picture
        QApplication.processEvents()
    ok = widget.grab().save(str(path))
    widget.close()
    return ok


def write_figures(data, folder: str | os.PathLike) -> list[Path]:
    """rules.png, modes.png and xor.png for a ReportData, in `folder`; returns the paths
    written. Needs a QApplication (offscreen is fine)."""
    from engine.lesson.nn import DEFAULT_ACTIVATION
    from gui.tabs import plots

    folder = Path(folder)
    written = []
    widget, (rules,) = _panel("Every rule: |autograd − central difference|")
    plots.rule_bars(rules.getPlotItem(), list(data.rules))
    if _save(widget, folder / "rules.png"):
        written.append(folder / "rules.png")
    widget, (timing, ratio) = _panel("Milliseconds per full gradient",
                                     "Forward mode ÷ reverse mode")
    plots.modes_timing(timing.getPlotItem(), list(data.sweep))
    plots.modes_ratio(ratio.getPlotItem(), list(data.sweep))
    if _save(widget, folder / "modes.png"):
        written.append(folder / "modes.png")
    widget, (loss, surface) = _panel("Loss from the lesson's start (log axis)",
                                     "Output over the input square")
    curve = plots.loss_curve(loss.getPlotItem())
    plots.update_loss_curve(curve, list(data.xor_losses), len(data.xor_losses))
    image = plots.decision_surface_items(surface.getPlotItem())
    plots.update_decision_surface(image, data.xor_parameters, 2, DEFAULT_ACTIVATION)
    if _save(widget, folder / "xor.png"):
        written.append(folder / "xor.png")
    return written


def write_report(data, folder: str | os.PathLike) -> list[Path]:
    """report.md and the three figures in `folder` (made if missing)."""
    from engine.io.files import write_atomic
    from engine.lesson.report import to_markdown

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = write_figures(data, folder)
    write_atomic(folder / "report.md", to_markdown(data))
    return [folder / "report.md", *written]
