"""Sets the window up for a 'Show me': the right tab, the right program, the engine to
step it with and the step to stop at."""

from __future__ import annotations

from pathlib import Path

from engine.core.engines import CORRECT
from engine.core.pitfalls import OVERWRITE
from engine.core.stepping import first_wrong_step
from engine.lesson.learn.accumulation import CASES, ENGINES
from engine.lesson.learn.multiply_rule import LearnerMultiplyRule
from engine.lesson.nn import DEFAULT_ACTIVATION, DEFAULT_EPOCHS, DEFAULT_LR, DEFAULT_SEED
from gui.graph.editor import PRESETS

NEURON = "01-neuron.expr"
PRESET_FOR = {"idea": NEURON, "engine": "02-ab-plus-a.expr", "smallest": "02-ab-plus-a.expr",
              "chain": "03-tanh-chain.expr", "neuron": NEURON, "accumulate": "04-a-plus-a.expr",
              "move": NEURON, "overwrite": "04-a-plus-a.expr"}
TAB_FOR = {"rules": "Rules", "tensorflow": "Rules", "modes": "Modes", "pitfalls": "Pitfalls"}
# what the XOR Show me's demonstrate, whole: the lesson's run, and it with one hidden unit
XOR_LESSON = {"hidden": 2, "activation": DEFAULT_ACTIVATION, "seed": DEFAULT_SEED,
              "lr": DEFAULT_LR, "epochs": DEFAULT_EPOCHS}
XOR_SHOWN = {"xor": XOR_LESSON, "xor1": {**XOR_LESSON, "hidden": 1}}
XOR_FIELDS = (("hidden", "Hidden units"), ("activation", "Activation"), ("seed", "Seed"),
              ("lr", "η"), ("epochs", "Epochs"))
LEARNER_RULE = "your multiply rule"
UNDO_NOTE = "Ctrl+Z in the editor brings your text back"


def program_title(text: str) -> str:
    """A preset's program in a few words, from its first comment line: "the lesson's
    neuron" from '# The lesson's neuron: one tanh unit, ...'; for text without one,
    its statements on one line ('a = 3.0; b = a + a')."""
    first = text.split("\n", 1)[0].strip()
    if not first.startswith("#"):
        return "; ".join(line.strip() for line in text.splitlines() if line.strip())
    title = first.lstrip("#").strip().removeprefix("Our example: ")
    for end in (": ", " ("):
        title = title.split(end, 1)[0]
    return title[:1].lower() + title[1:] if title.startswith("The ") else title


def xor_settings(xor) -> dict:
    """The XOR tab's settings that a Show me sets (see XOR_FIELDS)."""
    return {"hidden": xor.hidden.value(), "activation": xor.activation.currentText(),
            "seed": xor.seed.value(), "lr": xor.lr.value(), "epochs": xor.epochs.value()}


def _shown(key: str, value) -> str:
    return f"{value:,}" if key == "epochs" else f"{value:g}" if key == "lr" else str(value)


def set_xor(xor, wanted: dict) -> str:
    """Set the XOR tab to `wanted` (xor_settings' keys); returns what changed, in words:
    'Hidden units 5 → 2, Activation relu → tanh'."""
    before = xor_settings(xor)
    xor.hidden.setValue(wanted["hidden"])
    xor.activation.setCurrentText(wanted["activation"])
    xor.seed.setValue(wanted["seed"])
    xor.lr.setValue(wanted["lr"])
    xor.epochs.setValue(wanted["epochs"])
    return ", ".join(f"{label} {_shown(key, before[key])} → {_shown(key, wanted[key])}"
                     for key, label in XOR_FIELDS if before[key] != wanted[key])


