"""`main.py report`: the lesson's tables re-measured, as Markdown (and figures)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys

from engine.lesson.report import ReportData, ReportProgress, build_report, to_markdown


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", metavar="DIR",
                        help="write DIR/report.md, rules.png, modes.png and xor.png")
    parser.add_argument("--quick", action="store_true",
                        help="time sizes up to 200 parameters only (a few seconds)")


def run(args: argparse.Namespace) -> int:
    if args.out is None:
        return _run(args)
    from cli.common import check_output_folder, check_path_given

    check_path_given(args.out, "--out")
    made = not os.path.isdir(args.out)
    check_output_folder(args.out)  # before the work, not after it
    try:
        return _run(args)
    except BaseException:  # a failed or interrupted report leaves no folder it made
        if made:
            with contextlib.suppress(OSError):
                os.rmdir(args.out)  # only if empty
        raise


def _run(args: argparse.Namespace) -> int:
    data = None
    for record in build_report(args.quick):
        if isinstance(record, ReportProgress):
            print(f"[{record.done}/{record.total}] {record.text}", file=sys.stderr)
        elif isinstance(record, ReportData):
            data = record
    if args.out is None:
        print(to_markdown(data, figures=False))
        return 0
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from gui.app import application
    from gui.jobs.report_writer import write_report_staged

    application()
    for path in write_report_staged(data, args.out):  # whole, or not at all
        print(path)
    return 0
