"""View → Expand to level N (Alt+N) in a grouped graph: the groups opened to that level,
the picture re-framed once drawn as the first view is (readable, at the graph's start
or the current step: not the old zoom, where a level's picture could be a dot), and the
status bar says how to get back to the first view (View → First view, Alt+Home)."""

from __future__ import annotations

FIRST_VIEW_KEY = "Alt+Home"  # View → First view


def level_said(level: int) -> str:
    """The status line after Alt+`level`."""
    done = f"Every group opened to level {level}" if level else "Every group closed"
    return f"{done}; View → First view ({FIRST_VIEW_KEY}) goes back to the first view"


def expand_to_level(expansion, level: int) -> None:
    """Draw `expansion`'s picture with every group `level` levels deep open, to be
    fitted and said once drawn (Expansion.redrawn reads `_refit`: what to say)."""
    shown = expansion.shown
    if shown is None:
        return
    expansion.opened = None
    expansion._refit = level_said(level)
    expansion.draw(shown.to_level(level))
    expansion.status.emit(level_said(level))


def first_view(expansion) -> None:
    """View → First view: back to the groups the graph opened with (the breadcrumb's
    'graph' link), or say that this is it."""
    if expansion.shown is None:
        return
    if expansion.first_view is not None and expansion.shown.expanded == expansion.first_view:
        expansion.status.emit("This is the first view")
        return
    expansion.back_to(-1)
