"""A large graph is laid out in a child process: the window keeps drawing frames, a new
build ends the old layout at once, and the last graph stays until the new one is drawn."""

import gc
import time

from PySide6.QtCore import QTimer

from gui.jobs import process_job

NODES = 20_000  # the most the window drew before graphs were grouped
LINES = (NODES - 3) // 3  # three steps a line, three inputs: just under NODES


def chain(lines: int, w: float = 0.3) -> str:
    return (f"x = 0.5\nw = {w}\nb = 0.1\na0 = tanh(x*w + b)\n"
            + "".join(f"a{k} = tanh(a{k - 1}*w + b)\n" for k in range(1, lines)))


class Heartbeat:
    """A 5 ms timer that notes when it fires: a long gap is a frozen window.

    Garbage left by earlier tests (a closed window and its 200,000-node program) is
    collected first, so that its collection is not timed as this test's."""

    def __init__(self):
        gc.collect()
        self.beats = []
        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(lambda: self.beats.append(time.perf_counter()))
        self.timer.start()

    def painted(self, qtbot, after: float, beats: int = 3) -> None:
        """Wait until the loop has gone round `beats` times since `after` (what was due,
        such as a new scene's first paint, has then been handled)."""
        qtbot.waitUntil(lambda: sum(t > after for t in self.beats) >= beats, timeout=10_000)

    def longest_gap(self, start: float, end: float) -> float:
        times = [start, *(t for t in self.beats if start < t < end), end]
        return max(b - a for a, b in zip(times, times[1:]))


def children(window) -> list:
    """The child processes running, but the warm layout child (kept from a grouped
    picture for the next one, until the window closes)."""
    warm = window.graph_tab.background.server.worker
    return [j for j in process_job.running() if warm is None or j is not warm.job]


def test_the_window_keeps_beating_while_a_20000_node_program_is_built_and_drawn(window,
                                                                                 qtbot):
    tab = window.graph_tab
    heart = Heartbeat()
    started = time.perf_counter()
    # parsed in a child process, its values and stepper made in slices, what to draw
    # worked out in slices, laid out in a child, drawn in slices, swapped in and painted
    assert window.build(chain(LINES))
    assert window.building
    qtbot.waitUntil(lambda: not window.building and not tab.laying_out, timeout=120_000)
    heart.painted(qtbot, time.perf_counter())  # the new scene's first paint
    heart.timer.stop()
    assert len(window.session.stepper.forward_steps) > NODES - 5
    assert tab.scene.stepper is window.session.stepper
    assert heart.longest_gap(started, time.perf_counter()) < 0.5
    assert tab.scene.value_items and not children(window)


def test_the_last_graph_stays_and_cannot_be_stepped_until_the_new_one_is_drawn(window, qtbot):
    tab = window.graph_tab
    old_stepper, old_items = tab.scene.stepper, len(tab.scene.items())
    assert window.build(chain(LINES // 4))
    assert window.building and "building" in tab.phase.text()
    assert window.wait_for_build()
    assert tab.laying_out and "laying out" in tab.phase.text()
    assert tab.scene.stepper is old_stepper and len(tab.scene.items()) == old_items
    assert not any(action.isEnabled() for action in tab.actions.values())
    qtbot.waitUntil(lambda: not tab.laying_out, timeout=60_000)
    assert tab.scene.stepper is window.session.stepper
    assert tab.actions["step"].isEnabled()


def test_quick_rebuilds_leave_one_layout_running_and_draw_the_last(window, qtbot):
    tab = window.graph_tab
    for k in range(5):
        assert window.build(chain(LINES, w=0.1 * (k + 1)))
        assert len(children(window)) <= 1
    window.graph_tab.engine_box.setCurrentIndex(1)  # another engine: laid out again
    assert len(children(window)) <= 1
    window.constants_action.setChecked(True)  # constants as boxes: laid out again
    assert len(children(window)) <= 1
    qtbot.waitUntil(lambda: not window.building and not tab.laying_out, timeout=120_000)
    assert not children(window)
    program = window.session.program
    assert program.inputs["w"].data == 0.5
    assert tab.scene.stepper is window.session.stepper
    assert tab.scene.spec.folded is False
    assert len(tab.scene.nodes) == len(window.session.stepper.forward_steps)


def test_cancel_leaves_the_graph_undrawn_and_stepping_working(window, qtbot):
    tab = window.graph_tab
    assert window.build(chain(LINES // 2))
    assert window.wait_for_build()
    tab.cancel_layout()
    assert not tab.laying_out and not children(window)
    assert "cancelled" in window.statusBar().currentMessage()
    notes = [item.text() for item in tab.scene.items() if hasattr(item, "text")]
    assert any("not drawn" in text for text in notes)
    tab.actions["step"].trigger()
    assert window.session.stepper.position == 1


def test_wait_for_layout_draws_the_graph_before_it_returns(window):
    assert window.build(chain(LINES // 4))
    assert window.wait_for_build()
    assert window.graph_tab.wait_for_layout()
    assert window.graph_tab.scene.stepper is window.session.stepper


def test_a_long_layout_shows_a_progress_bar_whose_cancel_stops_it(window, qtbot):
    # a graph loaded as Values (as debug() loads it) is grouped, then drawn, in children
    from engine.core.value import topological_order
    from tests.graph_models import micrograd_mlp
    from tests.gui.grouped_models import program_of, stepper_of

    loss = micrograd_mlp(100).loss
    nodes = topological_order(loss)
    tab = window.graph_tab
    window.session.load_prepared(program_of(nodes), stepper_of(loss, nodes))
    qtbot.waitUntil(window.cancel_layout.isVisible, timeout=5_000)  # after half a second
    assert window.progress.isVisible()
    window.cancel_layout.click()
    assert not tab.laying_out and not children(window)
    assert not window.cancel_layout.isVisible() and not window.progress.isVisible()
    assert "cancelled" in window.statusBar().currentMessage()
    assert tab.actions["step"].isEnabled()
