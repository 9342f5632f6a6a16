"""`from gui import debug; debug(root)`: the window on a graph built in Python."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from engine import Value
from engine.checks.engine_check.replay import RecordedEngine
from engine.lesson.nn import MLP
from gui import debug

ENGINES = Path(__file__).resolve().parents[1] / "engine" / "engines"


def test_an_mlp_built_in_python_is_stepped_in_the_window(qtbot):
    net = MLP([2, 3, 1])
    x = [Value(0.5, label="x1"), Value(-1.0, label="x2")]
    loss = (net(x) - 1.0) ** 2
    loss.backward()
    window = debug(loss, block=False)
    qtbot.addWidget(window)
    session = window.session
    assert session.program.output.data == pytest.approx(loss.data)
    assert window.graph_tab.scene.nodes  # drawn
    assert window.windowTitle().startswith("debug(out)")  # what the user called
    session.run_to_end()
    assert session.program.inputs["x1"].grad == pytest.approx(x[0].grad)
    assert session.program.inputs["x2"].grad == pytest.approx(x[1].grad)
    assert "x1 = 0.5" in window.editor.text().splitlines()
    window.close()


def test_a_microgpt_style_graph_is_stepped_as_recorded(qtbot):
    spec = importlib.util.spec_from_file_location("i15_lg", ENGINES / "local_grads.py")
    lg = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lg)
    a = lg.Value(3.0)
    c = a * a + a.exp()
    window = debug(c, block=False)
    qtbot.addWidget(window)
    assert isinstance(window.session.engine, RecordedEngine)
    assert window.graph_tab.engine_box.currentText() == "your engine: recorded local derivatives"
    window.session.run_to_end()
    c.backward()
    leaf = next(iter(window.session.program.inputs.values()))
    assert leaf.grad == pytest.approx(a.grad)
    window.close()
