"""A 65,000-node MLP in the window: it opens drawn, collapsed, a group opens and the
steps run at the level shown, and the window never stops beating while it does (the
work runs in children or in slices). Generous bounds: they check where work runs."""

import time

from PySide6.QtCore import Qt

from gui.jobs.grouping_job import Grouped
from tests.gui.grouped_models import arrays_for, grouped_mlp, program_of, stepper_of
from tests.gui.test_background_layout import Heartbeat


def test_a_65000_node_graph_opens_expands_and_steps_without_a_gap(window, qtbot):
    loss, nodes, roles, grouping = grouped_mlp(100, (2, 16, 16, 1))
    assert len(nodes) > 64_000
    program, stepper = program_of(nodes), stepper_of(loss, nodes)  # the user's part
    tab = window.graph_tab
    tab.expansion.give(Grouped(loss, nodes, arrays_for(nodes, roles), grouping, set()))
    heart = Heartbeat()
    start = time.perf_counter()
    window.session.load_prepared(program, stepper)
    qtbot.waitUntil(lambda: tab.scene.shown is not None and not tab.laying_out,
                    timeout=120_000)
    scene = tab.scene
    assert set(scene.group_items) == set(grouping.top())
    stack = next(g for g in grouping.groups if g.kind == "stack")
    tab.view.double_clicked.emit(scene.group_items[stack.id])  # 100 samples, collapsed
    qtbot.waitUntil(lambda: tab.scene is not scene and not tab.laying_out, timeout=60_000)
    scene = tab.scene
    sample = stack.children[7]
    tab.view.double_clicked.emit(scene.group_items[sample])  # one sample's neurons
    qtbot.waitUntil(lambda: tab.scene is not scene and not tab.laying_out, timeout=60_000)
    assert set(grouping.groups[sample].children) <= set(tab.scene.group_items)
    for key in (Qt.Key.Key_Right,) * 5 + (Qt.Key.Key_End, Qt.Key.Key_Left, Qt.Key.Key_Left):
        qtbot.keyClick(tab.view, key)
    end = time.perf_counter()
    heart.painted(qtbot, end)
    heart.timer.stop()
    assert heart.longest_gap(start, end) < 0.5
    assert stepper.position < stepper.total  # two steps back from the end
    assert "backward" in tab.phase.text()
