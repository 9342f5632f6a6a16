"""The keys and View menu entries of a grouped graph: open and close a group, find a
node, group big graphs or not, expand to a level."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence

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
