"""A grouped picture worked out up to its drawing (quotient, spec, layout), for the
window to draw, or ahead of the user's next click.

`picture_steps` is what `BackgroundDrawing` runs before it builds a grouped picture's
scene: the quotient (from the one before, gui/graph/quotients.py), the readable set of
open groups, the spec, and the layout, kept from the last time the same groups were
open, else laid out again from the picture on screen (gui/graph/layout/reuse.py) in the
warm layout child (gui/jobs/layout_server.py), or here while that child is not ready.

`Preparer` runs the same steps, while the window is idle, for the few biggest groups of
the picture just drawn, with the gradients their edges send, so that opening one of them
is only building its scene: every result lands in the stepper's `grouped.Kept`.
"""

from __future__ import annotations

from array import array

from PySide6.QtCore import QObject, Slot

from gui.graph.layout import layered_layout, rank
from gui.graph.layout.reuse import relaid_layout
from gui.graph.layout.transfer import pack_graph_steps
from gui.graph.spec import quotient_spec_steps
from gui.jobs.layout_server import FINISH_UP_TO
from gui.jobs.sliced import SlicedTask

# a grouped picture of at most this many nodes and virtual nodes is laid out here, in one
# slice of the window's thread (a few tens of ms); a bigger one in the layout's child
INLINE_LAYOUT = 800
# a picture laid out again from the one before (a group opened or closed: no search for
# an order, see layout/reuse.py), while the layout's child is not ready: up to this size
INLINE_RELAYOUT = 1_000
EDGE_BUDGET = 1_500  # more edges than this in a grouped picture close its parameters' groups
PREPARED = 4  # the biggest groups of a picture made ready to open while the window is idle
SLICE_S = 0.008  # the preparer's slices of the window's thread
SENDS_PER_STEP = 2_000  # operands summed between two yields


def layout_size(spec) -> int:
    """About how much the layout has to place: the nodes and, for each edge, one virtual
    node per layer it crosses (what its time grows with), at most as many virtual nodes
    as the layout's budget (past it, long edges go by bus)."""
    n = len(spec.sizes)
    ranks = rank(n, spec.edges)
    return n + min(max(3_000, n), sum(ranks[v] - ranks[u] for u, v, _ in spec.edges))


def readable_steps(shown, keep=frozenset()):
    """`shown`, or if its picture has more than EDGE_BUDGET edges with parameters' groups
    open, the same with those closed: the parameters of a layer fan out to every sample
    opened (100 samples × 48 neurons' parameters: 8,000 edges, and seconds of layout).
    The groups in `keep` (the ones the user has just opened) stay open."""
    keep = set(keep).union(*(shown.ancestors_of_group(g) for g in keep))  # and what holds them
    names = {g for g in shown.expanded if shown.groups[g].kind == "names"} - keep
    if len(shown.quotient.edges) <= EDGE_BUDGET or not names:
        return shown
    fewer = shown.opened(shown.expanded - names)
    yield from fewer.quotient_steps()
    return fewer


