"""The keys and View menu entries of a grouped graph: open and close a group, find a
node, group big graphs or not, expand to a level."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence

from gui.graph.level_view import FIRST_VIEW_KEY, first_view

LEVELS = 5  # View → Expand to level 0 … LEVELS - 1 (Alt+0 …)


def group_actions(expansion, tab) -> dict[str, QAction]:
    """Open (+), Close (−), Find (Ctrl+F) and Expand to level N (Alt+N), by key; the
    window's View menu lists them. + and − work while the graph has the keyboard."""
    rows = [("expand", "&Open group", "+", "Open the selected group (or double-click it)",
             expansion.expand_selected),
            ("collapse", "&Close group", "-", "Close the open group around the selection",
             expansion.collapse_selected),
            ("find", "&Find a node…", "Ctrl+F", "Find a node by name, opening what hides it",
             expansion.find_bar.open)]
    rows.append(("first", "F&irst view", FIRST_VIEW_KEY,
                 "Back to the groups the graph opened with", lambda: first_view(expansion)))
    rows.append(("group", "&Group big graphs", "Ctrl+Shift+G",
                 "Draw a graph of over 500 nodes as groups of its model's pieces (on), or "
                 "node by node (off)", expansion.set_enabled))
    rows += [(f"level{n}", f"Expand to level &{n}" if n else "Collapse &all groups", f"Alt+{n}",
              f"Show every group {n} levels deep open" if n else "Close every group",
              lambda checked=False, n=n: expansion.to_level(n)) for n in range(LEVELS)]
    actions = {}
    for key, text, shortcut, tip, slot in rows:
        action = QAction(text, tab)
        action.setShortcut(QKeySequence(shortcut))
        if key in ("expand", "collapse"):  # never a '+' typed in the editor
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            tab.view.addAction(action)
        action.setStatusTip(tip)
        action.triggered.connect(slot)
        actions[key] = action
    actions["group"].setCheckable(True)
    actions["group"].setChecked(expansion.enabled)
    return actions


def implied(expansion) -> set[int]:
    """The groups open in the first view that the user never opened: drawn open from
    the start (their insides are the first view's boxes), never seen as groups, so
    neither the breadcrumb nor − counts them as levels."""
    return (expansion.first_view or set()) - expansion.user_opened


def minus_closes(expansion) -> tuple[int | None, bool]:
    """(the group − closes, whether it holds the selection): the innermost open group
    around the selected box, else `to_close`'s; (None, False) if none."""
    shown = expansion.tab.scene.shown
    if shown is None:
        return None, False
    first = implied(expansion)  # open from the start, never seen as groups
    unit = expansion.selected_unit() if expansion.tab.scene.selectedItems() else None
    holders = [g for g in shown.holders(unit) if g not in first] if unit is not None else []
    if holders:
        return holders[-1], True
    return to_close(expansion.history, shown, expansion.opened_group(), first), False


def to_close(history: list[int], shown, opened: int | None,
             implied: set[int] = frozenset()) -> int | None:
    """What − closes with nothing selected in an open group: the last group opened
    (`history`, the last last) still open, innermost first; `opened` (the innermost
    open around the last opened) if none; None when no group is open but the `implied`
    ones (the first view's own: − stops there). Groups closed are dropped from
    `history`, so repeated presses walk back up the groups opened to the first view."""
    while history and history[-1] not in shown.expanded:
        history.pop()
    closable = shown.expanded - set(implied)
    if history:  # what was opened inside it goes first
        g = history[-1]
        inner = [h for h in closable if g in shown.ancestors_of_group(h)]
        if not inner:
            history.pop()
        return max(inner, key=lambda h: len(shown.ancestors_of_group(h))) if inner else g
    if opened is not None and opened not in implied:
        return opened
    return max(closable, key=lambda h: len(shown.ancestors_of_group(h)), default=None)
