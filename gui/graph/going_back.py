"""A grouped graph's views as the user left them, so that going back to one (− closing
a group, the breadcrumb's links) shows it as it was: its zoom and what was in the
middle of the window, or the fit it had (the first view's, redone at the window's size
now); a view never left before is fitted readably, as the first view is. Without this
the zoom of the view gone back from stayed, and a whole picture could sit mid-window
at 6 px text (tryout of session 33).

The picture itself is kept too (its spec and drawing, in the stepper's `grouped.Kept
.seen`, which prepared.picture_steps looks in first): a view gone back to is drawn as
it was, its boxes in the same order and places. The drawings made ahead of a click
(prepared.Preparer) had pushed the views seen out of the few `Kept.drawings` keeps, and
the view was laid out again from the picture just left: its groups reordered and moved
each time the user came back to it (tryout of session 34)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF

KEPT_VIEWS = 32  # the views remembered (sets of open groups); the oldest let go of past it


@dataclass(frozen=True)
class Framing:
    scale: float
    centre: QPointF        # the scene point at the middle of the window
    fit: bool | None       # the `readable` of the view's automatic fit, None if the user's


class Framings:
    """The framing of each set of open groups the user left (see the module)."""

    def __init__(self):
        self._kept: dict[frozenset[int], Framing] = {}

    def clear(self) -> None:
        self._kept.clear()

    def leave(self, view, expanded) -> None:
        """The view shows `expanded` open and is about to show another: remember it, and
        the picture it shows."""
        scene = view.scene()
        shown = getattr(scene, "shown", None)
        if shown is not None and scene.drawing is not None:
            seen = shown.shared.seen
            picture = (frozenset(shown.expanded), scene.spec.folded)
            seen.pop(picture, None)
            seen[picture] = (scene.spec, scene.drawing)
            while len(seen) > KEPT_VIEWS:
                del seen[next(iter(seen))]
        key = frozenset(expanded)
        self._kept.pop(key, None)
        self._kept[key] = Framing(view.scale_factor(),
                                  view.mapToScene(view.viewport().rect().center()),
                                  view._auto_fit)
        while len(self._kept) > KEPT_VIEWS:
            del self._kept[next(iter(self._kept))]

    def back(self, view, expanded) -> None:
        """Show the view now drawn (`expanded` open, gone back to) as it was left."""
        kept = self._kept.get(frozenset(expanded))
        if kept is None or kept.fit is not None:
            readable = True if kept is None else kept.fit
            size = view.viewport().size()
            view.fit(readable=readable)
            view._settle_scroll_bars()  # the last picture's scroll bars gone: fit again
            if view.viewport().size() != size:
                view.fit(readable=readable)
            return
        view.set_zoom(kept.scale)
        view.centerOn(kept.centre)
