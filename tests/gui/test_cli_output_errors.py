"""Defect 4: no command shows a traceback when its output cannot be written. Every
command runs against each bad output: a closed pipe (silent, exit 141), a full disk and
an ASCII-only encoding (one line, exit 4), and a bad --out / OUT (exit 4, before the
work). In-process through main.main, so the report's figures are computed once."""

import io
import os

import pytest

import cli.report
import main
from engine.lesson.report import ReportProgress, compute
from tests.engine.helpers import PRESETS

NEURON_FILE = str(PRESETS / "01-neuron.expr")
ENGINES = PRESETS.parent / "engines"


@pytest.fixture(scope="module")
def report_data():
    return compute(quick=True)


@pytest.fixture
def quick_report(monkeypatch, report_data):
    """`report` without its minute of measuring: the records of one quick run."""
    built = []

    def build_report(quick=False):
        built.append(quick)
        yield ReportProgress(0, 1, "canned")
        yield report_data

    monkeypatch.setattr(cli.report, "build_report", build_report)
    return built


def commands(tmp_path):
    return {
        "grad": ["grad", NEURON_FILE],
        "grad --json": ["grad", NEURON_FILE, "--json"],
        "train": ["train", "--epochs", "20"],
        "train --json": ["train", "--epochs", "20", "--json"],
        "report": ["report"],
        "export": ["export", NEURON_FILE, str(tmp_path / "grafo-∂.json")],
        "screenshot": ["screenshot", str(tmp_path / "shot-∂.png")],
        "check-engine": ["check-engine", str(ENGINES / "overwrite.py")],
    }


def closed_pipe():
    read, write = os.pipe()
    os.close(read)
    return open(write, "w", encoding="utf-8")


def full_disk():
    return open("/dev/full", "w", encoding="utf-8")


def ascii_only():
    return io.TextIOWrapper(io.BytesIO(), encoding="ascii")


OUTPUTS = {"closed pipe": closed_pipe, "full disk": full_disk, "ascii": ascii_only}
COMMANDS = ["grad", "grad --json", "train", "train --json", "report", "export", "screenshot",
            "check-engine"]


@pytest.mark.parametrize("output", list(OUTPUTS))
@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_against_every_bad_output(name, output, tmp_path, monkeypatch,
                                                capsys, quick_report):
    stdout = OUTPUTS[output]()
    monkeypatch.setattr("sys.stdout", stdout)
    try:
        code = main.main(commands(tmp_path)[name])
    finally:
        monkeypatch.undo()
        try:
            stdout.close()
        except OSError:
            pass
    err = capsys.readouterr().err
    err = "\n".join(line for line in err.splitlines()
                    if "propagateSizeHints" not in line and "[0/1] canned" not in line)
    if output == "closed pipe":
        assert (code, err) == (141, "")
    elif output == "full disk":
        assert (code, err) == (4, "error: cannot write the output: No space left on device")
    elif name in ("report", "export", "screenshot"):  # ∂ in the text or the path
        assert code == 4
        assert err.startswith("error: cannot print '\\u2202' in the output's encoding "
                              "(ascii): set PYTHONIOENCODING=utf-8")
        assert "\n" not in err
    elif name == "check-engine":  # ASCII only; exit 1: this engine overwrites
        assert (code, err) == (1, "")
    else:  # nothing but ASCII to print
        assert (code, err) == (0, "")


