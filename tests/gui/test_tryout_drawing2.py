"""What the new-user tryout of session 33 (issue 22) left in the drawing, round 2, each
checked on what the window really shows: a group edge's label one phrase on at most two
lines, on an opaque ground, explained in its tooltip; Ctrl+0 saying what it did, and
Ctrl+= steps that reach the readable zoom from the whole graph's in three presses; a
box's title cut only when it would not fit the widest box; the XOR dots showing their
target on any surface colour."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor

from gui.graph.export import graph_records
from gui.graph.spec import sent_label
from tests.gui.graph_geometry import edges_through_boxes, overlapping_labels
from tests.gui.grouped_models import load_grouped
from tests.gui.test_big_graph_views import _ready
from tests.gui.test_tryout_drawing import XOR_PARAMETERS


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
    # a parameter's own edges: an edge from a group of them (to many different nodes)
    # has no sum for a label (the tryout of session 34)
    layer = next(g for g, item in tab.scene.group_items.items() if item.title == "layers[0]")
    for g in (layer, tab.scene.shown.groups[layer].children[0]):
        before = tab.scene
        tab.expansion.expand(g)
        qtbot.waitUntil(lambda b=before: tab.scene is not b and _ready(window), timeout=60_000)
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


def _action(window, keys: str):
    from PySide6.QtGui import QAction

    return next(a for a in window.findChildren(QAction) if a.shortcut().toString() == keys)


def test_ctrl_0_always_says_what_it_did_and_three_ctrl_plus_make_the_chain_readable(
        window, qtbot):
    """The tryout's 40-line tanh chain at 1920 x 1080, at its end: the first Ctrl+0 did
    nothing visible and said nothing; after the second (the whole graph, at about 9 %),
    three Ctrl+= at 1.25× left it at under a fifth of the readable size. Now Ctrl+0 says
    it was fitted already, and three Ctrl+= reach the readable zoom (three Ctrl+- back to
    the whole graph); past it a step is 1.25×."""
    window.resize(1920, 1080)
    qtbot.waitUntil(lambda: window.size().toTuple() == (1920, 1080), timeout=5_000)
    text = "x0 = 0.5\n" + "".join(f"x{i} = tanh(x{i - 1}*1.1 + 0.1)\n" for i in range(1, 41))
    window.editor.set_text(text)
    window.build(text)
    assert window.wait_for_build() and window.graph_tab.wait_for_layout()
    qtbot.wait(20)
    view, status = window.graph_tab.view, window.statusBar()
    readable = view.readable_scale()
    window.graph_tab.actions["end"].trigger()
    window.show_status("Backward pass: Right applies the next rule, Left takes it back.")
    _action(window, "Ctrl+0").trigger()
    assert status.currentMessage() == (
        f"Already fitted: as much as is readable, at {view.scale_factor():.0%} (not all of "
        "the graph); Ctrl+0 again to see all of it")
    _action(window, "Ctrl+0").trigger()
    whole = view.scale_factor()
    assert whole < readable / 4
    zoom_in, zoom_out = _action(window, "Ctrl+="), _action(window, "Ctrl+-")
    scales = [whole]
    for _ in range(3):
        zoom_in.trigger()
        scales.append(view.scale_factor())
    assert scales[-1] == pytest.approx(readable)
    ratios = [b / a for a, b in zip(scales, scales[1:])]
    assert ratios == pytest.approx([(readable / whole) ** (1 / 3)] * 3)
    zoom_in.trigger()
    assert view.scale_factor() == pytest.approx(readable * 1.25)
    zoom_out.trigger()
    for _ in range(3):
        zoom_out.trigger()
    assert view.scale_factor() == pytest.approx(whole)
    _action(window, "Ctrl+0").trigger()  # readable again: it says so, with the zoom
    assert view.scale_factor() == pytest.approx(readable)
    assert status.currentMessage().startswith("Fitted: as much as is readable, at ")



NEURON = ("w1 = 0.5; w2 = -0.3; b = 0.1\nx1 = 1.0; x2 = 2.0; y = 1.0\n"
          "z = w1*x1 + w2*x2 + b\np = tanh(z)\nloss = (p - y)**2\n")


def test_a_box_title_is_cut_only_when_it_would_not_fit_its_room(window):
    """The lesson's neuron: `w1*x1 + w2*x2` was cut to `w1*x1 + w2…` in a box of 112 px
    with room beside it. Now its box widens to hold it (no box or label overlapping,
    no edge through a box); a title too long for the widest box is still cut."""
    from gui.graph.items import VALUE_W, VALUE_W_MAX, value_size

    assert window.build(NEURON)
    window.graph_tab.wait_for_layout()
    scene = window.graph_tab.scene
    titles = {item.full_name: item for item in scene.value_items}
    box = titles["w1*x1 + w2*x2"]
    assert box.texts()[0] == "w1*x1 + w2*x2"
    assert box.rect().width() > VALUE_W
    name = box.name.mapRectToParent(box.name.boundingRect())
    assert box.rect().contains(name)
    assert all(item.texts()[0] == item.full_name for item in scene.value_items)
    graph = graph_records(scene)
    assert overlapping_labels(graph) == [] and edges_through_boxes(graph) == []
    assert value_size("w1")[0] == VALUE_W
    assert value_size("model.layers[0].neurons[3].w[1]*inputs[7][0] + b")[0] == VALUE_W_MAX


def test_the_xor_dots_show_their_target_on_any_surface_colour(qtbot):
    """The tryout saw four white rings: each dot was filled with its target's surface
    colour inside a white ring, so on a surface of that colour (a right prediction) or
    on the white boundary only a ring showed. Now a dot is a dark ring around a light one
    around a fill in its target's hue: the outer ring stands out from every colour the
    surface takes (contrast >= 3), the fill from the ring around it (>= 4.5), and the two
    classes' fills differ in hue; on screen, each dot's centre is its fill."""
    from engine.lesson.nn import XOR
    from gui.palette import contrast
    from gui.tabs import plots

    widget = plots.plot_widget()
    qtbot.addWidget(widget)
    plot = widget.getPlotItem()
    image = plots.decision_surface_items(plot)
    dots = [item for item in plot.items if isinstance(item, plots.pg.ScatterPlotItem)]
    by_size = sorted(dots, key=lambda d: -d.points()[0].size())
    outer, inner = by_size[0], by_size[-1]  # the outermost ring and the fill
    surface = [QColor(*plots.SURFACE_COLORS.map(v, mode="byte")[:3])
               for v in np.linspace(0, 1, 21)]
    for edge, spot, (_, target) in zip(outer.points(), inner.points(), XOR):
        assert edge.pos() == spot.pos()
        ring, fill = spot.pen().color(), spot.brush().color()
        assert min(contrast(edge.brush().color(), c) for c in surface) >= 3.0
        assert contrast(fill, ring) >= 4.5
        hue = fill.hsvHue()
        assert (200 <= hue <= 240) if target > 0.5 else (10 <= hue <= 40), (target, hue)
    widget.resize(420, 520)
    widget.show()
    qtbot.waitExposed(widget)
    plots.update_decision_surface(image, XOR_PARAMETERS, 2, "tanh")
    qtbot.wait(20)
    shot = widget.grab().toImage()
    box = plot.getViewBox()
    for spot, (x, _) in zip(inner.points(), XOR):
        at = widget.mapFromScene(box.mapViewToScene(QPointF(*x)))
        seen = shot.pixelColor(at.x(), at.y())
        fill = spot.brush().color()
        assert max(abs(seen.red() - fill.red()), abs(seen.green() - fill.green()),
                   abs(seen.blue() - fill.blue())) <= 12, (x, seen.name())
