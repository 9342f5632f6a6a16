"""File → Export animation…: the window's graph stepped into a GIF or an MP4 (see
gui/animation.py), with a progress bar and Cancel. Frames are drawn on the window's
thread, one at a time, the events handled between them; the stepper is put back where
it was afterwards, and a cancelled or failed export leaves no file."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QProgressDialog

from gui.animation import AnimationError, AnimationFrames, frame_range, write_animation

SIZE = (960, 540)
FPS, HOLD = 2.0, 2.0


def export_animation(window, path: str | None = None) -> int:
    """Ask where (unless `path` is given), then write the whole pass of the window's
    graph as an animation; returns the frames written (0: cancelled or refused)."""
    session = window.session
    if session.stepper is None:
        return 0
    if path is None:
        path, _ = QFileDialog.getSaveFileName(
            window, "Export animation", str(window._folder() / "stepping.gif"),
            "GIF (*.gif);;MP4 video (*.mp4)")
        if not path:
            return 0
    if Path(path).suffix.lower() not in (".gif", ".mp4"):
        path += ".gif"
    try:
        positions = frame_range(session.stepper.total, None, None)
    except AnimationError as e:
        window.show_status(f"Not exported: {e}")
        return 0
    progress = QProgressDialog("Drawing the frames…", "Cancel", 0, len(positions), window)
    progress.setWindowTitle("Export animation")
    progress.setWindowModality(Qt.WindowModality.WindowModal)
    progress.setMinimumDuration(300)
    done = [0]

    def tick() -> bool:
        done[0] += 1
        progress.setValue(done[0])
        QApplication.processEvents()  # the window stays live between frames
        return not progress.wasCanceled()

    was = session.stepper.position
    frames = AnimationFrames(window, SIZE)
    try:
        count = write_animation(path, frames.frames(positions), SIZE, FPS, HOLD, tick)
        said = (f"Exported {path}: {count:,} frames" if count else
                "Animation export cancelled: nothing was written")
    except OSError as e:
        count, said = 0, f"Could not write {path}: {e.strerror or e}"
    finally:
        frames.close()
        progress.close()
        session.seek(was)  # back where the user was (its own status first, then ours)
    window.show_status(said)
    return count
