"""After the session-33 tryout of debug() on micrograd's MLP and a microgpt step: what
Ctrl+0 said of the view is taken back once the user zooms or pans, a leaf of a model's
state (`state_dict['wte'][5][3]`) is a parameter and says why, a rounded number is told
from an exact one at small text, a group opened keeps its place among its siblings, and
an edge's label sits on its edge after Find opened what hid a node."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QAction

CHAIN = "x = 0.5\na1 = tanh(x)\n" + "".join(f"a{i} = tanh(a{i - 1})\n" for i in range(2, 51))


def _action(window, keys: str) -> QAction:
    return next(a for a in window.findChildren(QAction) if a.shortcut().toString() == keys)


def _chain_window(window, qtbot):
    window.resize(1280, 720)
    qtbot.waitUntil(lambda: window.size().toTuple() == (1280, 720), timeout=5_000)
    window.editor.set_text(CHAIN)
    window.build(CHAIN)
    assert window.wait_for_build() and window.graph_tab.wait_for_layout()
    qtbot.wait(20)
    return window.graph_tab.view


def test_what_ctrl_0_said_goes_once_the_user_zooms(window, qtbot):
    view = _chain_window(window, qtbot)
    status = window.statusBar()
    _action(window, "Ctrl+0").trigger()
    said = status.currentMessage()
    assert said.startswith("Fitted: as much as is readable") or said.startswith("Already")
    view.follow_step()  # the view following the steps is still Ctrl+0's fit
    assert status.currentMessage() == said
    _action(window, "Ctrl+=").trigger()  # the user zooms in: no longer that fit
    assert status.currentMessage() == ""
    window.status_memory._on_tab(0)  # nor put back when the tab comes back
    assert status.currentMessage() == ""


def test_what_ctrl_0_said_goes_once_the_user_pans(window, qtbot):
    view = _chain_window(window, qtbot)
    status = window.statusBar()
    _action(window, "Ctrl+0").trigger()
    _action(window, "Ctrl+0").trigger()  # twice: the whole graph
    from gui.graph.zoom_steps import WHOLE_SAID

    assert status.currentMessage() == WHOLE_SAID
    _action(window, "Ctrl+=").trigger()
    _action(window, "Ctrl+0").trigger()
    said = status.currentMessage()
    assert said.startswith("Fitted")
    port = view.viewport()
    start = QPoint(port.width() // 2, port.height() // 2)
    qtbot.mousePress(port, Qt.MouseButton.LeftButton, pos=start)
    for k in range(1, 6):  # a drag to the left pans the view
        qtbot.mouseMove(port, start - QPoint(40 * k, 0))
    qtbot.mouseRelease(port, Qt.MouseButton.LeftButton, pos=start - QPoint(200, 0))
    assert not view.auto_fit
    assert status.currentMessage() == ""
    _action(window, "Ctrl+0").trigger()  # said again by a new Ctrl+0
    assert status.currentMessage().startswith("Fitted")
    view.zoom_by(1.15, QPointF(100, 100))
    assert status.currentMessage() == ""


# -- a model's parameters: micrograd's and microgpt's names --------------------------------


def _drawn(qtbot, window):
    window.resize(1280, 720)
    tab = window.graph_tab
    qtbot.waitUntil(lambda: not window.building and not tab.laying_out
                    and tab.scene.shown is not None, timeout=180_000)
    return window


def _found(window, qtbot, name: str):
    """Ctrl+F's Enter on `name`: the box found, once drawn and selected."""
    tab = window.graph_tab
    before = tab.scene
    assert tab.expansion.find_node(name)
    if tab.scene is before and not tab.laying_out:
        pass  # drawn already: selected at once
    else:
        qtbot.waitUntil(lambda: tab.scene is not before and not tab.laying_out
                        and not window.building, timeout=60_000)
    node = next(v for v in tab.session.stepper.forward_steps if v.label == name)
    box = tab.scene.value_item_of(node)
    assert box is not None and box.isSelected()
    return box


def _inspected(window) -> str:
    return " ".join(window.inspector.toPlainText().replace("\u200b", "").split())


def test_microgpts_weights_are_parameters_and_say_why(qtbot):
    from gui import debug
    from tests.foreign_models import microgpt_step

    step = microgpt_step()
    loss, state_dict = step.loss, step.state_dict  # as a script names them
    assert "wte" in state_dict
    window = _drawn(qtbot, debug(loss, block=False))
    for name in ("state_dict['wte'][3][1]", "state_dict['attn_wq'][2][5]"):
        box = _found(window, qtbot, name)
        said = _inspected(window)
        assert "kind parameter" in said and "kind input" not in said, said
        assert ("why a parameter its name reaches it through the string key 'wte' of "
                if "wte" in name else "why a parameter its name reaches it through the "
                "string key 'attn_wq' of ") in said
        assert box.toolTip().startswith(f"{name}\nA parameter: its name reaches it through")
    window.close()


