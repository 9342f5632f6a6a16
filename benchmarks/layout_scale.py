"""The layout's cost per node from 1,000 to 200,000 nodes (issue 22's goal: flat).

The whole graph, ungrouped, laid out by `layered_layout` as the layout child does
(the window draws a graph over 500 nodes grouped, so this is the layout at its largest):
what to draw (`graph_spec`) and the layout, timed apart, in µs per node, for three
shapes of program: a chain whose edges are all short, a chain whose two shared inputs
feed every link (their edges go by lane), and benchmarks/build_scale.py's neuron chain
(seven inputs used by every layer). Medians of `repeats` runs (one at 200,000 nodes),
each graph built once (as Values, read by `import_graph`), outside the timings.

`python -m benchmarks.layout_scale [--quick]`
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from benchmarks.build_scale import neuron_chain

SIZES = (1_000, 5_000, 20_000, 50_000, 200_000)


def plain_chain(n_nodes: int):
    """benchmarks/graph_view.py's chain of tanh(a*0.9 + 0.1), every edge short, built
    as Values (200,000 nodes of it are over the language's 1,000,000 characters)."""
    from engine.core.value import Value

    a = Value(0.5, label="x").tanh()
    for _ in range(max(1, (n_nodes - 2) // 5)):
        a = (a * 0.9 + 0.1).tanh()
    return a


def fan_out(n_nodes: int):
    """benchmarks/graph_view.py's chain of tanh(a*w + b), w and b feeding every link."""
    from engine.core.value import Value

    w, b = Value(0.9, label="w"), Value(0.1, label="b")
    a = Value(0.5, label="x").tanh()
    for _ in range(max(1, (n_nodes - 4) // 3)):
        a = (a * w + b).tanh()
    return a


def neurons(n_nodes: int):
    """benchmarks/build_scale.py's neuron chain: seven inputs used by every layer."""
    from engine import parse

    return parse(neuron_chain(n_nodes)).output


SHAPES = {"chain": plain_chain, "fan-out": fan_out, "neurons": neurons}


def _roles(program) -> dict:
    roles = {v: "constant" for v in program.values if not v.parents}
    roles.update({v: "input" for v in program.inputs.values()})
    return roles


def measure(quick: bool = False) -> list[dict]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # the boxes' sizes need fonts
    from engine.core.stepping import Stepper
    from engine.io.graph_import import import_graph
    from gui.app import application
    from gui.graph.layout import layered_layout
    from gui.graph.spec import graph_spec

    application()
    rows = []
    for shape, make in SHAPES.items():
        for size in SIZES[:3] if quick else SIZES:
            program = import_graph(make(size)).program
            stepper = Stepper(program.output)
            roles = _roles(program)
            spec_t, layout_t = [], []
            for _ in range(1 if size >= 100_000 else 2 if quick else 3):
                t0 = time.perf_counter()
                spec = graph_spec(stepper, roles)
                t1 = time.perf_counter()
                layered_layout(spec.sizes, spec.edges, radii=spec.radii)
                t2 = time.perf_counter()
                spec_t.append(t1 - t0)
                layout_t.append(t2 - t1)
            n = len(program.values)  # the spec's boxes: each node and its label's room
            rows.append({"graph": shape, "nodes": n, "boxes": len(spec.sizes),
                         "spec_us": statistics.median(spec_t) / n * 1e6,
                         "layout_us": statistics.median(layout_t) / n * 1e6,
                         "layout_s": statistics.median(layout_t)})
            print(report(rows[-1:]).splitlines()[-1], file=sys.stderr, flush=True)
    return rows


def report(rows: list[dict]) -> str:
    lines = ["layout at scale (µs per node, medians)",
             f"{'graph':>8} {'nodes':>8} {'spec':>7} {'layout':>8} {'layout s':>9}"]
    for r in rows:
        lines.append(f"{r['graph']:>8} {r['nodes']:>8,} {r['spec_us']:>7.1f} "
                     f"{r['layout_us']:>8.1f} {r['layout_s']:>9.2f}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(measure("--quick" in sys.argv[1:])))
