"""The lesson's five questions, four options each, answered with immediate feedback."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QButtonGroup,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from gui.tabs.learn.common import Feedback
from gui.tabs.learn.content import QUESTIONS


class _OptionText(QLabel):
    """An option's words, wrapped; a click on them chooses the option."""

    def __init__(self, text: str, radio: QRadioButton, parent=None):
        super().__init__(text, parent)
        self.radio = radio
        self.setWordWrap(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def mousePressEvent(self, event) -> None:
        self.radio.click()


class Quiz(QWidget):
    """`answered(question, option)` fires on every choice; `radio(q, o)` is the button."""

    answered = Signal(int, int)

    def __init__(self, answers: dict[int, int] | None = None, parent=None):
        super().__init__(parent)
        self.setObjectName("quiz")
        self.groups: list[QButtonGroup] = []
        self.feedback: list[Feedback] = []
        self.answers: dict[int, int] = {}
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        for q, question in enumerate(QUESTIONS):
            frame = QGroupBox(f"Question {q + 1} of {len(QUESTIONS)}", self)
            inner = QVBoxLayout(frame)
            text = QLabel(question.text, frame)
            text.setWordWrap(True)
            font = text.font()
            font.setBold(True)
            text.setFont(font)
            inner.addWidget(text)
            group = QButtonGroup(frame)
            for o, option in enumerate(question.options):
                # a radio button does not wrap its text: the option is a label beside it
                radio = QRadioButton(f"{'ABCD'[o]}.", frame)
                radio.setToolTip("Choose this answer: the verdict appears at once")
                words = _OptionText(option, radio, frame)
                group.addButton(radio, o)
                row = QHBoxLayout()
                row.addWidget(radio, 0, Qt.AlignmentFlag.AlignTop)
                row.addWidget(words, 1)
                inner.addLayout(row)
            group.idClicked.connect(lambda o, q=q: self.choose(q, o))
            note = Feedback(frame)
            inner.addWidget(note)
            self.groups.append(group)
            self.feedback.append(note)
            box.addWidget(frame)
        self.score = QLabel(self)
        self.score.setObjectName("quiz_score")
        box.addWidget(self.score)
        for q, o in (answers or {}).items():
            self.choose(q, o, quiet=True)
        self._update_score()

    def radio(self, q: int, o: int) -> QRadioButton:
        return self.groups[q].button(o)

    @Slot()
    def choose(self, q: int, o: int, quiet: bool = False) -> None:
        question = QUESTIONS[q]
        self.answers[q] = o
        button = self.groups[q].button(o)
        if not button.isChecked():
            button.setChecked(True)
        letter = "ABCD"[question.right]
        if o == question.right:
            self.feedback[q].right(f"Right. {question.explanation}")
        else:
            self.feedback[q].wrong(f"Not quite: the answer is {letter}. "
                                   f"{question.explanation}")
        self._update_score()
        if not quiet:
            self.answered.emit(q, o)

    @property
    def right_answers(self) -> int:
        return sum(QUESTIONS[q].right == o for q, o in self.answers.items())

    def _update_score(self) -> None:
        self.score.setText(f"{self.right_answers} of {len(QUESTIONS)} right"
                           f" ({len(self.answers)} answered).")
