"""A replaced program and its stepper are let go of a slice at a time, and only once
nothing else holds them."""

import weakref

from engine import parse
from engine.core.stepping import Stepper
from gui.jobs import disposal as disposal_module
from gui.jobs.disposal import Disposal
from tests.gui.test_background_layout import chain


def _drain(disposal: Disposal, qtbot) -> None:
    qtbot.waitUntil(lambda: disposal.pending == 0, timeout=30_000)


def test_a_replaced_program_and_stepper_are_freed(window, qtbot):
    assert window.build(chain(3_000))
    assert window.wait_for_build()
    program, stepper = window.session.program, window.session.stepper
    gone = [weakref.ref(program), weakref.ref(stepper), weakref.ref(program.output)]
    del program, stepper
    assert window.build("x = 2\ny = x*x")
    assert window.disposal.pending > 0
    window.graph_tab.wait_for_layout()
    _drain(window.disposal, qtbot)
    assert [ref() for ref in gone] == [None, None, None]
    window.graph_tab.actions["end"].trigger()
    assert window.session.program.inputs["x"].grad == 4.0


def test_a_program_still_held_elsewhere_is_left_whole(qtbot, monkeypatch):
    monkeypatch.setattr(disposal_module, "PATIENCE_S", 0.3)
    disposal = Disposal()
    program = parse(chain(50))
    stepper = Stepper(program.output)
    n = len(program.values)
    disposal.drop(stepper, program, None)
    assert disposal.pending == 2
    _drain(disposal, qtbot)  # let go of as they are: this test still holds them
    assert len(program.values) == n and program.output is program.values[-1]
    stepper.run_to_end()
    assert program.inputs["x"].grad != 0.0


def test_values_are_freed_from_the_last_made(monkeypatch):
    monkeypatch.setattr(disposal_module, "PER_SLICE", 7)
    program = parse(chain(40))
    values = program.values
    made = [id(v) for v in values]
    emptied = disposal_module._emptied(program)
    del program
    sizes = []
    for _ in emptied:
        sizes.append(len(values))
        # what is left is always the first made: each slice frees the last made
        assert [id(v) for v in values] == made[:len(values)]
    assert sizes[0] == len(made) - 7 and sizes[-1] == 0
    assert all(a - b == 7 for a, b in zip(sizes, sizes[1:]) if b)
