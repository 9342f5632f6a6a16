"""What the new-user tryout of session 33 (issue 22) left in the drawing, round 2, each
checked on what the window really shows: a group edge's label one phrase on at most two
lines, on an opaque ground, explained in its tooltip."""

from __future__ import annotations

from PySide6.QtCore import QRectF

from gui.graph.spec import sent_label
from tests.gui.grouped_models import load_grouped
from tests.gui.test_big_graph_views import _ready


def test_a_single_paths_sum_is_just_its_number_and_many_read_as_one_phrase():
    assert sent_label(0.01, 1, 1) == "0.01"
    assert sent_label(0.001173, 96, 96) == "Σ 0.001173 over\n96 paths"
    assert sent_label(-0.5, 3, 96) == "Σ -0.5 over\n3 of 96 paths"


def test_a_group_edges_label_is_two_lines_on_an_opaque_ground_and_says_what_it_sums(
        window, qtbot):
    """The tryout read `Σ 0.001173 / 96 / paths` on three lines with the dashed edge
    through the middle one ("-96-") seen through a ground of 90 % white. Now: at most two
    lines, the ground opaque, the edge's tooltip says what the sum is."""
    window.resize(1280, 720)
    load_grouped(window, points=12, sizes=(2, 6, 6, 1))
    qtbot.waitUntil(lambda: _ready(window), timeout=60_000)
    tab = window.graph_tab
    tab.actions["end"].trigger()
    scene = tab.scene
    labelled = [edge for g in scene.group_items for edge in scene.edges_into_group(g)
                if edge.label]
    assert len(labelled) >= 3
    for edge in labelled:
        lines = edge.label.split("\n")
        assert len(lines) <= 2, edge.label
        assert edge.tag.brush().color().alpha() == 255
        assert edge.tag.zValue() > max(p.zValue() for p in edge.pieces)
        tip = edge.tag.toolTip()
        assert tip == edge.pieces[0].toolTip()
        assert tip.startswith("The gradient the group sends along this edge: ")
        if lines[-1].endswith(" paths"):
            paths = lines[-1].split(" ")[-2]
            assert f"the sum of local × upstream over the {paths} paths it stands for" in tip
            assert lines[0].startswith("Σ ") and lines[0].endswith(" over")
        else:  # one path: the number alone
            assert len(lines) == 1 and not lines[0].startswith("Σ")
            assert "the one path" in tip
        # the text's lines are drawn within the opaque ground
        text = edge.tag.childItems()[0]
        assert QRectF(edge.tag.rect()).contains(text.mapRectToParent(text.boundingRect()))