class Director:
    """Drives `window` (the MainWindow) for the Learn tab."""

    def __init__(self, window):
        self.window = window
        self.replaced = False  # whether the last program opened replaced the editor's text
        self._xor_note = ""  # said again with the XOR run's verdict, which replaces it
        self._xor_heard = False
        self.saved_xor: dict | None = None  # the learner's XOR settings before a Show me
        self.saved_listeners: list = []  # called with whether there is something to restore

    @property
    def session(self):
        return self.window.session

    def show(self, action: str) -> None:
        """Carry out one of the sections' 'Show me' actions (content.ShowMe.action); one
        that changes the program or a setting says so in the status bar."""
        if action == "modes":  # the timing itself, started if there is none yet
            self.show_tab("Modes")
            modes = self.window.modes_tab
            if not modes.rows and not modes.running:
                modes.start_sweep()
                self.window.show_status("Show me: timing both modes from 2 to 1,600 "
                                        "parameters in the Modes tab (Cancel stops it)")
            return
        if action in TAB_FOR:
            self.show_tab(TAB_FOR[action])
            return
        if action in XOR_SHOWN:
            self.show_xor(action)
            return
        engine = OVERWRITE if action == "overwrite" else CORRECT
        note = self.open_graph(PRESETS / PRESET_FOR[action], engine)
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
        self.window.show_status(f"Show me: {note}.")

    def show_xor(self, action: str) -> None:
        """The XOR tab set to the whole configuration the Show me demonstrates, trained;
        the learner's own settings are kept for `restore_xor`."""
        self.show_tab("XOR")
        xor = self.window.xor_tab
        mine = xor_settings(xor)
        if self.saved_xor is None:  # a second Show me keeps the learner's, not the first's
            self.saved_xor = mine
        wanted = XOR_SHOWN[action]
        changed = set_xor(xor, wanted)
        xor.reset()
        xor.start()
        what = ("the lesson's 2-2-1 tanh network" if action == "xor"
                else "the lesson's network with one hidden unit (2-1-1 tanh)")
        note = f"Show me: the XOR tab trains {what}, seed 0, η = 0.1, 3,000 epochs"
        if changed:
            note += f" (set: {changed}; Restore my settings in the Learn tab brings yours back)"
        self.window.show_status(f"{note}; training…")
        # a run of 3,000 epochs ends within a second: its verdict gets the note too
        self._xor_note = note + "."
        if not self._xor_heard:
            xor.status.connect(self._on_xor_status)
            self._xor_heard = True
        self.xor_saved_changed()

    def restore_xor(self) -> str:
        """Put back the XOR settings the learner had before the first Show me; returns
        what was put back, in words ('' if nothing was kept)."""
        if self.saved_xor is None:
            return ""
        xor = self.window.xor_tab
        if xor.running:
            xor.stop()
        changed = set_xor(xor, self.saved_xor)
        self.saved_xor = None
        xor.reset()
        self.xor_saved_changed()
        message = f"Your XOR settings are back ({changed or 'they were the same'})."
        self.window.show_status(message)
        return message

    def xor_saved_changed(self) -> None:
        """Tell the listeners (the Learn tab's Restore button) whether there are XOR
        settings to restore."""
        for listener in self.saved_listeners:
            listener(self.saved_xor is not None)

    def _on_xor_status(self, text: str) -> None:
        """The XOR tab's next word after 'Training XOR…' (its verdict, as a rule), with
        the note of what the Show me changed in front."""
        if self._xor_note and not text.startswith("Training XOR"):
            note, self._xor_note = self._xor_note, ""
            self.window.show_status(f"{note} {text}")

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
        """Step with `engine` (see engine.core.engines): the correct one, a classic bug, or a
        LearnerMultiplyRule, which gets an entry of its own in the Engine box."""
        combo = self.window.graph_tab.engine_box
        if isinstance(engine, LearnerMultiplyRule):
            index = combo.findText(LEARNER_RULE)
            if index < 0:
                combo.addItem(LEARNER_RULE, engine)
                index = combo.count() - 1
            combo.setItemData(index, engine)
        else:
            index = next(i for i in range(combo.count()) if combo.itemData(i) == engine)
        if combo.currentIndex() == index:
            self.session.set_engine(engine)  # new data in the same entry
        else:
            combo.setCurrentIndex(index)

    def open_graph(self, path, engine=CORRECT) -> str:
        """Open a preset with `engine`; returns what the editor now holds, in words (see
        `open_text`)."""
        text = Path(path).read_text(encoding="utf-8")
        return self.open_text(text, engine, program_title(text))

    def open_text(self, text: str, engine=CORRECT, title: str = "") -> str:
        """Put `text` in the editor, undoably, and build it with `engine`. Returns what
        the editor now holds for the status bar: 'the editor now holds the lesson's
        neuron (Ctrl+Z in the editor brings your text back)'."""
        self.set_engine(engine)
        editor = self.window.editor
        replaced = self.replaced = editor.text() != text
        self.window.load_program(text)  # Ctrl+Z brings back what was there
        what = title or program_title(text)
        if not replaced:
            return f"the editor holds {what}, as it did"
        return f"the editor now holds {what} ({UNDO_NOTE})"

    def step_with_rule(self, rule: LearnerMultiplyRule) -> int | None:
        """The lesson's neuron stepped with the learner's multiply rule, stopped at the
        first wrong step (red), or at the end if none is wrong; returns that step's
        index among the backward steps, or None."""
        note = self.open_graph(PRESETS / NEURON, rule)
        stepper = self.session.stepper
        wrong = first_wrong_step(stepper.backward_steps)
        if wrong is None:
            self.session.run_to_end()
        else:
            self.session.seek(len(stepper.forward_steps) + wrong + 1)
        self.show_graph()
        self.window.show_status(f"Stepped with your multiply rule: {note}.")
        return wrong

    def accumulate(self, case: str, engine: str, position: int) -> None:
        """`case` stepped with `engine` ('+=' or '='), stopped at `position`: the next
        step delivers a's last path."""
        note = self.open_text(CASES[case], ENGINES[engine])
        self.session.seek(position)
        self.show_graph()
        self.window.show_status(f"Show me the step: {note}.")
