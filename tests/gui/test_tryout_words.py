"""The words a new user read in the tryout (issue 22): links seen in the dark, groups
titled by what they compute, the outputs said plainly, text inside its box, the step
label and the Pitfalls table at 1280 px, the progress bar's words, an alias output; two
nodes or groups alike told apart, the breadcrumb's first view, the step's place said as
one path, a stack's rest told from a title cut short."""

from collections import Counter

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from gui import palette, theme


@pytest.fixture(autouse=True)
def light_after():
    yield
    theme.apply("light")
    QApplication.processEvents()


def _colours(widget) -> Counter:
    image = widget.grab().toImage()
    return Counter(image.pixelColor(x, y).name()
                   for y in range(image.height()) for x in range(image.width()))


def test_a_breadcrumb_link_is_drawn_in_the_themes_link_colour(qtbot):
    from gui.graph.breadcrumb import Breadcrumb

    crumb = Breadcrumb()
    qtbot.addWidget(crumb)
    crumb.show_path([(1, "data_loss")])  # written in the light theme
    crumb.resize(300, 30)
    crumb.show()
    theme.apply("dark")
    QApplication.processEvents()
    shown = _colours(crumb)
    assert shown["#0000ff"] == 0  # not the light theme's blue on near-black
    assert shown[palette.DARK["link"]] > 20
    window = palette.qcolor(palette.DARK["window"])
    assert palette.contrast(palette.qcolor(palette.DARK["link"]), window) > 7
    theme.apply("light")
    QApplication.processEvents()
    assert _colours(crumb)[palette.LIGHT["link"]] > 20
    assert ("link", "window") in palette.TEXT_PAIRS and ("link", "base") in palette.TEXT_PAIRS


def test_a_group_of_many_outputs_says_them_plainly_and_explains_them(qtbot):
    from gui.graph.items import INK, GroupItem, group_size, outputs_said

    tip = "64,700 nodes. Double-click it or press + to open it."
    stack = GroupItem(1, "relu(…) × 100", 64_700, 100, group_size("relu(…) × 100", True), tip)
    stack.set_state(outputs_said(97, 64_700), "", INK, 1.0, True, numbers=False)
    assert stack.texts()[1] == "× 100 · 64,700 nodes\n97 values used outside"
    assert "used outside it" not in stack.texts()[1]
    assert stack.toolTip().endswith("\n97 of its values are used by boxes outside it.")
    assert tip in stack.toolTip()
    params = GroupItem(0, "w", 48, 0, group_size("w", False), tip)
    params.set_state(outputs_said(48, 48), "", INK, 1.0, True, numbers=False)
    assert params.texts()[1] == "48 nodes\nall values used outside"
    assert params.toolTip().endswith("All 48 of its values are used by boxes outside it.")


def test_the_status_bars_progress_bar_always_has_words_beside_it(window, qtbot):
    from gui.jobs.tensorflow_checker import LOADING_SAID

    window.show()
    qtbot.waitExposed(window)
    window.checker.status.emit(LOADING_SAID + " for the cross-check…")
    window.checker.busy.emit(True)
    window.tabs.setCurrentIndex(3)  # XOR, while TensorFlow loads: its own status message
    QApplication.processEvents()
    words = window.progress_words.label
    assert window.progress.isVisible() and words.isVisible()
    assert words.text() == "Loading TensorFlow…"
    assert words.geometry().right() <= window.progress.geometry().left()  # beside it
    window._on_layout_busy(True)  # two works at once: both said, the bar kept
    assert words.text() == "Loading TensorFlow… · Laying out the graph…"
    window.checker.busy.emit(False)
    assert words.text() == "Laying out the graph…" and window.progress.isVisible()
    window._on_layout_busy(False)
    assert not window.progress.isVisible() and not words.isVisible()


