"""The engine against micrograd, the microgpt-style peer and the tape floor (issue 27).

`python -m benchmarks.engine_floor [--quick] [--json] [--cpu]`. Every measure runs the four sides
(ours, `micrograd` 0.1.0, `GptValue`, `Tape`: benchmarks.floor_peers) in alternated
rounds, the order rotated each round, with the garbage collector on (as users run
it) and off; before each timed call the heap is collected (untimed), so that no side
pays for another's garbage. A figure is the median of the rounds with [min-max]; a
ratio is the median of the rounds' ratios (each round ran its sides back to back), with
[min-max] of those ratios.

Measures: the XOR epoch (`peers.xor_epoch`, a block of 50 epochs a call), micrograd's
demo epoch (`floor_peers.demo_epoch`), and chains of 10^3-10^6 `v * c` (build, then
backward, each timed; memory per node by tracemalloc after the build and after the
backward, the chain alone, and the collector's pauses while it is built). micrograd's
recursive sort cannot walk a chain past about 1,000 nodes: it is measured at 10^3 only.
"""

from __future__ import annotations

import gc
import json
import statistics
import sys
import time
import tracemalloc

from micrograd.engine import Value as MicrogradValue

from benchmarks import floor_peers as fp
from benchmarks.peers import deep_recursion, make_parameters, xor_epoch
from engine.core.value import Value as OurValue

SIDES = ("ours", "micrograd", "gpt", "tape")
# --cpu: time by this process's CPU time (collections included), steadier than the wall
# clock when other jobs share the machine
CLOCK = time.process_time if "--cpu" in sys.argv else time.perf_counter
CLASSES = {"ours": OurValue, "micrograd": MicrogradValue, "gpt": fp.GptValue}


def _timed(work, collector: bool) -> float:
    gc.collect()
    was = gc.isenabled()
    (gc.enable if collector else gc.disable)()
    try:
        t0 = CLOCK()
        work()
        return CLOCK() - t0
    finally:
        (gc.enable if was else gc.disable)()


def rounds(works: dict, repeats: int, collector: bool) -> dict[str, list[float]]:
    """Seconds per call of each side's work, `repeats` alternated rounds."""
    names = list(works)
    samples: dict[str, list[float]] = {n: [] for n in names}
    for r in range(repeats):
        for n in names[r % len(names):] + names[:r % len(names)]:
            samples[n].append(_timed(works[n], collector))
    return samples


def summary(samples: dict[str, list[float]], scale: float = 1e3) -> dict:
    """Medians [min, max] of each side (ms, or per `scale`), and each side's ratio to
    ours per round."""
    out = {}
    for name, s in samples.items():
        row = {"median": statistics.median(s) * scale, "min": min(s) * scale,
               "max": max(s) * scale}
        if name != "ours" and "ours" in samples:
            ratios = [t / o for t, o in zip(s, samples["ours"])]
            row.update(ratio=statistics.median(ratios), ratio_min=min(ratios),
                       ratio_max=max(ratios))
        out[name] = row
    return out


def xor_works(block: int = 50) -> dict:
    state = {n: make_parameters(c) for n, c in CLASSES.items()}
    tape_params = [p.data for p in make_parameters(OurValue)]

    def run(params):
        return lambda: [xor_epoch(params) for _ in range(block)]

    works = {n: run(p) for n, p in state.items()}
    works["tape"] = lambda: [fp.tape_xor_epoch(tape_params) for _ in range(block)]
    return works


def demo_works() -> dict:
    data, weights = fp.moons(), fp.demo_weights()
    models = {n: fp.demo_model(c, weights) for n, c in CLASSES.items()}
    tape_params = [w for layer in weights for n in layer for w in n]
    shape = [[len(n) - 1 for n in layer] for layer in weights]
    works = {n: (lambda c=c, m=models[n]: fp.demo_epoch(c, m, data))
             for n, c in CLASSES.items()}
    works["tape"] = lambda: fp.tape_demo_epoch(tape_params, shape, data)
    return works


def _chain_work(side: str, n: int, times: dict):
    def work():
        t0 = CLOCK()
        if side == "tape":
            tape, v = fp.tape_chain(n)
            t1 = CLOCK()
            tape.backward(v)
        else:
            _, v = fp.chain(CLASSES[side], n)
            t1 = CLOCK()
            v.backward()
        t2 = CLOCK()
        times.setdefault(side, []).append((t1 - t0, t2 - t1))
    return work


def chain_rows(sizes, repeats: int, collector: bool) -> list[dict]:
    rows = []
    for n in sizes:
        sides = [s for s in SIDES if s != "micrograd" or n <= 1000]
        times: dict = {}
        rounds({s: _chain_work(s, n, times) for s in sides}, repeats, collector)
        build = summary({s: [b for b, _ in times[s]] for s in sides}, 1e9 / n)
        back = summary({s: [k for _, k in times[s]] for s in sides}, 1e9 / n)
        rows.append({"nodes": n, "build_ns": build, "backward_ns": back})
    return rows


