"""Autograd Debugger: open the window, or run one of the command-line tools.

    python main.py [FILE.expr]            open the window
    python main.py grad FILE|- [--tf] [--fd] [--pitfall overwrite|no-sort] [--json]
    python main.py train [--epochs N] [--lr ETA] [--seed S] [--json]
    python main.py report [--out DIR] [--quick]
    python main.py screenshot OUT.png [--tab graph|rules|modes|xor|pitfalls] [--expr FILE]
                                      [--steps N] [--size WxH] [--theme light|dark]
    python main.py export FILE OUT.(png|svg|json) [--steps N] [--constants nodes|folded]
                                                  [--theme light|dark]
    python main.py check-engine PATH [--class NAME] [--json] [--timeout S]
    python main.py animate FILE OUT.(gif|mp4) [--steps A:B] [--fps F] [--size WxH]
                           [--hold S] [--constants nodes|folded] [--theme light|dark]
"""

from __future__ import annotations

import argparse
import sys

SCREENSHOT_SIDES = (200, 7680)  # pixels of a side: a window, up to an 8K screen's width
COMMANDS = ("grad", "train", "report", "screenshot", "export", "check-engine", "animate")


def _program_name() -> str:
    """What the user typed: `main.py` in a checkout, `autograd-debugger` once installed."""
    return "main.py" if sys.argv[0].endswith("main.py") else "autograd-debugger"


