"""The GUI thread while the Rules, Pitfalls and Modes tabs are first opened: its longest
gap between two beats of a 5 ms timer, tab by tab, and (with `--profile`) what ran in
each gap over 20 ms.

In a fresh offscreen process per program: the real MainWindow, a 3-node program or a
chain of benchmarks/build_gaps.py (4,999, 19,999 or 199,999 nodes) built and laid out,
the tabs' modules imported (as the window's idle thread does), then each tab made
current in turn and the window left to run for `SETTLE_S` (Pitfalls' training children,
Rules' TensorFlow child and each tab's first paint included), and on until the tab's
numbers worked out in a child (Pitfalls' table, Rules' step-size lesson) are in. The
goal is a longest gap under 50 ms.

Each gap is measured twice: in wall time and in the GUI thread's own CPU time between
the two beats (on a loaded machine the wall gaps grow with the other jobs).

`--profile` samples the GUI thread's stack from a watchdog thread every 1 ms while a
gap is open (past 8 ms without a beat): each gap over 20 ms is listed with the app's
functions it was found in most often. Profiling slows the window; quote the plain run.

`python -m benchmarks.tab_gaps [--profile] [--json] [--repeats N] [3 5000 20000 200000]`
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABS = ("Rules", "Pitfalls", "Modes")
SETTLE_S = 1.5
REPORTED_S = 0.020
SIZES = (3, 5_000, 20_000, 200_000)  # chains of at most as many nodes (3: a 3-node program)

PROBE = r"""
import collections, json, sys, threading, time
sys.path.insert(0, {root!r})
from PySide6.QtCore import QEventLoop, QTimer
from gui.app import application
from gui.window.main_window import MainWindow
from gui.jobs import warm_imports
from benchmarks.build_gaps import chain_program
PROFILE, TABS, SETTLE_S = {profile!r}, {tabs!r}, {settle!r}
app = application()
window = MainWindow(remember=False)
window.show()
beats = []
phase = ["open"]
def beat():
    beats.append((time.perf_counter(), time.thread_time(), phase[0]))
timer = QTimer()
timer.setInterval(5)
timer.timeout.connect(beat)
timer.start()
main = threading.get_ident()
samples = collections.defaultdict(list)
done = False
def watch():
    while not done:
        time.sleep(0.001)
        if not beats:
            continue
        last = beats[-1][0]
        if time.perf_counter() - last > 0.008:
            frame = sys._current_frames().get(main)
            stack = []
            while frame is not None:
                code = frame.f_code
                name = code.co_filename
                if not any(skip in name for skip in ("benchmarks", "threading", "<string>")):
                    short = name.split("site-packages/")[-1].split({root!r})[-1].lstrip("/")
                    stack.append(f"{{short}}:{{code.co_name}}:{{frame.f_lineno}}")
                frame = frame.f_back
            samples[last].append(stack[:5] or ["(Qt: events, painting)"])
if PROFILE:
    sys.setswitchinterval(0.001)
    threading.Thread(target=watch, daemon=True).start()
def until(cond, limit=300.0):
    end = time.perf_counter() + limit
    loop, look = QEventLoop(), QTimer()
    look.setInterval(1)
    look.timeout.connect(lambda: (cond() or time.perf_counter() > end) and loop.quit())
    look.start()
    loop.exec()
    look.stop()
def pump(seconds):
    end = time.perf_counter() + seconds
    until(lambda: time.perf_counter() > end)
text = "x = 0.5\nw = 0.9\ny = x*w" if {nodes!r} < 10 else chain_program({nodes!r})
window.build(text)
until(lambda: not window.building and not window.graph_tab.laying_out)
warm_imports._import_all(warm_imports.MODULES)
pump(0.5)
nodes = len(window.session.program.values)
marks = {{}}
for title in TABS:
    phase[0] = title
    start = time.perf_counter()
    window.tabs.setCurrentIndex(next(i for i in range(window.tabs.count())
                                     if window.tabs.tabText(i) == title))
    pump(SETTLE_S)
    tab = window.tabs.currentWidget()  # and on until its child's numbers are in
    until(lambda: not getattr(tab, "computing", False), limit=120.0)
    pump(0.1)
    marks[title] = (start, time.perf_counter())
done = True
timer.stop()
def pairs(start, end):  # each gap that ends in [start, end] (the switch's own included)
    return [(a, b) for a, b in zip(beats, beats[1:]) if start < b[0] <= end]
out = {{"nodes": nodes, "tabs": {{}}}}
for title, (start, end) in marks.items():
    wall = max((b[0] - a[0] for a, b in pairs(start, end)), default=0.0)
    cpu = max((b[1] - a[1] for a, b in pairs(start, end)), default=0.0)
    listed = []
    for a, b in pairs(start, end):
        if b[0] - a[0] > {reported!r}:
            counts = collections.Counter(" < ".join(s) for s in samples.get(a[0], []))
            listed.append({{"at_ms": round((a[0] - start) * 1000),
                           "ms": round((b[0] - a[0]) * 1000), "where": counts.most_common(4)}})
    out["tabs"][title] = {{"wall_ms": wall * 1000, "cpu_ms": cpu * 1000, "gaps": listed}}
print("RESULT " + json.dumps(out))
window.remember = False
window.close()
app.processEvents()
"""


def measure(nodes: int, profile: bool = False) -> dict:
    """One fresh window: the tabs' longest gaps in ms, and what ran in the long ones."""
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    code = PROBE.format(root=str(ROOT), profile=profile, tabs=TABS, settle=SETTLE_S,
                        nodes=nodes, reported=REPORTED_S)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)
    for line in done.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise RuntimeError(done.stderr[-3000:])


def report(results: list[dict]) -> str:
    lines = ["GUI thread while each tab is first opened (ms; goal: longest gap under 50)",
             f"{'nodes':>8} " + " ".join(f"{t + ' wall/cpu':>20}" for t in TABS)]
    for r in results:
        lines.append(f"{r['nodes']:>8,} " + " ".join(
            f"{r['tabs'][t]['wall_ms']:>12.0f} / {r['tabs'][t]['cpu_ms']:>5.0f}" for t in TABS))
        for t in TABS:
            for gap in r["tabs"][t]["gaps"]:
                lines.append(f"    {t} gap of {gap['ms']} ms at +{gap['at_ms']} ms")
                for where, n in gap["where"]:
                    lines.append(f"        {n:>4} × {where}")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    profile, as_json = "--profile" in argv, "--json" in argv
    repeats = int(argv[argv.index("--repeats") + 1]) if "--repeats" in argv else 1
    sizes = [int(a) for a in argv if a.isdigit() and (a not in (str(repeats),)
                                                       or "--repeats" not in argv)]
    results = [measure(n, profile) for n in (sizes or SIZES) for _ in range(repeats)]
    print(json.dumps(results) if as_json else report(results))


if __name__ == "__main__":
    main(sys.argv[1:])
