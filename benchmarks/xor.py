"""XOR training speed: the engine alone, and inside the running window with its frame rate.

The window draws at a fixed clock (about 30 frames a second) from the latest state, so
its frame rate should hold while the worker trains, and the epochs per second inside the
window should stay near the engine's own (both share one interpreter lock).
"""

from __future__ import annotations

import os
import time

from engine.nn import train_xor


def engine_epochs_per_second(epochs: int = 3000) -> float:
    t0 = time.perf_counter()
    for _ in train_xor(epochs=epochs):
        pass
    return epochs / (time.perf_counter() - t0)


def window_rates(seconds: float = 5.0) -> tuple[float, float]:
    """(epochs per second, frames per second) of the XOR tab while it trains."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from gui.app import application
    from gui.main_window import MainWindow

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


def measure(quick: bool = False) -> dict:
    engine = engine_epochs_per_second(1000 if quick else 3000)
    epochs, frames = window_rates(2.0 if quick else 5.0)
    return {"engine_epochs_per_s": engine, "window_epochs_per_s": epochs,
            "window_frames_per_s": frames}


def report(row: dict) -> str:
    return ("XOR training (2-2-1 tanh)\n"
            f"  engine alone:     {row['engine_epochs_per_s']:8,.0f} epochs/s\n"
            f"  inside the window:{row['window_epochs_per_s']:8,.0f} epochs/s at "
            f"{row['window_frames_per_s']:.1f} frames/s")
