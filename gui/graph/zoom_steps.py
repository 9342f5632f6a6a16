"""How far Ctrl+= and Ctrl+- zoom, and what Ctrl+0 says it did.

A step is 1.25× (in) or 0.8× (out). Between the zoom that shows the whole graph and
the readable one (a long chain: 8% and 50%), a step is a third of the way from one to the
other (in ratio) where that is more: three presses after Ctrl+0's whole graph make it
readable again, and a step starting near one lands on it."""

from __future__ import annotations

STEP = 1.25
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
