"""Where the current step is, in the groups drawn: the step counter's place
('backward 7/30 · inside losses[1]', said short 'in losses[1]') and the inspector's
'where' row name only groups drawn open around the step, never a plain node, a closed
group or a group the first view has open unasked (`implied`: its inside is the first
view's boxes, no group is drawn for it). A closed group just stepped is named as the
step, without 'in' ('backward 9/9 (done) · reg_loss'); the groups open but not drawn as
groups are said apart, in the inspector ('inside data_loss, not drawn as groups')."""

from __future__ import annotations

from weakref import WeakKeyDictionary

from gui.graph.group_actions import implied
from gui.graph.groups.titles import path_said

_NOT_DRAWN: WeakKeyDictionary = WeakKeyDictionary()  # levels -> the implied groups


def note_not_drawn(expansion) -> frozenset[int]:
    """Remember, for the picture's steps (`scene.levels`), which open groups are not
    drawn as groups (for the inspector, which is given the levels only); returns them."""
    first = frozenset(implied(expansion))
    levels = expansion.tab.scene.levels
    if levels is not None:
        _NOT_DRAWN[levels] = first
    return first


def counter_text(expansion, levels) -> str:
    """The step counter at the level shown: the counts, then 'inside' the groups drawn
    open around the current unit (a path, outermost first), then the closed group just
    stepped, if the step is one."""
    text, g = levels.progress(), levels.level()
    if g >= 0:
        text = text.removesuffix(f" · inside {levels.grouping.groups[g].title}")
    unit, shown = levels.current_unit(), expansion.tab.scene.shown
    if unit is None or shown is None:
        return text
    groups = levels.grouping.groups
    first = note_not_drawn(expansion)
    drawn = [h for h in shown.holders(unit) if h not in first]
    if drawn:
        text += " · inside " + path_said([groups[h].title for h in drawn])
    if unit < 0:
        text += f" · {groups[-1 - unit].title}"
    return text


def where_said(node_index: int, levels) -> str:
    """The inspector's 'where' for node `node_index` (said after 'in '): the groups
    drawn open around it, as the breadcrumb says them; the groups around it open but not
    drawn as groups, and those closed around it, said apart; '' when none holds it."""
    grouping = levels.grouping
    chain = grouping.ancestors(node_index)
    if not chain:
        return ""
    first = _NOT_DRAWN.get(levels, frozenset(levels.expanded))
    drawn = [g for g in chain if g in levels.expanded and g not in first]
    hidden = [g for g in chain if g in levels.expanded and g in first]
    closed = [g for g in chain if g not in levels.expanded]
    title = grouping.groups.__getitem__
    said = [path_said([title(g).title for g in drawn]) if drawn
            else "the graph's top level (no group drawn around it)"]
    if hidden:
        said.append(f"inside {path_said([title(g).title for g in hidden])}, not drawn as "
                    + ("a group" if len(hidden) == 1 else "groups"))
    if closed:
        said.append(f"hidden in the closed group {title(closed[0]).title}")
    return "; ".join(said)
