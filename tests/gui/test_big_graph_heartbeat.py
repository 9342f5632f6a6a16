"""micrograd's 65,818-node MLP loaded into the window: it is grouped in a child, stepped
again in the grouping's order, drawn collapsed, a group opens, closes and opens again (laid
out from the picture before in the warm layout child, or prepared while idle) and the
steps run at the level shown, and the window never stops beating while it does (the work
runs in children or in slices). Generous bounds: they check where work runs, not speed."""

import time

from PySide6.QtCore import Qt

from engine.core.value import topological_order
from tests.graph_models import micrograd_mlp
from tests.gui.grouped_models import program_of, stepper_of
from tests.gui.test_background_layout import Heartbeat


def test_a_65000_node_graph_opens_expands_and_steps_without_a_gap(window, qtbot):
    loss = micrograd_mlp(100).loss
    nodes = topological_order(loss)
    assert len(nodes) == 65_818
    program, stepper = program_of(nodes), stepper_of(loss, nodes)  # the user's side
    tab = window.graph_tab
    heart = Heartbeat()
    start = time.perf_counter()
    window.session.load_prepared(program, stepper)
    qtbot.waitUntil(lambda: tab.scene.shown is not None and not tab.laying_out
                    and not window.building, timeout=180_000)
    scene = tab.scene
    shown = scene.shown
    assert scene.group_items and len(shown.quotient.units) < 200
    stepper = window.session.stepper  # made again in the grouping's order
    assert stepper.forward_steps is not nodes and set(stepper.forward_steps) == set(nodes)
    biggest = max(scene.group_items, key=lambda g: shown.groups[g].members)
    # the warm layout child starts, and the opening of the biggest groups is prepared,
    # while the window is idle: neither holds it
    qtbot.waitUntil(lambda: not tab.expansion.preparer.running, timeout=60_000)
    assert tab.background.server.running
    for _ in range(2):  # opened, closed (−), opened again: each redrawn, the window beating
        tab.view.double_clicked.emit(tab.scene.group_items[biggest])
        qtbot.waitUntil(lambda: biggest not in tab.scene.group_items and not tab.laying_out,
                        timeout=60_000)
        tab.scene.clearSelection()
        opened = tab.scene
        tab.expansion.collapse(biggest)
        qtbot.waitUntil(lambda: tab.scene is not opened and not tab.laying_out,  # noqa: B023
                        timeout=60_000)
        assert biggest in tab.scene.group_items
    second = sorted(tab.scene.group_items, key=lambda g: -shown.groups[g].members)[1]
    tab.view.double_clicked.emit(tab.scene.group_items[second])  # laid out in the warm child
    qtbot.waitUntil(lambda: second not in tab.scene.group_items and not tab.laying_out,
                    timeout=60_000)
    tab.view.double_clicked.emit(tab.scene.group_items[biggest])
    qtbot.waitUntil(lambda: biggest not in tab.scene.group_items and not tab.laying_out,
                    timeout=60_000)
    for key in (Qt.Key.Key_Right,) * 5 + (Qt.Key.Key_End, Qt.Key.Key_Left, Qt.Key.Key_Left):
        qtbot.keyClick(tab.view, key)
    end = time.perf_counter()
    heart.painted(qtbot, end)
    heart.timer.stop()
    assert heart.longest_gap(start, end) < 0.5
    assert stepper.position < stepper.total  # two steps back from the end
    assert "backward" in tab.phase.text()
    tab.actions["end"].trigger()  # the script's own backward()'s gradients, to the bit
    grads = {v.label: v.grad for v in program.values if v.label}
    for v in nodes:
        v.grad = 0.0
    loss.backward()
    assert grads == {v.label: v.grad for v in nodes if v.label}
