"""Issue 17 in the window: damaged settings, files that cannot be opened, unsaved work,
gradients that overflow, and messages as long as their input."""

import os
import shutil

import pytest
from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QMessageBox

from engine.language import MAX_CHARS
from gui import settings as remembered
from gui.window.main_window import DEFAULT_PROGRAM, MainWindow
from tests.engine.helpers import PRESETS

NEURON = DEFAULT_PROGRAM.read_text(encoding="utf-8")
TYPED = "q = 2\nr = q * 3"


def settings_file(folder) -> str:
    path = QSettings("AutogradDebugger", "AutogradDebugger").fileName()
    assert path.startswith(str(folder))  # never the user's own settings
    return path


def write_raw(folder, lines: dict[str, str]) -> None:
    """The settings file as a user or a broken disk might leave it (the issue's printf)."""
    path = settings_file(folder)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("[General]\n" + "".join(f"{k}={v}\n" for k, v in lines.items()))


def start(qtbot, path=None) -> MainWindow:
    window = MainWindow(path)
    qtbot.addWidget(window)
    window.show()
    return window


def good_settings(qtbot) -> dict[str, str]:
    """The lines a normal run writes, to corrupt one at a time."""
    first = start(qtbot)
    first.editor.editor.setPlainText(TYPED)
    first.graph_tab.speed.setValue(9)
    first.constants_action.setChecked(True)
    first.close()
    settings = QSettings("AutogradDebugger", "AutogradDebugger")
    settings.sync()
    lines = {}
    with open(settings.fileName(), encoding="utf-8") as f:
        for line in f.read().splitlines()[1:]:
            key, _, value = line.partition("=")
            lines[key] = value
    assert set(lines) == set(remembered.KEYS)
    return lines


BAD = {
    "geometry": ["abc", "", "@Invalid()", "1, 2, 3", "@ByteArray(" + "x" * 100_000 + ")"],
    "state": ["garbage", "", "@Invalid()", "@ByteArray(\\0\\0\\0)", "a, b"],
    "program": ["@Invalid()", "@ByteArray(\\xff\\xfe)", "  ", "a, b", "1, 2",
                "x" * (5 * MAX_CHARS)],
    "speed": ["abc", "", "-5", "99999", "1e400", "@Invalid()", "4.5", "true", "1, 2"],
    "constants_as_nodes": ["abc", "2", "@Invalid()", "", "1, 2"],
}


def test_defect_1_the_issue_reproduction(qtbot, isolated_settings):
    write_raw(isolated_settings, {"speed": "abc", "state": "garbage"})
    window = start(qtbot)  # a ValueError traceback before, on every launch
    assert window.graph_tab.speed.value() == remembered.DEFAULT_SPEED
    assert window.session.program.output_name == "loss"
    window.close()


@pytest.mark.parametrize("key", list(BAD))
def test_each_damaged_key_alone_gives_its_default(key, qtbot, isolated_settings):
    lines = good_settings(qtbot)
    if key == "program":  # the key an earlier version kept the program in, read alone
        shutil.rmtree(os.path.join(os.path.dirname(settings_file(isolated_settings)),
                                   "recovery"))
    for bad in BAD[key]:
        write_raw(isolated_settings, {**lines, key: bad})
        window = start(qtbot)
        # the damaged key is back to its default; every other key is restored
        assert window.graph_tab.speed.value() == (4 if key == "speed" else 9), bad
        assert window.graph_tab.constants_as_nodes == (key != "constants_as_nodes"), bad
        expected_text = NEURON if key == "program" else TYPED
        assert window.editor.text() == expected_text, bad[:40]
        assert window.session.program is not None
        window.remember = False  # keep the damaged file for the next value
        window.close()


# the Learn tab's progress (gui/tabs/learn/progress.py checks its own keys)
BAD_LEARN = {
    "learn/section": ["abc", "-1", "999", "9" * 5000, "@Invalid()"],
    "learn/seen": ["nope", "@ByteArray(\\xff)", "1, 2", "x" * 100_000, ""],
    "learn/solved": ["@Invalid()", "99", "a,b,c", "", "\\0"],
    "learn/quiz": ["0:99", "x:y", "-1:0", "1e9:1", "0:" + "9" * 5000],
}


