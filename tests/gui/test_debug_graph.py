"""`from gui import debug, draw`: the window on a graph built in Python, and its picture."""

from __future__ import annotations

import json
import sys

import micrograd.engine as mg
import pytest

from engine import Value, parse
from engine.checks.engine_check.replay import RecordedEngine
from engine.core.engines import CORRECT
from engine.lesson.nn import MLP
from gui import debug, draw
from gui.debug_graph import open_debug_window
from gui.graph.items import ValueItem
from tests.foreign_models import GptValue, micrograd_demo, node_count


def test_an_mlp_built_in_python_is_stepped_in_the_window(qtbot):
    net = MLP([2, 3, 1])
    x = [Value(0.5, label="x1"), Value(-1.0, label="x2")]
    loss = (net(x) - 1.0) ** 2
    window = debug(loss, block=False)
    qtbot.addWidget(window)
    session = window.session
    assert session.program.output.data == loss.data
    assert window.graph_tab.scene.nodes  # drawn
    assert window.windowTitle().startswith("debug(loss)")  # the caller's variable
    inputs = session.program.inputs
    # the lesson's MLP labels every weight "w": the variables tell them apart
    assert "net.layers[0].neurons[2].w[1]" in inputs and "net.layers[1].neurons[0].b" in inputs
    session.run_to_end()
    loss.backward()
    assert inputs["x1"].grad == x[0].grad and inputs["x2"].grad == x[1].grad  # to the bit
    assert inputs["net.layers[0].neurons[2].w[1]"].grad == net.layers[0].neurons[2].w[1].grad
    assert "x1 = 0.5" in window.editor.text().splitlines()
    window.close()


def test_a_microgpt_style_graph_is_stepped_by_this_engine_or_as_recorded(qtbot):
    a = GptValue(3.0)
    c = a * a + a.exp()
    window = debug(c, block=False)
    qtbot.addWidget(window)
    assert window.session.engine is CORRECT  # its rules are this engine's
    window.session.run_to_end()
    c.backward()
    assert window.session.program.inputs["a"].grad == pytest.approx(a.grad, rel=1e-12)
    window.close()
    wrong = a.exp()
    wrong._local_grads = (1.0,)  # a user's rule that is not exp's
    root = wrong * a
    window = debug(root, block=False)
    qtbot.addWidget(window)
    assert isinstance(window.session.engine, RecordedEngine)
    assert window.graph_tab.engine_box.currentText() == "your engine: recorded local derivatives"
    window.session.run_to_end()
    a.grad = 0
    root.backward()
    assert window.session.program.inputs["a"].grad == pytest.approx(a.grad, rel=1e-12)
    window.close()


def test_a_big_graph_opens_through_the_background_and_saves_as_a_program(qtbot, tmp_path):
    demo = micrograd_demo(8)
    model, loss = demo.model, demo.loss
    assert node_count(loss) > 5_000  # over RESTEP_AT: its steps are made in slices
    window = debug(loss, block=False)
    qtbot.addWidget(window)
    assert window.building  # the window draws while the steps are made
    assert window.wait_for_build()
    program = window.session.program
    assert len(program.values) == node_count(loss) and program.output.data == loss.data
    assert not program.has_text  # no text was written to open it
    note = window.editor.text()
    assert note.startswith("# debug(loss): a graph of 6,202 nodes read from Python")
    assert window.save_to(tmp_path / "mlp.expr")
    saved = parse((tmp_path / "mlp.expr").read_text(encoding="utf-8"))
    assert saved.output.data == pytest.approx(loss.data, rel=1e-15)
    assert "model_layers_0_neurons_3_w_1" in saved.inputs
    window.session.run_to_end()
    loss.backward()
    w = model.layers[0].neurons[3].w[1]
    assert program.inputs["model.layers[0].neurons[3].w[1]"].grad == pytest.approx(w.grad,
                                                                                   abs=1e-12)
    window.close()


def test_draw_writes_what_the_window_opens_on_after_the_steps_asked_for(tmp_path):
    w = mg.Value(-0.5)
    x = mg.Value(2.0)
    loss = (w * x + 1).relu() * 3
    out = tmp_path / "graph.json"
    assert draw(loss, str(out), steps=10**9) == str(out)
    drawn = json.loads(out.read_text(encoding="utf-8"))
    labels = [n["label"] for n in drawn["nodes"] if n["kind"] == "value"]
    assert "w" in labels and "x" in labels and "loss" in "".join(labels)
    assert len(drawn["edges"]) >= 5
    assert w.grad == 0 and x.grad == 0  # drawn in a child: the user's Values untouched
    picture = tmp_path / "graph.png"
    draw(loss, str(picture), names={w: "weight"})
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError, match=r"\.png, \.svg or \.json"):
        draw(loss, str(tmp_path / "graph.gif"))


