"""A big graph in the Graph tab: grouped in a child, drawn collapsed to fit the screen,
opened and closed a group at a time, and stepped at the level shown.

`Expansion` decides, for each stepper the session loads, whether its graph is grouped
(GROUP_FROM nodes or more, and the grouping found groups). If the stepper's order is not
the grouping's, it asks (`reorder`) for the stepper to be made again in that order, so
that each group's steps are one run; the stepper then loaded is drawn at once.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal, Slot

from engine.numbers import count
from gui.graph.breadcrumb import Breadcrumb, back_view, show_where
from gui.graph.find import FindBar, frame_found
from gui.graph.framing import budget_for
from gui.graph.going_back import Framings
from gui.graph.group_actions import group_actions, implied, minus_closes
from gui.graph.grouped import Shown
from gui.graph.level_view import expand_to_level
from gui.graph.levels import LevelSteps
from gui.graph.prepared import Preparer
from gui.graph.step_place import counter_text
from gui.jobs.group_child import GROUP_FROM
from gui.jobs.grouping_job import Grouped, GroupingJob
from gui.jobs.sliced import SlicedTask

SLICED_REDRAW = 1_500  # a jump in a picture of this many edges is redrawn in slices


class Expansion(QObject):
    """The grouped picture of the tab's stepper (see the module's docstring).

    `plain()` when a graph is to be drawn as it always was; `reorder(program,
    forward_steps)` when the stepper is to be made again in the grouping's order;
    `status(text)` for the status bar."""

    plain = Signal()
    reorder = Signal(object, object)
    status = Signal(str)
    group_by_default = True  # View → Group big graphs, as a new window starts

    def __init__(self, tab, draw_plain):
        super().__init__(tab)
        self.enabled = self.group_by_default  # False: every graph drawn node by node
        self.plain.connect(draw_plain)
        self.tab = tab
        self.job = GroupingJob(self)
        self.job.grouped.connect(self._on_grouped)
        self.job.failed.connect(self._on_failed)
        self.job.busy.connect(tab.busy)
        self.shown: Shown | None = None      # the grouped picture of the stepper drawn
        self._grouped: Grouped | None = None  # the last grouping found
        self.focus: int | None = None        # a node to keep in view through a redraw
        self.opened: int | None = None       # the group the user opened last: where they are
        self._framed: int | None = None      # a group just opened, to show once drawn
        tab.view.opened = self.opened_group
        self.reorder.connect(tab.reorder)
        self.status.connect(tab.status)
        self.breadcrumb = Breadcrumb(tab)
        self.breadcrumb.collapse.connect(self.collapse)
        self.breadcrumb.back_to.connect(self.back_to)
        self.first_view: set[int] | None = None  # the groups open in the first view
        self.history: list[int] = []  # the groups the user opened, the last last
        self.user_opened: set[int] = set()  # every group the user opened (+, double-click)
        self.framings = Framings()  # each view as the user left it, to go back to
        self._back = False  # the picture being drawn is one gone back to (−, breadcrumb)
        self.select_group = None  # a group closed around the selection, to select once drawn
        self.find_bar = FindBar(tab)
        self.find_bar.found.connect(self.find_node)
        tab.view.double_clicked.connect(self.double_clicked)
        self.actions = group_actions(self, tab)
        tab.scene.selectionChanged.connect(self.update_breadcrumb)
        self.select_after = None             # a node found, to select once drawn
        self._redraw: SlicedTask | None = None  # a jump redrawn in slices
        # once a grouped picture is drawn, opening its biggest groups is prepared while
        # the window is idle (and the graph's operands filed by group, once)
        self.preparer = Preparer(tab.background.server, self)
        tab.background.drawn.connect(self._on_picture)

    @property
    def running(self) -> bool:
        return self.job.running

    def cancel(self) -> None:
        self.job.cancel()
        self._stop_redraw()
        self.preparer.stop()

    @Slot(object)
    def _on_picture(self, scene) -> None:
        """A grouped picture is drawn: the layout's child is made ready for the next
        one, and the opening of its biggest groups is prepared while the window is idle."""
        if scene.shown is not None and scene is self.tab.scene:
            if self.first_view is None:
                self.first_view = set(scene.shown.expanded)
            self.tab.background.server.warm()
            self.preparer.start(scene, self.tab.session.roles(),
                                not self.tab.constants_as_nodes)

    def load(self, stepper) -> bool:
        """Draw `stepper`'s graph grouped if it is big enough: True if it is taken care
        of here (grouped now, or being grouped), False to draw it as it always was."""
        self.find_bar.set_names([v.label for v in stepper.forward_steps if v.label])
        if not self.enabled:
            self.shown = None
            return False
        if self.shown is not None and self.shown.stepper is stepper:
            self.draw()  # the same stepper drawn again (constants as nodes, or folded)
            return True
        grouped = self._grouped
        if grouped is not None and grouped.fits(stepper):
            if not grouped.grouping.groups:
                self.shown = None
                return False
            expanded = self.shown.expanded if self.shown is not None else grouped.expanded
            if self.shown is None:
                self.first_view, self.history, self.user_opened = None, [], set()
                self.framings.clear()
            self.preparer.stop()
            self.shown = Shown(stepper, grouped.arrays, grouped.grouping, expanded)
            self.draw()
            return True
        self.shown = self._grouped = self.opened = None  # another program's: let go of
        self.preparer.stop()
        if len(stepper.forward_steps) <= GROUP_FROM:
            return False
        self.job.start(stepper, self.tab.session.roles(), self.budget())
        self.status.emit(f"Grouping {len(stepper.forward_steps):,} nodes…")
        return True

    @Slot(bool)
    def set_enabled(self, on: bool) -> None:
        """Group big graphs (True), or draw every graph node by node; the graph shown is
        drawn again the new way."""
        if on == self.enabled:
            return
        self.enabled = on
        self.actions["group"].setChecked(on)
        stepper = self.tab.session.stepper
        if stepper is not None and len(stepper.forward_steps) > GROUP_FROM:
            self.tab.session.loaded.emit()  # drawn again, as a new program is

    def give(self, grouped: Grouped) -> None:
        """A grouping found elsewhere (the parse child, a test), for the stepper next loaded."""
        self._grouped = grouped

    def budget(self) -> int:
        """About how many units the view shows at a readable size."""
        port = self.tab.view.viewport().size()
        return budget_for(port.width(), port.height())

    def parse_budget(self) -> int | None:
        """`budget()` for a program being parsed, or None when big graphs are not grouped."""
        return self.budget() if self.enabled else None

    @Slot(object)
    def _on_grouped(self, grouped: Grouped) -> None:
        session = self.tab.session
        self._grouped = grouped
        stepper = session.stepper
        if stepper is None or stepper.output is not grouped.output:
            return
        if not grouped.grouping.groups or grouped.fits(stepper):
            if not self.load(stepper):
                self.plain.emit()
            return
        self.status.emit("Grouped: preparing the steps in the groups' order…")
        self.reorder.emit(session.program, grouped.nodes)

    def reference(self, stepper) -> list | None:
        """topological_order's order of `stepper`'s graph when it walks a grouping's
        (what its gradients' sums keep to), if known; None otherwise."""
        grouped = self._grouped
        return grouped.reference if grouped is not None and grouped.fits(stepper) else None

    @Slot(str)
    def _on_failed(self, reason: str) -> None:
        self._grouped = None
        self.status.emit(f"The graph was not grouped ({reason}): drawn node by node")
        self.plain.emit()

    # -- opening and closing -------------------------------------------------------------

    def draw(self, expanded: set[int] | None = None, focus: int | None = None) -> None:
        """Draw the grouped picture with `expanded` open (None: as it is), keeping node
        `focus` in view if given."""
        self.focus = focus
        tab = self.tab
        if expanded is not None and tab.scene.shown is not None:
            self.framings.leave(tab.view, tab.scene.shown.expanded)
        self.preparer.stop()  # what it has made so far is kept
        tab.background.start(self.shown.stepper, tab.session.roles(),
                             not tab.constants_as_nodes, self.shown, expanded,
                             tab.scene if expanded is not None else None)

    def expand(self, g: int) -> None:
        shown = self.shown
        if shown is not None and g not in shown.expanded:
            self.opened = self._framed = g
            self._back = False
            self.history.append(g)
            self.user_opened.add(g)
            self.draw(shown.expanding(g), shown.groups[g].first)
            self.status.emit(f"Opened {shown.groups[g].title}: its inside is drawn; − closes "
                             "it again")

    def collapse(self, g: int) -> None:
        shown = self.shown
        if shown is not None and g in shown.expanded:
            parent = shown.groups[g].parent
            self.opened = parent if parent >= 0 and parent not in implied(self) else None
            self._back, self._framed = True, None
            self.draw(shown.collapsing(g), shown.groups[g].first)
            self.status.emit(f"Closed {shown.groups[g].title}")

    @Slot(int)
    def back_to(self, g: int) -> None:
        """The breadcrumb's link: back to the view where group `g` was opened (closing
        what was opened inside it), or to the first view (g < 0)."""
        if (shown := self.shown) is None:
            return
        target = back_view(shown, g, self.first_view or set())
        self.opened = g if g >= 0 else None
        if target != shown.expanded:
            self._back, self._framed = True, None
            self.draw(target, shown.groups[g].first if g >= 0 else None)
            self.status.emit(f"Back to {shown.groups[g].title}, as opened" if g >= 0
                             else "Back to the first view")

    def to_level(self, level: int) -> None:
        expand_to_level(self, level)  # then fitted as the first view is (level_view.py)

    def reveal(self, node: int) -> None:
        """Open every group that hides `node` (Ctrl+F), and keep it in view."""
        if self.shown is not None:
            holders = self.shown.grouping.ancestors(node)
            self.opened = holders[-1] if holders else None
            self.draw(self.shown.revealing(node), node)

    # -- stepping at the level shown -------------------------------------------------------

    def step(self, forward: bool) -> bool:
        """A step at the level shown (a group's forward or backward); False if not grouped."""
        levels = self.levels()
        if levels is None:
            return False
        there = levels.next_position() if forward else levels.previous_position()
        if there is not None:
            self.tab.session.seek(there, paced=True)
        return True

    def progress(self, levels: LevelSteps) -> str:
        """The phase at the level shown, the groups drawn open around the step and the
        closed group just stepped, if one: 'backward 3/41 · inside losses[3–11] ·
        losses[7]' (gui/graph/step_place.py)."""
        return counter_text(self, levels)

    def refresh(self, previous: int) -> bool:
        """Redraw a grouped picture after the stepper moved from `previous`: a jump in
        a picture of many edges a slice at a time. False if the picture is not grouped."""
        scene = self.tab.scene
        if scene.shown is None:
            return False
        unfinished = self._stop_redraw()
        if abs(scene.stepper.position - previous) <= 1 or len(scene.spec.edges) < SLICED_REDRAW:
            scene.refresh(None if unfinished else previous)
            return True
        self._redraw = SlicedTask(scene.refresh_steps(), 0.012, self)
        self._redraw.finished.connect(self._on_redrawn)
        self._redraw.start()
        return True

    def _stop_redraw(self) -> bool:
        """End a sliced redraw; True if one was left unfinished."""
        if self._redraw is None:
            return False
        task, self._redraw = self._redraw, None
        task.cancel()
        return True

    @Slot(object)
    def _on_redrawn(self, _result) -> None:
        self._redraw = None

    def built_message(self) -> str:
        scene = self.tab.scene
        return (f"Built {self.tab.session.program.output_name}: {len(scene.nodes):,} nodes, "
                f"drawn as {count(len(scene.group_items), 'group')} and the nodes between "
                "them. Double-click a group (or select it and press +) to open it, − closes "
                "it; Ctrl+F finds a node; Right steps at the level shown.")

    def levels(self) -> LevelSteps | None:
        """The steps at the level drawn now (None: the graph shown is not grouped)."""
        scene = self.tab.scene
        if scene.shown is None or scene.stepper is not self.tab.session.stepper:
            return None
        return scene.levels

    # -- what the user points at ----------------------------------------------------------

    def redrawn(self, levels: LevelSteps) -> None:
        """The picture was drawn again with other groups open (`levels`: the last
        picture's steps at the level shown, which follow: a group opened on its own step
        goes to its first inner step, Right then steps inside it); a view gone back to is
        shown as it was left (going_back.py), else the zoom stays and the view shows the
        node asked for (found, or the first of the group opened), or the current one."""
        tab = self.tab
        scene = tab.scene
        self.shown = scene.shown
        tab.view.graph_redrawn()
        scene.levels = levels
        if levels is not None:
            there = levels.set_expanded(scene.shown.expanded, scene.shown.quotient)
            if not tab.session.seek(there):
                scene.refresh()  # the edges into groups, as the levels say
        found, self.select_after = self.select_after, None
        closed, self.select_group = self.select_group, None
        back, self._back, refit = self._back, False, self.__dict__.pop("_refit", "")
        if back:  # as the user left that view (the box closed selected, if one)
            self.framings.back(tab.view, scene.shown.expanded)
        if found is not None:
            self.select(found)
        elif closed in scene.group_items:  # the box that now holds the selected node
            scene.clearSelection()
            scene.group_items[closed].setSelected(True)
        elif refit:  # Expand to level N: framed as the first view is, and said again
            tab.view.fit(readable=True)  # (the step it moved to said in between)
            self.status.emit(refit)
        elif not back:
            item = (scene.value_item_of(scene.nodes[self.focus]) if self.focus is not None
                    else None)
            framed, self._framed = self._framed, None  # a group opened: what it holds
            tab.view.show_after_redraw(item, framed)  # and the current step
        self.update_breadcrumb()
        tab.selection_changed.emit()  # the inspector: what is drawn now

    def selected_unit(self) -> int | None:
        """The quotient's unit selected (a box or a collapsed group), else the current
        step's; None when the graph shown is not grouped."""
        scene = self.tab.scene
        shown = scene.shown
        if shown is None:
            return None
        selected = scene.selectedItems()
        if selected:
            g = scene.group_at(selected[0])
            if g is not None:
                return -1 - g
            node = scene.node_at(selected[0])
            if node is not None:
                return shown.quotient.unit_of[shown.index[node]]
        return shown.unit_at(self.tab.session.stepper.position)

    @Slot(object)
    def double_clicked(self, item) -> None:
        g = self.tab.scene.group_at(item)
        if g is not None:
            self.expand(g)

    @Slot()
    def expand_selected(self) -> None:
        """+: open the selected group."""
        unit = self.selected_unit()
        if unit is not None and unit < 0:
            self.expand(-1 - unit)

    @Slot()
    def collapse_selected(self) -> None:
        """−: close the innermost open group that holds the selection (its box then
        selected), else the last one opened still open (see group_actions.to_close)."""
        g, held = minus_closes(self)
        if g is not None:
            self.select_group = g if held else None
            self.collapse(g)
        elif self.tab.scene.shown is not None:
            self.status.emit("This is the first view: no group opened here to close")

    @Slot()
    def update_breadcrumb(self) -> None:
        show_where(self, self.tab.breadcrumb)

    def opened_group(self) -> int | None:
        """The group the user opened last, or the innermost still open around it; None
        when none is (or the graph shown is not grouped)."""
        shown = self.tab.scene.shown
        g = self.opened
        if shown is None or g is None or g >= len(shown.groups):
            return None
        while g >= 0 and g not in shown.expanded:
            g = shown.groups[g].parent
        return g if g >= 0 else None

    @Slot(str)
    def find_node(self, name: str) -> bool:
        """Select the node named `name` and centre it, opening every group that hides
        it; False if no node has that name."""
        tab = self.tab
        node = next((v for v in tab.session.stepper.forward_steps if v.label == name), None)
        if node is None:
            return False
        shown = tab.scene.shown
        if shown is not None and shown.quotient.unit_of[shown.index[node]] < 0:
            self.reveal(shown.index[node])
            self.select_after = node
        else:
            self.select(node)
        return True

    def select(self, node) -> None:
        """Select `node`'s box and centre it."""
        tab = self.tab
        item = tab.scene.value_item_of(node)
        if item is not None:
            tab.scene.clearSelection()
            item.setSelected(True)
            frame_found(tab.view, item)
            self.status.emit(f"Found {node.label}")
