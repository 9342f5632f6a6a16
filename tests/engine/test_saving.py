"""Defect 5: saving replaces a file atomically, through a symbolic link too, and leaves
no temporary file behind."""

import os
import subprocess
import sys
import time

import pytest

import engine.io.files
from engine.io.files import NotARegularFile, remove_stale_temporaries, write_atomic


def temporaries(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".~"))


def test_a_symlink_is_followed_and_stays_a_link(tmp_path):
    real = tmp_path / "real.expr"
    real.write_text("x = 1\n", encoding="utf-8")
    real.chmod(0o600)
    link = tmp_path / "link.expr"
    link.symlink_to("real.expr")
    write_atomic(link, "x = 2\n")
    assert link.is_symlink() and os.readlink(link) == "real.expr"
    assert real.read_text(encoding="utf-8") == "x = 2\n"
    assert real.stat().st_mode & 0o777 == 0o600  # the target's permissions are kept
    assert temporaries(tmp_path) == []


def test_a_chain_of_links_into_another_folder(tmp_path):
    (tmp_path / "elsewhere").mkdir()
    real = tmp_path / "elsewhere" / "real.expr"
    real.write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "one.expr").symlink_to(real)
    (tmp_path / "two.expr").symlink_to(tmp_path / "one.expr")
    write_atomic(tmp_path / "two.expr", "x = 3\n")
    assert (tmp_path / "two.expr").is_symlink() and (tmp_path / "one.expr").is_symlink()
    assert real.read_text(encoding="utf-8") == "x = 3\n"
    assert temporaries(tmp_path / "elsewhere") == [] and temporaries(tmp_path) == []


def test_a_dangling_link_creates_its_target(tmp_path):
    link = tmp_path / "link.expr"
    link.symlink_to("new.expr")
    write_atomic(link, "y = 1\n")
    assert link.is_symlink() and (tmp_path / "new.expr").read_text(encoding="utf-8") == "y = 1\n"


@pytest.mark.parametrize("failing", ["fsync", "replace", "chmod"])
def test_a_failed_save_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch, failing):
    path = tmp_path / "p.expr"
    path.write_text("old\n", encoding="utf-8")

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(engine.io.files.os, failing, broken)
    with pytest.raises(OSError):
        write_atomic(path, "new\n")
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == "old\n"
    assert temporaries(tmp_path) == []


def test_a_fifo_or_folder_is_not_replaced(tmp_path):
    os.mkfifo(tmp_path / "f.expr")
    with pytest.raises(NotARegularFile):
        write_atomic(tmp_path / "f.expr", "x = 1\n")
    with pytest.raises(NotARegularFile):
        write_atomic(tmp_path, "x = 1\n")
    assert temporaries(tmp_path) == []


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_temporaries_of_a_crashed_save_are_removed_by_the_next(tmp_path):
    """A kill during a save leaves `.~NAME.PID.xxxx.tmp`; the next save of NAME removes
    it once its writer is gone and it is a minute old. A fresh one, one whose writer
    still runs, and those of other files are left alone."""
    path = tmp_path / "p.expr"
    path.write_text("x = 1\n", encoding="utf-8")
    old = time.time() - 3600
    crashed = tmp_path / f".~p.expr.{dead_pid()}.abcd.tmp"
    fresh = tmp_path / f".~p.expr.{dead_pid()}.efgh.tmp"
    running = tmp_path / f".~p.expr.{os.getppid()}.ijkl.tmp"  # a live process
    other = tmp_path / f".~q.expr.{dead_pid()}.mnop.tmp"
    for f in (crashed, fresh, running, other):
        f.write_text("partial", encoding="utf-8")
    for f in (crashed, running, other):
        os.utime(f, (old, old))
    write_atomic(path, "x = 2\n")
    assert path.read_text(encoding="utf-8") == "x = 2\n"
    assert temporaries(tmp_path) == sorted(f.name for f in (fresh, running, other))
    assert remove_stale_temporaries(tmp_path / "q.expr") == [str(other)]


def test_a_kill_during_a_save_is_cleaned_up_by_the_next(tmp_path):
    """A real process killed with SIGKILL while its temporary file is open."""
    path = tmp_path / "p.expr"
    path.write_text("x = 1\n", encoding="utf-8")
    script = (
        "import os, sys, time\n"
        "import engine.io.files as files\n"
        "def hang(fd):\n"
        "    print('writing', flush=True); time.sleep(600)\n"
        "files.os.fsync = hang\n"
        f"files.write_atomic({str(path)!r}, 'x = 2\\n')\n")
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                             cwd=os.path.dirname(os.path.dirname(os.path.dirname(
                                 os.path.abspath(__file__)))))
    assert child.stdout.readline() == b"writing\n"
    child.kill()
    child.wait()
    left = temporaries(tmp_path)
    assert len(left) == 1 and left[0].startswith(f".~p.expr.{child.pid}.")
    assert path.read_text(encoding="utf-8") == "x = 1\n"  # the old file is whole
    old = time.time() - 3600
    os.utime(tmp_path / left[0], (old, old))
    write_atomic(path, "x = 3\n")
    assert temporaries(tmp_path) == []
