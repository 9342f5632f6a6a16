"""Reading a graph built in Python: microseconds per node of `import_graph` (goal <= 3)
on micrograd's demo (MLP(2, [16, 16, 1]) on 100 points, the max-margin loss and 1e-4 L2:
65,818 nodes) and on a microgpt-style GPT's training step, against today's path of
writing the graph as program text and parsing it back (11-12.5 us per node), and what
writing the text costs when it is asked for (File -> Save). `draw()` to JSON is timed
once, from the call to the file (a spawned child, offscreen). Opening and closing groups
in the window of the MLP and of a microgpt step (vocabulary 27, 16 embedding dimensions,
4 heads, 9 tokens) is timed from the click to the redrawn picture (goal < 100 ms).

`python -m benchmarks.graph_import [--quick | --expand]`
"""

from __future__ import annotations

import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.probes import UNTIL
from engine.io.graph_import import import_graph
from engine.io.graph_text import graph_text

ROOT = Path(__file__).resolve().parents[1]


def _models(quick: bool) -> list[tuple[str, object, dict]]:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.foreign_models import microgpt_step, micrograd_demo

    demo = micrograd_demo(30 if quick else 100)
    step = microgpt_step(n_embd=16, block_size=8, tokens=(0, 3, 1, 4, 2, 1, 3, 0, 2))
    return [("micrograd demo", demo.loss, {"model": demo.model, "inputs": demo.inputs,
                                           "loss": demo.loss}),
            ("microgpt step", step.loss, {"state_dict": step.state_dict, "loss": step.loss})]


def _median(work, repeats: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeats):
        result = None
        gc.collect()
        t = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result


def measure(quick: bool = False) -> list[dict]:
    rows = []
    repeats = 3 if quick else 7
    for name, root, namespace in _models(quick):
        seconds, graph = _median(lambda r=root, ns=namespace: import_graph(r, scope=[ns]),
                                 repeats)
        n = len(graph.program.values)
        text_s, text = _median(lambda p=graph.program: graph_text(p), 1 if quick else 3)
        rows.append({"graph": name, "nodes": n, "import_s": seconds,
                     "us_per_node": seconds / n * 1e6, "text_s": text_s,
                     "text_chars": len(text), "inputs": len(graph.program.inputs)})
    rows.append(_window(quick))
    rows.extend(expand_rows(quick))
    rows.extend(_draw(quick))
    return rows


# debug(loss) on micrograd's demo in a fresh process, offscreen: from the call to a window
# that is drawn (grouped, collapsed) and steppable; the longest gap between the window's
# timer ticks after it has returned (before, it is reading the graph: no window is open
# yet); then opening the biggest group shown (from the request to its picture) and ten
# steps at the level shown
WINDOW_PROBE = """
import json, sys, time
sys.path.insert(0, {root!r})
from PySide6.QtCore import QTimer
from gui.app import application
from gui import debug
from tests.foreign_models import micrograd_demo
demo = micrograd_demo({points})
model, inputs, loss = demo.model, demo.inputs, demo.loss
app = application()
beats = []
timer = QTimer()
timer.setInterval(5)
timer.timeout.connect(lambda: beats.append(time.perf_counter()))
timer.start()
""" + UNTIL + """t0 = time.perf_counter()
window = debug(loss, block=False)
t1 = time.perf_counter()
beats.append(t1)
tab = window.graph_tab
until(lambda: not (window.building or tab.laying_out or tab.scene.shown is None))
t2 = time.perf_counter()
shown = tab.expansion.shown
groups = shown.groups
closed = [g for g in range(len(groups)) if g not in shown.expanded
          and (groups[g].parent < 0 or groups[g].parent in shown.expanded)]
biggest = max(closed, key=lambda g: groups[g].members)
until(lambda: not tab.expansion.preparer.running)  # a click comes after the picture
before = tab.scene
t3 = time.perf_counter()
tab.expansion.expand(biggest)
until(lambda: tab.scene is not before and not tab.laying_out)
t4 = time.perf_counter()
for _ in range(10):
    tab.actions["step"].trigger()
    app.processEvents()
t5 = time.perf_counter()
until(lambda: time.perf_counter() >= t5 + 0.2)
gaps = [b - a for a, b in zip(beats, beats[1:]) if a >= t1]
print(json.dumps({{"returned_s": t1 - t0, "steppable_s": t2 - t0, "gap_s": max(gaps),
                  "expand_s": t4 - t3, "expanded": groups[biggest].title,
                  "ten_steps_s": t5 - t4, "nodes": len(window.session.program.values)}}))
window.close()
"""

