"""Autograd Debugger: open the window, or run one of the command-line tools.

    python main.py [FILE.expr]            open the window
    python main.py grad FILE|- [--tf] [--fd] [--pitfall overwrite|no-sort] [--json]
"""

from __future__ import annotations

import argparse
import sys

COMMANDS = ("grad",)


def _window_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="main.py",
        description="Autograd Debugger: see the computation graph, step the forward and "
                    "backward passes, and check every gradient. Commands: "
                    + ", ".join(COMMANDS) + " (main.py COMMAND --help).")
    parser.add_argument("file", nargs="?", metavar="FILE.expr",
                        help="a program to open (default: the seed's neuron)")
    return parser


def _command_parser(command: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"main.py {command}")
    if command == "grad":
        from cli import grad

        parser.description = "Print the gradient of the output with respect to every input."
        grad.add_arguments(parser)
        parser.set_defaults(run=grad.run)
    return parser


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
    print("Autograd Debugger: the window is not built yet. It will open "
          + (args.file or "the seed's neuron")
          + ". Meanwhile: python main.py grad FILE --json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
