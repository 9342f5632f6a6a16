"""The stepping as an animation for slides: one frame per step as the window draws it (the
current node, the parents just reached, the labels on the edges), a first frame before
the first step shown, the last one held, and under the graph a caption saying the step
(`engine.core.narration`). GIF frames are written by Pillow, MP4 by the ffmpeg that
imageio-ffmpeg ships; either is written to a temporary file beside the output and
renamed, so a cancelled or failed export leaves no half file.

    frames = AnimationFrames(window, (960, 540))      # a window with its graph built
    write_animation("neuron.gif", frames.frames(range(0, 22)), fps=2, hold=2)
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from pathlib import Path

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFont, QImage, QPainter
from PySide6.QtWidgets import QFrame, QGraphicsView

from engine.core.narration import step_caption
from gui.graph.view import GraphView
from gui.palette import colour

FORMATS = ("gif", "mp4")
MIN_SIDE, MAX_SIDE = 160, 3840
MAX_FRAMES = 5000  # one frame per step: a bigger graph is animated a range at a time
CAPTION_COLOUR = colour("caption")  # the theme's (gui/palette.py), changed in place
RULE_COLOUR = colour("rule")


class AnimationError(ValueError):
    """An animation that cannot be made as asked: the message says why."""


def frame_range(total: int, first: int | None, last: int | None) -> range:
    """The stepper positions to draw, from `first` to `last` inclusive (None: 0 and the
    end), clamped to 0..total. AnimationError for an empty range or one of more than
    MAX_FRAMES frames."""
    a = 0 if first is None else max(0, min(first, total))
    b = total if last is None else max(0, min(last, total))
    if b < a:
        raise AnimationError(f"the steps {a}:{b} are in the wrong order")
    if b - a + 1 > MAX_FRAMES:
        raise AnimationError(f"{b - a + 1:,} frames are more than {MAX_FRAMES:,}: animate "
                             "a part of the pass (--steps A:B)")
    return range(a, b + 1)


class AnimationFrames:
    """Frames of `window`'s graph (its scene, session and stepper), `size` (w, h)
    pixels: a view of the graph the size of the frame less the caption, fitted as the
    window fits a new graph and following the steps as it does, and the caption."""

    def __init__(self, window, size: tuple[int, int]):
        self.window = window
        self.width, self.height = size
        self.font = QFont()
        self.font.setPixelSize(max(13, round(self.height / 34)))
        self.caption_h = round(self.font.pixelSize() * 2.7) + 12  # two lines and room
        view = self.view = GraphView(window.graph_tab.scene)
        view.setFrameShape(QFrame.Shape.NoFrame)
        for policy in (view.setHorizontalScrollBarPolicy, view.setVerticalScrollBarPolicy):
            policy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        view.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.FullViewportUpdate)
        view.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
        view.resize(self.width, self.height - self.caption_h)
        view.show()
        view.fit(readable=True)

    def close(self) -> None:
        self.view.close()
        self.view.deleteLater()

    def frame(self) -> QImage:
        """The frame at the stepper's position now."""
        session = self.window.session
        self.view.follow_step()
        image = QImage(self.width, self.height, QImage.Format.Format_RGB888)
        image.fill(colour("background"))
        painter = QPainter(image)
        try:
            graph = self.view.viewport().grab()
            painter.drawPixmap(0, 0, graph)
            top = self.height - self.caption_h
            painter.setPen(RULE_COLOUR)
            painter.drawLine(0, top, self.width, top)
            painter.setPen(CAPTION_COLOUR)
            painter.setFont(self.font)
            area = QRect(12, top + 6, self.width - 24, self.caption_h - 12)
            flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | \
                Qt.TextFlag.TextWordWrap
            painter.drawText(area, int(flags), caption(session))
        finally:
            painter.end()
        return image

    def frames(self, positions: Iterable[int]) -> Iterator[QImage]:
        """One frame at each stepper position, in order."""
        session = self.window.session
        for position in positions:
            session.seek(position)
            yield self.frame()


def caption(session) -> str:
    """The step said in words: what the caption under a frame reads."""
    program = session.program
    name = program.output_name if program is not None else None
    return step_caption(session.stepper, name)


def _rgb(image: QImage):
    """`image` as a Pillow image (RGB)."""
    from PIL import Image

    image = image.convertToFormat(QImage.Format.Format_RGB888)
    data = bytes(image.constBits())
    return Image.frombuffer("RGB", (image.width(), image.height()), data, "raw", "RGB",
                            image.bytesPerLine(), 1)


def _write_gif(path: str, frames: Iterator[QImage], fps: float, hold: float,
               tick: Callable[[], bool]) -> int:
    pictures = []
    for image in frames:
        pictures.append(_rgb(image).quantize(colors=255, dither=0))  # flat colours: no dither
        if not tick():
            return 0
    if not pictures:
        return 0
    step_ms = round(1000 / fps)
    durations = [step_ms] * (len(pictures) - 1) + [max(step_ms, round(hold * 1000))]
    pictures[0].save(path, format="GIF", save_all=True, append_images=pictures[1:],
                     duration=durations, loop=0, disposal=1)
    return len(pictures)


def _write_mp4(path: str, frames: Iterator[QImage], fps: float, hold: float,
               tick: Callable[[], bool], size: tuple[int, int]) -> int:
    import imageio_ffmpeg

    writer = imageio_ffmpeg.write_frames(path, size, fps=fps, codec="libx264",
                                         pix_fmt_in="rgb24", pix_fmt_out="yuv420p",
                                         macro_block_size=2, quality=8,
                                         ffmpeg_log_level="error")
    writer.send(None)  # starts ffmpeg
    written = 0
    last = None
    try:
        for image in frames:
            last = _rgb(image).tobytes()
            writer.send(last)
            written += 1
            if not tick():
                return 0
        for _ in range(max(0, round(hold * fps) - 1)):  # the last frame, held
            writer.send(last)
            written += 1
    finally:
        writer.close()
    return written


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_animation(out: str, frames: Iterator[QImage], size: tuple[int, int],
                    fps: float = 2.0, hold: float = 2.0,
                    tick: Callable[[], bool] = lambda: True) -> int:
    """Write `frames` to `out` (.gif or .mp4 by its extension) at `fps` frames a second,
    the last held `hold` seconds, through a temporary file in the same folder renamed at
    the end. `tick()` is called after each frame; False cancels (nothing is written).
    Returns how many frames the file holds (0: cancelled). OSError if it cannot be
    written; the temporary file is removed whatever happens."""
    extension = Path(out).suffix.lower().lstrip(".")
    folder = os.path.dirname(os.path.abspath(out))
    handle, temporary = tempfile.mkstemp(prefix=".animate-", suffix="." + extension,
                                         dir=folder)
    os.close(handle)
    try:
        if extension == "gif":
            count = _write_gif(temporary, frames, fps, hold, tick)
        else:
            count = _write_mp4(temporary, frames, fps, hold, tick, size)
        if count:
            os.chmod(temporary, 0o666 & ~_umask())  # mkstemp's file is private
            os.replace(temporary, out)
        return count
    finally:
        with suppress(FileNotFoundError):
            os.remove(temporary)
