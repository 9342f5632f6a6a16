"""The Graph tab's controls: the step buttons, the speed, the engine box, the phase,
the legend and the line that says where a bug went wrong."""

from __future__ import annotations

import math
import re

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction, QKeySequence, QPainter
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSlider, QToolButton

from engine.core.engines import CORRECT
from engine.core.pitfalls import NO_SORT, OVERWRITE
from engine.core.stepping import gradients_with
from engine.numbers import count, number
from gui.palette import hex_of
from gui.theme import follow, styled

SHOWN_WRONG = 4  # inputs named in the sentence about wrong gradients; the rest are counted


def wrong_gradients_sentence(wrong: dict[str, float], right: dict[str, float],
                             by: str = "with this bug") -> str:
    """'At the end: x has gradient 3 with this bug; the correct gradient is 9.' for
    the inputs whose gradient differs (beyond rounding); '' when none does."""
    differ = [(name, wrong[name], right[name]) for name in right
              if not math.isclose(wrong[name], right[name], rel_tol=1e-9, abs_tol=1e-12)]
    if not differ:
        return ""
    if len(differ) == 1:
        name, bad, good = differ[0]
        return (f"At the end: {name} has gradient {number(bad)} {by}; "
                f"the correct gradient is {number(good)}.")
    parts = [f"{name} has {number(bad)} (correct: {number(good)})"
             for name, bad, good in differ[:SHOWN_WRONG]]
    more = len(differ) - SHOWN_WRONG
    if more > 0:
        parts.append(f"{count(more, 'more input')} too")
    return f"At the end, these gradients are wrong {by}: {'; '.join(parts)}."


def gradients_wrong_at_end(program, stepper) -> str:
    """At the end of a buggy backward pass: which inputs' gradients came out wrong, and
    what they should be ('' if the bug did not change any). The wrong ones are what the
    stepper wrote into the inputs; the right ones come from a fresh copy of the program."""
    wrong = {name: leaf.grad for name, leaf in program.inputs.items()}
    return wrong_gradients_sentence(wrong, gradients_with(program), stepper.engine.blame)


PHASE_TIP = ("Which pass is running, and how many of its steps are taken (the forward "
             "steps count the values computed: a folded constant is no step). In a grouped "
             "graph: 'in X', the innermost group drawn open around the step; a group's "
             "title alone, the closed group just stepped")
_READY = re.compile(r"^ready: ([\d,]+) forward and ([\d,]+) backward steps$")
_INSIDE = "inside "


def shortened(text: str) -> str:
    """The step counter's text said short: 'ready: 14 forward and 9 backward steps' →
    '14 forward · 9 backward'; 'forward 5/20 · inside losses[3–11] › losses[5]' → the
    innermost group drawn open around the step, 'forward 5/20 · in losses[5]'; with a
    closed group just stepped ('… · inside losses[3–11] · losses[7]'), that group alone,
    'forward 5/20 · losses[7]' (the whole text is in the tooltip)."""
    counts, *places = _READY.sub(r"\1 forward · \2 backward", text).split(" · ")
    if not places or _READY.match(text):
        return " · ".join([counts, *places])
    last = places[-1]
    if last.startswith(_INSIDE):
        return f"{counts} · in {last.removeprefix(_INSIDE).split(' › ')[-1]}"
    return f"{counts} · {last}"


class PhaseLabel(QLabel):
    """The step counter: one line, whatever it says, so that the graph below never
    jumps; a step's place said short (`shortened`: the innermost only), the counts never
    cut (a place too long for the room is cut in the middle), the whole text in the
    tooltip; `text()` is the whole text."""

    def minimumSizeHint(self) -> QSize:
        return QSize(self.minimumWidth(), self.sizeHint().height())

    def sizeHint(self) -> QSize:
        return QSize(self.fontMetrics().horizontalAdvance(self.text()) + 2,
                     self.fontMetrics().lineSpacing() + 2)

    def shown_lines(self) -> list[str]:
        """The line drawn (a list of one): a text without a place whole if it fits,
        else its short form; a step's place always said short (see `shortened`)."""
        metrics, width = self.fontMetrics(), self.width()
        text = self.text()
        brief = shortened(text)
        placed = " · " in text and not _READY.match(text)
        if not placed and metrics.horizontalAdvance(text) <= width:
            return [text]
        # shorter still for a narrow room: 'backward 9/9 (done)' says 9/9
        forms = [brief, brief.replace(" (done)", "")]
        for form in forms:
            if metrics.horizontalAdvance(form) <= width:
                return [form]
        counts, _, place = forms[-1].partition(" · ")
        room = width - metrics.horizontalAdvance(counts + " · ")
        if place and room > metrics.horizontalAdvance("los…]"):
            return [f"{counts} · "
                    + metrics.elidedText(place, Qt.TextElideMode.ElideMiddle, room)]
        return [metrics.elidedText(brief, Qt.TextElideMode.ElideRight, width)]

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setToolTip(f"{text}\n\n{PHASE_TIP}" if text else PHASE_TIP)

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setFont(self.font())
        painter.drawText(0, 0, self.width(), self.height(),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         self.shown_lines()[0])


