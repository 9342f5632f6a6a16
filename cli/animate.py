"""`main.py animate`: the stepping as a GIF or an MP4 for slides, one frame per step with
a caption saying it (see gui/animation.py)."""

from __future__ import annotations

import argparse
import os

from cli.common import EXIT_CANNOT_WRITE, CommandError, check_output_file, quoted_path, read_text
from engine.core.acceptance import accepted

FORMATS = ("gif", "mp4")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a program (.expr), or - for stdin")
    parser.add_argument("out", metavar="OUT.(gif|mp4)",
                        help="the file to write; its extension chooses the format")
    parser.add_argument("--steps", default=":", metavar="A:B",
                        help="the steps to show, from position A to B (default: all of "
                             "them, from before the first step to the end; 0:13 is the "
                             "forward pass of the neuron)")
    parser.add_argument("--fps", type=float, default=2.0, metavar="F",
                        help="frames (steps) a second (default 2)")
    parser.add_argument("--size", default="960x540", metavar="WxH",
                        help="the frame's size in pixels, caption included (default 960x540)")
    parser.add_argument("--hold", type=float, default=2.0, metavar="S",
                        help="seconds the last frame is held (default 2)")
    parser.add_argument("--constants", choices=("nodes", "folded"), default="folded",
                        help="draw each constant as its own node, or folded into its "
                             "operation (default)")
    parser.add_argument("--theme", choices=("light", "dark"), default="light",
                        help="draw in the light colours (default) or the dark ones")


def steps_range(text: str) -> tuple[int | None, int | None]:
    """'3:9' -> (3, 9); ':9' -> (None, 9); '3:' -> (3, None); '5' -> (5, 5)."""
    first, colon, last = text.partition(":")
    try:
        a = int(first) if first.strip() else None
        b = (int(last) if last.strip() else None) if colon else a
    except ValueError:
        raise CommandError(f"--steps wants A:B, two step positions such as 0:13, not "
                           f"{text[:40]!r}") from None
    if (a is not None and a < 0) or (b is not None and b < 0):
        raise CommandError("--steps: a step position is 0 or more")
    return a, b


def frame_size(text: str, mp4: bool) -> tuple[int, int]:
    from gui.animation import MAX_SIDE, MIN_SIDE

    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise CommandError(f"--size wants WxH in pixels, such as 960x540, not {text[:40]!r}"
                           ) from None
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise CommandError(f"--size: each side is {MIN_SIDE} to {MAX_SIDE} pixels, not "
                           f"{width}x{height}")
    if mp4 and (width % 2 or height % 2):
        raise CommandError(f"--size: an MP4's sides are even numbers of pixels, not "
                           f"{width}x{height}")
    return width, height


def run(args: argparse.Namespace) -> int:
    """Write the animation; print the output path and its frame count."""
    extension = os.path.splitext(args.out)[1].lower().lstrip(".")
    if extension not in FORMATS:
        raise CommandError(f"cannot animate to {args.out!r}: the name must end in "
                           + ", ".join("." + f for f in FORMATS))
    if not 0.1 <= args.fps <= 60:
        raise CommandError(f"--fps: 0.1 to 60 frames a second, not {args.fps:g}")
    if not 0 <= args.hold <= 60:
        raise CommandError(f"--hold: 0 to 60 seconds, not {args.hold:g}")
    first, last = steps_range(args.steps)
    if first is not None and last is not None and last < first:
        raise CommandError(f"--steps: the steps {first}:{last} are in the wrong order")
    size = frame_size(args.size, extension == "mp4")
    text = read_text(args.file)
    accepted(text)  # a bad program is an error here, not a blank animation
    check_output_file(args.out)
    from gui.animation import AnimationError, AnimationFrames, frame_range, write_animation
    from gui.offscreen import graph_window
    from gui.theme import applied

    with applied(args.theme), \
            graph_window(text, constants_as_nodes=args.constants == "nodes") as window:
        try:
            positions = frame_range(window.session.stepper.total, first, last)
        except AnimationError as e:
            raise CommandError(f"--steps: {e}") from None
        frames = AnimationFrames(window, size)
        try:
            count = write_animation(args.out, frames.frames(positions), size, args.fps,
                                    args.hold)
        except OSError as e:
            raise CommandError(f"cannot write {quoted_path(args.out)}: {e.strerror or e}",
                               EXIT_CANNOT_WRITE) from None
        finally:
            frames.close()
    print(f"{args.out} ({count:,} frames)")
    return 0
