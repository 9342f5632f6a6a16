"""A plain script (no `if __name__ == "__main__":` guard) that calls draw() and debug():
it runs once, and exits 0. Spawned children are started with the script's __main__
hidden (engine._spawn), so none of them runs it again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent('''
    import sys
    sys.path.insert(0, {root!r})
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from gui import debug, draw
    from tests.foreign_models import micrograd_demo

    import atexit, gc
    # registered before debug() is called: runs after the window's own exit handler
    atexit.register(lambda: print("frozen at exit", gc.get_freeze_count() > 0, flush=True))
    demo = micrograd_demo(30)
    model, inputs, loss = demo.model, demo.inputs, demo.loss
    print("built the MLP", flush=True)
    draw(loss, {out!r})
    window = debug(loss, block=False)
    app = QApplication.instance()

    def close_when_built():
        if window.building:
            QTimer.singleShot(20, close_when_built)
            return
        print("opened", window.windowTitle().split("[")[0], len(window.session.program.values),
              flush=True)
        window.close()
        print("frozen while running", gc.get_freeze_count() > 0, flush=True)
        app.quit()

    QTimer.singleShot(20, close_when_built)
    app.exec()
''')


def test_a_script_without_a_main_guard_runs_once_and_exits_0(tmp_path):
    out = tmp_path / "mlp.json"
    script = tmp_path / "train.py"
    script.write_text(SCRIPT.format(root=str(ROOT), out=str(out)), encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines.count("built the MLP") == 1, done.stdout  # the script ran once
    assert "opened debug(loss) 20458" in lines, done.stdout
    assert "bootstrapping phase" not in done.stderr
    # the last collections at exit skip the graphs (seconds of a terminal waiting on a
    # 65,000-node graph), and only then
    assert lines[-2:] == ["frozen while running False", "frozen at exit True"], done.stdout
    drawn = json.loads(out.read_text(encoding="utf-8"))
    assert set(drawn) >= {"nodes", "edges"}


def test_a_child_started_with_main_hidden_sees_no_main_module():
    from engine import _spawn

    main = sys.modules["__main__"]
    with _spawn.main_hidden():
        bare = sys.modules["__main__"]
        assert bare is not main
        assert bare.__spec__ is None and not hasattr(bare, "__file__")
        from multiprocessing.spawn import get_preparation_data

        data = get_preparation_data("child")
        assert "init_main_from_path" not in data and "init_main_from_name" not in data
    assert sys.modules["__main__"] is main