def test_micrograds_weights_are_parameters_and_its_data_points_inputs(qtbot):
    from gui import debug
    from tests.foreign_models import micrograd_demo

    demo = micrograd_demo(8)
    model, inputs, loss = demo.model, demo.inputs, demo.loss
    assert model and inputs
    window = _drawn(qtbot, debug(loss, block=False))
    _found(window, qtbot, "model.layers[1].neurons[3].w[2]")
    said = _inspected(window)
    assert "kind parameter" in said
    assert "why a parameter its name reaches it through the attribute .w after an index" in said
    box = _found(window, qtbot, "inputs[7][0]")
    said = _inspected(window)
    assert "kind input" in said and "why a parameter" not in said
    assert box.toolTip() == "inputs[7][0]"
    window.close()


def test_which_names_are_parameters():
    from gui.graph.parameters import parameter_reason

    for name in ("state_dict['wte'][5][3]", "state_dict['attn_wq'][2][5]", 'params["b1"][0]',
                 "model.layers[1].neurons[3].w[2]", "model.layers[0].neurons[3].b",
                 "demo.model.layers[0].neurons[1].w[0]", "model.b"):
        assert parameter_reason(name), name
    for name in ("inputs[7][0]", "xs[3]", "tokens", "demo.inputs[0][1]", "x1", "w1", "",
                 "v12", "a + b"):
        assert parameter_reason(name) is None, name


# -- a rounded number told from an exact one at small text ---------------------------------

FOUR_Q = "x = 3.0\ny = 2.0\nq = x*y\nf = q + q*x + q*y + tanh(q)\nz = f * 0.0001234567"


def _digits_begin(shown: str, x: float) -> bool:
    """True if `shown` ('0.9999…', '-1.12…e-06') is `x`'s own first digits and '…'."""
    from decimal import Decimal

    head, _, tail = shown.partition("…")
    exponent = int(tail[1:]) if tail else 0
    cut = Decimal(head).scaleb(exponent)
    return abs(cut) <= abs(Decimal(x)) < abs(cut) + Decimal(1).scaleb(
        Decimal(head).as_tuple().exponent + exponent) and (cut < 0) == (x < 0)


def test_a_rounded_number_ends_in_dots_that_small_text_keeps(window, qtbot):
    """At 6-pixel text 'value ≈ 1' read as 'value = 1' (tanh(6) = 0.99998771): a rounded
    number is written with its first digits and '…', in a box's room (its exponent
    kept), an exact one as it is."""
    window.resize(1280, 720)
    assert window.build(FOUR_Q)
    window.session.run_to_end()
    scene, names = window.graph_tab.scene, window.session.program.names
    tanh = names["f"].parents[1]
    assert scene.value_item_of(tanh).texts()[1] == "value ≈ 0.9999…"
    assert scene.value_item_of(names["q"]).texts()[1] == "value = 6"
    checked = 0
    for i, box in scene._box.items():
        node = scene.nodes[i]
        for line, x in zip(box.texts()[1:], (node.data, node.grad)):
            what, _, number = line.partition(" ")
            if number.startswith("= "):
                assert float(number[2:]) == x, line  # '=' only for the value itself
            elif number != "≈ 0":
                assert number.startswith("≈ ") and number.endswith(("…", "e-05", "e-06")), line
                assert _digits_begin(number[2:], x), (line, x)
                checked += 1
    assert checked >= 8


def test_a_rounded_numbers_digits_go_before_its_exponent_in_a_narrow_box(qtbot):
    from gui.graph.items import fitted, metrics_of

    line = "grad ≈ -1.127…e-06"
    room = metrics_of(8.5).horizontalAdvance(line) - 1
    assert fitted([line], 8.5, room) == "grad ≈ -1.12…e-06"
    assert fitted(["value ≈ 37037…"], 8.5, 1000) == "value ≈ 37037…"  # whole digits stay


# -- a group opened keeps its place among its siblings -------------------------------------


