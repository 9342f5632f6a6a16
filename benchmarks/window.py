"""The window's time to first paint, imports included, in a fresh process: TensorFlow,
pyqtgraph and numpy are not loaded by then."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = """
import time
t0 = time.perf_counter()
import os, sys
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from gui.app import application
from gui.window.main_window import MainWindow
app = application()
w = MainWindow(remember=False)
w.show()
app.processEvents()
print(time.perf_counter() - t0, "tensorflow" in sys.modules)
w.close()
"""


def first_paint(repeats: int = 3) -> dict:
    samples = []
    for _ in range(repeats):
        out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                             cwd=ROOT, check=True, timeout=120).stdout.split()
        samples.append(float(out[0]))
        tensorflow = out[1] == "True"
    samples.sort()
    return {"first_paint_s": samples[len(samples) // 2], "tensorflow_loaded": tensorflow}


def report(row: dict) -> str:
    return (f"window: first paint {row['first_paint_s']:.2f} s after start "
            f"(imports included; TensorFlow loaded: {row['tensorflow_loaded']})")