def test_every_key_damaged_at_once(qtbot, isolated_settings):
    every = {**BAD, **BAD_LEARN}
    for i in range(max(len(v) for v in every.values())):
        write_raw(isolated_settings, {k: v[i % len(v)] for k, v in every.items()})
        window = start(qtbot)
        assert window.graph_tab.speed.value() == 4
        assert window.graph_tab.constants_as_nodes is False
        assert window.editor.text() == NEURON
        assert window.session.program.output_name == "loss"
        progress = window.learn_tab.progress  # made now, reading its damaged keys
        # the first section, seen now that the tab is shown; nothing else
        assert (progress.section, progress.seen, progress.solved, progress.answers) == (
            0, {"idea"}, set(), {})
        window.remember = False
        window.close()


def test_values_of_the_wrong_type_written_through_qsettings(qtbot):
    settings = QSettings("AutogradDebugger", "AutogradDebugger")
    for key, value in [("geometry", 12), ("state", "text"), ("program", 3.5),
                       ("speed", [1, 2]), ("constants_as_nodes", QByteArray(b"x"))]:
        settings.setValue(key, value)
    settings.sync()
    window = start(qtbot)
    assert window.graph_tab.speed.value() == 4 and window.editor.text() == NEURON
    window.close()
    # and a sane run writes sane values back
    settings = QSettings("AutogradDebugger", "AutogradDebugger")
    assert isinstance(settings.value("state"), QByteArray)
    assert int(settings.value("speed")) == 4


def test_the_validators_one_by_one():
    assert remembered.integer("12", 4, 1, 30) == 12
    assert remembered.integer(" 7 ", 4, 1, 30) == 7
    assert [remembered.integer(v, 4, 1, 30) for v in
            ("0", "31", "abc", True, 2.0, None, "9" * 20)] == [4] * 7
    assert remembered.integer(30, 4, 1, 30) == 30 and remembered.integer(1, 4, 1, 30) == 1
    assert [remembered.boolean(v, False) for v in (True, "true", "false", False)] == [
        True, True, False, False]
    assert remembered.boolean("yes", True) is True
    assert remembered.program_text("x" * MAX_CHARS) == "x" * MAX_CHARS
    assert remembered.program_text("x" * (MAX_CHARS + 1)) is None
    assert remembered.layout_bytes(QByteArray(b"\x01" * remembered.MAX_LAYOUT_BYTES)) is not None
    assert remembered.layout_bytes(QByteArray(b"\x01" * (remembered.MAX_LAYOUT_BYTES + 1))) is None
    assert remembered.layout_bytes(QByteArray()) is None


def test_a_huge_program_is_not_remembered(qtbot):
    window = start(qtbot)
    window.editor.editor.setPlainText("x" * (MAX_CHARS + 1))
    window.close()
    assert QSettings("AutogradDebugger", "AutogradDebugger").value("program") is None


# -- defect 8: a file given at start that cannot be opened -------------------------------

@pytest.mark.parametrize("make", ["missing", "binary", "empty", "folder"])
def test_defect_8_a_file_that_cannot_be_opened_at_start_says_so_and_stays(
        make, qtbot, tmp_path):
    path = tmp_path / "given.expr"
    reasons = {"missing": "No such file or directory", "binary": "NUL bytes",
               "empty": "the file is empty", "folder": "it is a folder"}
    if make == "binary":
        path.write_bytes(b"x = 1\x00")
    elif make == "empty":
        path.write_text("  \n", encoding="utf-8")
    elif make == "folder":
        path.mkdir()
    window = start(qtbot, str(path))
    notice = window.editor.notice
    assert notice.isVisibleTo(window.editor)
    assert notice.text().startswith(f"Could not open {path}: ")
    assert reasons[make] in notice.text()
    assert notice.text().endswith("The editor shows the lesson's neuron instead.")
    QApplication.processEvents()  # what the start left queued (paints, layouts) runs first
    assert notice.isVisibleTo(window.editor)
    window.build(window.editor.text())  # a build and its "Built …" do not hide it
    assert notice.isVisibleTo(window.editor)
    assert window.windowTitle() == "untitled[*] — Autograd Debugger"
    window.editor.editor.insertPlainText("# edited\n")  # the user's next edit does
    assert not notice.isVisibleTo(window.editor)
    window.close()