# opening and closing groups in a big grouped graph's window (offscreen): from the call
# (a double-click's expand, or −'s collapse) to the redrawn, steppable picture, for the
# biggest groups shown, each opened and closed again, twice; each click after the window
# is idle (the warm layout child ready, the biggest groups' opening prepared), and again
# with what was kept thrown away first ("cold": quotient, layout from the picture before
# in the warm child, sums); and the window's longest gap between 5 ms timer ticks
EXPAND_PROBE = """
import json, statistics, sys, time
sys.path.insert(0, {root!r})
from PySide6.QtCore import QTimer
from gui.app import application
from gui import debug
from tests.foreign_models import micrograd_demo, microgpt_step
if {graph!r} == "mlp":
    demo = micrograd_demo({points})
    model, inputs, loss = demo.model, demo.inputs, demo.loss
else:
    step = microgpt_step(vocab_size=27, n_embd=16, n_head=4, block_size=8,
                         tokens=(0, 3, 1, 4, 2, 1, 3, 0, 2))
    state_dict, loss = step.state_dict, step.loss
app = application()
beats = []
timer = QTimer()
timer.setInterval(5)
timer.timeout.connect(lambda: beats.append(time.perf_counter()))
timer.start()
window = debug(loss, block=False)
tab = window.graph_tab
expansion = tab.expansion
preparer = getattr(expansion, "preparer", None)  # (absent before the warm child came)
server = getattr(tab.background, "server", None)
""" + UNTIL + """def settle():
    until(lambda: not (window.building or tab.laying_out or tab.scene.shown is None
                       or (preparer and preparer.running) or (server and not server.ready)))
    end = time.perf_counter() + 0.04
    until(lambda: time.perf_counter() >= end)
def timed(action, cold):
    settle()
    kept = getattr(expansion.shown, "shared", None)
    if cold and kept:
        kept.drawings.clear(); kept.quotients.clear(); kept.sends.clear()
    before = tab.scene
    beats.clear()
    t = time.perf_counter()
    action()
    until(lambda: tab.scene is not before and not tab.laying_out)
    seconds = time.perf_counter() - t
    return seconds, max((b - a for a, b in zip(beats, beats[1:])), default=0.0)
settle()
shown = expansion.shown
groups = shown.groups
biggest = sorted(tab.scene.group_items, key=lambda g: -groups[g].members)[:3]
rows = {{"expand": [], "collapse": [], "expand cold": [], "collapse cold": []}}
gaps = []
for cold in (False, False, True):
    for g in biggest:
        for what, action in (("expand", expansion.expand), ("collapse", expansion.collapse)):
            seconds, gap = timed(lambda: action(g), cold)
            rows[what + (" cold" if cold else "")].append(seconds)
            gaps.append(gap)
nodes = len(window.session.program.values)
window.close()
print(json.dumps({{"nodes": nodes, "groups": [groups[g].title for g in biggest],
                  "gap_s": max(gaps), **{{k: statistics.median(v) for k, v in rows.items()}},
                  "first_expand_s": rows["expand"][:len(biggest)]}}))
"""


def _probe(script: str) -> dict:
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, check=True, timeout=600,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    return json.loads(done.stdout.strip().splitlines()[-1])


def _window(quick: bool) -> dict:
    row = _probe(WINDOW_PROBE.format(root=str(ROOT), points=30 if quick else 100))
    return {"graph": "debug() window", **row}


def expand_rows(quick: bool = False) -> list[dict]:
    """Opening and closing groups in the MLP's and the microgpt step's windows
    (EXPAND_PROBE, in a fresh process each)."""
    return [{"graph": f"open/close {graph}",
             **_probe(EXPAND_PROBE.format(root=str(ROOT), graph=graph,
                                          points=30 if quick else 100))}
            for graph in ("mlp", "gpt")]


def _draw(quick: bool) -> list[dict]:
    from gui import draw
    from tests.foreign_models import micrograd_demo, node_count

    demo = micrograd_demo(10 if quick else 100)
    rows = []
    for suffix in ("json", "png"):
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / f"mlp.{suffix}"
            t = time.perf_counter()
            draw(demo.loss, str(out))
            seconds = time.perf_counter() - t
        rows.append({"graph": f"draw() to {suffix.upper()}", "nodes": node_count(demo.loss),
                     "draw_s": seconds})
    return rows


def report(rows: list[dict]) -> str:
    lines = ["Reading a Python graph (import_graph; goal <= 3 us per node)"]
    for r in rows:
        if "expand cold" in r:
            lines.append(f"  {r['graph']:<16} {r['nodes']:>7,} nodes  medians of opening / "
                         f"closing its {len(r['groups'])} biggest groups: "
                         f"{r['expand'] * 1e3:.0f} / {r['collapse'] * 1e3:.0f} ms "
                         f"(first opening of each: "
                         + ", ".join(f"{x * 1e3:.0f}" for x in r["first_expand_s"])
                         + f" ms); with nothing kept: {r['expand cold'] * 1e3:.0f} / "
                         f"{r['collapse cold'] * 1e3:.0f} ms; the window's longest gap "
                         f"{r['gap_s'] * 1e3:.0f} ms")
            continue
        if "steppable_s" in r:
            lines.append(f"  {r['graph']:<16} {r['nodes']:>7,} nodes  returned after "
                         f"{r['returned_s']:.2f} s, drawn and steppable after "
                         f"{r['steppable_s']:.2f} s; opening {r['expanded']}: "
                         f"{r['expand_s'] * 1e3:.0f} ms; ten steps {r['ten_steps_s'] * 1e3:.0f}"
                         f" ms; the window's longest gap {r['gap_s'] * 1e3:.0f} ms")
            continue
        if "draw_s" in r:
            lines.append(f"  {r['graph']:<16} {r['nodes']:>7,} nodes  {r['draw_s']:.2f} s from "
                         "the call to the file (a spawned child, offscreen)")
            continue
        lines.append(f"  {r['graph']:<16} {r['nodes']:>7,} nodes  {r['import_s'] * 1e3:7.1f} ms  "
                     f"{r['us_per_node']:.2f} us/node  ({r['inputs']:,} named inputs); its "
                     f"text when asked: {r['text_s'] * 1e3:.0f} ms, {r['text_chars']:,} chars")
    return "\n".join(lines)


if __name__ == "__main__":
    if "--expand" in sys.argv:
        print(report(expand_rows("--quick" in sys.argv)))
    else:
        print(report(measure("--quick" in sys.argv)))
