"""The graph view at scale: layout, first draw, and one step's repaint.

Targets (issue 13): laying out and drawing a 5,000-node chain or fan-out under 0.5 s; one
step's repaint under 5 ms at 1,000 nodes, with the view following the step as the window
does. Medians of repeated runs, offscreen, in a view of 1100 x 700 pixels.
"""

from __future__ import annotations

import os
import statistics
import time


def plain_chain(n_nodes: int) -> str:
    """About `n_nodes` nodes: a chain of tanh(a*0.9 + 0.1), every edge short."""
    links = max(1, (n_nodes - 2) // 5)  # each link: two constants, a product, a sum, a tanh
    return "x = 0.5\na0 = tanh(x)\n" + "\n".join(
        f"a{k} = tanh(a{k - 1}*0.9 + 0.1)" for k in range(1, links + 1))


def chain_program(n_nodes: int) -> str:
    """About `n_nodes` nodes: a chain of tanh(a*w + b) whose shared inputs w and b fan out
    to every link, so that two nodes have edges across the whole graph."""
    lines = ["x = 0.5", "w = 0.9", "b = 0.1", "a0 = tanh(x)"]
    k = 0
    while 4 + 3 * (k + 1) <= n_nodes:  # each link adds a product, a sum and a tanh
        k += 1
        lines.append(f"a{k} = tanh(a{k - 1}*w + b)")
    return "\n".join(lines)


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000.0


SHAPES = {"chain": plain_chain, "fan-out": chain_program}


def measure(sizes=(500, 1000, 5000), repeats: int = 5) -> list[dict]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from engine import parse
    from engine.core.stepping import Stepper
    from gui.app import application
    from gui.graph.layout import layered_layout
    from gui.graph.scene import GraphScene
    from gui.graph.spec import graph_spec
    from gui.graph.view import GraphView

    application()
    rows = []
    for size, shape in [(n, shape) for n in sizes for shape in SHAPES]:
        program = parse(SHAPES[shape](size))
        stepper = Stepper(program.output)
        roles = {v: "constant" for v in program.values if not v.parents}
        roles.update({v: "input" for v in program.inputs.values()})
        layout_t, draw_t, step_t = [], [], []
        for _ in range(repeats):
            t0 = time.perf_counter()
            spec = graph_spec(stepper, roles)
            drawing = layered_layout(spec.sizes, spec.edges, radii=spec.radii)
            t1 = time.perf_counter()
            scene = GraphScene()
            view = GraphView(scene)
            view.resize(1100, 700)
            scene.build(stepper, spec, drawing, roles)
            view.show()
            view.graph_changed()
            QApplication.processEvents()
            t2 = time.perf_counter()
            layout_t.append(t1 - t0)
            draw_t.append(t2 - t1)
            stepper.seek(len(stepper.forward_steps) + len(stepper.backward_steps) // 2)
            scene.refresh()
            QApplication.processEvents()
            for _ in range(20):
                before = stepper.position
                t3 = time.perf_counter()
                stepper.step()
                scene.refresh(before)
                view.follow_step()  # as the window does after each step
                QApplication.processEvents()  # paints what the step marked dirty
                step_t.append(time.perf_counter() - t3)
            view.close()
            stepper.reset()
            # the next repeat's first draw must not pay for tearing this graph down
            scene.clear()
            del view, scene
            QApplication.processEvents()
        rows.append({"graph": shape, "nodes": len(stepper.forward_steps),
                     "layout_ms": _median_ms(layout_t),
                     "first_draw_ms": _median_ms(draw_t), "step_ms": _median_ms(step_t)})
    return rows


def report(rows: list[dict]) -> str:
    lines = ["graph view (median ms)", f"{'graph':>8} {'nodes':>7} {'layout':>9} "
             f"{'first draw':>11} {'one step':>9}"]
    for r in rows:
        lines.append(f"{r['graph']:>8} {r['nodes']:>7} {r['layout_ms']:>9.1f} "
                     f"{r['first_draw_ms']:>11.1f} {r['step_ms']:>9.2f}")
    return "\n".join(lines)
