"""`main.py animate` and gui/animation.py: one frame per step plus the first, the last held,
a caption under each, GIF through Pillow and MP4 through imageio-ffmpeg, written whole."""

import subprocess
import sys
from pathlib import Path

import imageio_ffmpeg
import pytest
from PIL import Image, ImageSequence

from gui.animation import AnimationError, AnimationFrames, caption, frame_range, write_animation
from tests.engine.helpers import NEURON

ROOT = Path(__file__).resolve().parents[2]
SIZE = (480, 320)


@pytest.fixture
def frames(window, qtbot):
    window.editor.set_text(NEURON)
    window.build(NEURON)
    window.wait_for_build()
    made = AnimationFrames(window, SIZE)
    yield made
    made.close()


def test_a_gif_has_a_frame_per_step_and_the_first_and_holds_the_last(frames, tmp_path):
    session = frames.window.session
    total = session.stepper.total
    out = tmp_path / "neuron.gif"
    count = write_animation(str(out), frames.frames(frame_range(total, None, None)), SIZE,
                            fps=4, hold=3)
    assert count == total + 1 == 22
    gif = Image.open(out)
    assert gif.n_frames == 22 and gif.size == SIZE
    durations = [f.info["duration"] for f in ImageSequence.Iterator(gif)]
    assert durations == [250] * 21 + [3000]
    # the last frame is the end of the pass: every gradient in
    assert session.stepper.position == total
    assert caption(session).endswith("· done: every gradient is in")
    grads = {name: v.grad for name, v in session.program.inputs.items()}
    assert (grads["w1"], grads["w2"], grads["b"]) == (-2.0, -4.0, -2.0)
    # frames differ: the picture follows the steps
    pictures = [f.convert("RGB").tobytes() for f in ImageSequence.Iterator(Image.open(out))]
    assert len(set(pictures)) == 22


def test_an_mp4_reads_back_with_the_frames_written(frames, tmp_path):
    out = tmp_path / "forward.mp4"
    count = write_animation(str(out), frames.frames(frame_range(21, 0, 13)), SIZE, fps=2,
                            hold=2)
    assert count == 14 + 3  # 0..13, and the last held two seconds at 2 frames a second
    reader = imageio_ffmpeg.read_frames(str(out))
    meta = next(reader)
    assert tuple(meta["size"]) == SIZE
    assert sum(1 for _ in reader) == count


def test_the_caption_says_the_step(frames):
    session = frames.window.session
    session.seek(17)
    assert caption(session) == "backward 4/8: p = tanh(z) sends 1 × (-2) = -2 to z"
    image = frames.frame()
    assert (image.width(), image.height()) == SIZE
    # the caption band is drawn: dark text pixels under the rule
    band = [image.pixelColor(x, y).lightness() for y in range(SIZE[1] - frames.caption_h + 8,
                                                              SIZE[1] - 4)
            for x in range(12, 200)]
    assert min(band) < 100


def test_a_cancelled_or_failed_write_leaves_no_file(frames, tmp_path):
    out = tmp_path / "kept.gif"
    out.write_bytes(b"the old animation")
    ticks = iter([True, True, False])
    assert write_animation(str(out), frames.frames(range(5)), SIZE, tick=lambda: next(ticks)) \
        == 0
    assert out.read_bytes() == b"the old animation"

    def broken():
        yield frames.frame()
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        write_animation(str(out), broken(), SIZE)
    assert out.read_bytes() == b"the old animation"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.gif"]  # no temporary left


def test_frame_ranges():
    assert frame_range(21, None, None) == range(0, 22)
    assert frame_range(21, 14, 99) == range(14, 22)
    with pytest.raises(AnimationError, match="wrong order"):
        frame_range(21, 9, 3)
    with pytest.raises(AnimationError, match="--steps A:B"):
        frame_range(100_000, None, None)


def run(*args):
    return subprocess.run([sys.executable, str(ROOT / "main.py"), "animate", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=300,
                          env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})


