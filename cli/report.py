"""`main.py report`: the lesson's tables re-measured, as Markdown (and figures)."""

from __future__ import annotations

import argparse
import os
import sys

from engine.lesson.report import ReportData, ReportProgress, build_report, to_markdown


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", metavar="DIR",
                        help="write DIR/report.md, rules.png, modes.png and xor.png")
    parser.add_argument("--quick", action="store_true",
                        help="time sizes up to 200 parameters only (a few seconds)")


def run(args: argparse.Namespace) -> int:
    if args.out is not None:
        from cli.common import check_output_folder

        check_output_folder(args.out)  # before the work, not after it
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
    from gui.tabs.report_figures import write_report

    application()
    for path in write_report(data, args.out):
        print(path)
    return 0
