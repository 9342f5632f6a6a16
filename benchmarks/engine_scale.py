"""The engine at scale: deep chains, the garbage collector while training, memory over a
long run, and forward against reverse mode at 800 parameters."""

from __future__ import annotations

import gc
import resource
import statistics
import time

from benchmarks.peers import gc_pauses
from engine.core.value import Value
from engine.lesson.modes import sweep_rows
from engine.lesson.nn import train_xor


def chain_backward(n: int, repeats: int) -> dict:
    """Build v = ((x·c)·c)… n deep, then time backward() alone, the median of
    `repeats` passes; cost per node."""
    x = Value(0.5)
    v = x
    for _ in range(n):
        v = v * 1.0000001
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        v.backward()
        samples.append(time.perf_counter() - t0)
    seconds = statistics.median(samples)
    return {"nodes": n + 1, "backward_s": seconds, "ns_per_node": seconds / (n + 1) * 1e9}


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:  # Linux: resident pages
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def training_memory(epochs: int, warmup: int = 1000) -> dict:
    """Resident memory after `warmup` epochs and after `epochs` (the generator keeps
    nothing from one epoch to the next, so it should not grow)."""
    run = train_xor(epochs=epochs)
    for _ in range(warmup):
        next(run)
    gc.collect()
    before = _rss_mb()
    for _ in run:
        pass
    gc.collect()
    return {"after_warmup_mb": before, "after_all_mb": _rss_mb(), "epochs": epochs}


def measure(quick: bool = False) -> dict:
    from micrograd.engine import Value as MicrogradValue

    sizes = (10_000, 100_000) if quick else (10_000, 100_000, 1_000_000)
    epochs = 3000
    return {
        "chains": [chain_backward(n, 3 if n >= 1_000_000 else 7) for n in sizes],
        "gc_ours": gc_pauses(Value, epochs),
        "gc_micrograd": gc_pauses(MicrogradValue, epochs),
        "gc_epochs": epochs,
        "memory": training_memory(10_000 if quick else 100_000),
        "modes_800": [r.__dict__ for r in sweep_rows((800,), repeats=3)][0],
    }


def report(row: dict) -> str:
    lines = ["deep chains: backward() alone",
             f"{'nodes':>10} {'seconds':>9} {'ns/node':>8}"]
    for c in row["chains"]:
        lines.append(f"{c['nodes']:>10,} {c['backward_s']:>9.3f} {c['ns_per_node']:>8.0f}")
    n = row["gc_epochs"]
    for who in ("ours", "micrograd"):
        g = row[f"gc_{who}"]
        lines.append(f"garbage collector over {n:,} XOR epochs, {who}: {g['collections']:,} "
                     f"collections, {g['total_ms']:.1f} ms in all, longest "
                     f"{g['longest_ms']:.2f} ms")
    m = row["memory"]
    lines.append(f"memory: {m['after_warmup_mb']:.1f} MB after 1,000 epochs, "
                 f"{m['after_all_mb']:.1f} MB after {m['epochs']:,}")
    r = row["modes_800"]
    lines.append(f"800 parameters: forward mode {r['forward_ms']:.1f} ms, reverse mode "
                 f"{r['reverse_ms']:.2f} ms, ratio {r['ratio']:.1f}×")
    return "\n".join(lines)
