"""A large graph drawn without holding the window, and old scenes let go of in slices.

`BackgroundDrawing` works out what to draw a slice at a time, has it laid out in a child
process (the interpreter lock stays with the window), and draws it a slice at a time
into a scene of its own, all in one SlicedTask (so the collector stays paused from the
first slice to the last: what is made all lives on). A grouped graph's pictures are
worked out by prepared.picture_steps and laid out in the warm layout child it keeps
(`server`, gui/jobs/layout_server.py), started ahead of them and stopped with the
window. The last graph stays on screen until `drawn(scene)`. `Tidy` empties scenes
taken off the view, one after the other.
"""

from __future__ import annotations

from collections import deque

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from gui.graph.layout.transfer import DrawingAssembler, layout_packed, pack_graph_steps
from gui.graph.levels import LevelSteps
from gui.graph.prepared import picture_steps, send_steps
from gui.graph.scene import GraphScene
from gui.graph.spec import graph_spec_steps
from gui.jobs.layout_server import LayoutFailed, LayoutServer
from gui.jobs.sliced import WAIT, SlicedTask
from gui.jobs.worker import ProcessWorker

POLL_MS = 10           # how often the layout's child is looked at
READ_BUDGET_S = 0.005  # reading its pieces takes at most this long per look
BUSY_AFTER_MS = 500    # a layout that takes longer shows a progress bar with Cancel
SLICE_BUDGET_S = 0.012  # a large graph is drawn in slices of the GUI thread this long
LAYOUT, DRAWING = "layout", "drawing"


