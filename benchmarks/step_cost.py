"""One step in the real window at 200 and at 200,000 nodes.

A program built with `MainWindow.build`, offscreen, then single steps in the middle of
the backward pass: `session.step()` runs every slot connected to the step (the graph
tab's refresh, the inspector) before it returns, so timing it times the step and the
window's work for it; the repaint that follows is timed apart. At 200,000 nodes the graph
is not drawn (over MAX_DRAWN), the inspector and the step counter are. The first step
after a load, and the first step of the backward pass (where the stepper indexes, once,
which steps hand each node a gradient), are reported apart.
"""

from __future__ import annotations

import os
import statistics
import time

from benchmarks.build_scale import neuron_chain


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000.0


def step_in_window(n_nodes: int, steps: int = 30) -> dict:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from gui.app import application
    from gui.window.main_window import MainWindow

    application()
    window = MainWindow(remember=False)
    window.show()
    QApplication.processEvents()
    try:
        if not window.build(neuron_chain(n_nodes)) or not window.wait_for_build():
            raise RuntimeError("the generated program did not build")
        QApplication.processEvents()
        if len(window.session.stepper.forward_steps) < n_nodes // 2:
            raise RuntimeError("the generated program is not the one loaded")
        session = window.session
        stepper = session.stepper
        t0 = time.perf_counter()
        session.step()
        first = time.perf_counter() - t0
        QApplication.processEvents()
        session.seek(len(stepper.forward_steps))
        QApplication.processEvents()
        t0 = time.perf_counter()
        session.step()  # the first backward step: the inspector indexes what it looks up
        first_backward = time.perf_counter() - t0
        QApplication.processEvents()
        session.seek(len(stepper.forward_steps) + len(stepper.backward_steps) // 2)
        QApplication.processEvents()
        step_t, paint_t = [], []
        for _ in range(steps):
            t0 = time.perf_counter()
            session.step()
            t1 = time.perf_counter()
            QApplication.processEvents()  # paints what the step changed
            step_t.append(t1 - t0)
            paint_t.append(time.perf_counter() - t1)
        return {"nodes": len(stepper.forward_steps), "step_ms": _median_ms(step_t),
                "repaint_ms": _median_ms(paint_t), "first_step_ms": first * 1000.0,
                "first_backward_ms": first_backward * 1000.0}
    finally:
        window.close()
        QApplication.processEvents()


def measure(quick: bool = False) -> list[dict]:
    return [step_in_window(n, 10 if quick else 30) for n in (200, 200_000)]


def report(rows: list[dict]) -> str:
    lines = ["one step in the window, mid-backward (median ms; the graph is drawn up to "
             "20,000 nodes)",
             f"{'nodes':>8} {'step + slots':>13} {'repaint':>8} {'first step':>11} "
             f"{'first backward step':>20}"]
    for r in rows:
        lines.append(f"{r['nodes']:>8,} {r['step_ms']:>13.2f} {r['repaint_ms']:>8.2f} "
                     f"{r['first_step_ms']:>11.1f} {r['first_backward_ms']:>20.1f}")
    return "\n".join(lines)
