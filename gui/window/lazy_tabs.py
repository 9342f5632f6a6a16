"""The main window's tabs other than the Graph tab, each made the first time it is shown
or asked for (a mixin of MainWindow): pyqtgraph and numpy are imported then, not at
start-up."""

from __future__ import annotations


class WindowTabs:
    """`rules_tab`, `modes_tab`, `xor_tab`, `pitfalls_tab`, `learn_tab` (MainWindow's:
    they are connected to its session, checker and status bar)."""

    def _make_rules_tab(self):
        from gui.tabs.rules import RulesTab

        return RulesTab(self.session, self.checker, self)

    def _make_modes_tab(self):
        from gui.tabs.modes import ModesTab

        tab = ModesTab(self)
        tab.status.connect(self.show_status)
        return tab

    def _make_xor_tab(self):
        from gui.tabs.xor import XorTab

        tab = XorTab(self)
        tab.status.connect(self.show_status)
        return tab

    def _make_pitfalls_tab(self):
        from gui.tabs.pitfalls import PitfallsTab

        tab = PitfallsTab(self.session, self)
        tab.preset_requested.connect(self.open_preset)
        return tab

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
        return self.lazy_tabs.tab("Rules")

    @property
    def modes_tab(self):
        return self.lazy_tabs.tab("Modes")

    @property
    def xor_tab(self):
        return self.lazy_tabs.tab("XOR")

    @property
    def pitfalls_tab(self):
        return self.lazy_tabs.tab("Pitfalls")
