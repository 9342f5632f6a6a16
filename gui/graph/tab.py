"""The Graph tab: the stepping controls above the graph view."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from engine.core.narration import stepping_status
from engine.core.value import Value
from engine.numbers import count
from gui.graph.background_drawing import DRAWING, BackgroundDrawing, Tidy
from gui.graph.controls import (
    STEP_ACTIONS,
    engine_box,
    gradients_wrong_at_end,
    legend_label,
    phase_label,
    problem_label,
    reserve_room,
    speed_slider,
    step_actions,
    sync_engine_box,
    wrong_gradients_sentence,
)
from gui.graph.expansion import Expansion
from gui.graph.layout import layered_layout
from gui.graph.scene import GraphScene
from gui.graph.session import Session
from gui.graph.spec import LARGE, GraphSpec, graph_spec
from gui.graph.view import GraphView

__all__ = ["GraphTab", "wrong_gradients_sentence"]


class GraphTab(QWidget):
    """Reset, Step back, Step, Play/Pause, Run to end, a speed control, the phase, the graph."""

    status = Signal(str)          # a message for the status bar
    busy = Signal(bool)           # a layout has run for over BUSY_AFTER_MS, or has ended
    selection_changed = Signal()  # the selection in the scene shown now changed
    reorder = Signal(object, object)  # (program, forward_steps): step it in this order
    placeholder = False  # True while a sentence stands for a graph being opened

    def __init__(self, session: Session, parent=None):
        super().__init__(parent)
        self.session = session
        self.scene = GraphScene(self)
        self.scene.selectionChanged.connect(self.selection_changed)
        self.view = GraphView(self.scene, self)
        self.building = False  # a new program is being built in the background
        self.constants_as_nodes = False
        self._drawn_before: list[int] = [0]  # drawn nodes among the first k forward steps
        # scenes taken off the view are emptied a slice at a time, then dropped
        self.tidy = Tidy(self)
        # a large graph is laid out in a child process and drawn in slices
        self.background = BackgroundDrawing(self.tidy, self)
        self.background.drawn.connect(self._on_drawn)
        self.background.failed.connect(self._on_not_drawn)
        self.background.stage_changed.connect(self._on_stage)
        self.background.busy.connect(self.busy)
        self.timer = QTimer(self)  # Play: a step at the chosen speed
        self.timer.timeout.connect(self._on_tick)
        # a big graph grouped, drawn collapsed, opened a group at a time; Ctrl+F finds
        self.expansion = Expansion(self, self._draw_plain)
        self.breadcrumb, self.find_bar = self.expansion.breadcrumb, self.expansion.find_bar

        bar = QHBoxLayout()
        self.actions = step_actions(self, bar)
        for key, slot in (("reset", self._on_reset), ("back", self._on_back),
                          ("step", self._on_step), ("end", self._on_end)):
            self.actions[key].triggered.connect(slot)
        self.actions["play"].toggled.connect(self._on_play)
        bar.addSpacing(12)
        bar.addWidget(QLabel("Speed:", self))
        self.speed, self.speed_label = speed_slider(self)
        self.speed.valueChanged.connect(self._on_speed)
        bar.addWidget(self.speed)
        bar.addWidget(self.speed_label)
        bar.addSpacing(12)
        bar.addWidget(QLabel("Engine:", self))
        self.engine_box = engine_box(self)
        self.engine_box.currentIndexChanged.connect(self._on_engine)
        bar.addWidget(self.engine_box)
        bar.addSpacing(12)
        self.phase = phase_label(self)
        bar.addWidget(self.phase, 1)
        self.legend = legend_label(self)
        self.problem = problem_label(self)
        self._wrong_at_end: tuple[object, str] | None = None  # (stepper, message), cached
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        for widget in (self.find_bar, self.breadcrumb, self.view, self.problem, self.legend):
            layout.addWidget(widget, 1 if widget is self.view else 0)
        self._step_keys = {QKeySequence(shortcut)[0].key(): self.actions[key]
                           for key, _, shortcut, _ in STEP_ACTIONS}
        self.view.installEventFilter(self)

        self._on_speed(self.speed.value())
        session.loaded.connect(self._on_loaded)
        session.moved.connect(self._on_moved)
        self._update_phase()

    # -- loading a graph ----------------------------------------------------------------------

    @Slot()
    def _on_loaded(self) -> None:
        sync_engine_box(self.engine_box, self.session)
        self.actions["play"].setChecked(False)
        self.stop_layout()  # the previous program's layout is of no use any more
        if self.expansion.load(self.session.stepper):
            self._update_phase()  # grouped: drawn (or being grouped) by the expansion
        else:
            self._draw_plain()

    @Slot()
    def _draw_plain(self) -> None:
        """Draw the stepper's graph node by node, as small graphs always are."""
        stepper = self.session.stepper
        n = len(stepper.forward_steps)
        folded = not self.constants_as_nodes
        if n <= LARGE:
            spec = graph_spec(stepper, self.session.roles(), folded=folded)
            drawing = layered_layout(spec.sizes, spec.edges, radii=spec.radii)
            self._show_layout(spec, drawing)
            return
        # the last graph stays on screen until this one is drawn, its steps disabled
        self.background.start(stepper, self.session.roles(), folded)
        self.status.emit(f"Laying out {n:,} nodes…")
        self._update_phase()

    @property
    def laying_out(self) -> bool:
        """True while a large graph's spec is made, laid out or drawn in slices."""
        return self.background.running or self.expansion.running

    def wait_for_layout(self, timeout_s: float = 300.0) -> bool:
        """Finish a grouping, layout and drawing now (a picture, an export); True if done."""
        self.expansion.job.run_to_end(timeout_s)
        self.background.run_to_end(timeout_s)
        return not self.laying_out

    def stop_layout(self) -> None:
        """End a background layout or a sliced drawing now (the graph on screen stays)."""
        self.expansion.cancel()
        self.background.cancel()

    @Slot()
    def _on_stage(self) -> None:
        if self.scene.shown is None:  # a group opened: no words for the split second
            self.status.emit(f"Drawing {len(self.session.stepper.forward_steps):,} nodes…")
        self._update_phase()

    @Slot(object)
    def _on_drawn(self, scene: GraphScene) -> None:
        old_levels = self.scene.levels
        self._swap_in(scene)
        if scene.levels is not None or old_levels is None:
            self._graph_drawn()
        else:  # a group opened or closed: the zoom stays, the view on what changed
            self.expansion.redrawn(old_levels)
            self._update_phase()

    @Slot(str)
    def _on_not_drawn(self, reason: str) -> None:
        self._show_not_drawn(f"The graph was not drawn: {reason}.")

    def _swap_in(self, scene: GraphScene) -> None:
        """Show `scene` in the view in place of the current one, which is dismantled."""
        old, self.scene = self.scene, scene
        scene.selectionChanged.connect(self.selection_changed)
        scene.selectionChanged.connect(self.expansion.update_breadcrumb)
        self.view.setScene(scene)
        old.selectionChanged.disconnect(self.selection_changed)
        old.selectionChanged.disconnect(self.expansion.update_breadcrumb)
        self.tidy.drop(old)

    def _cleared_scene(self) -> GraphScene:
        """The scene, ready to be refilled: a large graph's is swapped for a new one
        (clearing it would hold the thread for most of a second)."""
        if self.scene.large:
            self._swap_in(GraphScene(self))
        return self.scene

    @Slot()
    def cancel_layout(self) -> None:
        """The user's Cancel: end the layout; the graph is not drawn, stepping works."""
        if not self.laying_out:
            return
        n = len(self.session.stepper.forward_steps)
        what = "drawing" if self.background.stage == DRAWING else "layout"
        self.stop_layout()
        self._show_not_drawn(f"The {what} of this graph of {n:,} nodes was cancelled, so "
                             "it is not drawn.\nStepping, the inspector and the other tabs "
                             "still work on it; Build again to draw it.")
        self.status.emit(f"{what.capitalize()} cancelled: the graph is not drawn; "
                         "stepping still works")

    def show_placeholder(self, text: str) -> None:
        """`text` in place of the graph while a new one is read, grouped and drawn (never
        the last one under the new title), until a graph is drawn or `redraw`n."""
        self._cleared_scene().show_note(text)
        self.placeholder = True
        self.view.fit()

    def redraw(self) -> None:
        """Draw the session's program again (a graph being opened was not)."""
        if self.session.stepper is not None:
            self._on_loaded()

    def _show_not_drawn(self, note: str) -> None:
        self._cleared_scene().show_note(note)
        self.placeholder = False
        self.view.fit()
        self.status.emit(note.replace("\n", " "))
        self._update_phase()

    def _show_layout(self, spec: GraphSpec, drawing) -> None:
        self._cleared_scene().build(self.session.stepper, spec, drawing, self.session.roles())
        self._graph_drawn()

    def _graph_drawn(self) -> None:
        """The scene holds the new graph: the view, the counts and the words follow."""
        self.placeholder = False
        # forward steps counted as the picture shows them: folded constants are skipped
        self._drawn_before = self.scene.drawn_counts()
        self.expansion.shown = self.scene.shown
        self.expansion.update_breadcrumb()
        self.view.graph_changed()
        n = len(self.scene.nodes)
        if self.scene.shown is not None:
            self.status.emit(self.expansion.built_message())
            self._update_phase()
            return
        # the values counted as drawn: a constant written into its operation is not a box
        folded = n - self._drawn_before[-1] if n else 0
        what = count(n - folded, "value") + (
            f" (and {count(folded, 'constant')} written into {'its' if folded == 1 else 'their'} "
            "operations)" if folded else "")
        if self.scene.large:
            self.status.emit(f"Built {self.session.program.output_name}: {what}. Press "
                             "Right to step; zoom out (wheel or Ctrl+-) to see more of it "
                             "(texts hide below half size).")
        else:
            self.status.emit(f"Built {self.session.program.output_name}: {what}. "
                             "Press Right to step.")
        self._update_phase()

    def set_constants_as_nodes(self, on: bool) -> None:
        """Draw each constant as a box of its own (True) or fold it into its operation."""
        if on != self.constants_as_nodes:
            self.constants_as_nodes = on
            if self.session.stepper is not None:
                self._on_loaded()

    # -- stepping -------------------------------------------------------------------------------

    @Slot(int)
    def _on_moved(self, previous: int) -> None:
        if self.scene.stepper is self.session.stepper:
            self.expansion.refresh(previous) or self.scene.refresh(previous)
            self.view.follow_step()
        self._update_phase()
        stepper = self.session.stepper  # the status bar says where it is, from one place
        at_end = stepper.position == stepper.total and not stepper.engine.is_correct
        self.status.emit(stepping_status(stepper, self._gradients_wrong_at_end() if at_end
                                         else ""))

    @Slot(int)
    def _on_engine(self, index: int) -> None:
        self.session.set_engine(self.engine_box.itemData(index))

    def show_engine(self, engine) -> None:
        """Put the engine box and the session back to `engine` (a re-stepping that was
        cancelled), without stepping anything again."""
        self.engine_box.blockSignals(True)
        self.engine_box.setCurrentIndex(max(0, self.engine_box.findData(engine)))
        self.engine_box.blockSignals(False)
        self.session.engine = engine
        self._update_phase()

    def _progress(self, stepper) -> str:
        """The stepper's progress, its forward steps counted without folded constants."""
        levels = self.expansion.levels() if self.scene.stepper is stepper else None
        if levels is not None:
            return self.expansion.progress(levels)
        drawn = self._drawn_before
        n_forward = len(stepper.forward_steps)
        if (self.scene.stepper is not stepper or len(drawn) != n_forward + 1
                or drawn[-1] == n_forward or stepper.position > n_forward):
            return stepper.progress()
        if stepper.position == 0:
            return (f"ready: {drawn[-1]} forward and {len(stepper.backward_steps)} "
                    "backward steps")
        return f"forward {drawn[stepper.position]}/{drawn[-1]}"

    def set_building(self, building: bool) -> None:
        """While a new program is built in the background the steps are disabled."""
        self.building = building
        if building:
            self.actions["play"].setChecked(False)
        self._update_phase()

    def _update_phase(self) -> None:
        stepper = self.session.stepper
        if self.building:
            self.phase.setText("building the new program…")
            self.problem.hide()
            for action in self.actions.values():
                action.setEnabled(False)
            return
        if self.laying_out:
            # the graph on screen is the last one: no step of the new program shows on it
            doing = "drawing" if self.background.stage == DRAWING else "laying out"
            self.phase.setText(f"{doing} {len(stepper.forward_steps):,} nodes…")
            self.problem.hide()
            for action in self.actions.values():
                action.setEnabled(False)
            return
        self.phase.setText(self._progress(stepper) if stepper else "no program")
        current = stepper.current if stepper else None
        problem = getattr(current, "problem", "")
        lines = [f"Wrong from here on: {problem}."] if problem else []
        if self.session.at_end and not stepper.engine.is_correct:
            lines.append(self._gradients_wrong_at_end())
        message = " ".join(line for line in lines if line)
        reserve_room(self.problem, bool(stepper and not stepper.engine.is_correct))
        self.problem.setText(message)
        self.problem.setToolTip(message)
        self.problem.setVisible(bool(message))
        for key in ("reset", "back"):
            self.actions[key].setEnabled(bool(stepper and stepper.position > 0))
        for key in ("step", "end", "play"):
            self.actions[key].setEnabled(bool(stepper and not self.session.at_end)
                                         or (key == "play" and self.timer.isActive()))

    def _gradients_wrong_at_end(self) -> str:
        """At the end of a buggy backward pass: which inputs' gradients came out wrong,
        and what they should be (see controls.gradients_wrong_at_end), once per stepper."""
        stepper = self.session.stepper
        if self._wrong_at_end is None or self._wrong_at_end[0] is not stepper:
            self._wrong_at_end = (stepper, gradients_wrong_at_end(self.session.program, stepper))
        return self._wrong_at_end[1]

    def eventFilter(self, watched, event) -> bool:
        """A step key that reaches the graph view steps (the window's shortcuts did not
        take it: a window the window manager never activated), never scrolls."""
        if watched is self.view and event.type() == QEvent.Type.KeyPress \
                and event.modifiers() in (Qt.KeyboardModifier.NoModifier,
                                          Qt.KeyboardModifier.KeypadModifier):
            action = self._step_keys.get(event.key())
            if action is not None:
                if action.isEnabled():
                    action.trigger()
                return True
        return super().eventFilter(watched, event)

    def focus_graph(self) -> None:
        """Give the keyboard to the graph, so that Right steps at once."""
        self.view.setFocus(Qt.FocusReason.OtherFocusReason)

    @Slot()
    def _on_reset(self) -> None:
        self.actions["play"].setChecked(False)
        self.session.reset()

    @Slot()
    def _on_back(self) -> None:
        self.actions["play"].setChecked(False)
        if not self.expansion.step(forward=False):
            self._skip_hidden(self.session.back)

    def _skip_hidden(self, move) -> None:
        """Repeat `move` past steps that reveal nothing drawn (a folded constant), so
        that every key press changes the picture."""
        session = self.session
        while move() and self._hidden(session.stepper.current):
            pass

    def _hidden(self, current) -> bool:
        return (isinstance(current, Value) and self.scene.stepper is self.session.stepper
                and not self.scene.is_drawn(current))

    @Slot()
    def _on_step(self) -> None:
        if not self.expansion.step(forward=True):
            self._skip_hidden(self.session.step)

    @Slot()
    def _on_end(self) -> None:
        self.actions["play"].setChecked(False)
        self.session.run_to_end()

    @Slot(bool)
    def _on_play(self, playing: bool) -> None:
        self.actions["play"].setText("Pause" if playing else "Play")
        if playing:
            self.timer.start()
        else:
            self.timer.stop()
        self._update_phase()

    @Slot()
    def _on_tick(self) -> None:
        if self.expansion.step(forward=True) and not self.session.at_end:
            return
        if self.session.at_end or not self.session.step() or self.session.at_end:
            self.actions["play"].setChecked(False)
            return
        while self._hidden(self.session.stepper.current) and self.session.step():
            pass
        if self.session.at_end:
            self.actions["play"].setChecked(False)

    @Slot(int)
    def _on_speed(self, value: int) -> None:
        self.timer.setInterval(int(1000 / value))
        self.speed_label.setText(f"{value}/s")
