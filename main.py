"""Autograd Debugger: open the window, or run one of the command-line tools.

    python main.py [FILE.expr]            open the window
    python main.py grad FILE|- [--tf] [--fd] [--pitfall overwrite|no-sort] [--json]
    python main.py train [--epochs N] [--lr ETA] [--seed S] [--json]
    python main.py report [--out DIR] [--quick]
    python main.py screenshot OUT.png [--tab graph|rules|modes|xor|pitfalls] [--expr FILE]
                                      [--steps N]
    python main.py export FILE OUT.(png|svg|json) [--steps N] [--constants nodes|folded]
    python main.py check-engine PATH [--class NAME] [--json] [--timeout S]
"""

from __future__ import annotations

import argparse
import sys

COMMANDS = ("grad", "train", "report", "screenshot", "export", "check-engine")


def _window_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="main.py",
        description="Autograd Debugger: see the computation graph, step the forward and "
                    "backward passes, and check every gradient. Commands: "
                    + ", ".join(COMMANDS) + " (main.py COMMAND --help).")
    parser.add_argument("file", nargs="?", metavar="FILE.expr",
                        help="a program to open (default: the lesson's neuron)")
    return parser


def _command_parser(command: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"main.py {command}")
    if command == "grad":
        from cli import grad

        parser.description = "Print the gradient of the output with respect to every input."
        grad.add_arguments(parser)
        parser.set_defaults(run=grad.run)
    elif command == "train":
        from cli import train

        parser.description = "Train a 2-2-1 network on XOR and report it as the lesson does."
        train.add_arguments(parser)
        parser.set_defaults(run=train.run)
    elif command == "report":
        from cli import report

        parser.description = "Recompute every table of the lesson, beside the lesson's figures."
        report.add_arguments(parser)
        parser.set_defaults(run=report.run)
    elif command == "screenshot":
        parser.description = "Render the window offscreen to a PNG file."
        parser.add_argument("out", metavar="OUT.png")
        parser.add_argument("--tab", choices=("graph", "rules", "modes", "xor", "pitfalls"),
                            default="graph")
        parser.add_argument("--expr", metavar="FILE", help="a program (default: the neuron)")
        parser.add_argument("--steps", type=int, default=0,
                            help="steps to take first; a large N means to the end")
        parser.add_argument("--size", default="1400x860", metavar="WxH",
                            help="the window's size in pixels (default 1400x860)")
        parser.set_defaults(run=_screenshot)
    elif command == "export":
        from cli import export

        parser.description = ("Write the graph, as the window draws it after N steps, "
                              "to PNG, SVG or JSON (scene coordinates, y down).")
        export.add_arguments(parser)
        parser.set_defaults(run=export.run)
    elif command == "check-engine":
        from cli import check_engine

        parser.description = ("Check your own autograd engine (a Python file defining a "
                              "micrograd-style value class) rule by rule. The file is "
                              "executed, in a separate process.")
        check_engine.add_arguments(parser)
        parser.set_defaults(run=check_engine.run)
    return parser


def _screenshot(args: argparse.Namespace) -> int:
    from cli.common import read_text
    from gui.screenshot import render

    if args.expr is not None:
        from engine import parse

        parse(read_text(args.expr))  # a bad program is an error here, not a blank picture
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        from cli.common import CommandError

        raise CommandError(f"--size wants WIDTHxHEIGHT, e.g. 1400x860, not {args.size!r}") from None
    if not render(args.out, args.tab, args.expr, max(0, args.steps), (width, height)):
        from cli.common import CommandError

        raise CommandError(f"cannot write {args.out!r}")
    print(args.out)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the app or a command; returns the process's exit code."""
    from cli.common import EXIT_NO_TENSORFLOW, CommandError, fail
    from engine import ExpressionError
    from engine.tensorflow_check import TensorFlowUnavailable

    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in COMMANDS:
        args = _command_parser(argv[0]).parse_args(argv[1:])
        try:
            return args.run(args)
        except ExpressionError as e:
            return fail(str(e), 2)
        except CommandError as e:
            return fail(str(e), e.code)
        except TensorFlowUnavailable as e:
            return fail(str(e), EXIT_NO_TENSORFLOW)
    args = _window_parser().parse_args(argv)
    from gui.app import run

    return run(args.file)


if __name__ == "__main__":
    sys.exit(main())
