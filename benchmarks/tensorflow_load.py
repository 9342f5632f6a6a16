"""The GUI thread's longest gap while TensorFlow loads for the Rules tab (a fresh
process, a real window offscreen, a 5 ms heartbeat)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = """
import json, os, sys, time
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import QTimer
from gui.app import application
from gui.jobs.tensorflow_checker import LOADING, READY, UNAVAILABLE
from gui.window.main_window import MainWindow

app = application()
w = MainWindow(remember=False)
w.show()
app.processEvents()
w.rules_tab  # made (pyqtgraph imported) but not shown yet: that is not TensorFlow's cost
app.processEvents()
ticks = []
heartbeat = QTimer()
heartbeat.setInterval(5)
heartbeat.timeout.connect(lambda: ticks.append(time.perf_counter()))

def on_changed():
    if w.checker.state == LOADING and not heartbeat.isActive():
        ticks.append(time.perf_counter())  # the moment the tab asks for TensorFlow
        heartbeat.start()

w.checker.changed.connect(on_changed)
w.tabs.setCurrentWidget(w.rules_tab)  # its first showing starts the load
deadline = time.monotonic() + 300
while w.checker.state not in (READY, UNAVAILABLE) and time.monotonic() < deadline:
    app.processEvents()
    time.sleep(0.001)
heartbeat.stop()
ticks.append(time.perf_counter())
gaps = [b - a for a, b in zip(ticks, ticks[1:])]
# the first gap is the rest of the tab's first showing: its plots' first paint
print(json.dumps({"first_gap_ms": 1000 * gaps[0], "longest_gap_ms": 1000 * max(gaps[1:]),
                  "loaded_s": ticks[-1] - ticks[0],
                  "stalled_s": sum(g for g in gaps[1:] if g > 0.05),
                  "state": w.checker.state}))
w.close()
"""


def longest_gap(repeats: int = 1) -> dict:
    """The run with the median longest gap: {first_gap_ms (the tab's first showing and
    paint), longest_gap_ms (every later gap), loaded_s, stalled_s, state}."""
    runs = []
    for _ in range(repeats):
        out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                             cwd=ROOT, check=True, timeout=600).stdout
        runs.append(json.loads(out.strip().splitlines()[-1]))
    runs.sort(key=lambda r: r["longest_gap_ms"])
    return runs[len(runs) // 2]


def report(row: dict) -> str:
    outcome = ("loaded" if row["state"] == "ready"
               else "not available (the time to find that out)")
    return (f"TensorFlow {outcome} in {row['loaded_s']:.2f} s after the Rules tab asked; "
            f"the GUI thread's longest gap meanwhile {row['longest_gap_ms']:.0f} ms "
            f"(5 ms heartbeat), {row['stalled_s']:.2f} s in gaps over 50 ms; before that, "
            f"the tab's own first showing and paint {row['first_gap_ms']:.0f} ms")
