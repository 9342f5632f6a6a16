"""XOR training: the engine's speed alone and inside the running window with its frame
rate; what a frame of the loss plot costs as the run grows; `train`'s memory as the run
grows.

The window draws at a fixed clock (about 30 frames a second) from the latest state, so
its frame rate should hold while the worker trains, and the epochs per second inside the
window should stay near the engine's own (both share one interpreter lock). The plot is
given a bounded, min-max decimated history, so its frame should cost the same at 10^7
epochs as at 10^3; drawing the whole history, as the tab once did, is timed beside it.
`train` streams its epochs, so its peak memory should not grow with the run.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from engine.lesson.nn import train_xor

ROOT = Path(__file__).resolve().parents[1]


def engine_epochs_per_second(epochs: int = 3000) -> float:
    t0 = time.perf_counter()
    for _ in train_xor(epochs=epochs):
        pass
    return epochs / (time.perf_counter() - t0)


def window_rates(seconds: float = 5.0) -> tuple[float, float]:
    """(epochs per second, frames per second) of the XOR tab while it trains."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from gui.app import application
    from gui.window.main_window import MainWindow

    app = application()
    window = MainWindow(remember=False)
    window.show()
    tab = window.xor_tab
    window.tabs.setCurrentWidget(tab)
    tab.epochs.setValue(10_000_000)
    frames = 0

    def count() -> None:
        nonlocal frames
        frames += 1

    tab.timer.timeout.connect(count)
    tab.start()
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        app.processEvents()
        time.sleep(0.001)
    elapsed = time.perf_counter() - t0
    epochs = tab.epoch
    window.close()
    return epochs / elapsed, frames / elapsed


def _synthetic_losses(start: int, count: int) -> np.ndarray:
    """A loss curve with the shape of a run: slow decay, wobbles and a spike now and then."""
    epochs = np.arange(start + 1, start + count + 1, dtype=float)
    losses = 2.0 / np.sqrt(epochs) * (1.0 + 0.3 * np.sin(epochs / 997.0))
    losses[epochs % 250_007 == 0] *= 40.0
    return losses


def frame_costs(decimated=(1_000, 100_000, 10_000_000), whole=(1_000, 100_000, 1_000_000),
                frames: int = 30) -> dict:
    """Ms to update the XOR tab's loss curve and repaint the plot (median and fastest of
    `frames`), with a history of n epochs: from the tab's bounded history (as the tab
    draws now), and from every epoch's loss (as it drew before). Also the points each
    hands to pyqtgraph. On a shared machine the fastest frame is the steadier figure."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from engine.lesson.history import LossHistory
    from gui.app import application
    from gui.tabs import plots
    from gui.window.main_window import MainWindow

    app = application()
    window = MainWindow(remember=False)
    window.resize(1400, 860)
    window.show()
    tab = window.xor_tab
    window.tabs.setCurrentWidget(tab)
    app.processEvents()
    curve, view = tab.loss_curve, tab.loss_plot.viewport()

    def timed(update) -> tuple[float, float]:
        for _ in range(3):  # warm-up: the first frames lay out the axes
            update()
            view.repaint()
        samples = []
        for _ in range(frames):
            t0 = time.perf_counter()
            update()
            view.repaint()
            samples.append(time.perf_counter() - t0)
        return statistics.median(samples) * 1e3, min(samples) * 1e3

    histories = {}
    for n in decimated:
        history = LossHistory()
        for start in range(0, n, 1_000_000):
            history.extend(_synthetic_losses(start, min(1_000_000, n - start)))
        histories[n] = history
    whole_losses = {n: _synthetic_losses(0, n).tolist() for n in whole}
    for _ in range(2):  # the first round warms the window up (its first frames, its
        #                 start-up work); the second is kept
        rows = {"decimated": [], "whole": []}
        for n, history in histories.items():
            ms, best = timed(lambda h=history, n=n: plots.show_loss_points(curve, *h.points(),
                                                                           n))
            rows["decimated"].append({"epochs": n, "ms": ms, "best_ms": best,
                                      "points": len(history.points()[0])})
        for n, losses in whole_losses.items():
            ms, best = timed(lambda ls=losses, n=n: plots.update_loss_curve(curve, ls, n))
            rows["whole"].append({"epochs": n, "ms": ms, "best_ms": best, "points": n})
    window.close()
    return rows


def train_peak_memory(sizes=(1_000, 100_000, 1_000_000)) -> list[dict]:
    """Peak resident memory (MB) of `main.py train --epochs N --json`, its output thrown
    away, each run in a fresh process; the first figure is mostly the imports."""
    # VmHWM, the high-water mark of this process's own memory (Linux): getrusage's
    # ru_maxrss would carry over the peak of the process that started it
    code = ("import os, sys\n"
            "import main\n"
            "sys.stdout = open(os.devnull, 'w')\n"
            "main.main(['train', '--epochs', sys.argv[1], '--json'])\n"
            "peak = [line for line in open('/proc/self/status') if line.startswith('VmHWM')]\n"
            "sys.stderr.write(peak[0].split()[1])\n")
    rows = []
    for n in sizes:
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code, str(n)], cwd=ROOT, check=True,
                              capture_output=True, text=True)
        rows.append({"epochs": n, "peak_mb": int(done.stderr.split()[-1]) / 1024,
                     "seconds": time.perf_counter() - t0})
    return rows


def measure(quick: bool = False) -> dict:
    engine = engine_epochs_per_second(1000 if quick else 3000)
    epochs, frames = window_rates(2.0 if quick else 5.0)
    return {"engine_epochs_per_s": engine, "window_epochs_per_s": epochs,
            "window_frames_per_s": frames,
            "frames": frame_costs(whole=(1_000, 100_000) if quick else
                                  (1_000, 100_000, 1_000_000)),
            "train_memory": train_peak_memory((1_000, 30_000) if quick else
                                              (1_000, 100_000, 1_000_000))}


def report(row: dict) -> str:
    lines = ["XOR training (2-2-1 tanh)",
             f"  engine alone:     {row['engine_epochs_per_s']:8,.0f} epochs/s",
             f"  inside the window:{row['window_epochs_per_s']:8,.0f} epochs/s at "
             f"{row['window_frames_per_s']:.1f} frames/s",
             "  loss plot, one frame (update + repaint), median / fastest ms:"]
    for kind, label in (("decimated", "bounded history"), ("whole", "every epoch")):
        for r in row["frames"][kind]:
            lines.append(f"    {label:>15}, {r['epochs']:>10,} epochs: {r['ms']:7.2f} / "
                         f"{r['best_ms']:6.2f} ms ({r['points']:,} points)")
    lines.append("  train --json, peak memory:")
    for r in row["train_memory"]:
        lines.append(f"    {r['epochs']:>10,} epochs: {r['peak_mb']:6.1f} MB "
                     f"({r['seconds']:.1f} s)")
    return "\n".join(lines)


if __name__ == "__main__":  # the XOR part alone: python -m benchmarks.xor [--quick]
    print(report(measure("--quick" in sys.argv)))
