"""Where the view goes after a group opens, and what the keyboard zooms about.

A group opened shows what it holds: the view zooms (never below the readable size, never
magnified past 100% unless the user's zoom already was) so that the opened group's
boxes and the current step's box are on screen together, and centres them. If they do
not fit at the readable size, the view stays at that size and shows the current step
and what it sends to if the step is inside the group, else what the group holds
(centred if it fits; a stack too tall for that from its start, its first instances,
where its forward pass begins; else its output's end, what it computes), and the status
bar says that only a part is shown; the user pans or zooms out from there. (Centring a
stack too tall cut off its first and its last instances: the tryout of session 34.)
"""

from __future__ import annotations

from itertools import groupby

from PySide6.QtCore import QPointF, QRectF

from gui.graph.items import GroupItem, OpItem, ValueItem

UNIT_W, UNIT_H = 150, 90  # the screen room a unit of a grouped graph takes, readable


def budget_for(width: int, height: int) -> int:
    """About how many units a view of width × height px shows at a readable size (a
    view under 640 × 400, the smallest screen's, counts as that): how far a big graph's
    first picture is opened."""
    return max(12, (max(width, 640) // UNIT_W) * (max(height, 400) // UNIT_H))


MARGIN_PX = 24     # room kept around what a frame shows (as the view keeps around a step)
FIT_MARGIN = 24.0  # scene units a fit leaves around the graph (the view's own)


def opened_items(scene, g: int) -> list:
    """The drawn items of what open group `g` holds: its nodes' boxes and op circles,
    and the boxes of its collapsed groups."""
    shown = scene.shown
    if shown is None or shown.quotient is None or g not in shown.expanded:
        return []
    members = shown.members(g)
    unit_of = shown.quotient.unit_of
    items: list = []
    for unit, _ in groupby(unit_of[members.start:members.stop]):
        if unit < 0:
            item = scene.group_items.get(-1 - unit)
            if item is not None:
                items.append(item)
            continue
        box = scene.value_item_of(scene.nodes[unit])
        if box is not None:
            items.append(box)
        op = scene.op_items.get(unit)
        if op is not None:
            items.append(op)
    return items


def united(items) -> QRectF:
    """The smallest rect that holds every item's box (empty for none)."""
    rect = QRectF()
    for item in items:
        rect = rect.united(item.sceneBoundingRect())
    return rect


def frame_scale(view, rect: QRectF) -> float:
    """The zoom that shows `rect` with the margin: the view's own if it does already
    (and is readable), else as near to fitting as 100% and the readable size allow."""
    port = view.viewport().rect()
    room_w, room_h = port.width() - 2 * MARGIN_PX, port.height() - 2 * MARGIN_PX
    scale, readable = view.scale_factor(), view.readable_scale()
    if rect.isEmpty() or room_w <= 0 or room_h <= 0:
        return max(scale, readable)
    fitting = min(room_w / rect.width(), room_h / rect.height())
    if readable * 0.999 <= scale <= fitting:
        return scale
    return max(min(fitting, 1.0), readable)


def show_opened(view, g: int) -> bool:
    """Show what open group `g` holds with the current step's box and the units it
    sends to, or the one of them that matters (see the module's docstring); False if
    nothing of it is drawn. Before any step, where a box is still cut by the view's
    edges (a column of boxes taller than the view: one is cut at the top or the bottom
    wherever the view stops; or the box next to what fits, even panned BEYOND_PX past
    the scroll bars' reach), the zoom changes a little, by up to ZOOM_FOR_WHOLE either
    way (never below the readable size or past 100%), to the nearest zoom at which none
    is cut and what it holds fits if it did, with a narrower margin (else the fewest)."""
    region = united(opened_items(view.scene(), g))
    if region.isEmpty():
        return False
    step = view.step_items()
    everything = region.united(united(step)) if step else region
    base = frame_scale(view, everything)
    view.set_zoom(base)
    fitted = _place(view, g, region, everything, step)
    if step:
        _say_part(view, g, region)
        return True  # the step followed, as placed
    best = (len(cut_boxes(view)), 0.0, view.scale_factor())
    low = max(view.readable_scale(), base / ZOOM_FOR_WHOLE)
    high = max(base, min(1.0, base * ZOOM_FOR_WHOLE))
    tries = [base * (1 + sign * ZOOM_STEP * k) for k in range(1, ZOOM_TRIES + 1)
             for sign in (1, -1)]
    for scale in (s for s in tries if low <= s <= high):
        if not best[0]:
            break
        view.set_zoom(scale)
        if _place(view, g, region, everything, step, TIGHT_MARGIN_PX) == fitted:
            best = min(best, (len(cut_boxes(view)), abs(scale - base), scale))
    if view.scale_factor() != best[2]:
        view.set_zoom(best[2])
        _place(view, g, region, everything, step, TIGHT_MARGIN_PX if best[1] else MARGIN_PX)
    _say_part(view, g, region)
    return True


ZOOM_FOR_WHOLE = 1.2  # the zoom changes by at most this factor either way, and
ZOOM_STEP, ZOOM_TRIES = 0.02, 10  # in steps of 2% of the frame's zoom, for no box cut
TIGHT_MARGIN_PX = 8  # the room kept around what it holds then
BEYOND_PX = 48  # how far past the scroll bars' reach a frame may pan, for no box cut


def _place(view, g: int, region: QRectF, everything: QRectF, step: list,
           margin_px: float = MARGIN_PX) -> bool:
    """Centre the view, at its zoom, on what the frame is for (see show_opened), then
    pan the least that leaves no box cut; True if everything fits with `margin_px`."""
    scale = view.scale_factor()
    port = view.viewport().rect()
    margin = margin_px / scale
    def fits(rect: QRectF) -> bool:
        return (rect.width() + 2 * margin <= port.width() / scale
                and rect.height() + 2 * margin <= port.height() / scale)

    fitted = fits(everything)
    if fitted:
        view.centerOn(everything.center())
        keep = everything
    elif step and _step_inside(view.scene(), g):  # the step and what it sends to
        view.follow_step(center=True)
        keep = step[0].sceneBoundingRect()
    elif fits(region):  # all it holds
        view.centerOn(region.center())
        keep = region
    elif view.scene().shown.groups[g].kind == "stack":  # its start: its first instances
        half_w, half_h = port.width() / scale / 2, port.height() / scale / 2
        x = region.center().x() if region.width() + 2 * margin <= 2 * half_w else \
            region.left() - margin + half_w
        view.centerOn(QPointF(x, region.top() - margin + half_h))
        keep = None
    else:  # its output's end (what it computes), at the readable size
        half_w, half_h = port.width() / scale / 2, port.height() / scale / 2
        out = _output_item(view.scene(), g)
        y = out.sceneBoundingRect().center().y() if out is not None else region.center().y()
        x = max(region.center().x(), region.right() + margin - half_w)
        y = min(max(y, region.top() - margin + half_h), region.bottom() + margin - half_h)
        view.centerOn(QPointF(x, y))
        keep = out.sceneBoundingRect() if out is not None else None
    keep_boxes_whole(view, keep, BEYOND_PX / scale)  # no box cut at the edges
    return fitted


def _say_part(view, g: int, region: QRectF) -> None:
    """If group g, just opened, is not all on screen (too big at a readable size), say
    so in the status bar (the graph tab's `status`), and which part of it is shown:
    once per picture (a later fit of the same one, Ctrl+0 or a resize, says its own)."""
    scene = view.scene()
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    if visible.contains(region) or getattr(scene, "part_said", None) == g:
        return
    scene.part_said = g
    status = getattr(view.parentWidget(), "status", None)
    if status is None:
        return
    group = scene.shown.groups[g]
    shown = ("the current step" if view.step_items() and _step_inside(scene, g)
             else "its start, its first instances," if group.kind == "stack"
             else "its end, what it computes,")
    status.emit(f"Opened {group.title}: too big to show whole at a readable size, so "
                f"{shown} is shown; scroll for the rest, Ctrl+0 twice to see all of it")


def _boxes_near(view, visible: QRectF) -> list[QRectF]:
    near = visible.adjusted(-visible.width(), -visible.height(),
                            visible.width(), visible.height())
    return [item.sceneBoundingRect() for item in view.scene().items(near)
            if isinstance(item, (ValueItem, OpItem, GroupItem))]


def cut_boxes(view) -> list[QRectF]:
    """The boxes (values', ops', groups') partly in the viewport: cut by its edges."""
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    return [r for r in _boxes_near(view, visible)
            if r.intersects(visible) and not visible.contains(r)]


def keep_boxes_whole(view, keep: QRectF | None = None, beyond: float = 0.0) -> None:
    """Pan the least that leaves the fewest boxes (a value's, an op's, a group's) cut by
    the viewport's edges, none if it can: each one on screen whole (with the margin where
    the gaps between boxes leave room), keeping `keep` (what the frame is for) whole; at
    most a third of the view's size each way, and up to `beyond` (scene units) past
    where the scroll bars reach, if that leaves fewer cut (the bars then reach there:
    a box at the scene's edge, half in view, is no better than a margin past it)."""
    scale = view.scale_factor()
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    rects = _boxes_near(view, visible)
    if not rects:
        return
    pads = (MARGIN_PX / scale, 4.0 / scale)
    dy = _whole_along(visible.top(), visible.bottom(), [
        (r.top(), r.bottom()) for r in rects
        if r.right() > visible.left() and r.left() < visible.right()], pads,
        None if keep is None else (keep.top(), keep.bottom()),
        _reach(view.verticalScrollBar(), scale), beyond)
    visible.translate(0.0, dy)
    dx = _whole_along(visible.left(), visible.right(), [
        (r.left(), r.right()) for r in rects
        if r.bottom() > visible.top() and r.top() < visible.bottom()], pads,
        None if keep is None else (keep.left(), keep.right()),
        _reach(view.horizontalScrollBar(), scale), beyond)
    visible.translate(dx, 0.0)
    if not view.sceneRect().contains(visible):
        view.setSceneRect(view.sceneRect().united(visible))
    view._scroll_by(dx * scale, dy * scale)


def _reach(bar, scale: float) -> tuple[float, float]:
    """How far, in scene units, a scroll bar can move the view back and on."""
    return (bar.minimum() - bar.value()) / scale, (bar.maximum() - bar.value()) / scale


def _whole_along(low: float, high: float, spans: list, pads: tuple, keep,
                 reach: tuple[float, float], beyond: float = 0.0) -> float:
    """The shift of the window [low, high] (within a third of it, and the scroll bar's
    `reach`, or `beyond` it) after which the fewest spans are cut by its ends, `keep`
    inside; the least such shift, within the reach on a tie."""
    def cuts(d: float) -> int:
        lo, hi = low + d, high + d
        if keep is not None and (keep[0] < lo or keep[1] > hi):
            return len(spans) + 1
        return sum(1 for a, b in spans if a < hi and b > lo and (a < lo or b > hi))

    tries = [0.0]
    for a, b in spans:
        for pad in pads:  # an end just before or after a box: it in, or out
            tries += [a - pad - low, b + pad - low, a - pad - high, b + pad - high]
    third = (high - low) / 3
    tries = [d for d in tries
             if abs(d) <= third and reach[0] - beyond - 0.5 <= d <= reach[1] + beyond + 0.5]
    def past(d: float) -> bool:
        return not reach[0] - 0.5 <= d <= reach[1] + 0.5

    return min(tries, key=lambda d: (cuts(d), past(d), abs(d)))


def _step_inside(scene, g: int) -> bool:
    """Whether the current step is about a node open group g holds."""
    shown = scene.shown
    return shown.node_at(scene.stepper.position) in shown.members(g)


def _output_item(scene, g: int):
    """The box of open group g's last node (its output, or its last one), if drawn."""
    shown = scene.shown
    return scene.value_item_of(scene.nodes[shown.members(g).stop - 1])


def zoom_anchor(view) -> QPointF | None:
    """Where the keyboard's zoom keeps still: the current step's box, in viewport
    coordinates, while it is on screen; None (the view's centre) otherwise."""
    step = view.step_items()
    if not step:
        return None
    centre = view.mapFromScene(step[0].sceneBoundingRect().center())
    return QPointF(centre) if view.viewport().rect().contains(centre) else None


def show_start(view, rect: QRectF | None = None) -> None:
    """Where a graph too big to read whole opens: a grouped one at its right end,
    where the output and the computation it comes from are (a big model's leaves, its
    parameters, fill the left end); any other at its left end."""
    if rect is None:
        rect = view.scene().graph_rect().adjusted(-FIT_MARGIN, -FIT_MARGIN,
                                                  FIT_MARGIN, FIT_MARGIN)
    port, scale = view.viewport().rect(), view.scale_factor()
    if rect.width() * scale <= port.width() and rect.height() * scale <= port.height():
        view.centerOn(rect.center())  # all of it is on screen at this zoom
        return
    if view.scene().shown is not None and _show_output_end(view, rect):
        return
    _show_left_end(view, rect)


def _show_output_end(view, rect: QRectF) -> bool:
    """The right end of the graph, at the height of the output and, if they fit, the
    units it is computed from; False if the output is not drawn."""
    scene = view.scene()
    out = scene.value_item_of(scene.stepper.output) if scene.stepper else None
    if out is None:
        return False
    scale = view.scale_factor()
    port = view.viewport().rect()
    half_w, half_h = port.width() / scale / 2, port.height() / scale / 2
    box = out.sceneBoundingRect()
    near = QRectF(box)
    for item in view.senders(scene.shown.unit_of_node(scene.shown.arrays.output)):
        near = near.united(item.sceneBoundingRect())
    span = near if near.height() + 2 * MARGIN_PX / scale <= 2 * half_h else box
    x = rect.right() - half_w if rect.width() > 2 * half_w else rect.center().x()
    view.centerOn(x, span.center().y())
    return True


def _show_left_end(view, rect: QRectF) -> None:
    """The left end of the graph, at the height of the forward pass's first node."""
    scale = view.scale_factor()
    half_w = view.viewport().width() / scale / 2
    y = rect.center().y()
    nodes = view.scene().nodes
    first = view.scene().value_item_of(nodes[0]) if nodes else None
    if first is not None and rect.height() * scale > view.viewport().height():
        y = first.sceneBoundingRect().center().y()
    view.centerOn(rect.left() + half_w, y)


def shift(low: float, high: float, spans: list[tuple[float, float]], margin: float,
          center: bool, band: float = 0.0) -> float:
    """How far to move the window [low, high] along one axis for the step's `spans`
    (largest first: everything, ..., the box). If everything fits with `margin`: not at
    all while it is clear of the outer `band` (or, too big for that, inside the margin),
    else centred (and with `center`). Else the window leans towards everything as far as
    keeps the largest span that fits clear of the band (or, too big, inside the margin)."""
    room, pad = high - low, max(band, margin)
    fits = [s for s in spans if s[1] - s[0] + 2 * margin <= room * 1.000001]  # zoomed to
    if not fits:  # not even the box fits: show its start
        return spans[-1][0] - margin - low
    span_low, span_high = fits[0]
    if center:
        return (span_low + span_high) / 2 - (low + high) / 2
    if fits[0] == spans[0]:
        edge = pad if span_high - span_low + 2 * pad <= room else margin
        if span_low < low + edge or span_high > high - edge:
            return (span_low + span_high) / 2 - (low + high) / 2
        return 0.0
    edge = pad if span_high - span_low + 2 * pad <= room else margin
    whole = (spans[0][0] + spans[0][1]) / 2 - room / 2
    return min(max(whole, span_high + edge - room), span_low - edge) - low