def test_a_fifo_chosen_in_the_window_is_refused_without_blocking(window, tmp_path, dialogs):
    fifo = tmp_path / "pipe.expr"
    os.mkfifo(fifo)  # nothing writes to it: an open() would wait for ever
    before = window.editor.text()
    assert not window.open_file(str(fifo))
    assert dialogs[-1][:2] == ("warning", "Cannot open")
    assert dialogs[-1][2] == (f"{fifo} cannot be opened:\n"
                              "it is a FIFO (named pipe), not a regular file")
    assert window.editor.text() == before


# -- defect 11: unsaved work --------------------------------------------------------------

def undo(window) -> None:
    window.editor.editor.undo()


def test_defect_11_a_preset_replaces_typed_work_undoably(window):
    window.editor.editor.setPlainText(TYPED)
    window.editor.editor.insertPlainText("# mine\n")
    typed = window.editor.text()
    assert window.isWindowModified() and window.windowTitle() == "untitled[*] — Autograd Debugger"
    window.open_preset(str(PRESETS / "04-a-plus-a.expr"))
    assert window.editor.text() == (PRESETS / "04-a-plus-a.expr").read_text(encoding="utf-8")
    assert not window.isWindowModified()
    undo(window)  # Ctrl+Z
    assert window.editor.text() == typed
    assert window.isWindowModified()


def test_ctrl_z_from_the_keyboard_restores_the_text_a_pitfalls_example_replaced(window, qtbot):
    window.editor.editor.selectAll()
    window.editor.editor.insertPlainText(TYPED)
    window.pitfalls_tab.preset_requested.emit(str(PRESETS / "10-no-sort.expr"))
    assert window.session.program.output_name == "d"
    window.editor.editor.setFocus()
    qtbot.keySequence(window.editor.editor, QKeySequence.StandardKey.Undo)
    assert window.editor.text() == TYPED


def test_opening_a_file_over_typed_work_is_undoable(window, tmp_path):
    path = tmp_path / "other.expr"
    path.write_text("u = 1\nv = u*u", encoding="utf-8")
    window.editor.editor.selectAll()
    window.editor.editor.insertPlainText(TYPED)
    assert window.open_file(str(path))
    assert window.windowTitle() == "other.expr[*] — Autograd Debugger"
    assert not window.isWindowModified()
    undo(window)
    assert window.editor.text() == TYPED and window.isWindowModified()


def test_the_title_marks_unsaved_changes_until_saved(window, tmp_path):
    path = tmp_path / "mine.expr"
    assert not window.isWindowModified()
    window.editor.editor.insertPlainText("# a comment\n")
    assert window.isWindowModified()
    assert window.save_to(path)
    assert not window.isWindowModified()
    assert window.windowTitle() == "mine.expr[*] — Autograd Debugger"


@pytest.mark.parametrize("answer, closes, saved", [
    ("Cancel", False, False), ("Discard", True, False), ("Save", True, True)])
def test_quitting_with_unsaved_changes_to_a_file_asks(answer, closes, saved, qtbot,
                                                      tmp_path, monkeypatch):
    path = tmp_path / "mine.expr"
    path.write_text("u = 1\nv = u*u", encoding="utf-8")
    window = start(qtbot, str(path))
    window.editor.editor.insertPlainText("w = 3\n")
    asked = []

    def question(parent, title, text, buttons, default):
        asked.append((title, text))
        return getattr(QMessageBox.StandardButton, answer)

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    assert window.close() is closes
    assert asked == [("Unsaved changes", "mine.expr has changes that are not saved. Save them?")]
    assert path.read_text(encoding="utf-8") == ("w = 3\nu = 1\nv = u*u" if saved
                                                else "u = 1\nv = u*u")
    monkeypatch.setattr(QMessageBox, "question",
                        staticmethod(lambda *a: QMessageBox.StandardButton.Discard))
    window.close()


def test_quitting_unmodified_or_remembered_work_does_not_ask(qtbot, dialogs):
    window = start(qtbot)
    window.editor.editor.insertPlainText("# remembered at close\n")
    assert window.close()
    assert dialogs == []