def test_the_step_label_cuts_the_groups_title_in_the_middle_never_the_counts(qtbot):
    from gui.graph.controls import phase_label

    label = phase_label(None)
    qtbot.addWidget(label)
    text = "forward 24/37 · inside relu((Σ 16 terms + b) × c + c) × 100 · sample 7"
    label.setText(text)
    metrics = label.fontMetrics()
    # one line (session 33): the counts and the closed group stepped (s34: not 'in' it),
    # the path in the tooltip
    label.resize(metrics.horizontalAdvance(text) + 4, 40)
    assert label.shown_lines() == ["forward 24/37 · sample 7"]
    label.resize(metrics.horizontalAdvance("forward 24/37 · sample"), 40)
    (line,) = label.shown_lines()
    assert line.startswith("forward 24/37 · s") and line.endswith("7") and "…" in line
    assert metrics.horizontalAdvance(line) <= label.width()
    assert label.toolTip().startswith(text + "\n")


@pytest.mark.parametrize("title, members, value", [("reg_loss", 677, "0.009823"),
                                                   ("data_loss", 64_803, "1.14"),
                                                   ("x", 3, "-1.234e-05")])
def test_a_group_boxs_numbers_stay_inside_its_borders(qtbot, title, members, value):
    from gui.graph.items import INK, GroupItem, group_size

    tip = f"{members:,} nodes. Double-click it or press + to open it."  # as the scene's
    box = GroupItem(0, title, members, 0, group_size(title, False), tip)
    box.set_state(value, "-0.0001234", INK, 1.0, False)
    text = box.numbers
    right = text.mapRectToParent(text.boundingRect()).right()
    assert right <= box.path().boundingRect().right() - 5  # clear of the border
    assert value in text.text() and "-0.0001234" in text.text()  # both numbers whole
    assert "…" not in text.text()
    assert f"{members:,} nodes" in text.text() + box.toolTip()


def test_a_value_boxs_numbers_stay_inside_its_borders(qtbot):
    from gui.graph.items import INK, ValueItem

    box = ValueItem(0, "intermediate", "w")
    box.set_state("-1.234567e-05", "-9.876543e-05", INK, 1.0, False)
    text = box.numbers
    assert text.mapRectToParent(text.boundingRect()).right() <= box.rect().right() - 3
    assert box.texts()[1].startswith("value = -1.2")


def _mlp_groups(points: int, name_losses: bool):
    from gui.graph.groups import arrays_of, group_graph
    from tests.graph_models import graph_of, micrograd_mlp

    built = micrograd_mlp(points)
    if name_losses:  # as debug() names them from the script's variables
        for s, loss in enumerate(built.losses):
            loss.label = f"losses[{s}]"
    nodes, roles = graph_of(built.loss)
    return built, group_graph(arrays_of(nodes, roles))


def test_a_samples_group_is_titled_by_its_output_when_it_is_named():
    _, grouping = _mlp_groups(3, name_losses=True)
    stack = next(g for g in grouping.groups if g.kind == "stack")
    titles = [grouping.groups[c].title for c in stack.children]
    assert titles == ["losses[0]", "losses[1]", "losses[2]"]
    _, unnamed = _mlp_groups(3, name_losses=False)  # the inputs only otherwise
    stack = next(g for g in unnamed.groups if g.kind == "stack")
    assert [unnamed.groups[c].title for c in stack.children] == [
        "inputs[0]", "inputs[1]", "inputs[2]"]


def test_the_rest_of_100_samples_is_said_by_their_outputs_range():
    _, grouping = _mlp_groups(20, name_losses=True)
    stack = next(g for g in grouping.groups if g.kind == "stack" and g.parent == -1
                 or g.kind == "stack" and grouping.groups[g.parent].kind != "stack")
    first = [grouping.groups[c].title for c in stack.children]
    assert first[:3] == ["losses[0]", "losses[1]", "losses[2]"]
    # `× 17` as a stack says its count (it was `… 17 more: losses[3–19]`: a '…' first is
    # how a title cut short begins, `…neurons[3].w[1]`)
    assert first[3] == "losses[3–19] × 17"
    assert not any(t.startswith("…") for t in first)


def test_a_neurons_box_says_which_neuron_its_parameters_name():
    built, grouping = _mlp_groups(3, name_losses=False)
    titles = [g.title for g in grouping.groups if g.kind == "structure"]
    neurons = [t for t in titles if t.endswith("terms + b)")]
    layer = len(built.model.layers[0].neurons)
    expected = {f"neurons[{j}]: relu(Σ 2 terms + b)" for j in range(layer)}
    assert expected <= set(neurons)
    assert all(t.startswith("neurons[") and len(t) < 40 for t in neurons)


