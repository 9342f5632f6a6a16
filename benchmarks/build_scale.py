"""Building graphs at scale: nanoseconds per node from 10^4 to 10^6 nodes, with the
garbage collector at its normal settings.

A live graph of a million nodes is millions of objects that the collector would rescan
again and again while the graph grows, finding nothing (the graphs hold no reference
cycles). The engine pauses it around its bulk work (`parse`, `Stepper(...)`, an MLP's
forward pass); a caller's own loop over the Value API runs as the caller leaves the
collector. Each build is timed alone ("build") and followed by `gc.collect()` ("with the
collection after"), so that collections a build only postpones are counted too.
"""

from __future__ import annotations

import gc
import math
import statistics
import time

from engine import parse
from engine.core.stepping import Stepper
from engine.core.value import Value
from engine.lesson.nn import MLP


def neuron_chain(n_nodes: int) -> str:
    """A program of at most `n_nodes` nodes: seven inputs, then a chain of one-unit
    layers a_k = tanh(a_{k-1}·w + x·v + y·u + z·w + b), nine nodes each."""
    lines = ["x = 0.5; y = -0.3; z = 0.2; u = 0.7; v = -0.1; w = 0.4; b = 0.1", "a0 = x"]
    lines += [f"a{k}=tanh(a{k - 1}*w+x*v+y*u+z*w+b)" for k in range(1, (n_nodes - 7) // 9 + 1)]
    return "\n".join(lines)


def _value_chain(n_nodes: int):
    """n_nodes nodes through the Value API in a plain loop: v = v·w + x, two a link."""
    x, w = Value(0.5), Value(0.9999)
    v = x
    for _ in range(n_nodes // 2):
        v = v * w + x
    return v, n_nodes // 2 * 2


def _mlp_width(n_nodes: int) -> int:
    # a (k, k, 1) network's forward pass makes k(2k + 1) + (2k + 1) nodes
    return max(2, round(math.sqrt(n_nodes / 2)))


def _mlp_forward(model: MLP):
    out = model([0.01 * i for i in range(model.sizes[0])])
    k = model.sizes[1]
    return out, (k + 1) * (2 * k + 1)


def _row(kind: str, build, repeats: int) -> dict:
    """Median ns per node of `build()` (which returns the graph and the nodes it made)
    alone, and with a full collection after it (less what one costs without the graph)."""
    alone, settled = [], []
    for _ in range(repeats):
        gc.collect()
        t = time.perf_counter()
        gc.collect()  # what a collection of the rest of the heap costs, not counted
        t0 = time.perf_counter()
        made, nodes = build()
        t1 = time.perf_counter()
        gc.collect()
        t2 = time.perf_counter()
        alone.append(t1 - t0)
        settled.append(t2 - t0 - (t0 - t))
        del made
    return {"build": kind, "nodes": nodes,
            "ns_per_node": statistics.median(alone) / nodes * 1e9,
            "ns_per_node_collected": statistics.median(settled) / nodes * 1e9}


def measure(quick: bool = False) -> list[dict]:
    sizes = (10_000, 100_000) if quick else (10_000, 100_000, 1_000_000)
    rows = []
    for n in sizes:
        repeats = 3 if n >= 1_000_000 or quick else 5
        rows.append(_row("Value API loop", lambda n=n: _value_chain(n), repeats))
        model = MLP((_mlp_width(n), _mlp_width(n), 1), seed=0)
        rows.append(_row("MLP forward pass", lambda m=model: _mlp_forward(m), repeats))
        out, _ = _mlp_forward(model)
        graph = len(Stepper(out).forward_steps)
        rows.append(_row("Stepper(...)", lambda o=out, g=graph: (Stepper(o), g), repeats))
        del out, model
    for n in (10_000, 100_000) if quick else (10_000, 100_000, 200_000):
        text = neuron_chain(n)
        rows.append(_row("parse (program)",
                         lambda t=text: (p := parse(t), len(p.values)), 3 if quick else 5))
    return rows


def report(rows: list[dict]) -> str:
    lines = ["building graphs, collector at its normal settings (median ns per node; "
             "parse stops at its 200,000-node limit)",
             f"{'build':>18} {'nodes':>10} {'build':>8} {'with the collection after':>26}"]
    for r in rows:
        lines.append(f"{r['build']:>18} {r['nodes']:>10,} {r['ns_per_node']:>8.0f} "
                     f"{r['ns_per_node_collected']:>26.0f}")
    return "\n".join(lines)
