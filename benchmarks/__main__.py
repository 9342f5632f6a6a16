"""Run the benchmarks: `python -m benchmarks [--quick] [--json]`."""

from __future__ import annotations

import argparse
import json
import os
import platform

from benchmarks import (
    build_gaps,
    build_scale,
    crossings,
    engine_check,
    engine_floor,
    engine_scale,
    graph_import,
    graph_view,
    grouping,
    gui_gaps,
    layout_scale,
    peers,
    step_cost,
    tensorflow_load,
    window,
    xor,
)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument("--quick", action="store_true", help="a run under a minute")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    quick = args.quick
    results = {
        "machine": f"{platform.platform()}, {os.cpu_count()} cores, Python "
                   f"{platform.python_version()}",
        "peers": peers.measure(quick),
        "engine": engine_scale.measure(quick),
        "engine_floor": engine_floor.measure(quick),
        "build": build_scale.measure(quick),
        "graph_view": graph_view.measure((500, 1000) if quick else (500, 1000, 5000),
                                         repeats=2 if quick else 5),
        "xor": xor.measure(quick),
        "step": step_cost.measure(quick),
        "window": window.first_paint(1 if quick else 3),
        "build_gaps": build_gaps.measure(repeats=1 if quick else 3),
        "tensorflow_load": tensorflow_load.longest_gap(1 if quick else 3),
        "engine_check": engine_check.measure(quick),
        "grouping": grouping.measure(quick),
        "layout_scale": layout_scale.measure(quick),
        "graph_import": graph_import.measure(quick),
        "gui_gaps": gui_gaps.measure(quick),
        "crossings": crossings.measure(quick),
    }
    if args.json:
        print(json.dumps(results))
        return
    print(f"machine: {results['machine']}")
    for name, module in (("peers", peers), ("engine", engine_scale),
                         ("engine_floor", engine_floor), ("build", build_scale),
                         ("graph_view", graph_view), ("xor", xor), ("step", step_cost),
                         ("window", window), ("build_gaps", build_gaps),
                         ("tensorflow_load", tensorflow_load), ("engine_check", engine_check),
                         ("grouping", grouping), ("layout_scale", layout_scale),
                         ("graph_import", graph_import),
                         ("gui_gaps", gui_gaps),
                         ("crossings", crossings)):
        print()
        print(module.report(results[name]))


if __name__ == "__main__":
    main()