def test_an_alias_output_is_titled_by_the_programs_output_name(window):
    window.load_program("x = 2\nb = x * 3\nloss = b")
    program = window.session.program
    assert program.output_name == "loss" and program.names["b"] is program.output
    box = window.graph_tab.scene.value_item_of(program.output)
    assert box.texts()[0] == "loss = b"
    again = program.rebuild(x=3.0)  # the same title, not said twice
    assert again.output.label == "loss = b" and again.output.data == 9.0
    window.load_program("x = 2\nloss = x")  # an input keeps its own name: it is set by it
    assert window.session.program.inputs["x"] is window.session.program.output


def test_every_column_of_the_pitfalls_table_is_seen_at_1280_by_720(window, qtbot,
                                                                    monkeypatch):
    from gui.jobs.tensorflow_checker import TensorFlowChecker
    from tests.gui import without_tensorflow

    monkeypatch.setattr(TensorFlowChecker, "loader", staticmethod(without_tensorflow.load))
    window.show()
    window.resize(1280, 720)
    qtbot.waitUntil(lambda: window.size().toTuple() == (1280, 720), timeout=5_000)
    tab = window.pitfalls_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.isVisible() and hasattr(tab, "table"), timeout=5_000)
    qtbot.waitUntil(lambda: not tab.training, timeout=120_000)  # its plot drawn
    from PySide6.QtWidgets import QSplitter

    split = tab.findChild(QSplitter)
    split.setSizes([460, 480])  # the tryout's split: the plot as wide as the table
    qtbot.wait(50)
    table = tab.table
    header = table.horizontalHeader()
    width = table.viewport().width()
    ends = [header.sectionPosition(c) + header.sectionSize(c) for c in range(header.count())]
    assert split.widget(1).width() > 250  # and the plot beside it still seen
    assert max(ends) <= width + 1, (ends, width)  # the last, red column included
    assert table.horizontalScrollBar().maximum() == 0
    last = header.count() - 1
    words = table.model().headerData(last, Qt.Orientation.Horizontal)
    assert words.replace("\n", " ") == "2 passes, no zero_grad"  # said whole, wrapped
    metrics = header.fontMetrics()
    assert all(metrics.horizontalAdvance(line) < header.sectionSize(last)
               for line in words.split("\n"))


def _plain(html_text: str) -> str:
    from PySide6.QtGui import QTextDocument

    document = QTextDocument()
    document.setHtml(html_text)
    return " ".join(document.toPlainText().split())


def test_two_nodes_of_the_same_formula_are_told_apart_in_the_inspector(window):
    from gui.graph.inspector import describe_node

    window.load_program("a = 2\nloss = a*a + a*a")
    program, stepper = window.session.program, window.session.stepper
    left, right = program.output.parents
    assert left is not right and left.parents == (program.inputs["a"],) * 2
    said = [_plain(describe_node(v, stepper, "intermediate")) for v in (left, right)]
    assert said[0] != said[1]
    assert ("which the 1st of 2 nodes computing a * a from the same operands; node 2 of 4 "
            "in the forward order; used as the left operand of loss") in said[0]
    assert ("which the 2nd of 2 nodes computing a * a from the same operands; node 3 of 4 "
            "in the forward order; used as the right operand of loss") in said[1]
    assert [stepper.forward_steps[k] for k in (1, 2)] == [left, right]  # as said


def _drawn(qtbot, window):
    """`window` (a debug() window, called in the test: its variables name the graph)
    once its graph is built, grouped and drawn."""
    qtbot.addWidget(window)
    tab = window.graph_tab
    qtbot.waitUntil(lambda: not window.building and not tab.laying_out
                    and tab.scene.shown is not None, timeout=180_000)
    return window


