"""After the session-34 tryout of debug() on micrograd's MLP and a microgpt step: a
stack's instances are titled by what they compute (`rmsnorm(8) #0`, not `#0`), a
`layer(12 → 4)` says what its numbers mean, and a box writes its numbers' 4 digits
whole (`grad ≈ -0.0005270…`, not `grad ≈ -0.00052…`)."""

from __future__ import annotations

import html
import re

from gui.graph.box_numbers import continued
from tests.gui.test_tryout_s34 import _drawn


def test_a_stacks_instances_are_titled_by_what_they_compute(qtbot):
    from gui import debug
    from gui.graph.group_inspector import describe_group
    from tests.foreign_models import microgpt_step

    step = microgpt_step()
    loss, state_dict = step.loss, step.state_dict  # noqa: F841 (named as a script names them)
    window = _drawn(qtbot, debug(loss, block=False))
    shown = window.graph_tab.scene.shown
    titles = [g.title for g in shown.groups]
    assert not [t for t in titles if re.fullmatch(r"#\d+", t)]  # never a bare number
    assert {"rmsnorm(8) #0", "rmsnorm(8) #1", "rmsnorm(8) × 2"} <= set(titles)
    stack = next(g for g in shown.groups if g.title == "rmsnorm(8) × 2")
    assert [shown.groups[c].title for c in stack.children] == ["rmsnorm(8) #0",
                                                                "rmsnorm(8) #1"]
    head = next(g for g in shown.groups if g.title == "attention head 0: layer(12 → 4)")
    meant = ("layer(12 → 4) is 4 results computed alike, as a layer's neurons are, each "
             "from the same 12 values made outside it.")
    assert meant in shown.describe(head.id)  # the box's tooltip
    assert html.escape(meant) in describe_group(head.id, shown)  # the inspector
    window.close()


def test_a_long_instance_title_keeps_its_index_on_its_box(qtbot):
    """`relu((Σ 16 terms + b) × c + c) × relu(Σ 16 terms + b) #12` was cut to
    `relu((Σ 16 terms + b) × c + c) …` on its box: its index, all that tells it from its
    siblings, lost."""
    from PySide6.QtGui import QFontMetricsF

    from gui.graph.groups.titling import instance_base
    from gui.graph.items import GROUP_W_MAX, elided, font

    metrics = QFontMetricsF(font(9.5, True))
    for base, said in (("relu((Σ 16 terms + b) × c + c) × relu(Σ 16 terms + b)",
                        "relu((Σ 16 terms + b) × …"),
                       ("relu((Σ 16 terms + b) × c + c)", "relu(…)"),
                       ("rmsnorm(16)", "rmsnorm(16)")):
        assert instance_base(base) == said
        title = f"{instance_base(base)} #12"
        assert elided(metrics, title, GROUP_W_MAX - 10) == title


SMALL = "x = 0.000527083\ny = x * 1.0000001\nz = y * 0.00000123457\nw = z * 1234.5678"


def test_a_box_writes_its_numbers_four_digits_whole(window, qtbot):
    """At 1280x720 a box cut 'grad ≈ -0.0005270…' to 'grad ≈ -0.00052…' and
    '≈ -1.127…e-06' to '≈ -1.1…e-06': two of its four digits lost to its border."""
    window.resize(1280, 720)
    assert window.build(SMALL)
    window.session.run_to_end()
    scene, names = window.graph_tab.scene, window.session.program.names
    checked = 0
    for i, box in scene._box.items():
        node = scene.nodes[i]
        for line, what, x in zip(box.texts()[1:], ("value", "grad"), (node.data, node.grad)):
            if line.startswith(f"{what} ≈ "):
                assert line == f"{what} ≈ {continued(x)}", line
                checked += 1
    assert checked >= 5
    assert scene.value_item_of(names["y"]).texts()[1] == "value ≈ 0.0005270…"
    assert scene.value_item_of(names["z"]).texts()[1] == "value ≈ 6.507…e-10"


# -- the first view, gone back to, is the same picture -------------------------------------


def _picture(tab) -> dict[str, tuple[float, float]]:
    """Where each box of the picture on screen stands, by its title (a group's) or its
    name (a value's)."""
    scene = tab.scene
    found = {item.title: (item.pos().x(), item.pos().y()) for item in scene.group_items.values()}
    for i, box in scene._box.items():
        found[f"v{i}"] = (box.pos().x(), box.pos().y())
    return found


def _redrawn(qtbot, window, act) -> None:
    tab = window.graph_tab
    before = tab.scene
    act()
    qtbot.waitUntil(lambda: tab.scene is not before and not tab.laying_out
                    and not window.building, timeout=60_000)
    # as a user looks at it: the groups of the picture are made ready to open meanwhile
    qtbot.waitUntil(lambda: not tab.expansion.preparer.running, timeout=60_000)


