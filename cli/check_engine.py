"""`main.py check-engine`: run a user's autograd engine through every check, in a child
process, and name the broken rules."""

from __future__ import annotations

import argparse
import json
import math
import signal
import sys

from cli.common import CommandError, check_input
from engine.boundary import DEFAULT_MEMORY
from engine.checks.engine_check import (
    CHECKS,
    DEFAULT_TIMEOUT_S,
    CheckRun,
    EngineLoadError,
    finish_report,
)
from engine.checks.engine_check.wording import case_lines

EXIT_FAILED = 1
GB = 1024 ** 3
MAX_TIMEOUT_S = 3600  # seconds a check may take: an hour is no longer a check


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="PATH",
                        help="a Python file defining the value class (it is executed, in a "
                             "separate process)")
    parser.add_argument("--class", dest="class_name", default="Value", metavar="NAME",
                        help="the value class's name (default: Value)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="S",
                        help=f"seconds each check may take (default {DEFAULT_TIMEOUT_S:g})")
    parser.add_argument("--memory", type=float, default=DEFAULT_MEMORY / GB, metavar="GB",
                        help="gigabytes of memory the process running the checks may use "
                             f"(default {DEFAULT_MEMORY / GB:g})")


def _finite(x):
    """JSON has no NaN or infinity: a number the user's engine left undefined (a grad of
    None, an overflow) becomes null."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_finite(v) for v in x]
    return x


def public(report: dict) -> dict:
    """The report without what only the window uses (the replays of failing cases)."""
    checks = {name: {k: v for k, v in record.items()
                     if k not in ("replay", "built_on", "what")}
              for name, record in report["checks"].items()}
    return _finite({**report, "checks": checks})


def format_check_report(report: dict) -> str:
    """The text report: one line per check; under a wrong one its case and the numbers
    expected and received (what --json and the window give)."""
    width = max(len(name) for name in CHECKS)
    indent = " " * (width + 4)
    lines = [f"{report['engine']}: class {report['class']}"]
    for name, record in report["checks"].items():
        status = record["status"]
        line = f"  {name.ljust(width)}  {status}"
        if status != "ok":
            line += f"  {record.get('sentence', '')}"
        lines.append(line)
        if status == "wrong":
            lines += [indent + line for line in case_lines(record)]
    s = report["summary"]
    lines.append(f"{s['ok']} ok, {s['wrong']} wrong, {s['missing']} missing, "
                 f"{s['error']} error, {s['timeout']} timeout")
    return "\n".join(lines)


def _ended(signum, _frame) -> None:
    """SIGTERM or SIGHUP: unwind (so the checks' processes are ended), exit 128 + N."""
    raise SystemExit(128 + signum)


def run(args: argparse.Namespace) -> int:
    check_input(args.path)  # a FIFO, device or folder is refused before it is opened
    if not 0 < args.timeout <= MAX_TIMEOUT_S:
        raise CommandError(f"--timeout wants a number of seconds above 0 and at most "
                           f"{MAX_TIMEOUT_S:,}, not {args.timeout:g}")
    if not args.class_name.isidentifier():
        raise CommandError(f"--class wants a class's name (a Python identifier), not "
                           f"{args.class_name[:40]!r}")
    if not 0.25 <= args.memory <= 1024:
        raise CommandError("--memory wants 0.25 to 1024 gigabytes")
    check = CheckRun(args.path, args.class_name, args.timeout,
                     memory_bytes=int(args.memory * GB))
    previous = {s: signal.signal(s, _ended) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        check.wait()
    finally:
        check.cancel()  # the child and all it started end with the command
        for s, handler in previous.items():
            signal.signal(s, handler)
    try:
        report = public(finish_report(check))
    except EngineLoadError as e:
        raise CommandError(f"cannot load {args.path}: {e}") from None
    if args.json:
        print(json.dumps(report, allow_nan=False))
    else:
        print(format_check_report(report))
        if report.get("output"):
            print("(the file printed:)", file=sys.stderr)
            print(report["output"].rstrip(), file=sys.stderr)
    bad = ("wrong", "error", "timeout")
    return EXIT_FAILED if any(r["status"] in bad for r in report["checks"].values()) else 0