def test_the_tensorflow_check_reads_a_graph_read_from_python_by_its_names(qtbot):
    pytest.importorskip("tensorflow")
    from gui.jobs.tensorflow_checker import READY

    layer = {"w": [mg.Value(0.5), mg.Value(-1.5)]}
    x = mg.Value(2.0)
    loss = (layer["w"][0] * x + layer["w"][1]).relu() + layer["w"][0] ** 2
    window = debug(loss, block=False)
    qtbot.addWidget(window)
    window.tabs.setCurrentWidget(window.rules_tab)
    qtbot.waitUntil(lambda: window.checker.state == READY and bool(window.checker.rows),
                    timeout=180_000)
    window.session.run_to_end()
    loss.backward()
    generation = window.session.generation
    # TensorFlow's process parses the program's text, where the names are identifiers
    assert window.checker.gradient_of(generation, "layer['w'][0]") == pytest.approx(
        layer["w"][0].grad, rel=1e-12)
    assert window.checker.gradient_of(generation, "x") == pytest.approx(x.grad, rel=1e-12)
    window.close()


def test_the_window_keeps_beating_while_micrograds_demo_opens_expands_and_steps(qtbot):
    """A heartbeat test: micrograd's 65,818-node demo read from Python. The graph is read
    before the window exists; from then on (built, grouped, drawn, the biggest groups'
    openings prepared, the biggest opened, stepped at the level shown, closed) the window
    never stops drawing for long."""
    import time

    from PySide6.QtCore import Qt

    from tests.gui.test_background_layout import Heartbeat

    demo = micrograd_demo(100)
    model, loss = demo.model, demo.loss
    window = debug(loss, block=False)
    qtbot.addWidget(window)
    heart = Heartbeat()
    start = time.perf_counter()
    assert window.building
    # built, grouped, re-stepped in the grouping's order and drawn collapsed
    tab = window.graph_tab
    qtbot.waitUntil(lambda: not window.building and not tab.laying_out
                    and tab.scene.shown is not None, timeout=180_000)
    assert len(window.session.program.values) == 65_818
    qtbot.waitUntil(lambda: not tab.expansion.preparer.running, timeout=60_000)
    shown = tab.scene.shown
    biggest = max(tab.scene.group_items, key=lambda g: shown.groups[g].members)
    tab.view.double_clicked.emit(tab.scene.group_items[biggest])
    qtbot.waitUntil(lambda: biggest not in tab.scene.group_items and not tab.laying_out,
                    timeout=60_000)
    for key in (Qt.Key.Key_Right, Qt.Key.Key_Right):
        qtbot.keyClick(tab.view, key)
    opened = tab.scene
    tab.expansion.collapse(biggest)
    qtbot.waitUntil(lambda: tab.scene is not opened and not tab.laying_out, timeout=60_000)
    assert biggest in tab.scene.group_items
    qtbot.keyClick(tab.view, Qt.Key.Key_End)
    end = time.perf_counter()
    heart.painted(qtbot, end)
    heart.timer.stop()
    assert heart.longest_gap(start, end) < 0.5
    assert window.session.at_end
    loss.backward()
    w = model.layers[1].neurons[7].w[12]
    assert window.session.program.inputs["model.layers[1].neurons[7].w[12]"].grad == \
        pytest.approx(w.grad, abs=1e-12)
    window.close()