class Tidy(QObject):
    """Empties scenes no longer shown, a slice at a time, one after the other."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._scenes: deque = deque()
        self._task: SlicedTask | None = None

    @property
    def pending(self) -> int:
        """Scenes not yet emptied."""
        return len(self._scenes)

    def drop(self, scene: GraphScene) -> None:
        scene.setParent(None)
        self._scenes.append(scene)
        if self._task is None:
            self._task = SlicedTask(self._emptied(), SLICE_BUDGET_S, self)
            self._task.finished.connect(self._on_finished)
            self._task.start()

    def finish(self) -> None:
        """Let go of every scene now (the window closes)."""
        if self._task is not None:
            task, self._task = self._task, None
            task.cancel()
        self._scenes.clear()

    def _emptied(self):
        while self._scenes:
            yield from self._scenes[0].dismantle_steps()
            self._scenes.popleft()

    @Slot(object)
    def _on_finished(self, _result) -> None:
        self._task = None


class BackgroundDrawing(QObject):
    """Draws one large graph at a time (see the module's docstring).

    `drawn(scene)` with the complete scene; `failed(reason)` if the layout's child
    failed; `stage_changed()` when the layout has come and the drawing begins;
    `busy(bool)` once it has run for BUSY_AFTER_MS, and at its end.
    """

    drawn = Signal(object)
    failed = Signal(str)
    stage_changed = Signal()
    busy = Signal(bool)

    def __init__(self, tidy: Tidy, parent=None):
        super().__init__(parent)
        self._tidy = tidy
        self._task: SlicedTask | None = None
        self._worker: ProcessWorker | None = None
        self._records: deque = deque()
        self._scene: GraphScene | None = None  # being drawn
        self.stage = ""
        self._busy_shown = False
        self._busy_due = QTimer(self)  # one shot: a progress bar for a long job
        self._busy_due.setSingleShot(True)
        self._busy_due.setInterval(BUSY_AFTER_MS)
        self._busy_due.timeout.connect(self._on_busy_due)
        # a grouped picture's layout: in a child started ahead and kept between pictures
        self.server = LayoutServer(self)
        self.server.arrived.connect(self._on_layout_ended)

    @property
    def running(self) -> bool:
        return self._task is not None

    def start(self, stepper, roles, folded: bool, shown=None,
              expanded: set[int] | None = None, previous: GraphScene | None = None) -> None:
        """Draw `stepper`'s graph (ending the drawing before, if one runs); with `shown`
        (a grouped.Shown of it), its quotient with the groups in `expanded` open (None:
        those open now), laid out from the picture in `previous` (the scene on screen)
        if that is one of the same stepper's."""
        self.cancel()
        self.stage = LAYOUT
        steps = (self._steps(stepper, roles, folded) if shown is None
                 else self._shown_steps(shown, roles, folded, expanded, previous))
        task = self._task = SlicedTask(steps, SLICE_BUDGET_S, self, expected=(LayoutFailed,))
        task.finished.connect(self._on_finished)
        task.errored.connect(self._on_errored)
        task.start()
        self._busy_due.start()

    def cancel(self) -> None:
        """End it now: none of it reaches the view; a half-drawn scene is let go of."""
        if self._task is not None:
            task, self._task = self._task, None
            task.cancel()
        self._end()

    def run_to_end(self, timeout_s: float = 300.0) -> None:
        """Finish it now (for a picture or an export, never in the window's own use),
        waiting at most `timeout_s` for the layout's child."""
        if self._task is not None:
            self._task.run_to_end(timeout_s)

    def _steps(self, stepper, roles, folded: bool):
        try:
            spec = yield from graph_spec_steps(stepper, roles, folded=folded)
            packed = yield from pack_graph_steps(spec.sizes, spec.edges, spec.radii)
            drawing = yield from self._laid_out(packed)
            self.stage = DRAWING
            self.stage_changed.emit()
            self._scene = GraphScene(self.parent())
            yield from self._scene.build_steps(stepper, spec, drawing, roles)
            scene, self._scene = self._scene, None
            return scene
        finally:
            self._stop_worker()

    def _shown_steps(self, shown, roles, folded: bool, expanded, previous):
        """A grouped graph's quotient: a few hundred units, laid out here when it is
        small, in the layout's child when not (prepared.picture_steps), and drawn in
        slices."""
        try:
            shown, spec, drawing = yield from picture_steps(shown, roles, folded, expanded,
                                                            previous, self.server)
            self.stage = DRAWING
            self.stage_changed.emit()
            self._scene = GraphScene(self.parent())
            yield from self._scene.build_steps(shown.stepper, spec, drawing, roles, shown)
            yield from send_steps(shown, spec)  # summed in steps: the scene finds them
            yield from self._scene.group_edge_steps()
            if expanded is not None and previous is not None and previous.levels is not None:
                # the steps at the level shown with this picture, looked up as it is
                # swapped in (Expansion.redrawn)
                yield from previous.levels.prepare_steps(shown.quotient)
            if expanded is None:  # a new picture: its steps at the level shown (a group
                # opened or closed changes the last picture's: see Expansion.redrawn)
                folded_nodes = ([i for i, r in enumerate(shown.arrays.roles) if r == "constant"]
                                if folded else ())
                self._scene.levels = yield from LevelSteps.made_steps(
                    shown.stepper, shown.arrays, shown.grouping, shown.expanded, folded_nodes,
                    shown.quotient, shown.index)
            yield  # the picture is swapped in (`drawn`) in a slice of its own
            scene, self._scene = self._scene, None
            return scene
        finally:
            self._stop_worker()

    def _laid_out(self, packed: dict):
        """The drawing, from the layout's child: WAIT until each piece comes."""
        records = self._records = deque()
        worker = self._worker = ProcessWorker(layout_packed, one_by_one=True,
                                              interval_ms=POLL_MS,
                                              read_budget_s=READ_BUDGET_S, parent=self,
                                              **packed)
        worker.yielded.connect(self._on_piece)
        worker.finished.connect(self._on_layout_ended)
        worker.start()
        assembler = DrawingAssembler()
        while assembler.drawing is None:
            if records:
                assembler.add(records.popleft())
                yield None
            elif worker.done:
                raise LayoutFailed(worker.job.error
                                   or "the layout process ended without a drawing")
            else:
                yield WAIT
        return assembler.drawing

    @Slot(object)
    def _on_piece(self, record) -> None:
        self._records.append(record)
        self._on_layout_ended()

    @Slot()
    def _on_layout_ended(self) -> None:
        if self._task is not None:
            self._task.wake()  # for the next piece, or to see that none comes

    def _stop_worker(self) -> None:
        if self._worker is not None:
            worker, self._worker = self._worker, None
            worker.cancel()

    @Slot(object)
    def _on_finished(self, scene) -> None:
        self._task = None
        self._end()
        self.drawn.emit(scene)

    @Slot(object)
    def _on_errored(self, error) -> None:
        self._task = None
        self._end()
        self.failed.emit(str(error))

    def _end(self) -> None:
        self.stage = ""
        self._stop_worker()
        if self._scene is not None:
            scene, self._scene = self._scene, None
            self._tidy.drop(scene)
        self._busy_due.stop()
        if self._busy_shown:
            self._busy_shown = False
            self.busy.emit(False)

    @Slot()
    def _on_busy_due(self) -> None:
        if self.running:
            self._busy_shown = True
            self.busy.emit(True)
