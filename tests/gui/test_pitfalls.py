"""The bugs in the stepper (the red mark) and the Pitfalls tab."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from engine.core.engines import CORRECT
from engine.core.pitfalls import NO_SORT
from engine.core.stepping import first_wrong_step
from gui.graph.editor import PRESETS
from gui.graph.items import WRONG
from gui.tabs.ranked_table import WRONG_BACKGROUND


def test_red_mark_lands_on_the_first_wrong_step(window):
    window.open_preset(str(PRESETS / "10-no-sort.expr"))
    tab = window.graph_tab
    tab.engine_box.setCurrentIndex(tab.engine_box.findData(NO_SORT))
    stepper = window.session.stepper
    assert stepper.engine is NO_SORT
    wrong_at = len(stepper.forward_steps) + first_wrong_step(stepper.backward_steps) + 1
    while stepper.position < wrong_at - 1:
        tab.actions["step"].trigger()
        assert not tab.problem.isVisible()
    tab.actions["step"].trigger()
    assert stepper.position == wrong_at
    assert tab.problem.isVisible()
    assert "'b' passed on a gradient of 1, but its gradient is 3" in tab.problem.text()
    b_item = tab.scene.value_item_of(window.session.program.names["b"])
    assert b_item.pen().color() == WRONG
    tab.actions["end"].trigger()
    x = window.session.program.inputs["x"]
    assert tab.scene.value_item_of(x).texts()[2] == "grad = 3"  # the bug's answer
    tab.engine_box.setCurrentIndex(tab.engine_box.findData(CORRECT))
    tab.actions["end"].trigger()
    assert tab.scene.value_item_of(x).texts()[2] == "grad = 9"  # the engine's


def test_pitfalls_tab_highlights_wrong_gradients(window, qtbot):
    tab = window.pitfalls_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(tab.isVisible, timeout=5_000)
    # issue 26 item 6: the zero_grad runs train in child processes, not on this thread
    assert tab.training and tab.zero_plot.getPlotItem().listDataItems() == []
    window.open_preset(str(PRESETS / "04-a-plus-a.expr"))
    model = tab.table.model()
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    row = {h: model.index(0, c) for c, h in enumerate(headers)}
    assert row["correct"].data() == "2"
    assert row["= for +="].data() == "1"
    assert row["ratio"].data() == "0.5×"
    assert row["no sort"].data() == "2"
    assert row["2 passes,\nno zero_grad"].data() == "4"
    assert row["= for +="].data(Qt.ItemDataRole.BackgroundRole) == WRONG_BACKGROUND
    assert row["no sort"].data(Qt.ItemDataRole.BackgroundRole) is None
    # the zero_grad runs are trained in child processes, then drawn
    qtbot.waitUntil(lambda: len(tab.zero_plot.getPlotItem().listDataItems()) == 2,
                    timeout=120_000)
    assert not tab.training
    assert "zero_grad every epoch: loss " in tab.zero_note.text()


def test_case_buttons_open_the_presets(window, qtbot):
    tab = window.pitfalls_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(tab.isVisible, timeout=5_000)
    buttons = {b.text(): b for b in tab.findChildren(QPushButton)}
    buttons["a * a"].click()
    assert window.session.program.output_name == "c"
    assert tab.table.model().index(0, 2).data() == "3"  # = for += on a * a



def test_the_lessons_cases_are_apart_from_ours(window):
    from PySide6.QtWidgets import QLabel

    from gui.tabs.pitfalls import LESSON_CASES, OUR_CASES
    tab = window.pitfalls_tab
    labels = [w.text() for w in tab.findChildren(QLabel)]
    assert "The lesson's cases:" in labels and "Our examples:" in labels
    assert not any("seed" in text.lower() for text in labels)
    # the lesson's cases are the two it shows (a + a, a * a); the others are ours
    assert [title for title, _, _ in LESSON_CASES] == ["a + a", "a * a"]
    assert [file for _, file, _ in OUR_CASES] == ["10-no-sort.expr", "09-relu-branch.expr"]


def test_no_minus_zero_in_the_table(window, qtbot):
    tab = window.pitfalls_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(tab.isVisible, timeout=5_000)
    window.open_preset(str(PRESETS / "09-relu-branch.expr"))
    model = tab.table.model()
    texts = [model.index(r, c).data() for r in range(model.rowCount())
             for c in range(1, model.columnCount())]
    # with = for +=, x's gradient is -0.0 (0 × -2 × ...): shown as 0
    assert "-0" not in texts and texts.count("0") == 8 and texts.count("—") == 4
    assert tab.summary.text().startswith("Of 2 inputs, 0 get a wrong gradient")


def test_a_second_replayed_engine_takes_the_entry_of_the_first(window):
    replay = {"text": "x = 0.5\nout = x ** 3", "order": [2, 0], "seed": 1.0,
              "locals": {2: [0.375]}, "grads": {}}
    session, box = window.session, window.graph_tab.engine_box
    session.load_recorded(replay, "first.py")
    first = session.engine
    assert session.stepper.backward_steps[1].contributions[0].right == 0.75
    session.load_recorded(dict(replay, locals={}), "second.py")
    mine = [i for i in range(box.count()) if box.itemText(i).startswith("your engine")]
    assert [box.itemText(i) for i in mine] == ["your engine: second.py"]
    assert box.itemData(mine[0]) is session.engine is not first
    assert box.currentIndex() == mine[0]
    assert session.stepper.backward_steps[1].contributions[0].right is None
    box.setCurrentIndex(box.findData(CORRECT))
    box.setCurrentIndex(mine[0])
    assert session.stepper.engine is session.engine is box.itemData(mine[0])
