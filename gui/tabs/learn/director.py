"""Sets the window up for a 'Show me': the right tab, the right program, the engine to
step it with and the step to stop at."""

from __future__ import annotations

from engine.learn.accumulation import CASES, ENGINES
from engine.learn.multiply_rule import LearnerMultiplyRule
from engine.pitfalls import OVERWRITE
from engine.stepping import first_wrong_step
from gui.graph.editor import PRESETS

NEURON = "01-neuron.expr"
PRESET_FOR = {"idea": NEURON, "engine": "02-ab-plus-a.expr", "smallest": "02-ab-plus-a.expr",
              "chain": "03-tanh-chain.expr", "neuron": NEURON, "accumulate": "04-a-plus-a.expr",
              "move": NEURON, "overwrite": "04-a-plus-a.expr"}
TAB_FOR = {"rules": "Rules", "tensorflow": "Rules", "modes": "Modes", "xor": "XOR",
           "pitfalls": "Pitfalls"}
LEARNER_RULE = "your multiply rule"


class Director:
    """Drives `window` (the MainWindow) for the Learn tab."""

    def __init__(self, window):
        self.window = window

    @property
    def session(self):
        return self.window.session

    def show(self, action: str) -> None:
        """Carry out one of the sections' 'Show me' actions (content.ShowMe.action)."""
        if action in TAB_FOR:
            self.show_tab(TAB_FOR[action])
            return
        if action == "xor1":  # one hidden unit: a single line cannot separate XOR
            self.show_tab("XOR")
            xor = self.window.xor_tab
            xor.hidden.setValue(1)  # resets the run
            xor.start()
            return
        engine = OVERWRITE if action == "overwrite" else None
        self.open_graph(PRESETS / PRESET_FOR[action], engine)
        stepper = self.session.stepper
        n_forward = len(stepper.forward_steps)
        if action == "idea":
            self.session.seek(n_forward)
        elif action == "engine":
            self.session.seek(n_forward + 2)  # dL/dL = 1, then the first rule
        elif action == "accumulate":
            self.session.seek(n_forward + 1)
        elif action == "move":
            self.session.reset()
            self.window.graph_tab.actions["play"].setChecked(True)
        else:
            self.session.run_to_end()
        self.show_graph()

    def show_tab(self, title: str) -> None:
        tabs = self.window.tabs
        tabs.setCurrentWidget(self.window.lazy_tabs.tab(title))

    def show_graph(self, whole: bool = False) -> None:
        """Bring the Graph tab forward, the keyboard on the graph. With `whole`, fit
        the whole graph in view, even below the size it is readable at (as after a
        gradient step, where what matters is the new output at the right end)."""
        self.window.tabs.setCurrentWidget(self.window.graph_tab)
        if whole:
            self.window.graph_tab.view.fit()
        self.window.graph_tab.focus_graph()

    def set_engine(self, engine) -> None:
        """Step with `engine`: None (the correct one), a pitfall's name, or a
        LearnerMultiplyRule, which gets an entry of its own in the Engine box."""
        combo = self.window.graph_tab.bug
        if isinstance(engine, LearnerMultiplyRule):
            index = combo.findText(LEARNER_RULE)
            if index < 0:
                combo.addItem(LEARNER_RULE, engine)
                index = combo.count() - 1
            combo.setItemData(index, engine)
        else:
            index = next(i for i in range(combo.count()) if combo.itemData(i) == engine)
        if combo.currentIndex() == index:
            self.session.set_pitfall(engine)  # new data in the same entry
        else:
            combo.setCurrentIndex(index)

    def open_graph(self, path, engine=None) -> None:
        """Open a preset (or program text, for a str without a file) with `engine`."""
        self.set_engine(engine)
        self.window.open_preset(str(path))

    def open_text(self, text: str, engine=None) -> None:
        self.set_engine(engine)
        self.window.editor.set_text(text)
        self.window.file_path = None
        self.window.build(text)
        self.window._set_title()

    def step_with_rule(self, rule: LearnerMultiplyRule) -> int | None:
        """The lesson's neuron stepped with the learner's multiply rule, stopped at the
        first wrong step (red), or at the end if none is wrong; returns that step's
        index among the backward steps, or None."""
        self.open_graph(PRESETS / NEURON, rule)
        stepper = self.session.stepper
        wrong = first_wrong_step(stepper.backward_steps)
        if wrong is None:
            self.session.run_to_end()
        else:
            self.session.seek(len(stepper.forward_steps) + wrong + 1)
        self.show_graph()
        return wrong

    def accumulate(self, case: str, engine: str, position: int) -> None:
        """`case` stepped with `engine` ('+=' or '='), stopped at `position`: the next
        step delivers a's last path."""
        self.open_text(CASES[case], ENGINES[engine])
        self.session.seek(position)
        self.show_graph()
