"""An installation without the app's own files says which one it cannot read (it said
"cannot write …/01-neuron.expr" for the default program, a read)."""

import gui.window.main_window
import main
from cli.common import quoted_path


def test_screenshot_without_the_default_program(tmp_path, monkeypatch, capsys):
    missing = tmp_path / "site-packages" / "assets" / "presets" / "01-neuron.expr"
    monkeypatch.setattr(gui.window.main_window, "DEFAULT_PROGRAM", missing)
    out = tmp_path / "shot.png"
    assert main.main(["screenshot", str(out)]) == 2
    assert capsys.readouterr().err == (f"error: cannot read {quoted_path(str(missing))}: "
                                       "No such file or directory\n")
    assert not out.exists()