STEP_ACTIONS = [  # (key, text, shortcut, tip)
    ("reset", "Reset", "Home", "Back to the start: no values, no gradients"),
    ("back", "Step back", "Left", "Undo exactly one step"),
    ("step", "Step", "Right", "Take one step of the forward, then the backward pass"),
    ("play", "Play", "Space", "Step automatically at the chosen speed; again to pause"),
    ("end", "Run to end", "End", "Take every remaining step"),
]


def step_actions(parent, bar: QHBoxLayout) -> dict[str, QAction]:
    """The step actions by key (Play is checkable), each with a button added to `bar`."""
    actions = {}
    for key, text, shortcut, tip in STEP_ACTIONS:
        action = QAction(text, parent)
        action.setShortcut(QKeySequence(shortcut))
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.setToolTip(f"{tip} ({shortcut})")
        action.setStatusTip(tip)
        button = QToolButton(parent)
        button.setDefaultAction(action)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        button.setObjectName(f"{key}_button")
        bar.addWidget(button)
        actions[key] = action
    actions["play"].setCheckable(True)
    # as wide as its wider word, so that Pause in place of Play moves nothing beside it
    play = parent.findChild(QToolButton, "play_button")
    widths = []
    for text in ("Pause", "Play"):
        actions["play"].setText(text)
        widths.append(play.sizeHint().width())
    play.setMinimumWidth(max(widths))
    return actions


def speed_slider(parent) -> tuple[QSlider, QLabel]:
    """Steps per second while playing, and the label that shows it."""
    speed = QSlider(Qt.Orientation.Horizontal, parent)
    speed.setRange(1, 30)
    speed.setValue(4)
    speed.setFixedWidth(72)  # room for the step counter beside it at 1280 px
    speed.setToolTip("Steps per second while playing")
    label = QLabel(parent)
    label.setMinimumWidth(label.fontMetrics().horizontalAdvance("30/s "))
    return speed, label


def engine_box(parent) -> QComboBox:
    """The correct engine and the classic bugs (a user's engine is added when stepped)."""
    box = QComboBox(parent)
    box.setObjectName("engine_box")
    # grows for "your engine: NAME" when a checked engine is stepped
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
    for text, key in (("correct", CORRECT), ("bug: = instead of +=", OVERWRITE),
                      ("bug: no topological sort", NO_SORT)):
        box.addItem(text, key)
    box.setToolTip("Step the same program with a classic autograd bug switched on; "
                   "the step where a gradient goes wrong is marked in red")
    return box


def sync_engine_box(box: QComboBox, session) -> None:
    """The Engine box shows the session's engine; a user's engine replayed on the
    program shown has an entry of its own while it lasts."""
    mine = box.findText("your engine: ", Qt.MatchFlag.MatchStartsWith)
    recorded = session.recorded
    box.blockSignals(True)
    if recorded is not None and recorded.can_step(session.program):
        text = f"your engine: {recorded.label}"
        if mine < 0:
            box.addItem(text, recorded)
        else:
            box.setItemText(mine, text)
            box.setItemData(mine, recorded)
    elif mine >= 0:
        box.removeItem(mine)
    index = box.findData(session.engine)
    box.setCurrentIndex(max(index, 0))
    box.blockSignals(False)


def phase_label(parent) -> PhaseLabel:
    phase = PhaseLabel(parent)
    phase.setObjectName("phase")
    phase.setToolTip(PHASE_TIP)
    font = phase.font()
    font.setBold(True)
    phase.setFont(font)
    # said shorter in a narrow window instead of widening it
    phase.setMinimumWidth(phase.fontMetrics().horizontalAdvance("8,888/8,888 "))
    return phase


def legend_label(parent) -> QLabel:
    legend = QLabel(parent)
    follow(legend, lambda label: label.setText(
        f"<span style='color:{hex_of('current')}'>■</span> current step &nbsp; "
        f"<span style='color:{hex_of('received')}'>■</span> received a gradient &nbsp; "
        f"<span style='color:{hex_of('backward')}'>- -</span> gradient sent to a parent: "
        "local derivative × upstream gradient = contribution. "
        "? not computed yet, · not reached yet, ≈ 6.000… rounded (its first digits; the "
        "inspector has all). "
        "Drag to pan, wheel to zoom, click a box to inspect it."))
    legend.setWordWrap(True)
    return legend


def reserve_room(label: QLabel, reserve: bool) -> None:
    """Keep `label`'s room while it is hidden (or not), so that what is below stays put."""
    policy = label.sizePolicy()
    if policy.retainSizeWhenHidden() != reserve:
        policy.setRetainSizeWhenHidden(reserve)
        label.setSizePolicy(policy)


def problem_label(parent) -> QLabel:
    """Where a bug engine's gradients went wrong (hidden until then)."""
    problem = QLabel(parent)
    problem.setObjectName("problem")
    problem.setWordWrap(True)
    styled(problem, lambda: f"color: {hex_of('error')}; font-weight: bold;")
    problem.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    # under a bug engine the message comes and goes while stepping: its room is kept,
    # so that the graph above it never jumps
    problem.setFixedHeight(3 * problem.fontMetrics().lineSpacing() + 4)
    problem.hide()
    return problem
