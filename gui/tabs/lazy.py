"""Tabs made the first time they are shown: a light placeholder holds a tab's place in
the QTabWidget until then, so the window paints without importing what those tabs need
(pyqtgraph, numpy). A tab's heavier pieces are then made over a few turns of the event
loop (Filling), so that opening it does not hold the window either."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal, Slot
from PySide6.QtWidgets import QTabWidget, QWidget


class LazyTabs(QObject):
    """Adds tabs to `tabs` whose widgets `factory()` makes on first need: when the tab
    is first shown, or when `tab(title)` first asks for it."""

    def __init__(self, tabs: QTabWidget):
        super().__init__(tabs)
        self.tabs = tabs
        self._factories: dict[str, Callable[[], QWidget]] = {}
        self._placeholders: dict[str, QWidget] = {}
        self._made: dict[str, QWidget] = {}
        tabs.currentChanged.connect(self._on_current_changed)

    def add(self, title: str, factory: Callable[[], QWidget]) -> None:
        placeholder = QWidget(self.tabs)
        self._factories[title] = factory
        self._placeholders[title] = placeholder
        self.tabs.addTab(placeholder, title)

    def made(self, title: str) -> bool:
        return title in self._made

    def tab(self, title: str) -> QWidget:
        """The tab's real widget, made (and put in its placeholder's place) if need be."""
        if title not in self._made:
            self._made[title] = widget = self._factories[title]()
            placeholder = self._placeholders.pop(title)
            index = self.tabs.indexOf(placeholder)
            current = self.tabs.currentIndex()
            # the swap moves the current index about: nobody needs to hear of that
            self.tabs.blockSignals(True)
            try:
                self.tabs.removeTab(index)
                self.tabs.insertTab(index, widget, title)
                self.tabs.setCurrentIndex(current)
            finally:
                self.tabs.blockSignals(False)
            placeholder.deleteLater()
        return self._made[title]

    @Slot(int)
    def _on_current_changed(self, index: int) -> None:
        for title, placeholder in list(self._placeholders.items()):
            if self.tabs.indexOf(placeholder) == index:
                self.tab(title)


class Filling(QObject):
    """A tab's heavier pieces (its plots, its tables) made one per turn of the event
    loop, from the generator `steps` (each `yield` a piece done), so that opening
    the tab never holds the window for all of them at once: the tab's frame shows first
    and fills in over the next turns. `done` is sent once, when the last piece is in;
    `finish()` makes what is left at once (for whoever needs the whole tab now)."""

    done = Signal()

    def __init__(self, steps, parent: QObject):
        super().__init__(parent)
        self._steps = steps
        self.running = True
        self._taking = False  # a piece is being made: finish() from inside it waits
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._on_turn)
        self._timer.start()

    @Slot()
    def _on_turn(self) -> None:
        self._take(one=True)  # each piece takes 10-40 ms: one a turn, the window paints

    def finish(self) -> None:
        self._take(one=False)

    def _take(self, one: bool) -> None:
        if self._taking or not self.running:
            return
        self._taking = True
        try:
            while self.running:
                try:
                    next(self._steps)
                except StopIteration:
                    self.running = False
                    self._timer.stop()
                    break
                if one:
                    return
        finally:
            self._taking = False
        self.done.emit()