def test_two_groups_of_one_title_side_by_side_are_told_apart(qtbot):
    from gui import debug
    from tests.foreign_models import microgpt_step

    step = microgpt_step()
    loss, losses, state_dict = step.loss, step.losses, step.state_dict  # as a script has
    window = _drawn(qtbot, debug(loss, block=False))
    tab = window.graph_tab
    shown = tab.scene.shown
    position = next(g for g in shown.groups if g.title == "losses[3]")
    norms = sorted((shown.groups[c] for c in position.children
                    if shown.groups[c].title == "rmsnorm(8)"), key=lambda h: h.first)
    assert len(norms) == 3  # the embedding's, the attention's and the MLP's
    assert len(losses) == 4 and any(g.title == "state_dict" for g in shown.groups)
    assert "attn_wq" in state_dict  # the variables above name the graph
    before = tab.scene
    tab.expansion.expand(position.id)
    qtbot.waitUntil(lambda: tab.scene is not before and not tab.laying_out, timeout=60_000)
    said = []
    for k, norm in enumerate(norms):
        tab.scene.clearSelection()
        tab.scene.group_items[norm.id].setSelected(True)
        said.append(" ".join(window.inspector.toPlainText().split()))
        n = len(window.session.stepper.forward_steps)
        assert (f"which the {('1st', '2nd', '3rd')[k]} of 3 titled rmsnorm(8) inside "
                f"loss › positions × 4 › losses[3], in the order computed (nodes "
                f"{norm.first + 1:,}–{norm.last:,} of {n:,})") in said[-1]
    assert len(set(said)) == 3
    window.close()


def test_the_breadcrumb_at_the_first_view_says_what_is_drawn_and_how_to_open_it(qtbot):
    from gui import debug
    from tests.foreign_models import micrograd_demo

    demo = micrograd_demo(8)
    loss = demo.loss
    window = _drawn(qtbot, debug(loss, block=False))
    tab = window.graph_tab
    crumb = tab.breadcrumb
    closed = len(tab.scene.group_items)
    assert crumb.isVisible() and closed >= 5
    words = (f"graph of loss: {len(window.session.program.values):,} nodes, {closed} groups "
             "drawn closed · double-click one (or select it and press +) to open it")
    assert crumb.words() == words == " ".join(_plain(crumb.text()).split())
    assert "<a href='-1'>graph</a>" in crumb.text()  # still the link to the first view
    assert crumb.width() >= crumb.fontMetrics().horizontalAdvance(words)  # whole, at 1280
    stack = next(g for g in tab.scene.group_items if tab.scene.shown.groups[g].kind == "stack")
    before = tab.scene
    tab.expansion.expand(stack)
    qtbot.waitUntil(lambda: tab.scene is not before and not tab.laying_out, timeout=60_000)
    tab.scene.clearSelection()
    path = crumb.words()  # a path again, to the stack opened, the first view's words gone
    title = tab.scene.shown.groups[stack].title
    assert path.startswith("graph › ") and path.endswith(f" › {title}")
    assert "drawn closed" not in path and "drawn closed" not in crumb.text()
    window.close()


def test_the_step_inside_a_names_group_is_said_as_one_path(qtbot):
    from gui import debug
    from gui.graph.groups.titles import stepped_said
    from tests.foreign_models import micrograd_demo

    demo = micrograd_demo(8)
    loss, model = demo.loss, demo.model
    window = _drawn(qtbot, debug(loss, block=False))
    tab = window.graph_tab
    shown = tab.scene.shown
    model_group = next(g for g in shown.groups if g.title == "model")
    assert len(model.layers) == 3  # `model`, above, names the parameters' group
    assert model_group.id in shown.expanded  # the parameters' group is open at the first view
    tab.actions["step"].trigger()
    first = shown.groups[-1 - tab.expansion.levels().current_unit()]
    assert first.parent == model_group.id and first.title.startswith("model.layers[")
    n_forward = tab.expansion.levels().counts()[0]
    # the closed group stepped, never said as a group the step is inside (s34)
    assert tab.phase.text() == f"forward 1/{n_forward} · {first.title}"
    assert "inside" not in tab.phase.text()
    assert stepped_said("forward 4/12 · inside loss", "demo.reg_loss") == \
        "forward 4/12 · inside loss · demo.reg_loss"  # not a path in it: both said
    assert stepped_said("forward 9/12 · inside model.layers[1]",
                        "model.layers[1].neurons[3]") == \
        "forward 9/12 · inside model.layers[1].neurons[3]"
    assert stepped_said("forward 2/9 · inside x", "x2") == "forward 2/9 · inside x · x2"
    window.close()
