"""The status bar describes the tab in front, always: each tab's last message is kept and
shown again when the tab comes back, and a message wiped by a menu's tips (Qt clears the
bar when the pointer leaves a menu) is put back. The progress bar has words beside it
saying what it is for, whichever tab is in front. What Ctrl+0 said of the graph's view
("Fitted: the whole graph at 31%") is taken back once the user zooms or pans."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QLabel, QProgressBar


class StatusMemory(QObject):
    """`say(message)` shows `message` and keeps it for the tab in front."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.said: dict[int, str] = {}  # id of a tab -> its last message
        window.tabs.currentChanged.connect(self._on_tab)
        window.statusBar().messageChanged.connect(self._on_changed)
        view = window.graph_tab.view
        view.zoomed.connect(self._on_view_moved)
        for bar in (view.horizontalScrollBar(), view.verticalScrollBar()):
            bar.valueChanged.connect(self._on_view_moved)

    def _key(self) -> int:
        return id(self.window.tabs.currentWidget())

    def say(self, message: str, supersedes: str = "") -> None:
        """Show `message`, kept for the tab in front; with `supersedes`, it also takes the
        place of any tab's kept message that starts so (news of work that has ended: a
        tab left while TensorFlow loaded says it loaded when it comes back)."""
        if supersedes:
            for key, said in self.said.items():
                if said.startswith(supersedes):
                    self.said[key] = message
        self.said[self._key()] = message
        self.window.statusBar().showMessage(message)

    def _on_view_moved(self, *_moved) -> None:
        """The graph's view zoomed or scrolled: once it is no longer Ctrl+0's fit (the
        user zoomed or panned), what Ctrl+0 said is not true any more and is taken back."""
        view = self.window.graph_tab.view
        said = view.fit_said
        if not said or view.auto_fit:
            return
        view.fit_said = ""
        key = id(self.window.graph_tab)
        if self.said.get(key) == said:
            self.said[key] = ""
        bar = self.window.statusBar()
        if bar.currentMessage() == said:
            bar.clearMessage()

    def _on_tab(self, _index: int) -> None:
        self.window.statusBar().showMessage(self.said.get(self._key(), ""))

    def _on_changed(self, message: str) -> None:
        if not message and self.said.get(self._key()):
            QTimer.singleShot(0, self._restore)  # after the menu's own clearing

    def _restore(self) -> None:
        bar = self.window.statusBar()
        if not bar.currentMessage():
            bar.showMessage(self.said.get(self._key(), ""))


class ProgressWords(QObject):
    """The words beside the status bar's progress bar: `show_for(True, "Loading
    TensorFlow…")` shows the bar with those words, `show_for(False, same words)` takes
    them away; the bar shows while any work has words, all of them said."""

    def __init__(self, window, bar: QProgressBar):
        super().__init__(window)
        self.bar = bar
        self.label = QLabel(window)
        self.label.setObjectName("progress_words")
        self.label.hide()
        window.statusBar().insertPermanentWidget(0, self.label)  # before the bar
        self.working: list[str] = []  # the words of the work under way, first begun first

    def show_for(self, busy: bool, words: str) -> None:
        if words in self.working:
            self.working.remove(words)
        if busy:
            self.working.append(words)
        said = " · ".join(self.working)
        self.label.setText(said)
        self.label.setToolTip(f"The progress bar beside: {said}" if said else "")
        self.label.setVisible(bool(said))
        self.bar.setVisible(bool(said))
        self.bar.setToolTip(said)


class KeepActive(QObject):
    """After one of the window's own dialogs closes, the window is active again, so that
    its shortcuts (Ctrl+1…6, Ctrl+S, Right) work at once: without a window manager (or
    with some), focus went nowhere until the window was clicked."""

    def __init__(self, window):
        super().__init__(window)
        from PySide6.QtGui import QGuiApplication

        self.window = window
        self._last = None
        QGuiApplication.instance().focusWindowChanged.connect(self.focus_moved)

    def focus_moved(self, focus) -> None:
        last, self._last = self._last, focus
        mine = self.window.windowHandle()
        if (focus is None and last is not None and mine is not None and last is not mine
                and last.transientParent() is mine and self.window.isVisible()):
            QTimer.singleShot(0, self.window.activateWindow)
