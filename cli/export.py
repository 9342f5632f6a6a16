"""`main.py export`: the graph as the window draws it, after N steps, to PNG, SVG or JSON."""

from __future__ import annotations

import argparse
import os

from cli.common import (
    EXIT_CANNOT_WRITE,
    CommandError,
    check_output_file,
    check_steps,
    read_text,
)
from engine.core.acceptance import accepted

FORMATS = ("png", "svg", "json")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a program (.expr), or - for stdin")
    parser.add_argument("out", metavar="OUT.(png|svg|json)",
                        help="the file to write; its extension chooses the format")
    parser.add_argument("--steps", type=int, default=0,
                        help="steps to take first (default 0); a large N means to the end")
    parser.add_argument("--constants", choices=("nodes", "folded"), default="folded",
                        help="draw each constant as its own node, or folded into its "
                             "operation (default)")
    parser.add_argument("--theme", choices=("light", "dark"), default="light",
                        help="draw in the light colours (default) or the dark ones")


def run(args: argparse.Namespace) -> int:
    """Write the graph; print the output path. CommandError for an unknown extension or
    a file that cannot be written (EXIT_CANNOT_WRITE), ExpressionError for a program
    with an error."""
    extension = os.path.splitext(args.out)[1].lower().lstrip(".")
    if extension not in FORMATS:
        raise CommandError(f"cannot export to {args.out!r}: the name must end in "
                           + ", ".join("." + f for f in FORMATS))
    check_steps(args.steps)
    text = read_text(args.file)
    accepted(text)
    check_output_file(args.out)  # a bad program is an error here, not a blank picture
    from gui.screenshot import PictureError, export_graph

    try:
        written = export_graph(args.out, text, max(0, args.steps), args.constants == "nodes",
                               theme=args.theme)
    except PictureError as e:
        raise CommandError(f"cannot export to {args.out!r}: {e}") from None
    if not written:
        raise CommandError(f"cannot write {args.out!r}", EXIT_CANNOT_WRITE)
    print(args.out)
    return 0
