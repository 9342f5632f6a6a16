"""The graph debugger window, driven as a user drives it."""

import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from engine import parse
from gui.graph.editor import PRESETS, list_presets
from gui.graph.spec import LARGE
from gui.window.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]


def displayed(window):
    """Every value box's (name, value line, grad line), in node order."""
    return [item.texts() for item in window.graph_tab.scene.value_items]


def grad_shown(window, name):
    node = window.session.program.inputs[name]
    return window.graph_tab.scene.value_item_of(node).texts()[2]


def test_opens_on_the_seeds_neuron(window):
    program = window.session.program
    assert program.output_name == "loss"
    assert len(window.graph_tab.scene.value_items) == len(program.nodes) == 13
    assert window.graph_tab.phase.text().startswith("ready: 13 forward")
    assert all(value == "value = ?" for _, value, _ in displayed(window))


def test_step_to_end_shows_the_seeds_gradients(window):
    window.graph_tab.actions["end"].trigger()
    assert grad_shown(window, "w1") == "grad = -2"
    assert grad_shown(window, "w2") == "grad = -4"
    assert grad_shown(window, "b") == "grad = -2"
    assert window.graph_tab.phase.text() == "backward 8/8 (done)"
    # the window shows the engine's numbers: the same as backward() on a fresh parse
    fresh = parse(window.editor.text())
    fresh.output.backward()
    assert [v.grad for v in window.session.program.nodes] == [v.grad for v in fresh.nodes]


def test_keys_step_forward_and_back(window, qtbot):
    window.graph_tab.view.setFocus()
    qtbot.keyClick(window.graph_tab.view, Qt.Key.Key_Right)
    qtbot.keyClick(window.graph_tab.view, Qt.Key.Key_Right)
    assert window.session.stepper.position == 2
    qtbot.keyClick(window.graph_tab.view, Qt.Key.Key_Left)
    assert window.session.stepper.position == 1
    qtbot.keyClick(window.graph_tab.view, Qt.Key.Key_End)
    assert window.session.at_end
    qtbot.keyClick(window.graph_tab.view, Qt.Key.Key_Home)
    assert window.session.stepper.position == 0


def test_step_back_undoes_exactly_one_step(window):
    tab = window.graph_tab
    history = [displayed(window)]
    while tab.actions["step"].isEnabled():
        tab.actions["step"].trigger()
        history.append(displayed(window))
    last = window.session.stepper.current  # the final backward step: w1 * x1's rule
    tab.actions["back"].trigger()
    now = displayed(window)
    assert now == history[-2]
    changed = {i for i, (a, b) in enumerate(zip(history[-1], now)) if a != b}
    index = {node: i for i, node in enumerate(window.session.program.nodes)}
    assert changed == {index[c.parent] for c in last.contributions}
    for i in changed:  # only the gradients changed back, not names or values
        assert history[-1][i][:2] == now[i][:2]


def test_shared_node_visibly_sums_its_paths(window):
    window.open_preset(str(PRESETS / "02-ab-plus-a.expr"))
    tab = window.graph_tab
    a = window.session.program.inputs["a"]
    shown = []
    while tab.actions["step"].isEnabled():
        tab.actions["step"].trigger()
        text = tab.scene.value_item_of(a).texts()[2]
        if not shown or shown[-1] != text:
            shown.append(text)
    assert shown == ["grad = ·", "grad = 1", "grad = 5"]


def test_broken_expression_keeps_text_and_last_good_graph(window):
    before = window.session.program
    items = list(window.graph_tab.scene.value_items)
    broken = "x = 1\ny = log(x - 1)\n"
    window.editor.editor.setPlainText(broken)
    window.editor.build_action.trigger()
    assert window.editor.text() == broken
    assert window.editor.error.isVisible()
    assert window.editor.error.text().startswith("Line 2, col 5: log needs a positive number")
    assert window.editor.editor.error_line == 2
    assert window.session.program is before
    assert window.graph_tab.scene.value_items == items
    assert "line 2, col 5" in window.statusBar().currentMessage()
    window.editor.editor.setPlainText("x = 2\ny = x * x")
    window.editor.build_action.trigger()
    assert not window.editor.error.isVisible()
    assert window.session.program.output_name == "y"


def test_an_undefined_name_is_underlined_whole(window):
    from gui.graph.editor import token_end

    window.editor.editor.setPlainText("x = 1\ny = 2.5e-3 * weight_1 + x")
    window.editor.build_action.trigger()
    assert window.editor.error.text().startswith("Line 2, col 14: 'weight_1' is not defined")
    selection = window.editor.editor.extraSelections()[-1]
    cursor = selection.cursor
    underlined = cursor.selectedText()
    assert underlined == "weight_1"
    assert [token_end("y = 2.5e-3 * w", k) for k in (4, 11, 0, 2)] == [10, 12, 1, 3]