class OneLineParser(argparse.ArgumentParser):
    """argparse, with a bad argument told in one line on standard error (no usage block
    before it) and exit 2, as for every other bad input."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message}\n")


def _window_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=_program_name(),
        description="Autograd Debugger: see the computation graph, step the forward and "
                    "backward passes, and check every gradient. Commands: "
                    + ", ".join(COMMANDS) + f" ({_program_name()} COMMAND --help).")
    parser.add_argument("file", nargs="?", metavar="FILE.expr",
                        help="a program to open (default: the lesson's neuron)")
    return parser


def _command_parser(command: str) -> argparse.ArgumentParser:
    parser = OneLineParser(prog=f"{_program_name()} {command}")
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
        parser.add_argument("--theme", choices=("light", "dark"), default="light",
                            help="the window in its light colours (default) or dark ones")
        parser.set_defaults(run=_screenshot)
    elif command == "export":
        from cli import export

        parser.description = ("Write the graph, as the window draws it after N steps, "
                              "to PNG, SVG or JSON (scene coordinates, y down).")
        export.add_arguments(parser)
        parser.set_defaults(run=export.run)
    elif command == "animate":
        from cli import animate

        parser.description = ("Write the stepping as a GIF or an MP4: one frame per step "
                              "as the window draws it, with a caption saying the step.")
        animate.add_arguments(parser)
        parser.set_defaults(run=animate.run)
    elif command == "check-engine":
        from cli import check_engine

        parser.description = ("Check your own autograd engine (a Python file defining a "
                              "micrograd-style value class) rule by rule. The file is "
                              "executed, in a separate process.")
        check_engine.add_arguments(parser)
        parser.set_defaults(run=check_engine.run)
    return parser


def _screenshot(args: argparse.Namespace) -> int:
    from cli.common import (
        EXIT_CANNOT_WRITE,
        CommandError,
        check_output_file,
        check_steps,
        quoted_path,
        read_text,
    )

    if args.expr is not None:
        from engine.core.acceptance import accepted

        accepted(read_text(args.expr))  # a bad program is an error here, not a blank picture
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        raise CommandError("--size wants WIDTHxHEIGHT, e.g. 1400x860, "
                           f"not {quoted_path(args.size)}") from None
    low, high = SCREENSHOT_SIDES
    if not (low <= width <= high and low <= height <= high):
        raise CommandError(f"--size: each side is {low} to {high:,} pixels, not "
                           f"{width}x{height}")
    check_steps(args.steps)
    check_output_file(args.out)
    from gui.screenshot import render

    if not render(args.out, args.tab, args.expr, max(0, args.steps), (width, height),
                  args.theme):
        raise CommandError(f"cannot write {args.out!r}", EXIT_CANNOT_WRITE)
    print(args.out)
    return 0


def _not_a_file(path: str) -> str | None:
    """Why the window must not open `path` (a FIFO, socket, device or folder, which
    could block or never end), or None. A missing or unreadable file opens the window
    with the reason shown there instead."""
    from engine.io.files import NotARegularFile, check_regular

    try:
        check_regular(path)
    except NotARegularFile as e:
        from cli.common import quoted_path

        return f"cannot open {quoted_path(path)}: {e.strerror}"
    except (OSError, ValueError):
        pass
    return None


def _silence_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's last flush
    at exit does not fail again (the Python documentation's way with a closed pipe)."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def _run_command(args: argparse.Namespace) -> int:
    """Run a command; every error a user can cause becomes one line on standard error
    and an exit code (cli.common lists them), never a traceback."""
    from cli.common import (
        EXIT_BAD_INPUT,
        EXIT_CANNOT_WRITE,
        EXIT_INTERRUPTED,
        EXIT_NO_TENSORFLOW,
        EXIT_PIPE_CLOSED,
        CommandError,
        fail,
        quoted_path,
    )
    from engine import ExpressionError
    from engine.checks.tensorflow_check import TensorFlowUnavailable
    from engine.io.files import ReadError

    if sys.stdout is None:  # started with its standard output closed (>&-)
        return fail("cannot write the output: standard output is closed", EXIT_CANNOT_WRITE)
    try:
        code = args.run(args)
        sys.stdout.flush()  # so a full disk or a closed pipe is found here
        return code
    except ExpressionError as e:
        return fail(str(e), EXIT_BAD_INPUT)
    except CommandError as e:
        return fail(str(e), e.code)
    except TensorFlowUnavailable as e:
        return fail(str(e), EXIT_NO_TENSORFLOW)
    except BrokenPipeError:
        _silence_stdout()  # the reader has all it wanted (| head): nothing to say
        return EXIT_PIPE_CLOSED
    except UnicodeEncodeError as e:
        _silence_stdout()
        return fail(f"cannot print {e.object[e.start:e.end]!a} in the output's encoding "
                    f"({e.encoding}): set PYTHONIOENCODING=utf-8, or use --json",
                    EXIT_CANNOT_WRITE)
    except ReadError as e:  # a file the command needs (one of the app's own, say)
        return fail(f"cannot read {quoted_path(e.filename)}: {e.strerror or e}", EXIT_BAD_INPUT)
    except OSError as e:
        _silence_stdout()
        where = f" {e.filename!r}" if e.filename else " the output"
        return fail(f"cannot write{where}: {e.strerror or e}", EXIT_CANNOT_WRITE)
    except KeyboardInterrupt:
        return fail("interrupted", EXIT_INTERRUPTED)


def main(argv: list[str] | None = None) -> int:
    """Run the app or a command; returns the process's exit code."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in COMMANDS:
        return _run_command(_command_parser(argv[0]).parse_args(argv[1:]))
    args = _window_parser().parse_args(argv)
    if args.file is not None:
        refused = _not_a_file(args.file)
        if refused:
            from cli.common import EXIT_BAD_INPUT, fail

            return fail(refused, EXIT_BAD_INPUT)
    from engine.io.files import ReadError
    from gui.app import run_window

    try:
        return run_window(args.file)
    except ReadError as e:  # one of the app's own files (an installation without its assets)
        from cli.common import EXIT_BAD_INPUT, fail, quoted_path

        return fail(f"cannot read {quoted_path(e.filename)}: {e.strerror or e}", EXIT_BAD_INPUT)


if __name__ == "__main__":
    sys.exit(main())
