"""Issue 26 item 2: nothing typed is lost. Each window keeps its unsaved text in a
recovery copy of its own beside the settings; closing asks when the text cannot be kept;
settings that cannot be written say so; a settings file that is not a regular file is
never read or written."""

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from engine.language import MAX_CHARS
from gui import settings as remembered
from gui.window import recovery
from gui.window.main_window import DEFAULT_PROGRAM, MainWindow

ROOT = Path(__file__).resolve().parents[2]
NEURON = DEFAULT_PROGRAM.read_text(encoding="utf-8")


def start(qtbot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    return window


def type_program(window, text: str) -> None:
    window.editor.editor.selectAll()
    window.editor.editor.insertPlainText(text)  # an edit: the text is modified


def recovery_folder() -> Path:
    return Path(remembered.settings_path()).parent / recovery.FOLDER


def test_two_windows_keep_two_programs_and_both_come_back(qtbot, dialogs):
    first, second = start(qtbot), start(qtbot)
    type_program(first, "a = 1\nb = a * 2")
    type_program(second, "c = 3\nd = c + c")
    assert first.close() and second.close()
    assert dialogs == []  # kept: nothing to ask
    copies = sorted(p.read_text(encoding="utf-8") for p in recovery_folder().iterdir())
    assert copies == ["a = 1\nb = a * 2", "c = 3\nd = c + c"]
    # the next start shows the newest, says where the other is; the one after, the other
    third = start(qtbot)
    assert third.editor.text() == "c = 3\nd = c + c"
    assert third.session.program.output_name == "d"
    assert third.editor.notice.isVisibleTo(third.editor)
    assert third.editor.notice.text().startswith(
        "1 more unsaved program from other windows is kept: ")
    fourth = start(qtbot)
    assert fourth.editor.text() == "a = 1\nb = a * 2"
    assert not fourth.editor.notice.isVisibleTo(fourth.editor)
    third.close()
    fourth.close()


def test_the_copy_is_written_while_editing_not_only_at_close(qtbot):
    window = start(qtbot)
    window._keep_timer.setInterval(10)
    type_program(window, "e = 4\nf = e * e")
    path = Path(window.recovery.path)
    qtbot.waitUntil(lambda: path.exists() and path.read_text(encoding="utf-8")
                    == "e = 4\nf = e * e", timeout=5000)
    window.close()


def test_a_text_too_long_to_keep_asks_before_closing(qtbot, monkeypatch):
    window = start(qtbot)
    type_program(window, "x" * (MAX_CHARS + 1))
    asked = []

    def question(parent, title, text, buttons, default):
        asked.append((title, text))
        return QMessageBox.StandardButton.Cancel

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    assert window.close() is False  # Cancel: the window and its text stay
    assert asked == [("Unsaved changes", (
        "The program has changes that are not saved, and they cannot be kept for the next "
        f"start: it is {MAX_CHARS + 1:,} characters long, over the {MAX_CHARS:,} a program "
        "may have.\n\nSave them?"))]
    monkeypatch.setattr(QMessageBox, "question",
                        staticmethod(lambda *a: QMessageBox.StandardButton.Discard))
    assert window.close()


def test_a_copy_that_cannot_be_written_asks_before_closing(qtbot, dialogs):
    folder = recovery_folder()
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_text("a file where the folder should be", encoding="utf-8")
    window = start(qtbot)
    # said once, at the start, in the status bar
    assert window.statusBar().currentMessage().startswith(
        "Your unsaved program cannot be kept for the next start: ")
    type_program(window, "g = 5\nh = g * 2")
    window.close()  # the recorded box answers Ok: neither Save nor Cancel
    questions = [d for d in dialogs if d[0] == "question"]
    assert len(questions) == 1
    assert questions[0][1] == "Unsaved changes"
    assert "cannot be kept for the next start" in questions[0][2]


def test_settings_that_cannot_be_written_say_so_once(qtbot, isolated_settings):
    path = remembered.settings_path()
    assert path.startswith(str(isolated_settings))
    os.makedirs(path)  # a folder in the settings file's place
    window = start(qtbot)
    message = window.statusBar().currentMessage()
    assert message == (f"Settings cannot be written ({path}: it is a folder, not a regular "
                       "file): the window's size and options are not remembered")
    type_program(window, "k = 6\nm = k * k")
    assert window.close()  # the text is kept all the same: nothing to ask
    assert (recovery_folder() / window.recovery.name).read_text(encoding="utf-8") == \
        "k = 6\nm = k * k"


def test_an_unwritable_settings_status_is_read_after_sync(qtbot, isolated_settings):
    """A settings file QSettings cannot use (a folder, found by Qt itself): status()."""
    path = Path(remembered.settings_path())
    path.parent.mkdir(parents=True, exist_ok=True)
    settings = QSettings(str(path), QSettings.Format.IniFormat)
    path.mkdir()  # made a folder after it was opened
    settings.setValue("speed", 5)
    assert remembered.write_problem(settings) == "it is a folder, not a regular file"


CHILD = textwrap.dedent("""
    import os, stat, sys
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    for fmt in (QSettings.Format.IniFormat, QSettings.Format.NativeFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, sys.argv[1])
    from gui.window.main_window import MainWindow
    window = MainWindow()
    window.show()
    app.processEvents()
    print(window.statusBar().currentMessage())
    window.editor.editor.insertPlainText("# typed\\n")
    window.close()
    app.processEvents()
    print("closed")
""")


def _device_or_fifo(path: Path) -> str:
    """A character device of our own (as root), else a FIFO, at `path`: its kind."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))  # like /dev/null
        return "device"
    except (PermissionError, OSError):
        os.mkfifo(path)
        return "fifo"


@pytest.mark.parametrize("kind", ["fifo", "link to a device"])
def test_a_settings_file_that_is_not_a_regular_file_is_never_used(kind, tmp_path):
    config = tmp_path / "config"
    settings = config / "AutogradDebugger" / "AutogradDebugger.conf"
    settings.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(settings)  # an open() for reading would wait for ever
        is_kind = stat.S_ISFIFO
    else:
        target = tmp_path / "node"
        made = _device_or_fifo(target)
        is_kind = stat.S_ISCHR if made == "device" else stat.S_ISFIFO
        settings.symlink_to(target)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", CHILD, str(config)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[-1] == "closed"
    assert lines[-2].startswith(f"Settings cannot be written ({settings}: it is a ")
    assert lines[-2].endswith("not a regular file): the window's size and options are "
                              "not remembered")
    node = os.path.realpath(settings)
    assert is_kind(os.stat(node).st_mode)  # never replaced by a regular file
    assert os.path.islink(settings) == (kind != "fifo")
    copies = list((settings.parent / recovery.FOLDER).iterdir())
    assert [p.read_text(encoding="utf-8") for p in copies] == ["# typed\n" + NEURON]