def test_a_big_python_graph_is_grouped_before_its_steps_are_made(qtbot, monkeypatch):
    """micrograd's MLP on 20 points (13,978 nodes): grouped in a child first, so that its
    stepper is made once, already in the grouping's order, and drawn collapsed."""
    from engine.core.stepping import Stepper

    made = []
    in_slices = Stepper.in_slices.__func__
    monkeypatch.setattr(Stepper, "in_slices", classmethod(
        lambda cls, *args, **kwargs: (made.append(args[0]), in_slices(cls, *args, **kwargs))[1]))
    demo = micrograd_demo(20)
    window, tab, shown = _opened_grouped(demo.loss, qtbot)
    assert len(made) == 1
    assert shown.stepper is window.session.stepper
    assert shown.grouping.groups and len(shown.expanded) < len(shown.grouping.groups)
    assert window.windowTitle().startswith("debug(demo.loss)")  # the expression passed
    # a box of parameters, or a stack of 20 samples, says how many of its nodes are used
    # outside it (each number once), not one of their values
    texts = {shown.groups[g].kind: item.texts()[1] for g, item in tab.scene.group_items.items()}
    assert texts["names"].endswith(" nodes\nall values used outside")
    assert "value " not in texts["names"].split("\n")[0]  # no value beside the count
    stacks = [(shown.groups[g], item.texts()[1]) for g, item in tab.scene.group_items.items()
              if shown.groups[g].kind == "stack"]
    assert stacks  # the samples, or a part of them: one output each
    for group, text in stacks:
        assert text.endswith(f"\n{group.instances} values used outside"), text
    window.session.run_to_end()
    demo.loss.backward()
    w = demo.model.layers[2].neurons[0].w[5]
    assert window.session.program.inputs["demo.model.layers[2].neurons[0].w[5]"].grad == \
        pytest.approx(w.grad, abs=1e-12)
    window.close()


def test_find_opens_a_weight_of_micrograds_demo_however_many_edges_it_draws(qtbot):
    """Ctrl+F for a weight of the 100-point MLP opens model › layers[0] › neurons[3] and
    selects the weight: the groups just opened stay open, though the picture then draws
    more edges than a first view would (its other parameters' groups may close)."""
    demo = micrograd_demo(100)
    model, loss = demo.model, demo.loss  # noqa: F841 (the names come from these)
    window = debug(loss, block=False)
    qtbot.addWidget(window)
    tab = window.graph_tab

    def ready():
        return not window.building and not tab.laying_out and tab.scene.shown is not None

    qtbot.waitUntil(ready, timeout=180_000)
    for level in (0, 3):  # from everything closed, and from three levels open
        before = tab.scene
        tab.expansion.to_level(level)
        qtbot.waitUntil(lambda old=before: tab.scene is not old and ready(), timeout=120_000)
        _find(qtbot, window, "model.layers[0].neurons[3].w[1]")
        _find(qtbot, window, "model.layers[1].neurons[5].b")
    window.close()


def _find(qtbot, window, name: str) -> None:
    from PySide6.QtCore import Qt

    tab = window.graph_tab
    tab.expansion.actions["find"].trigger()
    tab.find_bar.edit.setText(name)
    qtbot.keyClick(tab.find_bar.edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not window.building and not tab.laying_out, timeout=120_000)
    node = window.session.program.inputs[name]
    item = tab.scene.value_item_of(node)
    assert item is not None and item.isSelected(), name
    # the weight's own box is selected, inside the groups that held it
    assert tab.scene.node_at(item) is node
    assert name.rsplit(".", 1)[0] in tab.breadcrumb.words(), (name, tab.breadcrumb.words())


def test_draw_writes_the_first_view_the_window_opens_on(qtbot, tmp_path):
    """draw() and debug() open the same groups: the first picture's budget is the unshown
    window's in both (draw's window used to be shown first, and opened 38 groups where
    the window showed 9)."""
    demo = micrograd_demo(8)
    out = tmp_path / "first.json"
    draw(demo.loss, str(out))
    drawn = json.loads(out.read_text(encoding="utf-8"))
    window, tab, shown = _opened_grouped(demo.loss, qtbot)
    titles = sorted(shown.groups[g].title for g in tab.scene.group_items)
    assert len(titles) >= 3
    assert sorted(n["name"] for n in drawn["nodes"] if n["kind"] == "group") == titles
    boxes = [item for item in tab.scene.items() if isinstance(item, ValueItem)]
    assert len([n for n in drawn["nodes"] if n["kind"] == "value"]) == len(boxes)
    window.close()


def _opened_grouped(root, qtbot):
    """The debug() window on `root`, named from the caller's variables, once it is drawn
    grouped: (window, tab, shown)."""
    window = open_debug_window(root, False, None, sys._getframe(1))
    qtbot.addWidget(window)
    tab = window.graph_tab
    qtbot.waitUntil(lambda: not window.building and not tab.laying_out
                    and tab.scene.shown is not None, timeout=180_000)
    return window, tab, tab.expansion.shown
