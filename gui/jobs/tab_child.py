"""What the Pitfalls and Rules tabs work out about the current program, in a child
process: the gradients under each classic bug, and the step-size lesson. Both grow with
the program (a second of pure Python at 20,000 nodes for the one, a third of a second at
5,000 for the other), so the window never does them itself past a few dozen nodes.

Each child is given the program's text, parses it again (the same program: the window's
own was parsed from the same text) and sends one record of plain data.
"""
# Qt-free: runs in a child process; tests/test_structure.py imports it alone and finds no Qt.

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.checks.central_difference import StepError, step_size_errors
from engine.checks.reference import reference_derivative
from engine.core.pitfalls import NO_SORT, NO_ZERO_GRAD, OVERWRITE
from engine.core.stepping import gradients_with

# up to this many nodes the window works either out itself (a few milliseconds): a
# child's start would take longer than the work
IN_PLACE_NODES = 64


@dataclass(frozen=True)
class BugGradients:
    """Each input's gradient (in the order of `names`) after the correct backward pass,
    under = for +=, without the topological sort, and after two passes without
    zero_grad."""

    names: tuple[str, ...]
    correct: tuple[float, ...]
    overwrite: tuple[float, ...]
    no_sort: tuple[float, ...]
    twice: tuple[float, ...]


def bug_gradients(program) -> BugGradients:
    """The four passes of the Pitfalls table, on copies of `program` (its own graph is
    not touched)."""
    correct = gradients_with(program)
    overwrite = gradients_with(program, OVERWRITE)
    no_sort = gradients_with(program, NO_SORT)
    twice = gradients_with(program, NO_ZERO_GRAD, passes=2)
    names = tuple(correct)
    return BugGradients(names, *(tuple(grads[n] for n in names)
                                 for grads in (correct, overwrite, no_sort, twice)))


def bug_gradients_of(text: str) -> Iterator[BugGradients]:
    """`bug_gradients` of the program `text` (the child's generator)."""
    from engine import parse

    yield bug_gradients(parse(text))


@dataclass(frozen=True)
class StepLesson:
    """The step-size lesson for the input `name`: the exact derivative (50-digit
    arithmetic), ours (autodiff), and the central difference's error at each step."""

    name: str
    exact: float
    ours: float
    rows: tuple[StepError, ...]


def step_lesson(program, name: str) -> StepLesson:
    """The step-size lesson of `program` for its input `name` (KeyError for another
    name); `program`'s own graph is not touched (the stepper owns its gradients)."""
    exact = reference_derivative(program, name)
    copy = program.rebuild()
    copy.output.backward()
    ours = copy.inputs[name].grad
    return StepLesson(name, exact, ours, tuple(step_size_errors(program, name, exact)))


def step_lesson_of(text: str, name: str) -> Iterator[StepLesson]:
    """`step_lesson` of the program `text` (the child's generator)."""
    from engine import parse

    yield step_lesson(parse(text), name)