def memory_per_node(side: str, n: int) -> tuple[float, float]:
    """Bytes per node traced after building a chain of `n`, and after its backward."""
    gc.collect()
    alive = []  # what each side holds after the backward (the tape: its gradients)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        if side == "tape":
            tape, v = fp.tape_chain(n)
            built = tracemalloc.get_traced_memory()[0]
            alive.append(tape.backward(v))
        else:
            x, v = fp.chain(CLASSES[side], n)
            built = tracemalloc.get_traced_memory()[0]
            v.backward()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    alive.clear()
    return (built - before) / n, (after - before) / n


def collector_pauses(side: str, n: int) -> dict:
    """The collections the garbage collector ran while a chain of `n` was built (the
    collector on), and the longest."""
    pauses, started = [], []

    def watch(phase, info):
        if phase == "start":
            started.append(time.perf_counter())
        elif started:
            pauses.append(time.perf_counter() - started.pop())

    gc.collect()
    gc.callbacks.append(watch)
    try:
        if side == "tape":
            kept = fp.tape_chain(n)
        else:
            kept = fp.chain(CLASSES[side], n)
    finally:
        gc.callbacks.remove(watch)
    del kept
    return {"collections": len(pauses), "longest_ms": max(pauses, default=0.0) * 1e3,
            "total_ms": sum(pauses) * 1e3}


def measure(quick: bool = False) -> dict:
    sizes = (1000, 10_000, 100_000) if quick else (1000, 10_000, 100_000, 1_000_000)
    result: dict = {"sizes": sizes, "clock": "cpu" if CLOCK is time.process_time else "wall"}
    with deep_recursion():
        for collector in (True, False):
            key = "on" if collector else "off"
            result[f"xor_{key}"] = summary(rounds(xor_works(), 7 if quick else 15, collector))
            result[f"demo_{key}"] = summary(rounds(demo_works(), 3 if quick else 7, collector))
            result[f"chains_{key}"] = chain_rows(sizes, 3 if quick else 5, collector)
        result["memory"] = {n: {s: memory_per_node(s, n) for s in SIDES
                                if s != "micrograd" or n <= 1000} for n in sizes}
        big = sizes[-1]
        result["pauses"] = {s: collector_pauses(s, big) for s in SIDES if s != "micrograd"}
        result["pauses_nodes"] = big
    return result


def _fmt(row: dict, unit: str = "") -> str:
    text = f"{row['median']:.4g}{unit} [{row['min']:.3g}-{row['max']:.3g}]"
    if "ratio" in row:
        text += f" ({row['ratio']:.2f}x [{row['ratio_min']:.2f}-{row['ratio_max']:.2f}])"
    return text


def report(r: dict) -> str:
    lines = [f"clock: {r.get('clock', 'wall')}; engine against micrograd 0.1.0, microgpt-style "
             "and the tape: medians of alternated rounds [min-max]; (x ours, median of the "
             "rounds' ratios [min-max])"]
    for key, label in (("xor", "XOR epoch, ms per 50 epochs"),
                       ("demo", "demo epoch (MLP(2,[16,16,1]), 100 moons), ms")):
        for c in ("on", "off"):
            lines.append(f"{label}, collector {c}:")
            for side, row in r[f"{key}_{c}"].items():
                lines.append(f"  {side:>10}: {_fmt(row)}")
    for c in ("on", "off"):
        lines.append(f"chains of v * c, ns per node, collector {c}:")
        for row in r[f"chains_{c}"]:
            for what in ("build_ns", "backward_ns"):
                lines.append(f"  {row['nodes']:>9,} {what[:-3]:>8}: " + "; ".join(
                    f"{s} {_fmt(v)}" for s, v in row[what].items()))
    lines.append("memory per node (tracemalloc), after build / after backward, bytes:")
    for n, sides in r["memory"].items():
        lines.append(f"  {int(n):>9,}: " + "; ".join(f"{s} {b:.0f} / {a:.0f}"
                                                     for s, (b, a) in sides.items()))
    lines.append(f"the collector while a {r['pauses_nodes']:,}-node chain is built:")
    for s, p in r["pauses"].items():
        lines.append(f"  {s:>10}: {p['collections']} collections, longest "
                     f"{p['longest_ms']:.2f} ms, {p['total_ms']:.1f} ms in all")
    return "\n".join(lines)


if __name__ == "__main__":
    rows = measure("--quick" in sys.argv)
    print(json.dumps(rows, default=str) if "--json" in sys.argv else report(rows))
