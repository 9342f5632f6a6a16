"""The Learn tab: the lesson's sections in order, each with its words, its 'Show me'
buttons and its exercise; progress remembered between sessions."""
# size: __init__ lays out the tab's widgets top to bottom, in the order they show

from __future__ import annotations

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from gui.tabs.learn.content import EXERCISES, QUESTIONS, SECTIONS
from gui.tabs.learn.exercises.accumulation import AccumulateExercise
from gui.tabs.learn.exercises.frameworks import FrameworksExercise
from gui.tabs.learn.exercises.long_chain import ChainExercise
from gui.tabs.learn.exercises.multiply_rule import MultiplyExercise
from gui.tabs.learn.exercises.one_step import StepExercise
from gui.tabs.learn.exercises.pass_count import PassesExercise
from gui.tabs.learn.progress import LearnProgress
from gui.tabs.learn.quiz import Quiz


class LearnTab(QWidget):
    """`director` drives the window for 'Show me' (None: the buttons do nothing);
    `settings` keeps the progress (None: nothing is remembered)."""

    def __init__(self, director=None, settings=None, stepper=None, copier=None,
                 checker=None, parent=None):
        super().__init__(parent)
        self.director = director
        self.progress = LearnProgress(settings)
        self.exercises = {}
        makers = {
            "multiply": lambda: MultiplyExercise(director, self),
            "chain": lambda: ChainExercise(director, self),
            "accumulate": lambda: AccumulateExercise(director, self.progress.predicted, self),
            "step": lambda: StepExercise(director, stepper, self),
            "frameworks": lambda: FrameworksExercise(director, copier, checker, self),
            "passes": lambda: PassesExercise(director, self),
        }
        self.sections = QListWidget(self)
        self.sections.setObjectName("learn_sections")
        self.sections.setSpacing(3)
        self.sections.setToolTip("The lesson's sections in order; ✓ marks those seen and "
                                 "the exercises solved")
        self.pages = QStackedWidget(self)
        self.show_buttons: dict[str, QPushButton] = {}
        self.restore: QPushButton | None = None
        self.quiz: Quiz | None = None
        for section in SECTIONS:
            self.sections.addItem(section.title)  # numbered and marked by _update_marks
            page = QWidget(self)
            page.setMaximumWidth(1150)  # lines of text a reader can follow
            box = QVBoxLayout(page)
            title = QLabel(section.title, page)
            font = title.font()
            font.setPointSizeF(font.pointSizeF() * 1.5)
            font.setBold(True)
            title.setFont(font)
            box.addWidget(title)
            body = QLabel(section.body.strip(), page)
            body.setWordWrap(True)
            body.setTextFormat(Qt.TextFormat.RichText)
            body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            box.addWidget(body)
            if section.show_me:
                row = QHBoxLayout()
                for show in section.show_me:
                    button = QPushButton(show.text, page)
                    button.setToolTip(show.tip)
                    button.setObjectName(f"show_{show.action}")
                    button.clicked.connect(lambda checked=False, a=show.action: self.show_me(a))
                    button.setEnabled(director is not None)
                    row.addWidget(button)
                    self.show_buttons[show.action] = button
                if any(show.action.startswith("xor") for show in section.show_me):
                    row.addWidget(self._restore_button(page))
                row.addStretch(1)
                box.addLayout(row)
            if section.exercise == "quiz":
                self.quiz = Quiz(self.progress.answers, self.progress.order_seed, page)
                self.quiz.answered.connect(self._on_answered)
                box.addWidget(self.quiz)
            elif section.exercise:
                exercise = makers[section.exercise]()
                exercise.setParent(page)
                if section.exercise in self.progress.solved:
                    exercise.is_solved = True
                exercise.solved.connect(self._on_solved)
                if section.exercise == "accumulate":
                    exercise.predicted_right.connect(self._on_predicted)
                self.exercises[section.exercise] = exercise
                box.addWidget(exercise)
            box.addStretch(1)
            scroll = QScrollArea(self)
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QFrame.Shape.NoFrame)
            scroll.setWidget(page)
            self.pages.addWidget(scroll)

        self.previous = QPushButton("◀ Previous", self)
        self.next = QPushButton("Next ▶", self)
        for button, shortcut, step, tip in ((self.previous, "Alt+PgUp", -1, "Previous section"),
                                            (self.next, "Alt+PgDown", 1, "Next section")):
            action = QAction(tip, self)
            action.setShortcut(QKeySequence(shortcut))
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.triggered.connect(lambda checked=False, s=step: self.go(s))
            self.addAction(action)
            button.setToolTip(f"{tip} ({shortcut})")
            button.clicked.connect(lambda checked=False, s=step: self.go(s))
        self.summary = QLabel(self)
        self.summary.setObjectName("learn_summary")
        nav = QHBoxLayout()
        nav.addWidget(self.previous)
        nav.addWidget(self.next)
        nav.addSpacing(12)
        nav.addWidget(self.summary, 1)
        right = QWidget(self)
        rbox = QVBoxLayout(right)
        rbox.setContentsMargins(0, 0, 0, 0)
        rbox.addWidget(self.pages, 1)
        rbox.addLayout(nav)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(self.sections)
        split.addWidget(right)
        split.setStretchFactor(1, 1)
        split.setSizes([300, 1100])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(split)
        self.sections.currentRowChanged.connect(self._on_section)
        self.sections.setCurrentRow(self.progress.section)
        self._on_section(self.progress.section)

    # -- moving about -----------------------------------------------------------------------

    @property
    def current(self) -> int:
        return self.sections.currentRow()

    def go(self, step: int) -> None:
        row = max(0, min(len(SECTIONS) - 1, self.current + step))
        self.sections.setCurrentRow(row)

    def open_section(self, key: str) -> None:
        self.sections.setCurrentRow(next(i for i, s in enumerate(SECTIONS) if s.key == key))

    @Slot(int)
    def _on_section(self, row: int) -> None:
        if row < 0:
            return
        self.pages.setCurrentIndex(row)
        self.progress.section = row
        self.progress.seen.add(SECTIONS[row].key)
        self.previous.setEnabled(row > 0)
        self.next.setEnabled(row < len(SECTIONS) - 1)
        self._update_marks()

    def _restore_button(self, page: QWidget) -> QPushButton:
        """'Restore my settings': the XOR settings the learner had before a Show me."""
        button = self.restore = QPushButton("Restore my settings", page)
        button.setObjectName("restore_xor")
        button.setToolTip("Put the XOR tab's settings back as they were before the Show me "
                          "changed them")
        button.setEnabled(False)
        if self.director is not None:
            button.clicked.connect(self.director.restore_xor)
            self.director.saved_listeners.append(button.setEnabled)
        return button

    @Slot(str)
    def show_me(self, action: str) -> None:
        if self.director is not None:
            self.director.show(action)

    # -- progress ---------------------------------------------------------------------------

    @Slot(str)
    def _on_solved(self, key: str) -> None:
        self.progress.solved.add(key)
        self._update_marks()

    @Slot(str, str)
    def _on_predicted(self, case: str, engine: str) -> None:
        self.progress.predicted.add((case, engine))
        self.progress.save()

    @Slot(int, int)
    def _on_answered(self, q: int, o: int) -> None:
        self.progress.answers[q] = o
        self._update_marks()

    def _update_marks(self) -> None:
        p = self.progress
        for i, section in enumerate(SECTIONS):
            done = section.key in p.seen
            if section.exercise == "quiz":
                done = p.right_answers == len(QUESTIONS)
            elif section.exercise:
                done = section.exercise in p.solved
            self.sections.item(i).setText(f"{i + 1}. {section.title}" + ("  ✓" if done else ""))
        self.summary.setText(
            f"Section {self.current + 1} of {len(SECTIONS)} · "
            f"{len(p.solved)} of {len(EXERCISES)} exercises solved · "
            f"quiz {p.right_answers} of {len(QUESTIONS)} right")
        p.save()

    def stop(self) -> None:
        """End background work (the window is closing)."""
        self.exercises["passes"].stop()
