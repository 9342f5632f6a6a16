"""The lesson's five questions, four options each. The first answer to a question is the
one that counts; after a wrong one the learner may try once more (the score stays) or see
the answer. The reason is shown only once a question is answered, and the options come in
an order of the learner's own (`option_order`)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QButtonGroup,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from gui.tabs.learn.common import Feedback
from gui.tabs.learn.content import QUESTIONS
from gui.tabs.learn.progress import option_order

LETTERS = "ABCD"


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
    """`answered(question, option)` fires on a question's first answer, the one that
    counts; `radio(q, o)` is the button of option `o` (an index into the question's
    options, whatever letter it is shown under)."""

    answered = Signal(int, int)

    def __init__(self, answers: dict[int, int] | None = None, order_seed: int = 0,
                 parent=None):
        super().__init__(parent)
        self.setObjectName("quiz")
        self.groups: list[QButtonGroup] = []
        self.feedback: list[Feedback] = []
        self.try_again: list[QPushButton] = []
        self.show_answer: list[QPushButton] = []
        self.orders = [option_order(order_seed, q) for q in range(len(QUESTIONS))]
        self.answers: dict[int, int] = {}   # the first answers: the score
        self.retrying: set[int] = set()     # questions open for one more try
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        for q, question in enumerate(QUESTIONS):
            box.addWidget(self._question(q, question))
        self.score = QLabel(self)
        self.score.setObjectName("quiz_score")
        box.addWidget(self.score)
        for q, o in (answers or {}).items():
            self.choose(q, o, quiet=True)
        self._update_score()

    def _question(self, q: int, question) -> QGroupBox:
        frame = QGroupBox(f"Question {q + 1} of {len(QUESTIONS)}", self)
        inner = QVBoxLayout(frame)
        text = QLabel(question.text, frame)
        text.setWordWrap(True)
        font = text.font()
        font.setBold(True)
        text.setFont(font)
        inner.addWidget(text)
        group = QButtonGroup(frame)
        for position, o in enumerate(self.orders[q]):
            # a radio button does not wrap its text: the option is a label beside it
            radio = QRadioButton(f"{LETTERS[position]}.", frame)
            radio.setToolTip("Choose this answer: your first answer is the one that counts")
            group.addButton(radio, o)
            row = QHBoxLayout()
            row.addWidget(radio, 0, Qt.AlignmentFlag.AlignTop)
            row.addWidget(_OptionText(question.options[o], radio, frame), 1)
            inner.addLayout(row)
        group.idClicked.connect(lambda o, q=q: self.choose(q, o))
        note = Feedback(frame)
        inner.addWidget(note)
        buttons = QHBoxLayout()
        again = QPushButton("Try again", frame)
        again.setToolTip("Answer this question once more; the score keeps your first answer")
        again.clicked.connect(lambda _=False, q=q: self.retry(q))
        reveal = QPushButton("Show the answer", frame)
        reveal.setToolTip("Show the right answer and why")
        reveal.clicked.connect(lambda _=False, q=q: self.reveal(q))
        for button in (again, reveal):
            button.hide()
            buttons.addWidget(button)
        buttons.addStretch(1)
        inner.addLayout(buttons)
        self.groups.append(group)
        self.feedback.append(note)
        self.try_again.append(again)
        self.show_answer.append(reveal)
        return frame

    def radio(self, q: int, o: int) -> QRadioButton:
        return self.groups[q].button(o)

    def letter(self, q: int, o: int) -> str:
        """The letter option `o` of question `q` is shown under."""
        return LETTERS[self.orders[q].index(o)]

    @Slot()
    def choose(self, q: int, o: int, quiet: bool = False) -> None:
        """Answer question `q` with option `o`: its first answer, or its one more try."""
        if q in self.answers and q not in self.retrying:
            return  # answered: only Try again opens it
        button = self.groups[q].button(o)
        if not button.isChecked():
            button.setChecked(True)
        question = QUESTIONS[q]
        first = q not in self.answers
        if first:
            self.answers[q] = o
            if o == question.right:
                self.feedback[q].right(f"Right. {question.explanation}")
            else:
                self.feedback[q].wrong(
                    "Not quite. Your first answer is the one that counts: Try again to "
                    "find the right one (the score stays), or Show the answer.")
        else:
            self.retrying.discard(q)
            counted = self.letter(q, self.answers[q])
            if o == question.right:
                self.feedback[q].right(f"Right this time (your first answer, {counted}, is "
                                       f"the one that counts). {question.explanation}")
            else:
                self._answer(q, f"Not quite again: the answer is "
                                f"{self.letter(q, question.right)}.")
        self._lock(q)
        self._update_score()
        if first and not quiet:
            self.answered.emit(q, o)

    def retry(self, q: int) -> None:
        """Open question `q` for one more answer; its score stays its first answer's."""
        self.retrying.add(q)
        group = self.groups[q]
        group.setExclusive(False)
        for button in group.buttons():
            button.setChecked(False)
            button.setEnabled(True)
        group.setExclusive(True)
        self.feedback[q].say("Choose once more: this answer does not change the score.")
        self.try_again[q].hide()
        self.show_answer[q].hide()

    def reveal(self, q: int) -> None:
        """Show question `q`'s right answer and its reason."""
        self.retrying.discard(q)
        self._answer(q, f"The answer is {self.letter(q, QUESTIONS[q].right)}.")
        self._lock(q)

    def _answer(self, q: int, lead: str) -> None:
        self.feedback[q].wrong(f"{lead} {QUESTIONS[q].explanation}")
        self.try_again[q].hide()
        self.show_answer[q].hide()

    def _lock(self, q: int) -> None:
        open_ = q in self.retrying
        for button in self.groups[q].buttons():
            button.setEnabled(open_)
        wrong_first = self.answers.get(q) != QUESTIONS[q].right
        unrevealed = self.feedback[q].plain.startswith("Not quite. Your first")
        self.try_again[q].setVisible(wrong_first and unrevealed)
        self.show_answer[q].setVisible(wrong_first and unrevealed)

    @property
    def right_answers(self) -> int:
        return sum(QUESTIONS[q].right == o for q, o in self.answers.items())

    def _update_score(self) -> None:
        self.score.setText(f"{self.right_answers} of {len(QUESTIONS)} right at the first "
                           f"answer ({len(self.answers)} answered).")
