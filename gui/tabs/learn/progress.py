"""What the learner has done, kept in QSettings: the section open, the sections seen,
the exercises solved, the combinations predicted right in exercise 3, the quiz's first
answers and the order its options are shown in. Whatever is read back is checked: a value of
the wrong type, out of range or unknown falls back to the default, never an error."""
# Qt-free: what the learner has done, kept in settings: plain data (tests/test_structure.py).

from __future__ import annotations

import random

from engine.lesson.learn.accumulation import CASES, ENGINES
from gui.tabs.learn.content import EXERCISES, QUESTIONS, SECTION_KEYS

PREFIX = "learn/"
COMBINATIONS = tuple((case, engine) for case in CASES for engine in ENGINES)


def parse_section(value) -> int:
    """A section index read back, 0 if it is not one."""
    try:
        index = int(str(value).strip())
    except (TypeError, ValueError):
        return 0
    return index if 0 <= index < len(SECTION_KEYS) else 0


def parse_keys(value, known) -> set[str]:
    """A comma-separated list read back, keeping only the known keys."""
    if isinstance(value, (list, tuple)):
        items = value
    elif isinstance(value, str):
        items = value.split(",")
    else:
        return set()
    return {str(k).strip() for k in items if str(k).strip() in known}


def parse_answers(value) -> dict[int, int]:
    """'question:option' pairs read back, e.g. '0:2,3:1'; bad pairs are dropped."""
    if isinstance(value, (list, tuple)):
        value = ",".join(str(v) for v in value)
    if not isinstance(value, str):
        return {}
    answers = {}
    for pair in value.split(","):
        q, _, option = pair.partition(":")
        try:
            q_index, o_index = int(q), int(option)
        except ValueError:
            continue
        if 0 <= q_index < len(QUESTIONS) and 0 <= o_index < len(QUESTIONS[q_index].options):
            answers[q_index] = o_index
    return answers


def option_order(seed: int, q: int) -> list[int]:
    """The order question `q`'s options are shown in for the learner whose quiz order is
    `seed`: a permutation of the option indices, the same every time for that learner."""
    order = list(range(len(QUESTIONS[q].options)))
    random.Random(f"quiz {seed} {q}").shuffle(order)  # a str seeds the same in every run
    return order


def parse_seed(value) -> int | None:
    """A learner's quiz order read back (a positive int), None if it is not one."""
    try:
        seed = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return seed if 0 < seed < 2**31 else None


def parse_predicted(value) -> set[tuple[str, str]]:
    """Exercise 3's combinations predicted right, read back from 'case|engine' items
    ('a + a|+=,a * a|='); unknown ones are dropped."""
    if isinstance(value, (list, tuple)):
        items = [str(v) for v in value]
    elif isinstance(value, str):
        items = value.split(",")
    else:
        return set()
    pairs = {tuple(item.strip().split("|", 1)) for item in items}
    return {p for p in COMBINATIONS if p in pairs}


class LearnProgress:
    """The learner's progress, read from and written to `settings` (a QSettings, or
    None to remember nothing)."""

    def __init__(self, settings=None):
        self.settings = settings
        self.section = 0
        self.seen: set[str] = set()
        self.solved: set[str] = set()
        self.answers: dict[int, int] = {}
        self.predicted: set[tuple[str, str]] = set()  # exercise 3: (case, engine)
        self.order_seed = 0  # the quiz's option order; a learner who is remembered gets one
        if settings is not None:
            seed = parse_seed(settings.value(PREFIX + "quiz_order", ""))
            self.order_seed = seed or random.SystemRandom().randrange(1, 2**31)
            self.section = parse_section(settings.value(PREFIX + "section", 0))
            self.seen = parse_keys(settings.value(PREFIX + "seen", ""), SECTION_KEYS)
            self.solved = parse_keys(settings.value(PREFIX + "solved", ""), EXERCISES)
            self.answers = parse_answers(settings.value(PREFIX + "quiz", ""))
            self.predicted = parse_predicted(settings.value(PREFIX + "predicted", ""))

    @property
    def right_answers(self) -> int:
        return sum(QUESTIONS[q].right == o for q, o in self.answers.items())

    def save(self) -> None:
        if self.settings is None:
            return
        s = self.settings
        s.setValue(PREFIX + "section", self.section)
        s.setValue(PREFIX + "seen", ",".join(k for k in SECTION_KEYS if k in self.seen))
        s.setValue(PREFIX + "solved", ",".join(k for k in EXERCISES if k in self.solved))
        s.setValue(PREFIX + "quiz_order", self.order_seed)
        s.setValue(PREFIX + "quiz", ",".join(f"{q}:{o}" for q, o in sorted(self.answers.items())))
        s.setValue(PREFIX + "predicted", ",".join(f"{case}|{engine}" for case, engine
                                                  in COMBINATIONS if (case, engine)
                                                  in self.predicted))
        s.sync()