@pytest.mark.parametrize("name", ["report", "export", "screenshot"])
def test_a_bad_out_is_refused_before_the_work(name, tmp_path, capsys, quick_report):
    """A file where a folder should be, a path under /proc, a missing folder."""
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    for where, reason in [(a_file, "Not a directory"), ("/proc/x", "No such file or directory"),
                          (tmp_path / "missing", "No such file or directory")]:
        if name == "report":
            target = str(where) + ("/deeper" if where == tmp_path / "missing" else "")
            argv = ["report", "--out", target]
            expected = (f"error: cannot write into {target!r}: "
                        + ("it is a file, not a folder" if where == a_file else reason))
        else:
            target = f"{where}/out.png"
            argv = (["export", NEURON_FILE, target] if name == "export"
                    else ["screenshot", target])
            expected = f"error: cannot write {target!r}: {reason}"
            if where != a_file:
                expected = (f"error: cannot write {target!r}: the folder "
                            f"{str(where)!r} does not exist")  # nothing to create it in
        code = main.main(argv)
        err = capsys.readouterr().err.strip()
        if name == "report" and where == tmp_path / "missing":
            # a missing report folder is made
            assert code == 0 and (tmp_path / "missing" / "deeper" / "report.md").exists()
            continue
        assert (code, err) == (4, expected), argv
    assert quick_report == ([False] if name == "report" else [])  # computed only once


def test_a_read_only_folder_is_found_before_the_report(tmp_path, capsys, quick_report,
                                                       monkeypatch):
    """A read-only mount (simulated: creating a file there fails with EROFS)."""
    import errno
    import tempfile

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(tempfile, "TemporaryFile", read_only)
    code = main.main(["report", "--out", str(tmp_path)])
    assert code == 4
    assert capsys.readouterr().err == (f"error: cannot write into {str(tmp_path)!r}: "
                                       "Read-only file system\n")
    assert quick_report == []


# -- issue 26 item 3: `report --out` writes whole, or not at all ---------------------------

def _failing_writes(monkeypatch, where: str) -> None:
    """A disk that fills up while the report is written: a fragment, then ENOSPC."""
    import errno

    import engine.io.files
    import gui.tabs.report_figures

    if where == "markdown":
        def write_atomic(path, text):
            with open(path, "w", encoding="utf-8") as f:
                f.write(text[:100])  # a fragment where the file was to be
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

        monkeypatch.setattr(engine.io.files, "write_atomic", write_atomic)
    else:
        def save(widget, path):  # QImage.save's answer on a full disk: False
            widget.close()
            path.write_bytes(b"\x89PNG\r\n")
            return False

        monkeypatch.setattr(gui.tabs.report_figures, "_save", save)


@pytest.mark.parametrize("where", ["markdown", "figure"])
@pytest.mark.parametrize("existing", [True, False])
def test_a_report_that_cannot_be_written_whole_leaves_nothing(where, existing, tmp_path,
                                                              capsys, quick_report,
                                                              monkeypatch):
    out = tmp_path / "report"
    if existing:  # last week's report, which must survive whole
        out.mkdir()
        (out / "report.md").write_text("the old report\n", encoding="utf-8")
        (out / "xor.png").write_bytes(b"old picture")
    _failing_writes(monkeypatch, where)
    code = main.main(["report", "--out", str(out)])
    err = capsys.readouterr().err.splitlines()
    err = [line for line in err if "propagateSizeHints" not in line
           and "[0/1] canned" not in line]
    reason = "No space left on device" if where == "markdown" else "could not be written"
    assert code == 4
    assert len(err) == 1 and err[0].startswith(f"error: cannot write {str(out)!r}: ")
    assert reason in err[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == (["report"] if existing else [])
    if existing:
        assert sorted(p.name for p in out.iterdir()) == ["report.md", "xor.png"]
        assert (out / "report.md").read_text(encoding="utf-8") == "the old report\n"
        assert (out / "xor.png").read_bytes() == b"old picture"


def test_a_report_replaces_the_files_of_an_older_one_whole(tmp_path, capsys, quick_report):
    out = tmp_path / "report"
    out.mkdir()
    (out / "report.md").write_text("the old report\n", encoding="utf-8")
    (out / "notes.txt").write_text("mine\n", encoding="utf-8")  # not the report's: kept
    assert main.main(["report", "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "modes.png", "notes.txt", "report.md", "rules.png", "xor.png"]
    assert (out / "report.md").read_text(encoding="utf-8").startswith("# ")
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]
    assert capsys.readouterr().out.split() == [str(out / n) for n in (
        "report.md", "rules.png", "modes.png", "xor.png")]