# -- defect 7: a gradient that overflows --------------------------------------------------

OVERFLOW = "x = 1e-300; c = 1e200; y = x*c*c"


def test_defect_7_the_window_refuses_an_overflowing_gradient(window):
    before = window.session.program
    assert not window.build(OVERFLOW)
    assert window.session.program is before  # the last good graph stays
    assert window.editor.error.text() == (
        "Line 1, col 1: the gradient with respect to 'x' is too large to represent (it "
        "overflows a float)\nThe graph shows the last program that built.")
    assert "too large to represent" in window.statusBar().currentMessage()


def test_an_overflowing_file_is_opened_only_to_fix_it(window, tmp_path, dialogs):
    path = tmp_path / "overflow.expr"
    path.write_text(OVERFLOW, encoding="utf-8")
    before = window.session.program
    window.open_file(str(path))
    assert dialogs[-1][0] == "question"
    assert "too large to represent" in dialogs[-1][2]
    assert window.session.program is before


# -- defect 10: a message is not as long as its input -------------------------------------

def test_defect_10_a_million_character_name_gives_a_short_message(window, qtbot):
    """A 2 MB message froze the window for 5 s in its repaint."""
    name = "a" * (MAX_CHARS - 10)
    window.build("y = " + name)  # parsed in the background: a big text
    assert window.wait_for_build()
    qtbot.waitUntil(lambda: window.editor.error.isVisibleTo(window.editor), timeout=30_000)
    shown = window.editor.error.text()
    assert len(shown) < 300
    assert shown.startswith("Line 1, col 5: '" + "a" * 79 + "… (999,990 characters)' is "
                            "not defined")
    assert len(window.statusBar().currentMessage()) < 300


def test_a_big_overflowing_program_built_in_the_background_is_refused(window, qtbot):
    from gui.jobs.program_build import BACKGROUND_CHARS

    before = window.session.program
    text = "# " + "-" * BACKGROUND_CHARS + "\n" + OVERFLOW
    assert window.build(text)  # started in the background
    assert window.wait_for_build()
    qtbot.waitUntil(lambda: window.editor.error.isVisibleTo(window.editor), timeout=30_000)
    assert window.session.program is before
    assert window.editor.error.text().startswith(
        "Line 2, col 1: the gradient with respect to 'x' is too large to represent")


def test_a_file_name_with_markup_is_shown_as_written(window, tmp_path, monkeypatch):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QMessageBox

    from gui.window import boxes

    seen = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(
        lambda *args: pytest.fail("a warning box in Qt's automatic text format")))
    monkeypatch.setattr(boxes, "plain_warning", lambda *args: seen.append(args[2]))
    name = tmp_path / "<img src='x.png'><b>x.expr"
    name.write_text("")  # empty: it cannot be opened
    window.open_file(str(name))
    assert seen and "<img src='x.png'" in seen[-1] and "cannot be opened" in seen[-1]
    assert window.editor.notice.textFormat() == Qt.TextFormat.PlainText
    monkeypatch.undo()
    shown = []

    def exec_(box):
        shown.append((box.textFormat(), box.text()))
        return QMessageBox.StandardButton.Ok

    monkeypatch.setattr(QMessageBox, "exec", exec_)
    assert boxes.plain_warning(window, "t", "<b>x</b>") == QMessageBox.StandardButton.Ok
    assert shown == [(Qt.TextFormat.PlainText, "<b>x</b>")]


def test_a_long_path_is_cut_at_its_start_so_its_file_name_is_said(window, tmp_path,
                                                                   monkeypatch):
    """A message quotes at most 80 characters of a path: its end, with the file's name,
    never its start alone (a deep folder hid the name of the file that failed)."""
    from gui.window import boxes

    seen = []
    monkeypatch.setattr(boxes, "plain_warning", lambda *args: seen.append(args[2]))
    folder = tmp_path / ("a-folder-with-a-long-name-" * 4)
    folder.mkdir()
    name = folder / "my program.expr"
    name.write_text("")
    window.open_file(str(name))
    said = seen[-1].split(" cannot be opened")[0]
    assert said.startswith("…") and said.endswith("/my program.expr") and len(said) == 80
