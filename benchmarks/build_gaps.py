"""The GUI thread while a big program is built: its longest gap between two beats of a
5 ms timer, and where the gaps come from.

Build (Ctrl+Enter) of a text over 20,000 characters starts a child process that parses
it and finds its topological order; the window replays the values and makes the stepper
a slice at a time, works out what to draw in slices, has a drawable graph (up to
MAX_DRAWN nodes) laid out in another child process and draws it a slice of about 12 ms
at a time into a scene of its own, indexed as it goes, then swaps it in. Over MAX_DRAWN
nodes there is no layout: the graph is not drawn. The goal for the longest gap is 50 ms.
"""

from __future__ import annotations

import os
import time

NEST = 8  # links written in one line: a 200,000-node program stays under 1,000,000 chars


def chain_program(n_nodes: int) -> str:
    """About `n_nodes` nodes (at most): a chain of tanh(a*w + b), NEST links a line, whose
    shared inputs w and b fan out to every link."""
    links = (n_nodes - 4) // 3  # x, w, b, tanh(x); each link a product, a sum and a tanh
    lines = ["x = 0.5", "w = 0.9", "b = 0.1", "a0 = tanh(x)"]
    for k in range(1, links // NEST + 1):
        lines.append(f"a{k} = " + "tanh(" * NEST + f"a{k - 1}" + "*w+b)" * NEST)
    rest = links % NEST
    if rest:
        lines.append("out = " + "tanh(" * rest + f"a{links // NEST}" + "*w+b)" * rest)
    return "\n".join(lines)


def _build_once(window, text: str) -> dict:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from engine import parse
    from engine.core.engines import CORRECT
    from engine.core.pitfalls import OVERWRITE
    from gui.graph.scene import GraphScene

    tab = window.graph_tab
    t = time.perf_counter()
    parse(text)
    parse_s = time.perf_counter() - t
    scene_build = []  # (first slice starts, last slice ends, time spent in slices)
    build_steps = GraphScene.build_steps

    def timed_build_steps(scene, *args):
        # a large graph is drawn a slice at a time between other events: only the time
        # inside the slices is the build's
        steps, spent, first = build_steps(scene, *args), 0.0, time.perf_counter()
        while True:
            start = time.perf_counter()
            try:
                next(steps)
            except StopIteration:
                spent += time.perf_counter() - start
                scene_build.append((first, time.perf_counter(), spent))
                return
            spent += time.perf_counter() - start
            yield

    GraphScene.build_steps = timed_build_steps
    beats = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: beats.append(time.perf_counter()))
    timer.start()
    QApplication.processEvents()
    try:
        start = time.perf_counter()
        window.build(text)
        called = time.perf_counter()
        while window.building:  # a big text is parsed in a child and built in slices
            QApplication.processEvents()
            time.sleep(0.001)
        built = time.perf_counter()
        while tab.laying_out:
            QApplication.processEvents()
            time.sleep(0.001)
        _settle(0.05)  # the new scene's first paint
        end = time.perf_counter()
        drawn = list(scene_build)  # the build's own drawing, not the bug switch's
        # a bug engine switched on and off again: the stepper made again each time
        switch_start = time.perf_counter()
        for engine in (OVERWRITE, CORRECT):
            tab.engine_box.setCurrentIndex(tab.engine_box.findData(engine))
            while window.building or tab.laying_out:
                QApplication.processEvents()
                time.sleep(0.001)
            _settle(0.05)
        switch_end = time.perf_counter()
    finally:
        timer.stop()
        GraphScene.build_steps = build_steps
    scene_build = drawn
    layout_end = scene_build[-1][0] if scene_build else built
    return {
        "nodes": len(window.session.stepper.forward_steps),
        "longest_gap_ms": _longest_gap(beats, start, end) * 1000,
        "parse_ms": parse_s * 1000,
        "build_call_ms": (called - start) * 1000,
        "build_longest_gap_ms": _longest_gap(beats, start, built) * 1000,
        "build_wall_ms": (built - start) * 1000,
        "layout_longest_gap_ms": _longest_gap(beats, built, layout_end) * 1000,
        "layout_wall_ms": (layout_end - built) * 1000,
        "scene_build_ms": scene_build[-1][2] * 1000 if scene_build else 0.0,
        "scene_wall_ms": ((scene_build[-1][1] - scene_build[-1][0]) * 1000
                          if scene_build else 0.0),
        "scene_longest_gap_ms": (_longest_gap(beats, *scene_build[-1][:2]) * 1000
                                 if scene_build else 0.0),
        "bug_switch_longest_gap_ms": _longest_gap(beats, switch_start, switch_end) * 1000,
    }


def _settle(seconds: float) -> None:
    from PySide6.QtWidgets import QApplication

    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        QApplication.processEvents()
        time.sleep(0.001)


def _longest_gap(beats: list[float], start: float, end: float) -> float:
    times = [start, *(b for b in beats if start < b < end), end]
    return max(b - a for a, b in zip(times, times[1:]))


def measure(sizes=(20_000, 200_000), repeats: int = 1) -> list[dict]:
    """One row per size: the median run's numbers (by longest gap)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from gui.app import application
    from gui.window.main_window import MainWindow

    app = application()
    window = MainWindow(remember=False)
    window.show()
    app.processEvents()
    rows = []
    try:
        for n in sizes:
            runs = sorted((_build_once(window, chain_program(n)) for _ in range(repeats)),
                          key=lambda r: r["longest_gap_ms"])
            rows.append(runs[len(runs) // 2])
    finally:
        window.close()
        app.processEvents()
    return rows


def report(rows: list[dict]) -> str:
    lines = ["GUI thread while building a program (ms; goal: longest gap under 50)",
             f"{'nodes':>8} {'longest gap':>12} {'build call':>11} {'build: gap':>11} "
             f"{'wall':>6} {'(parse)':>8} "
             f"{'layout: gap':>12} {'wall':>7} {'scene build':>12} {'gap':>5} "
             f"{'wall':>7} {'bug switch: gap':>16}"]
    for r in rows:
        lines.append(f"{r['nodes']:>8,} {r['longest_gap_ms']:>12.0f} "
                     f"{r['build_call_ms']:>11.0f} {r['build_longest_gap_ms']:>11.0f} "
                     f"{r['build_wall_ms']:>6.0f} {r['parse_ms']:>8.0f} "
                     f"{r['layout_longest_gap_ms']:>12.0f} {r['layout_wall_ms']:>7.0f} "
                     f"{r['scene_build_ms']:>12.0f} {r['scene_longest_gap_ms']:>5.0f} "
                     f"{r['scene_wall_ms']:>7.0f} {r['bug_switch_longest_gap_ms']:>16.0f}")
    lines.append("longest gap: from Build to the graph drawn (scene build, the collection "
                 "after it and the first paint included); build call: the time `build` holds "
                 "the GUI thread (starting the parser's process); (parse): the same text "
                 "parsed in this process, for scale (the window does not); build: gap and "
                 "wall: from Build to the new stepper (parsed in a child process, Values "
                 "and stepper made in slices); layout: what to draw worked out in slices, "
                 "then the "
                 "longest gap while the child lays out and its pieces are read; scene build: "
                 "its total time on the GUI thread (a large graph's in slices), the longest "
                 "gap while it is drawn and its wall time; bug switch: the longest gap while "
                 "a bug engine is switched on and off again (each a new stepper and drawing)")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(measure()))