def test_play_runs_to_the_end_by_itself(window, qtbot):
    tab = window.graph_tab
    tab.speed.setValue(tab.speed.maximum())
    tab.actions["play"].trigger()
    assert tab.timer.isActive()
    qtbot.waitUntil(lambda: window.session.at_end, timeout=10_000)
    qtbot.waitUntil(lambda: not tab.timer.isActive(), timeout=30_000)
    assert not tab.actions["play"].isChecked()
    assert grad_shown(window, "w2") == "grad = -4"


def test_stepping_never_moves_a_node(window):
    scene = window.graph_tab.scene
    positions = [item.pos() for item in scene.value_items]
    window.graph_tab.actions["end"].trigger()
    window.graph_tab.actions["back"].trigger()
    assert [item.pos() for item in scene.value_items] == positions


def test_presets_all_build(window):
    titles = [title for title, _ in list_presets()]
    assert len(titles) >= 8
    for _, path in list_presets():
        window.open_preset(str(path))
        assert not window.editor.error.isVisible(), path


def test_inspector_explains_the_current_rule(window):
    tab = window.graph_tab
    stepper = window.session.stepper
    tanh_node = window.session.program.names["p"]
    while not (stepper.current is not None and getattr(stepper.current, "node", None)
               is tanh_node):
        tab.actions["step"].trigger()
    text = window.inspector.toPlainText()
    assert "d tanh(z)/dz = 1 - tanh(z)^2" in text
    assert "from (p - y)" in text or "from p - y" in text


def test_a_long_chain_is_grouped_off_the_gui_thread_and_opens_collapsed(window, qtbot):
    n = LARGE + 200
    text = "x = 0.5\n" + "".join(f"a{k} = tanh(a{k - 1})\n" if k else "a0 = tanh(x)\n"
                                 for k in range(n))
    window.editor.editor.setPlainText(text)
    window.editor.build_action.trigger()
    tab = window.graph_tab
    qtbot.waitUntil(lambda: tab.scene.shown is not None and not tab.laying_out
                    and not window.building, timeout=60_000)
    assert "Double-click a group" in window.statusBar().currentMessage()
    scene = tab.scene
    # the chain is a few boxes, each standing for a run of it, with the nodes between
    assert scene.group_items and len(scene.shown.quotient.units) < 100
    assert sum(scene.shown.groups[g].members for g in scene.group_items) > n // 2
    tab.actions["end"].trigger()
    assert window.session.program.inputs["x"].grad != 0.0


def test_settings_remember_the_program(qtbot):
    first = MainWindow()
    qtbot.addWidget(first)
    first.editor.editor.setPlainText("q = 2\nr = q * 3")
    first.close()
    second = MainWindow()
    qtbot.addWidget(second)
    assert second.editor.text() == "q = 2\nr = q * 3"
    assert second.session.program.output_name == "r"
    second.close()


def test_open_refuses_binary_and_keeps_the_program(window, tmp_path, dialogs):
    binary = tmp_path / "binary.expr"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    before = window.editor.text()
    assert not window.open_file(str(binary))
    assert window.editor.text() == before
    assert dialogs and dialogs[-1][0] == "warning"
    assert "binary" in dialogs[-1][2]


def test_save_and_open_round_trip(window, tmp_path):
    path = tmp_path / "mine.expr"
    window.editor.editor.setPlainText("u = 1.5\nv = exp(u)")
    assert window.save_to(path)
    assert path.read_text() == "u = 1.5\nv = exp(u)"
    assert [p.name for p in tmp_path.iterdir()] == ["mine.expr"]  # no temporary left
    window.open_preset(str(PRESETS / "01-neuron.expr"))
    assert window.open_file(str(path))
    assert window.session.program.output_name == "v"


def test_export_png_and_svg(window, tmp_path):
    from gui.graph.export import write_scene

    window.graph_tab.actions["end"].trigger()
    png, svg = tmp_path / "g.png", tmp_path / "g.svg"
    assert write_scene(window.graph_tab.scene, str(png))
    assert write_scene(window.graph_tab.scene, str(svg))
    image = QImage(str(png))
    assert image.width() > 400 and image.height() > 100
    assert "<svg" in svg.read_text() and "loss" in svg.read_text()


