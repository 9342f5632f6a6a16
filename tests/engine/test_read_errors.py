"""A file that cannot be read is reported as a read ("cannot read"), never as a write."""

import errno
import io

import pytest

import engine.io.files
import main
from cli.common import quoted_path
from engine.io.files import ReadError, read_program


def test_a_missing_file_is_a_read_error(tmp_path):
    missing = tmp_path / "gone.expr"
    with pytest.raises(ReadError) as info:
        read_program(missing)
    assert (info.value.errno, info.value.filename) == (errno.ENOENT, str(missing))


def test_a_failing_read_keeps_its_reason_and_names_the_file(tmp_path, monkeypatch):
    path = tmp_path / "p.expr"
    path.write_text("x = 1\n", encoding="utf-8")

    def broken(*args):
        raise OSError(errno.EIO, "Input/output error")  # no file name, as read() says it

    monkeypatch.setattr(engine.io.files.os, "fdopen", broken)
    with pytest.raises(ReadError) as info:
        read_program(path)
    assert (info.value.errno, info.value.strerror, info.value.filename) == (
        errno.EIO, "Input/output error", str(path))


def test_a_command_that_cannot_read_a_file_says_so(tmp_path, monkeypatch, capsys):
    missing = tmp_path / "assets" / "presets" / "01-neuron.expr"
    args = main._command_parser("grad").parse_args(["-"])
    args.run = lambda args: len(read_program(missing))
    monkeypatch.setattr("sys.stdout", io.StringIO())
    assert main._run_command(args) == 2
    assert capsys.readouterr().err == (f"error: cannot read {quoted_path(str(missing))}: "
                                       "No such file or directory\n")
