"""What a new user's tryout (issue 22) left in the drawing, each checked on the pixels or
the geometry the window really shows: the XOR decision surface a clean heat map; the
labels of a value used many times clear of the curves."""

import numpy as np
import pytest

from gui.graph.export import graph_records
from tests.gui.graph_geometry import edges_through_boxes, labels_crossed, overlapping_labels

# a trained-looking 2-2-1 tanh network: the boundary crosses the square diagonally
XOR_PARAMETERS = [1.5, -2.0, 0.7, 1.1, 0.3, -0.4, 2.0, -1.0, 0.2]


def _row_colours(image, y: int, left: int, right: int) -> np.ndarray:
    return np.array([sum(image.pixelColor(x, y).getRgb()[:3]) for x in range(left, right)],
                    float)


def test_the_xor_surface_has_no_stripes_between_its_cells(qtbot):
    """A row of screen pixels across the surface changes smoothly: no grid line drawn over
    it (a pixel darker or lighter than both neighbours) and no step from one flat cell to
    the next (64 cells drawn nearest-neighbour stepped by up to 132 in r+g+b)."""
    from gui.tabs import plots

    widget = plots.plot_widget()
    qtbot.addWidget(widget)
    image = plots.decision_surface_items(widget.getPlotItem())
    widget.resize(420, 520)
    widget.show()
    qtbot.waitExposed(widget)
    plots.update_decision_surface(image, XOR_PARAMETERS, 2, "tanh")
    qtbot.wait(20)
    box = widget.getPlotItem().getViewBox().sceneBoundingRect().toRect()
    shot = widget.grab().toImage()
    for fraction in (0.3, 0.6):  # rows clear of the four dots
        y = int(box.top() + fraction * box.height())
        steps = np.diff(_row_colours(shot, y, box.left() + 3, box.right() - 3))
        spikes = (steps[:-1] * steps[1:] < 0) & (np.minimum(abs(steps[:-1]), abs(steps[1:])) > 3)
        assert int(spikes.sum()) == 0, f"{int(spikes.sum())} thin lines across row {y}"
        assert abs(steps).max() <= 30, f"a step of {abs(steps).max()} across row {y}"


@pytest.mark.parametrize("program", ["a = 3\nout = a*a + a*a", "a = 3\nout = a*a*a*a",
                                     "a = 3\nout = a*a + a*a + a*a + a*a"])
def test_a_value_used_many_times_keeps_its_labels_clear_of_the_curves(window, program):
    """Each edge's bends stay 3 px clear of every label, its own included (they climbed
    along the label's side, within a pixel of its text): only its level run passes under
    it. No label on a label or a box, no edge through a box."""
    assert window.build(program)
    window.graph_tab.wait_for_layout()
    window.session.run_to_end()
    graph = graph_records(window.graph_tab.scene)
    assert sum(1 for e in graph["edges"] if e["label"]) >= 6
    assert labels_crossed(graph) == []
    assert overlapping_labels(graph) == [] and edges_through_boxes(graph) == []