def test_screenshot_command(tmp_path):
    out = tmp_path / "shot.png"
    result = subprocess.run([sys.executable, str(ROOT / "main.py"), "screenshot", str(out),
                             "--steps", "1000"], capture_output=True, text=True, cwd=ROOT,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    image = QImage(str(out))
    assert image.width() >= 1200 and image.height() >= 700


def test_write_report_from_the_window(window, qtbot, tmp_path):
    window.write_report(str(tmp_path), quick=True)
    assert window.reporter.running
    qtbot.waitUntil(lambda: not window.reporter.running, timeout=300_000)
    assert window.statusBar().currentMessage().startswith("Report written:")
    assert {p.name for p in tmp_path.iterdir()} == {"report.md", "rules.png", "modes.png",
                                                    "xor.png"}


def test_a_graph_of_over_20000_nodes_is_drawn_and_steps(window):
    links = 20_000 // 3 + 10  # each link: a constant, a product, a tanh (once not drawn)
    text = "x = 0.5\na0 = tanh(x)\n" + "\n".join(
        f"a{k} = tanh(a{k - 1}*0.9)" for k in range(1, links))
    assert window.build(text)
    assert window.wait_for_build()
    assert window.graph_tab.wait_for_layout()
    scene = window.graph_tab.scene
    assert scene.stepper is window.session.stepper
    assert scene.value_items or scene.group_items
    assert "too many to draw" not in window.statusBar().currentMessage()
    window.graph_tab.actions["step"].trigger()
    window.graph_tab.actions["end"].trigger()
    assert window.session.at_end
    assert window.session.program.inputs["x"].grad != 0.0


def test_the_status_bar_counts_the_boxes_and_says_where_the_constants_went(window):
    assert window.build("x = 2\ny = x*3 + 1")
    assert window.statusBar().currentMessage() == (
        "Built y: 3 values (and 2 constants written into their operations). "
        "Press Right to step.")
    window.constants_action.setChecked(True)  # each constant a box of its own
    assert window.build("x = 2\ny = x*3 + 1")
    assert window.statusBar().currentMessage() == "Built y: 5 values. Press Right to step."


def test_the_status_bar_says_when_the_backward_pass_is_done(window):
    assert window.build("x = 2\ny = x*x")
    window.graph_tab.actions["end"].trigger()
    assert window.statusBar().currentMessage().startswith(
        "End of the backward pass: every gradient is in.")


def test_the_status_bar_always_says_where_the_stepper_is(window):
    from engine.core.pitfalls import NO_SORT

    assert window.build("x = 2\nb = x*3\nc = b*2\nd = b + c")
    actions, status = window.graph_tab.actions, window.statusBar().currentMessage
    actions["end"].trigger()
    assert status().startswith("End of the backward pass: every gradient is in.")
    actions["reset"].trigger()  # the end's words do not stay behind
    assert status().startswith("Ready: Right steps the forward pass")
    for _ in range(3):
        actions["step"].trigger()
    assert status() == "Forward pass: Right computes the next value, Left takes it back."
    box = window.graph_tab.engine_box
    box.setCurrentIndex(box.findData(NO_SORT))  # under a bug, never "every gradient is in"
    actions["end"].trigger()
    said = status()
    assert said.startswith(f"End of the backward pass under {NO_SORT.name}.")
    assert "every gradient is in" not in said
    assert "x has gradient 3" in said and "the correct gradient is 9" in said


def test_the_status_bar_describes_the_tab_in_front(window, qtbot):
    assert window.build("x = 2\ny = x*x")
    window.graph_tab.actions["end"].trigger()
    graph_said = window.statusBar().currentMessage()
    assert graph_said.startswith("End of the backward pass")
    xor = window.xor_tab
    window.tabs.setCurrentWidget(xor)
    assert window.statusBar().currentMessage() == ""  # the Graph tab's words stay behind
    xor.buttons["step"].click()
    assert window.statusBar().currentMessage().startswith("One epoch by hand")
    window.tabs.setCurrentWidget(window.learn_tab)
    assert "epoch" not in window.statusBar().currentMessage()
    window.tabs.setCurrentWidget(window.graph_tab)
    assert window.statusBar().currentMessage() == graph_said
    window.statusBar().clearMessage()  # as a menu's status tips leave it
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == graph_said, timeout=2000)


def test_the_window_is_active_again_when_its_dialog_closes(window, qtbot, monkeypatch):
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QDialog

    keep = window.keep_active  # driven by hand here, not by the platform's own moves
    QGuiApplication.instance().focusWindowChanged.disconnect(keep.focus_moved)
    dialog = QDialog(window)
    dialog.show()
    qtbot.waitExposed(dialog)
    activated = []
    monkeypatch.setattr(window, "activateWindow", lambda: activated.append(True))
    keep.focus_moved(dialog.windowHandle())  # the dialog had the focus
    keep.focus_moved(None)                   # it closed, and the focus went nowhere
    qtbot.waitUntil(lambda: activated == [True], timeout=2000)
    keep.focus_moved(None)  # nowhere from nowhere (another app took it): left alone
    qtbot.wait(50)
    assert activated == [True]
    dialog.close()


def test_a_tab_left_while_tensorflow_loads_says_it_loaded_when_it_comes_back(window, qtbot):
    rules = window.rules_tab
    window.tabs.setCurrentWidget(rules)
    window.checker.status.emit("Loading TensorFlow for the cross-check (first time only, "
                               "a few seconds)…")
    window.tabs.setCurrentWidget(window.xor_tab)  # the user looks elsewhere meanwhile
    window.checker.status.emit("TensorFlow loaded: gradients checked against tf.GradientTape")
    window.tabs.setCurrentWidget(rules)
    assert window.statusBar().currentMessage().startswith("TensorFlow loaded")
    window.tabs.setCurrentWidget(window.graph_tab)
    assert not window.statusBar().currentMessage().startswith("Loading TensorFlow")
