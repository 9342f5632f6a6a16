"""The line above a grouped graph that says where you are: the open groups that hold the
selected (or current) unit, outermost first (those the first view has open unasked left
out: the user never saw them as groups), each a link back to the view where that
group was opened; the root ("graph") a link back to the first view. At the top level it
says what is drawn there, and how to open a group."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QLabel

from engine.numbers import count
from gui.graph.step_place import note_not_drawn

ROOT = "graph"
TOP = -1  # the root's link: the first view


def back_view(shown, g: int, first: set[int]) -> set[int]:
    """The groups open in the view where group `g` was opened (`TOP`: the first view,
    `first` the groups open in it): what is open now, less what was opened inside `g`,
    and never less open than the first view."""
    if g == TOP:
        return set(first)
    inside = {h for h in shown.expanded | first if g in shown.ancestors_of_group(h)}
    return ((shown.expanded - inside) | (first & inside) | {g}
            | set(shown.ancestors_of_group(g)))


def show_where(expansion, crumb) -> None:
    """Show in `crumb` where the user is in `expansion`'s picture: the open groups
    around the selection (a closed group selected said apart), else around the group
    opened last; never the groups the first view has open unasked (`implied`)."""
    shown = expansion.tab.scene.shown
    if shown is None:
        crumb.hide()
        return
    here, opened = "", expansion.opened_group()
    if expansion.tab.scene.selectedItems():  # where the selection is
        unit = expansion.selected_unit()
        holders = shown.holders(unit) if unit is not None else []
        if unit is not None and unit < 0:
            here = shown.group_title(-1 - unit)
            expansion.status.emit(shown.describe(-1 - unit))
    else:  # where the user is: the groups opened, to the last one
        holders = [*shown.ancestors_of_group(opened), opened] if opened is not None else []
    first = note_not_drawn(expansion)  # implied(expansion), noted for the inspector
    crumb.show_path([(g, shown.group_title(g)) for g in holders if g not in first],
                    here, shown)


def top_words(shown) -> str:
    """What the top level of `shown` draws, said after the root: ' of loss: 13,978
    nodes, 10 groups drawn closed · double-click one (or select it and press +) to open
    it'."""
    output = shown.stepper.forward_steps[-1].label.split(" = ")[0] or "the output"
    closed = sum(1 for g in shown.groups if g.id not in shown.expanded
                 and (g.parent < 0 or g.parent in shown.expanded))
    return (f" of {output}: {count(len(shown.arrays), 'node')}, "
            f"{count(closed, 'group')} drawn closed · double-click one (or select it and "
            "press +) to open it")


class Breadcrumb(QLabel):
    """`graph › layers[0] › neurons[3]`; clicking a group emits `back_to(group id)`,
    clicking the root `back_to(TOP)`."""

    back_to = Signal(int)
    collapse = Signal(int)  # close group g (what the breadcrumb's links once did)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("breadcrumb")
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.linkActivated.connect(self._on_link)
        self.setToolTip("The groups open around the selected box (or the current step): "
                        "click one to go back to the view where it was opened, or "
                        "graph to go back to the first view")
        self.path: list[tuple[int, str]] = []
        self.top = ""  # what the top level draws, said after the root there
        self.hide()

    def show_path(self, path: list[tuple[int, str]], here: str = "", shown=None) -> None:
        """Show `path` [(group id, title)…], outermost first, then `here` (a closed group
        selected, said as selected, not as a level); at the top level (neither) what
        `shown` (a gui.graph.grouped.Shown) draws there."""
        self.path = list(path)
        self.top = top_words(shown) if shown is not None and not path and not here else ""
        links = [f"<a href='{g}'>{escape(title)}</a>" for g, title in [(TOP, ROOT), *path]]
        # a group selected is said apart from the path: selecting it opens nothing
        said = f" · selected: {escape(here)} (closed)" if here else ""
        self.setText(" › ".join(links) + said + escape(self.top))
        self.show()

    def words(self) -> str:
        """The breadcrumb as plain text, as a user reads it (the unit selected left out)."""
        return " › ".join([ROOT, *(title for _, title in self.path)]) + self.top

    @Slot(str)
    def _on_link(self, link: str) -> None:
        self.back_to.emit(int(link))
