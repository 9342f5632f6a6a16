"""Edge crossings of the Graph tab's layout against Graphviz `dot` on the same nodes and
edges (issue 23's quality bar): the preset programs, the programs of the layout's quality
tests, 20 generated programs that reuse values, and micrograd's demo MLP on 100 points
drawn grouped (the quotient the window first shows, at five sizes up to a few hundred
units).

Both drawings are counted the same way, from their geometry: the ranks are the columns
of the nodes' centres (left to right); every edge is followed from its source's centre
to its target's, and two edges cross between two adjacent columns when their heights
swap between them (two edges sharing an end do not cross there). dot is given every
node's size, rankdir=LR and minlen=2 on a labelled edge (the layout makes such an edge
span two layers, as dot does for a label), and read back with `dot -Tplain`; past 200
nodes with nslimit=2, which bounds only dot's placement, run after its ordering and
keeping it (without, the biggest grouped MLP takes dot minutes).

dot comes from Debian's `graphviz` package (`apt-get install graphviz`); without it the
benchmark says so and measures only our side. Run: `python -m benchmarks.crossings`;
with `--record`, dot's count of every graph is also written to tests/gui/dot_crossings.py,
which tests/gui/test_layout_ordering.py compares ours with graph by graph (without dot).
"""

from __future__ import annotations

import math
import os
import random
import shutil
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRESETS = ROOT / "assets" / "presets"
RECORD = ROOT / "tests" / "gui" / "dot_crossings.py"
POINTS_PER_INCH = 72.0
DOT_TIMEOUT = 300  # s: dot on a graph that takes longer is reported as "-"


# -- the corpus -----------------------------------------------------------------------------

def generated_program(seed: int, statements: int = 24) -> str:
    """Inputs a, b, c, then statements that each use the one before (so the output
    depends on them all) or the one before that, with some other name so far, near or
    far (values reused), or a constant; some through tanh or sigmoid (always once the
    value grows past 4, so that nothing overflows)."""
    rng = random.Random(1000 + seed)
    names, values = ["a", "b", "c"], [0.3, -0.5, 0.8]
    lines = ["a = 0.3", "b = -0.5", "c = 0.8"]
    for k in range(statements):
        i = len(names) - (1 if rng.random() < 0.7 else 2)
        j = (rng.randrange(max(0, len(names) - 4), len(names)) if rng.random() < 0.5
             else rng.randrange(len(names)))
        right, y = (names[j], values[j]) if rng.random() < 0.8 else (str(c := rng.choice(
            (2, 0.5, 3))), float(c))
        op = rng.choice("+-*")
        x = values[i]
        value = x + y if op == "+" else x - y if op == "-" else x * y
        expr = f"{names[i]} {op} {right}"
        if abs(value) > 4 or rng.random() < 0.2:
            function = rng.choice(("tanh", "sigmoid"))
            expr = f"{function}({expr})"
            value = math.tanh(value) if function == "tanh" else 1 / (1 + math.exp(-value))
        lines.append(f"t{k} = {expr}")
        names.append(f"t{k}")
        values.append(value)
    return "\n".join(lines)


def corpus() -> dict[str, str]:
    """Program text by name: presets, the quality tests' programs, 20 generated."""
    from tests.gui.test_graph_quality import reuse_programs

    programs = {p.stem: p.read_text(encoding="utf-8") for p in sorted(PRESETS.glob("*.expr"))}
    programs.update(reuse_programs())
    programs.update({f"generated-{k}": generated_program(k) for k in range(20)})
    return programs


def program_graph(text: str, folded: bool) -> tuple[list, list]:
    """The sizes and edges the Graph tab lays out for `text`, constants folded or not."""
    from engine import parse
    from engine.core.stepping import Stepper
    from gui.graph.spec import graph_spec

    program = parse(text)
    stepper = Stepper(program.output)
    roles = {v: "constant" for v in program.values if not v.parents}
    roles.update({v: "input" for v in program.inputs.values()})
    spec = graph_spec(stepper, roles, folded)
    return spec.sizes, spec.edges


