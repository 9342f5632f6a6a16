"""The main window's tabs other than the Graph tab, each made the first time it is shown
or asked for (a mixin of MainWindow): pyqtgraph and numpy are imported then, not at
start-up. A tab shown by the user fills in over a few turns of the event loop (its
`filling`), the status bar saying so; one asked for by name (`rules_tab`…) is whole."""

from __future__ import annotations

from PySide6.QtCore import QTimer


class WindowTabs:
    """`rules_tab`, `modes_tab`, `xor_tab`, `pitfalls_tab`, `learn_tab` (MainWindow's:
    they are connected to its session, checker and status bar)."""

    def _make_rules_tab(self):
        from gui.tabs.rules import RulesTab

        return self._say_filling(RulesTab(self.session, self.checker, self), "Rules")

    def _say_filling(self, tab, title: str):
        """While `tab` fills, the status bar says so (kept for that tab: see StatusMemory);
        the words go when it is whole."""
        filling = getattr(tab, "filling", None)
        if filling is None or not filling.running:
            return tab
        message, memory = f"Opening the {title} tab…", self.status_memory

        def opening() -> None:  # once the tab is in its place, in front
            if filling.running and self.tabs.currentWidget() is tab:
                memory.say(message)

        def whole() -> None:
            for key, said in list(memory.said.items()):
                if said == message:
                    memory.said[key] = ""
            if self.statusBar().currentMessage() == message:
                self.statusBar().clearMessage()

        QTimer.singleShot(0, opening)
        filling.done.connect(whole)
        return tab

    def _make_modes_tab(self):
        from gui.tabs.modes import ModesTab

        tab = ModesTab(self)
        tab.status.connect(self.show_status)
        return self._say_filling(tab, "Modes")

    def _make_xor_tab(self):
        from gui.tabs.xor import XorTab

        tab = XorTab(self)
        tab.status.connect(self.show_status)
        return tab

    def _make_pitfalls_tab(self):
        from gui.tabs.pitfalls import PitfallsTab

        tab = PitfallsTab(self.session, self)
        tab.preset_requested.connect(self.open_preset)
        return self._say_filling(tab, "Pitfalls")

    def _make_learn_tab(self):
        from gui.tabs.learn.director import Director
        from gui.tabs.learn.tab import LearnTab

        return LearnTab(Director(self), self.settings if self.remember else None,
                        self.gradient_stepper, self.code_copier, self.checker, self)

    @property
    def learn_tab(self):
        return self.lazy_tabs.tab("Learn")

    @property
    def rules_tab(self):
        return _whole(self.lazy_tabs.tab("Rules"))

    @property
    def modes_tab(self):
        return _whole(self.lazy_tabs.tab("Modes"))

    @property
    def xor_tab(self):
        return self.lazy_tabs.tab("XOR")

    @property
    def pitfalls_tab(self):
        return _whole(self.lazy_tabs.tab("Pitfalls"))


def _whole(tab):
    """`tab` with every piece made (what asks for it by name reads or draws it now)."""
    if getattr(tab, "filling", None) is not None:
        tab.filling.finish()
    return tab
