"""Tabs made the first time they are shown: a light placeholder holds a tab's place in
the QTabWidget until then, so the window paints without importing what those tabs need
(pyqtgraph, numpy)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Slot
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