def test_the_first_view_gone_back_to_is_the_same_picture(qtbot):
    """micrograd's demo on 20 points: the groups of the first view reordered and moved
    each time the user came back to it (− or the breadcrumb's 'graph')."""
    from gui import debug
    from tests.foreign_models import micrograd_demo

    demo = micrograd_demo(20)
    model, losses, loss = demo.model, demo.losses, demo.loss  # noqa: F841
    window = _drawn(qtbot, debug(loss, block=False))
    tab = window.graph_tab
    first = _picture(tab)
    assert len(first) >= 5
    titles = [item.title for item in tab.scene.group_items.values()]
    for title in titles * 2:  # each opened, then back, in turn; each twice
        group = next(g for g, item in tab.scene.group_items.items() if item.title == title)
        _redrawn(qtbot, window, lambda g=group: tab.expansion.expand(g))
        if titles.index(title) % 2:
            _redrawn(qtbot, window, lambda g=group: tab.expansion.collapse(g))
        else:
            _redrawn(qtbot, window, lambda: tab.expansion.back_to(-1))
        assert _picture(tab) == first, title
    window.close()


def test_views_gone_back_to_through_nested_opens_are_the_same(qtbot):
    """The 100-point demo: the stack opened, a part of it, a part of that, then closed
    one by one: each view gone back to is drawn as it was seen (the drawings made ahead
    of a click had pushed it out of the few kept, and it was laid out again)."""
    from gui import debug
    from tests.foreign_models import micrograd_demo

    demo = micrograd_demo(100)
    model, losses, loss = demo.model, demo.losses, demo.loss  # noqa: F841
    window = _drawn(qtbot, debug(loss, block=False))
    tab = window.graph_tab
    seen = {frozenset(tab.scene.shown.expanded): _picture(tab)}
    opened = []
    for _ in range(3):  # the biggest group, then the biggest inside it, ...
        shown = tab.scene.shown
        inner = [g for g in tab.scene.group_items
                 if not opened or shown.groups[g].parent == opened[-1]]
        g = max(inner, key=lambda g: shown.groups[g].members)
        opened.append(g)
        _redrawn(qtbot, window, lambda g=g: tab.expansion.expand(g))
        seen[frozenset(tab.scene.shown.expanded)] = _picture(tab)
    assert len(seen) == 4
    for g in reversed(opened):
        _redrawn(qtbot, window, lambda g=g: tab.expansion.collapse(g))
        assert _picture(tab) == seen[frozenset(tab.scene.shown.expanded)]
    assert frozenset(tab.scene.shown.expanded) == next(iter(seen))  # the first view
    window.close()


# -- a group opened is framed whole, or from its start ------------------------------------


def test_a_stack_too_tall_to_show_whole_is_framed_from_its_start(qtbot):
    """The 100-point demo at 1280x720: `losses[3–99] × 97` opened was centred, its first
    and last parts cut off by the window's top and bottom."""
    from gui import debug
    from gui.graph.framing import cut_boxes, opened_items
    from tests.foreign_models import micrograd_demo

    demo = micrograd_demo(100)
    model, losses, loss = demo.model, demo.losses, demo.loss  # noqa: F841
    window = _drawn(qtbot, debug(loss, block=False))
    tab, view = window.graph_tab, window.graph_tab.view
    window.session.run_to_end()  # the step at the end, outside the stack (as the tryout's)
    g = next(g for g, item in tab.scene.group_items.items()
             if item.title == "losses[3–99] × 97")
    _redrawn(qtbot, window, lambda: tab.expansion.expand(g))
    qtbot.wait(50)
    items = opened_items(tab.scene, g)
    tops = sorted(items, key=lambda item: item.sceneBoundingRect().top())
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    assert not all(visible.contains(item.sceneBoundingRect()) for item in items)  # too tall
    assert visible.contains(tops[0].sceneBoundingRect())  # its first instances are shown
    assert tops[0].title == "losses[3–12]"
    assert view.scale_factor() >= view.readable_scale() * 0.999
    assert cut_boxes(view) == [] or len(cut_boxes(view)) <= 2
    said = window.statusBar().currentMessage()
    assert said.startswith("Opened losses[3–99] × 97: too big to show whole at a readable "
                           "size, so its start, its first instances, is shown"), said
    window.close()


# -- an edge's label is one node's gradient, or none ---------------------------------------


def test_an_edge_sending_to_many_nodes_has_no_sum_for_a_label(qtbot):
    """The 20-point demo, stepped to the end: the edge from the junction of the model's
    parameter groups into the stack was labelled `Σ 5.759 over 32,592 paths`, a sum of
    the gradients of ~336 different weights. An edge whose operands are of one node
    keeps its sum; one of several has no label, and its tooltip says why."""
    from gui import debug
    from gui.graph.spec import sent_label
    from tests.foreign_models import micrograd_demo

    demo = micrograd_demo(20)
    model, losses, loss = demo.model, demo.losses, demo.loss  # noqa: F841
    window = _drawn(qtbot, debug(loss, block=False))
    tab = window.graph_tab
    tab.actions["end"].trigger()
    scene = tab.scene
    spec, parents = scene.spec, scene.shown.arrays.parents
    steps, step_of = window.session.stepper.backward_steps, scene.shown.step_of
    one = many = 0
    for e, operands in spec.operands.items():
        edge = scene._edges.get(e)
        if edge is None:
            continue
        to = {parents[c][k] for c, k in operands}
        if len(to) > 1:
            assert edge.label == "", edge.label
            assert f"to {len(to):,} different nodes" in edge.pieces[0].toolTip()
            many += 1
        else:
            total = sum(steps[step_of[c]].contributions[k].contribution for c, k in operands)
            assert edge.label == sent_label(total, len(operands), len(operands))
            assert edge.label
            one += 1
    assert many >= 3 and one >= 3, (many, one)
    window.close()
