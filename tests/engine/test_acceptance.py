"""One check decides whether a program is acceptable (engine/core/acceptance.py), and every
command that takes a program uses it: a program the window refuses is refused by grad,
export, screenshot and animate too, at the same line and column, instead of a picture of
something else or gradients that leave out the overflow."""

import subprocess
import sys
from pathlib import Path

import pytest

from engine import ExpressionError
from engine.core.acceptance import accepted

ROOT = Path(__file__).resolve().parents[2]
REFUSED = {
    # the README's own overflow example: dy/dx = 1e400
    "x = 1e-300; c = 1e200; y = x*c*c":
        "line 1, col 1: the gradient with respect to 'x' is too large to represent",
    # every input's gradient is finite; a constant's is not
    "x = 1; y = x + 1e-300 * 1e300 * 1e10":
        "line 1, col 16: the gradient with respect to 1e-300 is too large to represent",
}


def test_the_check_names_the_node_whose_gradient_overflows():
    for text, message in REFUSED.items():
        with pytest.raises(ExpressionError) as caught:
            accepted(text)
        line, col = (int(p.split()[-1]) for p in message.split(":")[0].split(","))
        assert (caught.value.line, caught.value.col) == (line, col)
    program = accepted("a = 3\nb = a * a")
    assert program.output.data == 9.0 and program.inputs["a"].grad == 0.0  # left fresh


@pytest.mark.parametrize("command", ["grad", "export", "screenshot", "animate"])
def test_every_command_refuses_what_the_window_refuses(tmp_path, command):
    for k, (text, message) in enumerate(REFUSED.items()):
        program = tmp_path / f"p{k}.expr"
        program.write_text(text + "\n")
        out = tmp_path / {"grad": "", "export": "o.json", "screenshot": "o.png",
                          "animate": "o.gif"}[command]
        args = {"grad": [str(program)], "export": [str(program), str(out)],
                "screenshot": [str(out), "--expr", str(program)],
                "animate": [str(program), str(out)]}[command]
        done = subprocess.run([sys.executable, str(ROOT / "main.py"), command, *args],
                              capture_output=True, text=True, cwd=ROOT, timeout=120,
                              env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
        assert done.returncode == 2, (command, text, done.stdout, done.stderr)
        assert done.stderr.startswith(f"error: {message}")
        assert done.stdout == ""
        if command != "grad":
            assert not out.exists()  # no picture of another program
