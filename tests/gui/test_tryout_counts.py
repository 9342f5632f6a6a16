"""The s34 tryout's 40-line tanh chain: the inspector said 'node 83 of 196 in the forward
order' while the step counter said 'forward 50/118' of the same node (one counted the
constants, the other not). The inspector now says the counter's count, in its words,
and the count with the constants beside it."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QApplication

CHAIN = "\n".join(["v0 = 0.5"] + [f"v{k} = tanh(v{k - 1}*1.1 + 0.1)" for k in range(1, 40)])


def test_the_inspector_counts_a_nodes_forward_step_as_the_step_counter_does(window):
    assert window.build(CHAIN)
    tab, stepper = window.graph_tab, window.session.stepper
    checked = 0
    for _ in range(60):
        tab.actions["step"].trigger()
        QApplication.processEvents()
        counter = re.fullmatch(r"forward (\d+)/(\d+)", tab.phase.text())
        assert counter, tab.phase.text()
        node = stepper.current
        if node.label:
            continue  # a named node has no 'which' row
        text = window.inspector.toPlainText().replace("\u200b", "")
        k, n = counter.groups()
        assert f"forward step {k} of {n}, as the step counter counts" in text, text
        assert f"node {stepper.forward_position(node) + 1} of {len(stepper.forward_steps)} " \
               "with the" in text
        checked += 1
    assert checked >= 20