def grouped_mlp_graphs(budgets=(49, 120, 160, 250, 300), points: int = 100) -> list[tuple]:
    """The first grouped picture of micrograd's demo MLP (tests/foreign_models.py,
    `points` samples, 65,818 nodes at 100) imported as `debug(demo.loss)` imports it and
    shown as the window shows it: grouped, the first expansion at each of `budgets`
    units (49: a 1100 x 700 view), its readable quotient, constants folded. Returns
    (units shown, sizes, edges) per budget. Edge labels get a placeholder's size: they
    do not move ranks."""
    from types import SimpleNamespace

    from engine.core.value import topological_order
    from engine.io.graph_import import import_graph
    from gui.graph.grouped import Shown, renumbered
    from gui.graph.groups import arrays_of, group_graph, initial_expansion
    from gui.graph.prepared import readable_steps
    from gui.graph.spec import quotient_spec
    from gui.jobs.group_child import GROUP_FROM
    from tests.foreign_models import micrograd_demo
    from tests.graph_models import roles_of

    demo = micrograd_demo(points)
    nodes = topological_order(import_graph(demo.loss, scope=[{"demo": demo}]).program.output)
    roles = roles_of(nodes)
    grouping = group_graph(arrays_of(nodes, roles), GROUP_FROM)
    ordered = [nodes[i] for i in grouping.order]
    arrays, grouping = renumbered(arrays_of(nodes, roles), grouping)
    stepper = SimpleNamespace(forward_steps=ordered, backward_steps=[])
    graphs = []
    for budget in budgets:
        shown = Shown(stepper, arrays, grouping, initial_expansion(grouping, budget))
        shown.index = {v: i for i, v in enumerate(ordered)}
        for _ in shown.quotient_steps():
            pass
        steps = readable_steps(shown)
        try:
            while True:
                next(steps)
        except StopIteration as done:
            shown = done.value
        spec = quotient_spec(shown, roles, True)
        graphs.append((len(shown.quotient.units), spec.sizes, spec.edges))
    return graphs


# -- counting ------------------------------------------------------------------------------

def _height_at(path: list[tuple[float, float]], x: float) -> float:
    """The height of a polyline running left to right where it meets the vertical x."""
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        if x0 <= x <= x1:
            return y0 if x1 == x0 else y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return path[0][1] if x < path[0][0] else path[-1][1]


def column_crossings(centers: list[tuple[float, float]], edges: list[tuple[int, int]],
                     paths: list[list[tuple[float, float]]]) -> int:
    """Crossings between adjacent columns (see the module's docstring): `centers` of the
    nodes, `edges` (source, target), each edge's `paths` as points left to right."""
    import numpy as np

    columns = sorted({round(x, 3) for x, _ in centers})
    spans = []
    for (u, v), path in zip(edges, paths):
        full = [centers[u]] + [p for p in path if centers[u][0] < p[0] < centers[v][0]]
        full.append(centers[v])
        spans.append((round(centers[u][0], 3), round(centers[v][0], 3), full))
    total = 0
    for left, right in zip(columns, columns[1:]):
        here = [(_height_at(p, left), _height_at(p, right)) for a, b, p in spans
                if a <= left and b >= right]
        if len(here) < 2:
            continue
        ys = np.array(here)
        d0 = ys[:, 0][:, None] - ys[:, 0][None, :]
        d1 = ys[:, 1][:, None] - ys[:, 1][None, :]
        swapped = (d0 * d1 < 0) & (np.abs(d0) > 1e-6) & (np.abs(d1) > 1e-6)
        total += int(np.triu(swapped, 1).sum())
    return total


def _sampled(segments) -> list[tuple[float, float]]:
    """A route (lines and cubics) as points."""
    out = []
    for seg in segments:
        if len(seg) == 2:
            out.extend(seg)
        else:
            out.extend(_bezier(seg, 12))
    return out


def _bezier(controls, pieces: int) -> list[tuple[float, float]]:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = controls
    out = []
    for k in range(pieces + 1):
        t = k / pieces
        u = 1 - t
        a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
        out.append((a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3))
    return out


def ours(sizes, edges) -> tuple[int, float]:
    """Our drawing's crossings, and the time its layout took (s)."""
    from gui.graph.layout import layered_layout

    t0 = time.perf_counter()
    drawing = layered_layout(sizes, edges)
    took = time.perf_counter() - t0
    paths = [_sampled(route) for route in drawing.routes]
    return column_crossings(drawing.centers, [(u, v) for u, v, _ in edges], paths), took


def dot_source(sizes, edges) -> str:
    lines = ["digraph G {", "rankdir=LR;",
             'node [shape=box, fixedsize=true, label=""];']
    if len(sizes) > 200:  # dot's placement (after its ordering) takes minutes without
        lines.append("nslimit=2;")
    for k, (w, h) in enumerate(sizes):
        lines.append(f"n{k} [width={w / POINTS_PER_INCH:.4f}, height={h / POINTS_PER_INCH:.4f}];")
    for u, v, label in edges:
        lines.append(f"n{u} -> n{v}" + (" [minlen=2];" if label is not None else ";"))
    lines.append("}")
    return "\n".join(lines)


