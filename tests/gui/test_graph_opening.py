"""A big graph read from Python as the window opens it: a sentence, not the lesson's
neuron, stands in the graph area while it is read, grouped and drawn; a cancelled
opening shows the program the window had again; and File → Save says when the program
it would write is too long for File → Open to read back."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QGraphicsSimpleTextItem

from engine.io.files import read_program
from engine.language import MAX_CHARS
from gui import debug
from gui.graph.items import ValueItem
from gui.window import files
from gui.window.main_window import DEFAULT_PROGRAM
from tests.foreign_models import micrograd_demo


def placeholder_text(scene) -> str:
    """The sentence the scene shows; AssertionError if it shows a graph's boxes."""
    assert not any(isinstance(item, ValueItem) for item in scene.items())
    assert scene.nodes == [] and scene.stepper is None
    texts = [item.text() for item in scene.items() if isinstance(item, QGraphicsSimpleTextItem)]
    assert len(texts) == 1
    return texts[0]


def opened(window, qtbot) -> None:
    tab = window.graph_tab
    qtbot.waitUntil(lambda: not window.building and not tab.laying_out
                    and tab.scene.stepper is window.session.stepper, timeout=180_000)


def test_the_graph_area_says_what_is_opened_while_a_big_graph_is_built(qtbot):
    loss = micrograd_demo(8).loss
    window = debug(loss, block=False)
    qtbot.addWidget(window)
    tab = window.graph_tab
    assert window.building  # its steps are made in slices
    assert tab.placeholder and window.windowTitle().startswith("debug(loss)")
    text = placeholder_text(tab.scene)
    assert text.startswith("debug(loss): 6,202 nodes read from Python")
    assert "grouping" in text
    # centred in the view, whole
    view = tab.view
    note = tab.scene.items()[0].sceneBoundingRect()
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    assert shown.contains(note)
    assert abs(shown.center().x() - note.center().x()) < 2
    while window.building or tab.laying_out:  # never the lesson's neuron meanwhile
        qtbot.wait(20)
        if tab.scene.stepper is not window.session.stepper:
            placeholder_text(tab.scene)
    opened(window, qtbot)
    assert not tab.placeholder and tab.scene.shown is not None  # drawn grouped
    assert len(tab.scene.nodes) == 6_202
    window.close()


def test_a_graph_grouped_without_a_background_build_has_the_sentence_too(qtbot):
    loss = micrograd_demo(1).loss  # 1,666 nodes: stepped at once, grouped in a child
    window = debug(loss, block=False)
    qtbot.addWidget(window)
    tab = window.graph_tab
    assert not window.building and tab.expansion.running
    assert placeholder_text(tab.scene).startswith("debug(loss): 1,666 nodes")
    opened(window, qtbot)
    assert not tab.placeholder and len(tab.scene.nodes) == 1_666
    window.close()


def test_a_cancelled_opening_shows_the_program_the_window_had(qtbot):
    loss = micrograd_demo(8).loss
    window = debug(loss, block=False)
    qtbot.addWidget(window)
    assert window.building
    window.cancel_building()
    tab = window.graph_tab
    assert not tab.placeholder
    assert window.editor.text() == read_program(DEFAULT_PROGRAM)  # the neuron, as before
    assert not window.windowTitle().startswith("debug(")
    assert tab.scene.stepper is window.session.stepper and tab.scene.nodes
    assert window.statusBar().currentMessage().startswith("debug(loss) was cancelled")
    window.close()


@pytest.fixture
def small_limit(monkeypatch):
    """A limit of 20,000 characters where the window checks it (the real 1,000,000 takes
    a graph of some 25,000 nodes), to see what Save does above it."""
    monkeypatch.setattr(files, "MAX_CHARS", 20_000)
    return 20_000


def test_save_says_when_the_program_is_too_long_to_open_again(qtbot, tmp_path, dialogs,
                                                               small_limit):
    loss = micrograd_demo(1).loss
    window = debug(loss, block=False)
    qtbot.addWidget(window)
    opened(window, qtbot)
    length = len(window.session.program.source)
    assert small_limit < length < MAX_CHARS
    path = tmp_path / "mlp.expr"
    assert not window.save_to(path)  # the dialog's answer is not Save: nothing written
    assert not path.exists()
    kind, title, text = dialogs[-1]
    assert kind == "warning" and title == "Too long to be opened again"
    assert f"{length:,} characters" in text and f"at most {small_limit:,}" in text
    assert "File → Export graph as JSON" in text and "draw(root, 'graph.json')" in text
    assert window.statusBar().currentMessage().startswith("Not saved")
    assert window.windowTitle().startswith("debug(loss)")


def test_saving_anyway_writes_it_and_says_it_cannot_be_opened_here(qtbot, tmp_path,
                                                                   monkeypatch, small_limit):
    from PySide6.QtWidgets import QMessageBox

    from gui.window import boxes

    asked = []
    monkeypatch.setattr(boxes, "plain_warning",
                        lambda *args: asked.append(args[2]) or QMessageBox.StandardButton.Save)
    loss = micrograd_demo(1).loss
    window = debug(loss, block=False)
    qtbot.addWidget(window)
    opened(window, qtbot)
    path = tmp_path / "mlp.expr"
    assert window.save_to(path) and len(asked) == 1
    assert path.read_text(encoding="utf-8") == window.session.program.source
    assert window.statusBar().currentMessage().endswith("so it cannot be opened here again")
    # a program under the limit is saved without a word
    window.editor.set_text("x = 2.0\ny = x*x\n")
    assert window.save_to(tmp_path / "small.expr") and len(asked) == 1
    window.close()


def test_a_graph_whose_gradients_overflow_is_refused_and_the_window_shows_its_program(qtbot):
    from engine import Value

    w, u = Value(1e200), Value(1e-200)
    total = Value(0.0)
    for k in range(2_000):  # over RESTEP_AT nodes: its steps are made in slices
        total = total + Value(0.001 * k) * Value(1.0)
    loss = (w * u) * 1e200 + total  # finite, but dloss/du = 1e200 · 1e200 is not
    window = debug(loss, block=False)
    qtbot.addWidget(window)
    assert window.building and window.graph_tab.placeholder
    assert window.wait_for_build()
    tab = window.graph_tab
    assert not tab.placeholder and tab.scene.stepper is window.session.stepper
    assert window.editor.text() == read_program(DEFAULT_PROGRAM)
    assert not window.windowTitle().startswith("debug(")
    message = window.statusBar().currentMessage()
    assert message.startswith("debug(loss) was not opened (the gradient with respect to 'u'")
    window.close()


def test_the_status_while_a_big_graph_opens_never_goes_back_to_grouping(qtbot):
    """Grouping, then preparing the steps, then drawing: once the steps are being made,
    waiting for the rest of the child's groups is said as part of that, not as
    "Grouping" again (a tryout read it as the work starting over)."""
    loss = micrograd_demo(8).loss
    window = debug(loss, block=False)
    qtbot.addWidget(window)
    said: list[str] = [window.statusBar().currentMessage()]
    window.statusBar().messageChanged.connect(said.append)
    opened(window, qtbot)
    said = [s for s in said if s]
    assert said[0].startswith("Grouping 6,202 nodes")
    first = next(k for k, s in enumerate(said) if s.startswith("Preparing the steps"))
    assert not [s for s in said[first:] if s.startswith("Grouping")], said
    assert said[-1].startswith("Built loss")
    window.close()