def picture_steps(shown, roles, folded: bool, expanded, previous, server,
                  most: int | None = None, inline: bool = True):
    """(shown, spec, drawing) of `shown` with `expanded` open (None: as it is), laid out
    from `previous` (the scene on screen, if one of the same stepper's) by `server`
    (see the module's docstring), as a SlicedTask's steps; drawing None if its layout
    would place more than `most` nodes and virtual nodes. `inline` False: never laid
    out again here while the child is not ready (what is prepared ahead can wait for
    it; a click is answered at once). Raises LayoutFailed."""
    if not shown.index:  # once per stepper
        yield from shown.index_steps()
    keep = frozenset()
    if expanded is not None:  # what this opens is kept open, however many edges
        keep = frozenset(expanded) - shown.expanded
        shown = shown.opened(expanded)
    yield from shown.quotient_steps()
    shown = yield from readable_steps(shown, keep)
    key = (frozenset(shown.expanded), folded)
    kept = shown.shared.seen.get(key) or shown.shared.drawings.get(key)  # going_back.py
    if kept is not None:
        return (shown, *kept)
    spec = yield from quotient_spec_steps(shown, roles, folded, shown.shared.label_sizes)
    start = None
    if (previous is not None and previous.shown is not None and previous.drawing
            and previous.shown.stepper is shown.stepper and previous.shown.quotient):
        start = shown.starts(spec.ids, previous.shown, previous.spec.ids,
                             previous.drawing.centers)
        yield
    size = layout_size(spec)
    yield
    if most is not None and size > most:
        return shown, spec, None
    if start is not None and size <= INLINE_RELAYOUT and not server.ready and inline:
        drawing = relaid_layout(spec.sizes, spec.edges, start, radii=spec.radii)
    elif start is None and size <= INLINE_LAYOUT:
        drawing = layered_layout(spec.sizes, spec.edges, radii=spec.radii)
    else:  # in the warm child: the window's thread is never held by a layout
        packed = yield from pack_graph_steps(spec.sizes, spec.edges, spec.radii)
        if start is not None:
            packed["start"] = array("d", start)
        drawing = yield from server.drawing_steps(packed, size)
    yield
    shown.shared.keep(shown.shared.drawings, key, (spec, drawing))
    return shown, spec, drawing


def send_steps(shown, spec):
    """Sum what each edge of `spec` into a collapsed group sends (the scene's
    `group_edge_steps` finds them kept), yielding after every SENDS_PER_STEP operands
    (one edge may stand for 33,700: the parameters read by 100 samples). The sums are
    added in the operands' order, as the scene adds them, to the bit."""
    steps, step_of, kept = shown.stepper.backward_steps, shown.step_of, shown.shared.sends
    for e, operands in spec.operands.items():
        if spec.keys[e] in kept:
            continue
        total, first, last = 0, None, None
        for a in range(0, len(operands), SENDS_PER_STEP):
            part = operands[a:a + SENDS_PER_STEP]
            js = [step_of[c] for c, _ in part]
            total = sum((steps[j].contributions[k].contribution
                         for j, (_, k) in zip(js, part)), total)
            first = min(js) if first is None else min(first, min(js))
            last = max(js) if last is None else max(last, max(js))
            yield
        kept[spec.keys[e]] = (first, last, total, len(operands))


class Preparer(QObject):
    """Makes the biggest groups of the picture just drawn ready to open (see the
    module's docstring); `stop()` before anything else is drawn."""

    def __init__(self, server, parent=None):
        super().__init__(parent)
        self._server = server
        self._task: SlicedTask | None = None
        server.arrived.connect(self._on_arrived)

    @property
    def running(self) -> bool:
        return self._task is not None

    def start(self, scene, roles, folded: bool) -> None:
        """Prepare the opening of the PREPARED biggest groups collapsed in `scene`."""
        self.stop()
        self._task = SlicedTask(self._steps(scene, roles, folded), SLICE_S, self)
        self._task.finished.connect(self._on_finished)
        self._task.errored.connect(self._on_finished)
        self._task.start()

    def stop(self) -> None:
        if self._task is not None:
            task, self._task = self._task, None
            task.cancel()

    def _steps(self, scene, roles, folded: bool):
        shown = scene.shown
        yield from shown.bucket_steps()  # the operands filed by group, once per stepper
        biggest = sorted(scene.group_items, key=lambda g: -shown.groups[g].members)
        for g in biggest[:PREPARED]:
            # never a picture so big that the warm child would be ended for it, when
            # the user's click comes first
            opened, spec, drawing = yield from picture_steps(
                shown, roles, folded, shown.expanding(g), scene, self._server, FINISH_UP_TO,
                inline=False)
            if drawing is not None:
                yield from send_steps(opened, spec)

    @Slot()
    def _on_arrived(self) -> None:
        if self._task is not None:
            self._task.wake()

    @Slot(object)
    def _on_finished(self, _result) -> None:
        self._task = None