def dots(sizes, edges) -> int | None:
    """dot's crossings on the same graph, or None without dot."""
    if shutil.which("dot") is None:
        return None
    try:
        out = subprocess.run(["dot", "-Tplain"], input=dot_source(sizes, edges), text=True,
                             capture_output=True, check=True, timeout=DOT_TIMEOUT).stdout
    except subprocess.TimeoutExpired:
        return None
    centers: list[tuple[float, float]] = [(0.0, 0.0)] * len(sizes)
    paths: dict[tuple[int, int], list] = {}
    for line in out.splitlines():
        parts = line.split()
        if parts[0] == "node":
            centers[int(parts[1][1:])] = (float(parts[2]), -float(parts[3]))
        elif parts[0] == "edge":
            u, v, n = int(parts[1][1:]), int(parts[2][1:]), int(parts[3])
            points = [(float(parts[4 + 2 * k]), -float(parts[5 + 2 * k])) for k in range(n)]
            sampled = []
            for k in range(0, n - 1, 3):
                sampled.extend(_bezier(points[k:k + 4], 12))
            paths.setdefault((u, v), []).append(sampled)
    ordered = [paths[(u, v)].pop(0) for u, v, _ in edges]
    return column_crossings(centers, [(u, v) for u, v, _ in edges], ordered)


# -- the table -------------------------------------------------------------------------------

def measure(quick: bool = False) -> list[dict]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from gui.app import application

    application()  # label sizes are measured with the app's font
    rows = []
    graphs = [(name, text, folded) for name, text in corpus().items()
              for folded in (True, False)]
    for name, text, folded in graphs:
        sizes, edges = program_graph(text, folded)
        found, took = ours(sizes, edges)
        rows.append({"graph": name, "constants": "folded" if folded else "nodes",
                     "nodes": len(sizes), "edges": len(edges), "ours": found,
                     "dot": dots(sizes, edges), "layout_ms": took * 1e3})
    if not quick:
        for units, sizes, edges in grouped_mlp_graphs():
            found, took = ours(sizes, edges)
            rows.append({"graph": f"micrograd MLP, 100 points: {units} units",
                         "constants": "folded", "nodes": len(sizes), "edges": len(edges),
                         "ours": found, "dot": dots(sizes, edges), "layout_ms": took * 1e3})
    return rows


def report(rows: list[dict]) -> str:
    have_dot = any(r["dot"] is not None for r in rows)
    lines = ["crossings between adjacent columns, ours against Graphviz dot"
             + ("" if have_dot else " (dot not installed: apt-get install graphviz)"),
             f"{'graph':<40} {'constants':>9} {'nodes':>6} {'edges':>6} {'ours':>6} "
             f"{'dot':>6} {'<= dot':>6} {'layout ms':>10}"]
    worse = 0
    for r in rows:
        d = "-" if r["dot"] is None else str(r["dot"])
        fewer = "-" if r["dot"] is None else "yes" if r["ours"] <= r["dot"] else "NO"
        worse += fewer == "NO"
        lines.append(f"{r['graph']:<40} {r['constants']:>9} {r['nodes']:>6} {r['edges']:>6} "
                     f"{r['ours']:>6} {d:>6} {fewer:>6} {r['layout_ms']:>10.1f}")
    if have_dot:
        lines.append(f"graphs where ours crosses more than dot's: {worse} of {len(rows)}")
        lines.append(f"in total: ours {sum(r['ours'] for r in rows)}, "
                     f"dot {sum(r['dot'] for r in rows if r['dot'] is not None)}")
    return "\n".join(lines)


def record(rows: list[dict]) -> None:
    """dot's counts, as data for tests/gui/test_layout_ordering.py (RECORD)."""
    version = subprocess.run(["dot", "-V"], capture_output=True, text=True).stderr.strip()
    lines = ['"""Graphviz dot\'s crossings on the graphs of benchmarks/crossings.py, counted from',
             "its drawing as the benchmark counts ours (written by `python -m",
             f"benchmarks.crossings --record` on {time.strftime('%Y-%m-%d')} with {version}).",
             "tests/gui/test_layout_ordering.py checks that ours are at most these, graph by",
             'graph, without needing dot."""', "", "DOT_CROSSINGS = {"]
    for r in rows:
        if r["dot"] is not None:
            lines.append(f"    {(r['graph'], r['constants'])!r}: {r['dot']},")
    lines.append("}")
    RECORD.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    import sys

    measured = measure(quick="--quick" in sys.argv)
    print(report(measured))
    if "--record" in sys.argv:
        if shutil.which("dot") is None:
            raise SystemExit("--record needs Graphviz dot")
        record(measured)
