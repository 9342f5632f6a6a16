"""After the session-34 tryout of debug() on micrograd's MLP and a microgpt step: a
stack's instances are titled by what they compute (`rmsnorm(8) #0`, not `#0`), a
`layer(12 → 4)` says what its numbers mean, and a box writes its numbers' 4 digits
whole (`grad ≈ -0.0005270…`, not `grad ≈ -0.00052…`)."""

from __future__ import annotations

import html
import re

from gui.graph.box_numbers import continued


def _drawn(qtbot, window):
    window.resize(1280, 720)
    tab = window.graph_tab
    qtbot.waitUntil(lambda: not window.building and not tab.laying_out
                    and tab.scene.shown is not None, timeout=180_000)
    return window


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
