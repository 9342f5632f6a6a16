"""Defects 2 and 3: every input the commands read is bounded and never blocks; output
that cannot be written is one line and an exit code. Real processes, real exit codes."""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from engine.io.files import MAX_FILE_BYTES, NotARegularFile, read_program, read_stream
from tests.engine.helpers import PRESETS

ROOT = Path(__file__).resolve().parents[2]
NEURON_FILE = str(PRESETS / "01-neuron.expr")


def run(*args, stdin=None, cwd=ROOT, **kwargs):
    kwargs.setdefault("stdout", subprocess.PIPE)
    kwargs.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], stdin=stdin,
                          cwd=cwd, timeout=120, **kwargs)


def no_traceback(result) -> str:
    err = result.stderr.decode()
    assert "Traceback" not in err and "Exception ignored" not in err, err
    return err


def test_endless_standard_input_is_cut_at_the_file_limit():
    """Defect 2: `cat /dev/zero | main.py grad -` stops after the limit with exit 2
    (it read 3.9 GB in 8 s before)."""
    with open("/dev/zero", "rb") as zeros:
        result = run("grad", "-", stdin=zeros)
    assert result.returncode == 2
    assert no_traceback(result) == (
        f"error: line 1, col 1: the text is more than {MAX_FILE_BYTES:,} bytes long; "
        "a program is at most 1,000,000 characters\n")


def test_standard_input_reads_at_most_one_byte_past_the_limit():
    class Endless:
        asked = []

        def read(self, n=-1):
            self.asked.append(n)
            assert n >= 0, "an unbounded read"
            return b"x" * n

    with pytest.raises(Exception, match="more than 4,000,000 bytes"):
        read_stream(Endless())
    assert Endless.asked == [MAX_FILE_BYTES + 1]


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "f.expr"
    os.mkfifo(path)
    return str(path)


@pytest.mark.parametrize("command", [
    ["grad", "{}"], ["export", "{}", "out.json"], ["screenshot", "out.png", "--expr", "{}"],
    ["check-engine", "{}"], ["{}"],
])
def test_a_fifo_is_refused_without_waiting_for_a_writer(command, fifo, tmp_path):
    """Defect 3: `mkfifo f; main.py grad f` blocked forever (so did export, screenshot
    --expr and the window). Nothing writes to the FIFO here: opening it would hang."""
    args = [a.replace("{}", fifo) for a in command]
    result = run(*args, cwd=tmp_path, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert result.returncode == 2
    err = no_traceback(result)
    verb = "open" if command == ["{}"] else "read"
    assert err == f"error: cannot {verb} {fifo!r}: it is a FIFO (named pipe), not a regular file\n"
    assert not (tmp_path / "out.json").exists() and not (tmp_path / "out.png").exists()


def test_devices_sockets_and_folders_are_refused_before_opening(tmp_path):
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "s"))
    try:
        cases = {"/dev/zero": "a device", str(tmp_path / "s"): "a socket",
                 str(tmp_path): "a folder"}
        for path, kind in cases.items():
            with pytest.raises(NotARegularFile) as info:
                read_program(path)
            assert info.value.strerror == f"it is {kind}, not a regular file"
        result = run("grad", "/dev/zero")
        assert result.returncode == 2
        assert no_traceback(result) == (
            "error: cannot read '/dev/zero': it is a device, not a regular file\n")
    finally:
        server.close()


def test_a_file_is_read_at_most_one_byte_past_the_limit(tmp_path):
    big = tmp_path / "big.expr"
    with open(big, "wb") as f:
        f.truncate(50 * MAX_FILE_BYTES)  # sparse: 200 MB that take no room
    with pytest.raises(Exception, match="more than 4,000,000 bytes"):
        read_program(big)


def test_closed_standard_output_is_silent_with_exit_141():
    """Defect 4: `grad ... | head -c 10` must not print a BrokenPipeError traceback
    (at the write, or at the interpreter's last flush)."""
    process = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "grad", NEURON_FILE,
                                "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               cwd=ROOT)
    process.stdout.close()  # the reader is gone before anything is written
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 141
    assert err == ""


def test_a_full_disk_on_standard_output_is_one_line_and_exit_4():
    with open("/dev/full", "wb") as full:
        result = run("grad", NEURON_FILE, stdout=full)
    assert result.returncode == 4
    assert no_traceback(result) == "error: cannot write the output: No space left on device\n"
