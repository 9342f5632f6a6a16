"""Issue 26 item 3: every argument is checked before the work, and a bad one is one line
on standard error with exit 2 (argparse's own errors too: no usage block before them),
and nothing is written."""

import subprocess
import sys
from pathlib import Path

import main
from tests.engine.helpers import PRESETS

ROOT = Path(__file__).resolve().parents[2]
NEURON = str(PRESETS / "01-neuron.expr")
ENGINE = str(PRESETS.parent / "engines" / "overwrite.py")


def bad_arguments(out: str) -> list[tuple[list[str], str]]:
    """(argv, the one line expected on standard error)."""
    png, gif = out + ".png", out + ".gif"
    return [
        (["grad"], "main.py grad: error: the following arguments are required: FILE|-"),
        (["grad", NEURON, "--pitfall", "bogus"], "main.py grad: error: argument --pitfall: "
         "invalid choice: 'bogus' (choose from 'overwrite', 'no-sort')"),
        (["grad", NEURON, "--bogus"], "main.py grad: error: unrecognized arguments: --bogus"),
        (["train", "--epochs", "abc"],
         "main.py train: error: argument --epochs: invalid int value: 'abc'"),
        (["train", "--epochs", "0"], "error: --epochs must be 1 to 100,000,000, not 0"),
        (["train", "--seed", "-1"], "error: --seed must be 0 to 4,294,967,295 (the seeds "
         "numpy draws from), not -1"),
        (["train", "--hidden", "9"], "main.py train: error: argument --hidden: invalid "
         "choice: 9 (choose from 1, 2, 3, 4, 5, 6, 7, 8)"),
        (["export", NEURON, out + ".json", "--steps", "-5"], "error: --steps: a number of "
         "steps, 0 or more (a large number means to the end), not -5"),
        (["screenshot", png, "--size", "0x0"],
         "error: --size: each side is 200 to 7,680 pixels, not 0x0"),
        (["screenshot", png, "--size", "99999x99999"],
         "error: --size: each side is 200 to 7,680 pixels, not 99999x99999"),
        (["screenshot", png, "--steps", "-3"], "error: --steps: a number of steps, 0 or "
         "more (a large number means to the end), not -3"),
        (["check-engine", ENGINE, "--timeout", "inf"], "error: --timeout wants a number "
         "of seconds above 0 and at most 3,600, not inf"),
        (["check-engine", ENGINE, "--timeout", "nan"], "error: --timeout wants a number "
         "of seconds above 0 and at most 3,600, not nan"),
        (["check-engine", ENGINE, "--class", "os.system('ls')"], "error: --class wants a "
         "class's name (a Python identifier), not \"os.system('ls')\""),
        (["report", "--out", ""], "error: --out: the path is empty"),
        (["animate", NEURON, gif, "--fps", "0"],
         "error: --fps: 0.1 to 60 frames a second, not 0"),
        (["main-window-file", "--bogus"], "main.py: error: unrecognized arguments: --bogus"),
    ]


def test_every_bad_argument_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("sys.argv", ["main.py"])
    out = str(tmp_path / "out")
    for argv, expected in bad_arguments(out):
        if argv[0] == "main-window-file":
            argv = argv[1:]
        try:
            code = main.main(argv)
        except SystemExit as e:
            code = e.code
        captured = capsys.readouterr()
        assert code == 2, argv
        assert captured.err == expected + "\n", argv
        assert captured.out == ""
    assert list(tmp_path.iterdir()) == []  # nothing written, no folder made


def test_an_endless_number_of_epochs_is_refused_at_once():
    done = subprocess.run([sys.executable, "main.py", "train", "--epochs",
                           "99999999999999999999"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("error: --epochs must be 1 to 100,000,000, not "
                           "99999999999999999999\n")


def test_the_lowest_bounds_are_accepted(capsys, tmp_path):
    import json

    assert main.main(["train", "--epochs", "1", "--seed", "0", "--json"]) == 0
    assert [e["epoch"] for e in json.loads(capsys.readouterr().out)["epochs"]] == [1]
    assert main.main(["export", NEURON, str(tmp_path / "g.json"), "--steps", "0"]) == 0
    assert json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))["nodes"]
