"""How far Ctrl+= and Ctrl+- zoom, and what Ctrl+0 says it did.

A step is 1.25× (in) or 0.8× (out). Between the zoom that shows the whole graph and
the readable one (a long chain: 8% and 50%), a step is a third of the way from one to the
other (in ratio) where that is more: three presses after Ctrl+0's whole graph make it
readable again, and a step starting near one lands on it."""

from __future__ import annotations

from gui.graph.framing import FIT_MARGIN

STEP = 1.25
WHOLE_SAID = "Fitted the whole graph: text below readable size; Ctrl+= to zoom in"
PRESSES = 3  # presses from the whole graph's zoom to the readable one


def zoom_step(scale: float, whole: float, readable: float, inward: bool) -> float:
    """The factor one Ctrl+= (`inward`) or Ctrl+- multiplies the zoom `scale` by, given
    the zoom `whole` that fits the whole graph and the `readable` one."""
    big = max(STEP, (readable / whole) ** (1.0 / PRESSES)) if whole < readable else STEP
    if inward and scale < readable * 0.999:
        return _towards(readable / scale, big)
    if not inward and whole * 1.001 < scale <= readable * 1.001:
        return 1.0 / _towards(scale / whole, big)
    return STEP if inward else 1.0 / STEP


def _towards(distance: float, big: float) -> float:
    """A step of `big` towards a zoom `distance` times away, landing on it when it is
    nearer than that (but never a step smaller than STEP)."""
    return big if distance >= big * 1.001 else max(STEP, distance)


def fit_pressed(view) -> str:
    """Ctrl+0 on `view`: `fit(readable=True)`; pressed again at once after a fit that
    could not show the whole graph, the whole graph whatever its text size. Returns what
    to say in the status bar (what it did, or that the view was fitted already), kept as
    `view.fit_said`: true until the user zooms or pans (gui/window/status.py then takes it
    back)."""
    again = view._pressed and view._auto_fit is True
    whole = view.scene().graph_rect().adjusted(-FIT_MARGIN, -FIT_MARGIN,
                                               FIT_MARGIN, FIT_MARGIN)
    if again and not _shows(view, whole):
        view.fit(readable=False)
        view.fit_said = WHOLE_SAID
        return WHOLE_SAID
    before = placement(view)
    view.fit(readable=True)
    view._pressed = True
    view.fit_said = fit_said(view.scale_factor(), _shows(view, whole), before == placement(view))
    return view.fit_said


def _shows(view, rect) -> bool:
    return view.mapToScene(view.viewport().rect()).boundingRect().contains(rect)


def fit_said(scale: float, shows_all: bool, unchanged: bool) -> str:
    """What the status bar says after Ctrl+0's readable fit."""
    done = "Already fitted" if unchanged else "Fitted"
    if shows_all:
        return f"{done}: the whole graph at {scale:.0%}"
    return (f"{done}: as much as is readable, at {scale:.0%} (not all of the graph); "
            "Ctrl+0 again to see all of it")


def placement(view) -> tuple:
    """Where `view` looks: its zoom and its scroll bars (Ctrl+0 tells a fit that moved
    nothing)."""
    return (view.transform(), view.horizontalScrollBar().value(),
            view.verticalScrollBar().value())