@pytest.mark.parametrize("at_once", [False, True])
def test_a_group_opened_draws_its_inside_between_its_siblings(qtbot, at_once):
    """micrograd's demo on 20 points: losses[3–11] opened, then losses[5]: its inside was
    drawn after losses[11] (after losses[93–99] on 100 points), not between losses[4]
    and losses[6]. Or both at once (as Find opens what hides a node)."""
    from gui import debug
    from tests.foreign_models import micrograd_demo
    from tests.gui.test_tryout_nav import _group, _ys

    demo = micrograd_demo(20)
    losses, loss = demo.losses, demo.loss
    assert losses
    window = _drawn(qtbot, debug(loss, block=False))
    tab = window.graph_tab

    def opened(title):
        before = tab.scene
        tab.expansion.expand(_group(window, title))
        qtbot.waitUntil(lambda: tab.scene is not before and not tab.laying_out
                        and not window.building, timeout=60_000)

    if not at_once:
        opened("losses[3–11]")
    opened("losses[5]")
    scene, shown = tab.scene, tab.scene.shown
    sample = shown.groups[_group(window, "losses[5]")]
    inside = [item.sceneBoundingRect() for i, item in scene._box.items()
              if sample.first <= shown.index[scene.nodes[i]] < sample.last]
    inside += [scene.group_items[g].sceneBoundingRect() for g in scene.group_items
               if sample.first <= shown.groups[g].first < sample.last]
    top, bottom = min(r.top() for r in inside), max(r.bottom() for r in inside)
    before = _ys(tab, [f"losses[{k}]" for k in (3, 4)])
    after = _ys(tab, [f"losses[{k}]" for k in range(6, 12)])
    assert before == sorted(before) and after == sorted(after)
    assert max(before) < top and bottom < min(after), (before, top, bottom, after)
    window.close()


# -- edge labels after Find ---------------------------------------------------------------


def _route_points(segments) -> list[tuple[float, float]]:
    points = []
    for seg in segments:
        if len(seg) == 4:  # a cubic: sampled
            for k in range(33):
                t = k / 32
                u = 1 - t
                points.append(tuple(u ** 3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t ** 3 * d
                                    for a, b, c, d in zip(*seg)))
        else:
            for (x0, y0), (x1, y1) in zip(seg, seg[1:]):
                points.extend((x0 + (x1 - x0) * k / 64, y0 + (y1 - y0) * k / 64)
                              for k in range(65))
    return points


def _labels_off_their_edges(scene) -> list:
    import math

    off, shown = [], 0
    for e, edge in scene._edges.items():
        if edge is None or edge.tag is None or not edge.tag.isVisible():
            continue
        shown += 1
        c = edge.tag.sceneBoundingRect().center()
        d = min(math.hypot(x - c.x(), y - c.y()) for x, y in _route_points(scene.drawing.routes[e]))
        if d > 7:  # the line stops at the label's ground (6 px each side)
            off.append((edge.label, round(d, 1)))
    return off, shown


def test_every_edge_label_sits_on_its_edge_after_find_opens_what_hid_a_node(qtbot):
    """The tryout saw labels mid-canvas after Ctrl+F with neither end of their edge on
    screen: each sits on its own edge's curve (a long edge's ends can both be off screen),
    and the labels of the picture before are gone with it."""
    from gui import debug
    from tests.foreign_models import micrograd_demo
    from tests.gui.test_tryout_nav import _group

    demo = micrograd_demo(20)
    model, losses, loss = demo.model, demo.losses, demo.loss  # as the script names them
    assert model and losses
    window = _drawn(qtbot, debug(loss, block=False))
    window.resize(1920, 1080)
    tab = window.graph_tab
    before = tab.scene
    tab.expansion.expand(_group(window, "losses[3–11]"))
    qtbot.waitUntil(lambda: tab.scene is not before and not tab.laying_out, timeout=60_000)
    tab.actions["end"].trigger()
    qtbot.waitUntil(lambda: not tab.expansion._redraw, timeout=30_000)
    off, shown = _labels_off_their_edges(tab.scene)
    assert shown >= 10 and not off, off
    old = tab.scene
    _found(window, qtbot, "model.layers[1].neurons[3].w[2]")
    assert tab.scene is not old
    off, shown = _labels_off_their_edges(tab.scene)
    assert shown >= 10 and not off, off
    tags = {id(e.tag) for e in tab.scene._edges.values() if e is not None and e.tag is not None}
    from PySide6.QtWidgets import QGraphicsRectItem

    strays = [item for item in tab.scene.items() if isinstance(item, QGraphicsRectItem)
              and item.zValue() == 2 and id(item) not in tags]
    assert strays == []  # no label left of the edges of another picture
    window.close()
