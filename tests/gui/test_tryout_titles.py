"""What the s33 tryout found in the words of a micrograd MLP's graph: a cut box title
keeps what the box computes last (`relu(…)*w[2]`, not `relu(… + …)…`, which reads as
a relu's output)."""

from __future__ import annotations

import sys

from engine.core import ops
from engine.io.graph_import import import_graph
from gui.graph.spec import box_title
from tests.foreign_models import micrograd_demo


def _imported(points: int = 2):
    demo = micrograd_demo(points)  # noqa: F841 (named for the import, as debug() does)
    return import_graph(demo.loss, scope=sys._getframe()).program


def test_a_cut_product_title_keeps_its_product_and_its_weight(qtbot):
    from PySide6.QtGui import QFontMetricsF

    from gui.graph.items import VALUE_W, elided, font

    metrics = QFontMetricsF(font(9.5, True))
    program = _imported()
    products = [v for v in program.nodes if v.op == ops.MUL.name and not v.label
                and v.parents[0].op == ops.RELU.name and v.parents[1].label
                and ".layers[2]." in v.parents[1].label]
    assert len(products) == 16 * 2  # the last layer's 16 weights, once per point
    shown = {elided(metrics, box_title(v), VALUE_W - 8) for v in products}
    assert shown == {f"relu(…)*w[{k}]" for k in range(16)}  # w[0] told from w[1]
    for v in products:  # never cut to what reads as the relu itself
        assert box_title(v).startswith("relu(") and box_title(v).endswith(
            v.parents[1].label)