def test_the_command_writes_a_gif_and_refuses_bad_arguments(tmp_path):
    out = tmp_path / "n.gif"
    done = run("assets/presets/01-neuron.expr", str(out), "--steps", "13:", "--size",
               "400x300", "--fps", "5")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{out} (9 frames)"
    assert Image.open(out).n_frames == 9
    for args, message in ((["x.avi"], "the name must end in .gif, .mp4"),
                          ([str(out), "--steps", "9:3"], "wrong order"),
                          ([str(out), "--steps", "a:b"], "--steps wants A:B"),
                          ([str(tmp_path / "o.mp4"), "--size", "401x300"], "even"),
                          ([str(out), "--size", "10x10"], "each side is 160 to 3840"),
                          ([str(out), "--fps", "0"], "--fps: 0.1 to 60")):
        bad = run("assets/presets/01-neuron.expr", *args)
        assert bad.returncode == 2, (args, bad.stderr)
        assert bad.stderr.startswith("error: ") and message in bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1


def test_file_export_animation_writes_the_windows_pass_and_puts_the_stepper_back(
        window, qtbot, tmp_path):
    from gui.window.animation_export import export_animation

    window.editor.set_text(NEURON)
    window.build(NEURON)
    window.wait_for_build()
    window.session.seek(5)
    out = tmp_path / "pass.gif"
    assert export_animation(window, str(out)) == 22
    assert Image.open(out).n_frames == 22
    assert window.session.stepper.position == 5  # where the user was
    assert window.statusBar().currentMessage() == f"Exported {out}: 22 frames"
    titles = [a.text() for a in window.menuBar().actions()[0].menu().actions()]
    assert "Export &animation…" in titles


def _red_pixels(image: Image.Image) -> int:
    """How many pixels are the colour of a wrong step (palette 'wrong')."""
    from gui.palette import hex_of

    wrong = tuple(int(hex_of("wrong")[k:k + 2], 16) for k in (1, 3, 5))
    rgb = image.convert("RGB")
    return sum(n for n, c in rgb.getcolors(rgb.width * rgb.height) if c == wrong)


def test_a_checked_engines_failing_case_is_animated_with_its_wrong_step_in_red(
        window, qtbot, tmp_path):
    from gui.window.animation_export import export_animation

    # a user's cube rule gives x^3 instead of 3x^2, replayed as check-engine records it
    replay = {"text": "x = 0.5\nout = x ** 3", "order": [2, 0], "seed": 1.0,
              "locals": {2: [3 * 0.5 ** 3]}, "grads": {0: 3 * 0.5 ** 3, 2: 1.0}}
    counts = {}
    for name, load in (("right", lambda: (window.build(replay["text"]),
                                          window.wait_for_build())),
                       ("wrong", lambda: window.session.load_recorded(replay, "pow_rule.py"))):
        load()
        out = tmp_path / f"{name}.gif"
        made = export_animation(window, str(out))
        frames = [f.copy() for f in ImageSequence.Iterator(Image.open(out))]
        assert len(frames) == made
        counts[name] = [_red_pixels(f) for f in frames]
    assert not any(counts["right"])  # the correct engine's pass has no red
    assert counts["wrong"][0] == 0 and counts["wrong"][-1] > 0  # the wrong rule, once stepped


def test_a_graph_opened_with_debug_is_animated_to_its_gradients(qtbot, tmp_path):
    from engine import Value
    from gui import debug
    from gui.window.animation_export import export_animation

    w, x = Value(-3.0, label="w"), Value(2.0, label="x")
    loss = (w * x).tanh()
    window = debug(loss, block=False)
    qtbot.addWidget(window)
    out = tmp_path / "debugged.gif"
    session = window.session
    total = session.stepper.total
    assert total > 0 and export_animation(window, str(out)) == total + 1  # and the first
    assert Image.open(out).n_frames == total + 1
    assert session.stepper.position == 0  # put back where the window opened
    session.run_to_end()
    assert caption(session).endswith("· done: every gradient is in")
    loss.backward()
    assert session.program.inputs["w"].grad == w.grad and w.grad != 0.0
    window.close()
