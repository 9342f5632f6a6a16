"""A long walk of the stepper (a collapsed group's backward pass at the level shown, Run
to end) taken in pieces (Session.seek(paced=True), run_to_end): the window's timers run
in between, the caller finds the stepper where it asked, with the gradients of a walk
taken in one go, and the views hear of one move."""

from PySide6.QtCore import QTimer

from benchmarks.build_gaps import chain_program
from engine import parse
from engine.core.stepping import Stepper
from gui.graph import session as session_module
from gui.graph.session import Session


def _session():
    program = parse(chain_program(3 * session_module.WALK_PIECE + 100))
    session = Session()
    session.load(program)
    return session, program


def test_a_paced_walk_lets_timers_in_and_ends_where_a_walk_in_one_go_ends(qapp):
    session, program = _session()
    stepper = session.stepper
    n = len(stepper.forward_steps)
    assert stepper.total - n > 3 * session_module.WALK_PIECE
    ticks, moves, nested = [], [], []
    timer = QTimer()
    timer.setInterval(0)
    # a timer that asks for a move meanwhile (Play's) is refused until the walk ends
    timer.timeout.connect(lambda: (ticks.append(stepper.position),
                                   nested.append(session.step())))
    timer.start()
    session.moved.connect(moves.append)
    session.seek(n, paced=True)  # the forward pass: no backward steps, one go
    assert ticks == [] and moves == [0]
    assert session.seek(stepper.total - 5, paced=True)
    timer.stop()
    assert stepper.position == stepper.total - 5 and moves == [0, n]
    assert len(ticks) >= 3 and not any(nested)
    # each pause left the stepper at a position of its own, on the way
    assert all(n < p < stepper.total - 5 for p in ticks)
    walked = [v.grad for v in stepper.forward_steps]
    plain = Stepper(program.output)
    plain.seek(plain.total - 5)
    assert walked == [v.grad for v in plain.forward_steps]
    assert session.seek(n + 2, paced=True)  # and back again, in pieces too
    plain.seek(n + 2)
    assert [v.grad for v in stepper.forward_steps] == [v.grad for v in plain.forward_steps]
    assert session.run_to_end() and session.at_end and moves[-1] == n + 2
    plain.run_to_end()
    assert [v.grad for v in stepper.forward_steps] == [v.grad for v in plain.forward_steps]


def test_a_program_loaded_during_a_walk_ends_it(qapp):
    session, _ = _session()
    first = session.stepper
    other = parse("x = 2\ny = x * x")
    moves = []
    session.moved.connect(moves.append)
    QTimer.singleShot(0, lambda: session.load(other))
    assert not session.run_to_end()  # the walk gave up on the program replaced
    assert session.stepper is not first and session.stepper.position == 0
    assert moves == []
    assert 0 < first.position < first.total
