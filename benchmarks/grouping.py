"""Grouping big graphs (gui/graph/groups): micrograd's demo MLP on 100 points (65,818
nodes), a microgpt training step (this engine's, and microgpt's own style read by
import_graph: 68,067 nodes), and programs of the language from 20,000 to 200,000
nodes (a chain of tanh layers, benchmarks/build_scale.py's `neuron_chain`).

For each: the graph read into `GraphArrays` (`arrays_of`), `group_graph` (µs per node:
the goal is a cost per node flat in the size), the first view chosen
(`initial_expansion`) and its quotient, and opening one more group (the largest of the
first view's boxes) with `fast_quotient`, the same result as `model.quotient`, timed
too. Each time is the median of `repeats` runs, with the collector as the window's child
leaves it. The graphs are built once per row, outside the timings.
"""

from __future__ import annotations

import statistics
import time

from benchmarks.build_scale import neuron_chain
from engine import parse
from gui.graph.groups import (
    arrays_of,
    collapsed_groups,
    fast_quotient,
    group_graph,
    initial_expansion,
    quotient,
)
from tests.graph_models import graph_of, microgpt_step, micrograd_mlp


def _median(run, repeats: int) -> tuple[float, object]:
    samples, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = run()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples), out


def _program(n_nodes: int):
    program = parse(neuron_chain(n_nodes))
    nodes = program.nodes
    roles = {v: "constant" for v in nodes if not v.parents}
    roles.update({v: "input" for v in program.inputs.values()})
    roles[program.output] = "output"
    return nodes, roles


def _imported_gpt():
    """microgpt's own style of graph (tests/foreign_models.py), read by import_graph with
    the caller's variables in scope: 8 positions, 68,067 nodes."""
    from engine.core.value import topological_order
    from engine.io.graph_import import import_graph
    from tests.foreign_models import microgpt_step as foreign_step

    built = foreign_step(vocab_size=27, n_embd=16, n_head=4, block_size=8,
                         tokens=(0, 5, 12, 3, 20, 7, 1, 9, 0))
    program = import_graph(built.loss, scope=[{"state_dict": built.state_dict,
                                               "losses": built.losses, "loss": built.loss}]
                           ).program
    nodes = topological_order(program.output)
    inputs = set(program.inputs.values())
    roles = {v: ("input" if v in inputs else "constant") for v in nodes if not v.parents}
    roles[program.output] = "output"
    return nodes, roles


def grouping_row(name: str, nodes, roles, repeats: int) -> dict:
    """The timings of one graph, and what its first view shows."""
    read, arrays = _median(lambda: arrays_of(nodes, roles), repeats)
    group, grouping = _median(lambda: group_graph(arrays), repeats)
    choose, expanded = _median(lambda: initial_expansion(grouping), repeats)
    first, shown = _median(lambda: fast_quotient(arrays, grouping, expanded), repeats)
    boxes = collapsed_groups(grouping, expanded)
    largest = max(boxes, key=lambda g: grouping.groups[g].members, default=None)
    opened = expanded | ({largest} if largest is not None else set())
    expand, after = _median(lambda: fast_quotient(arrays, grouping, opened), repeats)
    plain, _ = _median(lambda: quotient(arrays, grouping, opened), repeats)
    n = len(arrays)
    return {"graph": name, "nodes": n, "groups": len(grouping.groups),
            "arrays_ms": read * 1e3, "group_ms": group * 1e3, "us_per_node": group / n * 1e6,
            "initial_ms": (choose + first) * 1e3, "shown": len(shown.units),
            "expand_ms": expand * 1e3, "expand_plain_ms": plain * 1e3,
            "shown_after": len(after.units)}


def measure(quick: bool = False) -> list[dict]:
    repeats = 1 if quick else 3
    rows = [grouping_row("MLP(2,[16,16,1]), 100 points",
                         *graph_of(micrograd_mlp(100).loss), repeats),
            grouping_row("microgpt step, 6 positions", *graph_of(microgpt_step().loss),
                         repeats),
            grouping_row("microgpt imported, 8 positions", *_imported_gpt(), repeats)]
    for n in ((20_000,) if quick else (20_000, 100_000, 200_000)):
        rows.append(grouping_row(f"tanh chain program, {n:,}", *_program(n), repeats))
    return rows


def report(rows: list[dict]) -> str:
    lines = ["grouping big graphs (median ms; µs per node of group_graph; units shown)",
             f"{'graph':<32} {'nodes':>8} {'groups':>7} {'arrays':>7} {'group':>8} "
             f"{'µs/node':>8} {'first view':>11} {'units':>6} {'expand one':>11} "
             f"{'(quotient)':>11} {'units':>6}"]
    for r in rows:
        lines.append(f"{r['graph']:<32} {r['nodes']:>8,} {r['groups']:>7,} "
                     f"{r['arrays_ms']:>7.0f} {r['group_ms']:>8.0f} {r['us_per_node']:>8.1f} "
                     f"{r['initial_ms']:>11.1f} {r['shown']:>6} {r['expand_ms']:>11.1f} "
                     f"{r['expand_plain_ms']:>11.1f} {r['shown_after']:>6}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(measure()))
