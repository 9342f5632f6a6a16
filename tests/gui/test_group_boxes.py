"""What a collapsed group's box says: its title cut, if it must be, at a whole step of
its path (`…neurons[3].w[1]`, never `…urons[3].w[1]`), the whole title in its tooltip,
and each number once (a box of parameters: `48 nodes`, all used outside it)."""

import re

import pytest

from gui.graph.items import GroupItem, elided, font, group_size

PATHS = ["demo.model.layers[2].neurons[0]", "model.layers[0].neurons[13].w[11]",
         "step.state_dict['attn_wq'][12]", "demo.inputs[99]", "state_dict['lm_head'][3][15]"]


def _steps_start(title: str) -> set[int]:
    """Where each step of a path begins: after a '.', or at a '['."""
    return {m.start() for m in re.finditer(r"\[", title)} | {
        m.end() for m in re.finditer(r"\.", title)}


@pytest.mark.parametrize("title", PATHS)
def test_a_path_is_cut_at_a_whole_step_and_keeps_its_end(qtbot, title):
    from PySide6.QtGui import QFontMetricsF

    metrics = QFontMetricsF(font(9.5, True))
    cuts = 0
    for width in range(60, 260, 3):
        shown = elided(metrics, title, width)
        if shown == title:
            continue
        assert metrics.horizontalAdvance(shown) <= width, (shown, width)
        if shown.startswith("…"):
            tail = shown[1:]
            assert title.endswith(tail), shown
            assert len(title) - len(tail) in _steps_start(title), shown
            cuts += 1
        else:  # not even the last step fits: that step, cut at its end
            assert shown.endswith("…")
    assert cuts >= 2


def test_a_formula_is_cut_after_a_whole_word(qtbot):
    from PySide6.QtGui import QFontMetricsF

    metrics = QFontMetricsF(font(9.5, True))
    title = "attention head 3: exp((Σ 4 terms) × c + c)"
    for width in range(120, 260, 4):
        shown = elided(metrics, title, width)
        if shown != title:
            kept = shown.removesuffix("…").rstrip()
            assert title.startswith(kept), shown
            assert not (kept[-1].isalnum() and title[len(kept)].isalnum()), shown


def test_a_group_box_shows_its_title_whole_in_its_tooltip_and_its_count_once(qtbot):
    title = "demo.model.layers[2].neurons[0].w"
    tip = "48 nodes (parameters). Double-click it or press + to open it."
    item = GroupItem(0, title, 48, 0, group_size(title, False), tip)
    name, _ = item.texts()
    assert name != title and name.startswith("…") and title.endswith(name[1:])
    assert item.toolTip().startswith(title + "\n") and tip in item.toolTip()
    from gui.graph.items import INK, outputs_said
    item.set_state(outputs_said(48, 48), "", INK, 1.0, True, numbers=False)
    numbers = item.texts()[1]
    assert numbers == "48 nodes\nall values used outside"
    assert len(re.findall(r"\d+", numbers)) == 1
    stack = GroupItem(1, "relu(…) × 100", 64_700, 100, group_size("relu(…) × 100", True), tip)
    stack.set_state(outputs_said(100, 64_700), "", INK, 1.0, True, numbers=False)
    assert stack.texts()[1] == "× 100 · 64,700 nodes\n100 values used outside"
