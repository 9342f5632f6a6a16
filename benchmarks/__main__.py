"""Run the benchmarks: `python -m benchmarks [--quick] [--json]`."""

from __future__ import annotations

import argparse
import json
import platform

from benchmarks import graph_view, xor


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument("--quick", action="store_true", help="fewer sizes and repeats")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    sizes = (500, 1000) if args.quick else (500, 1000, 5000)
    rows = graph_view.measure(sizes, repeats=2 if args.quick else 5)
    training = xor.measure(args.quick)
    if args.json:
        print(json.dumps({"machine": platform.platform(), "graph_view": rows,
                          "xor": training}))
    else:
        print(f"machine: {platform.platform()}, Python {platform.python_version()}")
        print(graph_view.report(rows))
        print(xor.report(training))


if __name__ == "__main__":
    main()
