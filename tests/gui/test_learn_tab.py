"""The Learn tab: every exercise driven through its widgets with right and wrong
answers, the quiz through its options, 'Show me', and progress kept in QSettings."""

import math

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QDialog, QLabel

from engine.checks.tensorflow_check import GradientRow
from engine.core.engines import CORRECT
from engine.lesson.learn.code_export import script
from engine.lesson.learn.multiply_rule import LearnerMultiplyRule
from engine.lesson.nn import predictions, train_xor
from gui.graph.inspector import describe_node
from gui.tabs.learn import gradient_step
from gui.tabs.learn.content import QUESTIONS, SECTIONS
from gui.tabs.learn.tab import LearnTab


def open_learn(window, qtbot, section=None):
    assert not window.lazy_tabs.made("Learn")  # made when first shown
    window.tabs.setCurrentIndex(5)  # as Ctrl+6 does
    tab = window.learn_tab
    qtbot.waitUntil(tab.isVisible, timeout=5_000)
    if section:
        tab.open_section(section)
    return tab


def grads(window):
    return {n: v.grad for n, v in window.session.program.inputs.items()}


def test_sections_in_the_lessons_order_with_next_and_previous(window, qtbot):
    tab = open_learn(window, qtbot)
    assert window.tabs.tabText(5) == "Learn"
    titles = [s.title for s in SECTIONS]
    assert titles[:3] == ["The idea: record, then replay backwards", "The engine",
                          "The smallest possible check"]
    assert titles[-1] == "Recap and quiz"
    assert tab.current == 0 and not tab.previous.isEnabled()
    qtbot.mouseClick(tab.next, Qt.MouseButton.LeftButton)
    assert tab.current == 1 and tab.pages.currentIndex() == 1
    assert "Section 2 of 12" in tab.summary.text()
    tab.go(100)
    assert tab.current == len(SECTIONS) - 1 and not tab.next.isEnabled()
    # never the page's private name for itself
    for section in SECTIONS:
        assert "seed" not in section.body.lower() and "seed" not in section.title.lower()


@pytest.mark.parametrize("action, tab_title, where", [
    ("idea", "Graph", "forward 13/13"), ("engine", "Graph", "backward 2/3"),
    ("smallest", "Graph", "backward 3/3 (done)"), ("neuron", "Graph", "backward 8/8 (done)"),
    ("accumulate", "Graph", "backward 1/2"), ("overwrite", "Graph", "backward 2/2 (done)"),
    ("pitfalls", "Pitfalls", None), ("xor", "XOR", None)])
def test_show_me_sets_up_the_tab_the_program_and_the_step(window, qtbot, action, tab_title,
                                                           where):
    tab = open_learn(window, qtbot)
    tab.show_buttons[action].click()
    assert window.tabs.tabText(window.tabs.currentIndex()) == tab_title
    if where:
        assert window.graph_tab.phase.text() == where
    if action == "smallest":
        assert grads(window) == {"a": 5.0, "b": 3.0}
        assert window.session.program.output.data == 15.0
    if action == "neuron":
        assert (grads(window)["w1"], grads(window)["w2"], grads(window)["b"]) == (-2, -4, -2)
    if action == "overwrite":
        assert window.graph_tab.engine_box.currentText() == "bug: = instead of +="
        assert grads(window) == {"a": 1.0}


def _my_xor_settings(xor):
    xor.activation.setCurrentText("relu")
    xor.hidden.setValue(5)
    xor.seed.setValue(1)
    xor.epochs.setValue(5000)
    xor.lr.setValue(0.05)


def test_show_me_one_hidden_unit_sets_the_whole_lesson_configuration(window, qtbot):
    tab = open_learn(window, qtbot, "xor")
    xor = window.xor_tab
    _my_xor_settings(xor)
    assert not tab.restore.isEnabled()
    tab.show_buttons["xor1"].click()
    assert window.tabs.currentWidget() is xor
    assert (xor.hidden.value(), xor.activation.currentText(), xor.seed.value(),
            xor.lr.value(), xor.epochs.value()) == (1, "tanh", 0, 0.1, 3000)
    assert xor.running
    note = ("Show me: the XOR tab trains the lesson's network with one hidden unit (2-1-1 "
            "tanh), seed 0, η = 0.1, 3,000 epochs (set: Hidden units 5 → 1, Activation relu "
            "→ tanh, Seed 1 → 0, η 0.05 → 0.1, Epochs 5,000 → 3,000; Restore my settings in "
            "the Learn tab brings yours back)")
    assert window.statusBar().currentMessage() == note + "; training…"
    # the run's verdict replaces the message within a second: it keeps the note
    qtbot.waitUntil(lambda: not xor.running, timeout=60_000)
    assert window.statusBar().currentMessage() == (
        note + ". Training finished at epoch 3,000, but XOR is not learned: 1 of 4 "
        "predictions are on the wrong side of 0.5 (see under the counters).")
    assert "One hidden unit draws one straight line" in xor.warning  # the lesson's point
    assert tab.restore.isEnabled()
    tab.restore.click()
    assert (xor.hidden.value(), xor.activation.currentText(), xor.seed.value(),
            xor.lr.value(), xor.epochs.value()) == (5, "relu", 1, 0.05, 5000)
    assert window.statusBar().currentMessage().startswith(
        "Your XOR settings are back (Hidden units 1 → 5, Activation tanh → relu")
    assert not tab.restore.isEnabled() and xor.epoch == 0


def test_show_me_xor_learned_trains_the_lessons_run_to_the_end(window, qtbot):
    tab = open_learn(window, qtbot, "xor")
    xor = window.xor_tab
    _my_xor_settings(xor)
    tab.show_buttons["xor1"].click()
    xor.stop()
    tab.show_buttons["xor"].click()  # a second Show me: Restore still brings back mine
    assert (xor.hidden.value(), xor.activation.currentText(), xor.seed.value()) == \
        (2, "tanh", 0)
    qtbot.waitUntil(lambda: not xor.running, timeout=60_000)
    assert xor.epoch == 3000 and xor.warning == ""
    *_, lesson = train_xor()  # the lesson's run, to the bit
    assert tuple(xor.parameters) == lesson.parameters
    assert all((p > 0.5) == (t > 0.5) for _, p, t in predictions(xor.parameters, 2, "tanh"))
    tab.restore.click()
    assert (xor.hidden.value(), xor.seed.value()) == (5, 1)


def test_exercise_1_the_multiply_rule_wrong_then_right(window, qtbot):
    tab = open_learn(window, qtbot, "engine")
    ex = tab.exercises["multiply"]
    ex.da.setText("a +")
    ex.db.setText("a")
    qtbot.mouseClick(ex.check, Qt.MouseButton.LeftButton)
    assert ex.feedback.verdict == "wrong" and "Not a formula yet" in ex.feedback.plain
    assert not ex.run.isEnabled()

    ex.da.clear()
    qtbot.keyClicks(ex.da, "a")
    ex.db.setText("b")
    qtbot.keyClick(ex.db, Qt.Key.Key_Return)
    assert ex.feedback.verdict == "wrong"
    assert "at a = 3, b = 4 your rule gives 3, 4; the product rule gives 4 and 3" \
        in ex.feedback.plain
    assert not ex.is_solved
    ex.run.click()
    # the neuron in the Graph tab, stepped with the learner's rule, stopped in red
    assert window.tabs.currentWidget() is window.graph_tab
    assert window.graph_tab.engine_box.currentText() == "your multiply rule"
    assert isinstance(window.session.engine, LearnerMultiplyRule)
    problem = window.graph_tab.problem
    assert problem.isVisible()
    assert "your d(a·b)/da gives -0.3, but the product rule gives 2" in problem.text()
    assert "w2 0.6 (should be -4)" in ex.engine_note.plain

    ex.da.setText("b")
    ex.db.setText("a")
    ex.check.click()
    assert ex.feedback.verdict == "right" and ex.is_solved
    ex.run.click()
    assert window.session.at_end and not window.graph_tab.problem.isVisible()
    g = grads(window)
    assert (g["w1"], g["w2"], g["b"]) == (-2.0, -4.0, -2.0)
    assert tab.progress.solved == {"multiply"}


def test_exercise_2_a_hand_derivative_against_autodiff(window, qtbot):
    tab = open_learn(window, qtbot, "chain")
    ex = tab.exercises["chain"]
    assert "0.0000000000" in ex.saturated.text()
    ex.derivative.setText("1 - tanh(x**3 + 3*x)**2")  # the inner factor forgotten
    ex.compare.click()
    assert ex.feedback.verdict == "wrong"
    assert "the worst point is x = 0: yours 1, autodiff 3, difference -2" in ex.feedback.plain
    xs, ys = ex.diff_curve.getData()
    assert len(xs) == 401 and min(ys) == pytest.approx(-2.0)
    assert list(ex.worst_marker.getData()[0]) == [0.0]

    ex.derivative.setText("(1 - tanh(x^3 + 3*x)^2) * (3*x^2 + 3)")
    qtbot.keyClick(ex.derivative, Qt.Key.Key_Return)
    assert ex.feedback.verdict == "right" and ex.is_solved
    _, autodiff = ex.autodiff_curve.getData()
    _, hand = ex.hand_curve.getData()
    assert max(abs(a - h) for a, h in zip(autodiff, hand)) < 1e-12

    ex.function.setText("x = 1.0\ny = log(x)")
    ex.derivative.setText("1/x")
    ex.lo.setValue(-1.0)
    ex.hi.setValue(1.0)
    ex.compare.click()
    assert ex.feedback.verdict == "right" and "were left out" in ex.feedback.plain
    ex.derivative.setText("1/y")
    ex.compare.click()
    assert ex.feedback.verdict == "wrong" and "may use only x" in ex.feedback.plain


def test_exercise_3_predict_then_reveal(window, qtbot):
    tab = open_learn(window, qtbot, "accumulate")
    ex = tab.exercises["accumulate"]
    ex.prediction.setText("1")
    ex.reveal.click()  # a + a with +=
    assert ex.feedback.verdict == "wrong"
    assert "a received 1 (0 → 1), then 1 (1 → 2)" in ex.feedback.plain
    for case, engine, guess in (("a + a", "+=", "2"), ("a + a", "=", "1"),
                                ("a * a", "+=", "6"), ("a * a", "=", "3")):
        assert not ex.is_solved
        ex.case.setCurrentText(case)
        ex.engine.setCurrentText(engine)
        ex.prediction.setText(guess)
        qtbot.keyClick(ex.prediction, Qt.Key.Key_Return)
        assert ex.feedback.verdict == "right", ex.feedback.plain
    assert ex.is_solved and "4 of 4" in ex.score.text()
    ex.prediction.setText("six")
    ex.reveal.click()
    assert "as a number" in ex.feedback.plain

    # the step in the Graph tab: just before a's paths arrive, then one step
    ex.show_step.click()  # a * a with =
    assert window.graph_tab.engine_box.currentText() == "bug: = instead of +="
    assert grads(window) == {"a": 0.0}
    window.graph_tab.actions["step"].trigger()
    assert grads(window) == {"a": 3.0}


def test_exercise_4_one_step_by_hand_then_applied(window, qtbot):
    tab = open_learn(window, qtbot, "neuron")
    ex = tab.exercises["step"]
    for name, value in (("w1", "0.7"), ("w2", "-0.7"), ("b", "")):
        ex.fields[name].setText(value)
    ex.check.click()
    assert ex.feedback.verdict == "wrong" and "Type a number for b" in ex.feedback.plain
    ex.fields["b"].setText("0.3")
    ex.check.click()
    assert ex.feedback.verdict == "wrong" and "Not yet: w2" in ex.feedback.plain
    ex.fields["w2"].setText("0.1")
    qtbot.keyClick(ex.fields["w2"], Qt.Key.Key_Return)
    assert ex.feedback.verdict == "right" and ex.is_solved

    ex.apply.click()
    program = window.session.program
    assert {n: program.inputs[n].data for n in ("w1", "w2", "b")} == \
        {"w1": 0.7, "w2": 0.1, "b": 0.3}
    assert "w1 = 0.7; w2 = 0.1; b = 0.3" in window.editor.text()
    assert program.output.data == pytest.approx((math.tanh(1.2) - 1) ** 2)
    assert "the loss fell from 1 to 0.0276708" in ex.loss.plain


def test_step_menu_applies_a_gradient_step_to_any_program(window, qtbot, monkeypatch,
                                                          dialogs):
    window.editor.set_text("p = 2.0\nq = 1.0\nr = p*p + q\n")
    window.build(window.editor.text())
    chosen = {}

    def accept(dialog):
        chosen["names"] = dialog.chosen()
        dialog.eta.setValue(0.25)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(gradient_step.StepDialog, "exec", accept)
    action = window.gradient_stepper.action
    assert action.shortcut().toString() == "Ctrl+G"
    assert action in window.menuBar().actions()[1].menu().actions()
    action.trigger()
    assert chosen["names"] == ["p", "q"]
    # p: 2 - 0.25*4 = 1; q: 1 - 0.25*1 = 0.75
    assert window.editor.text() == "p = 1.0\nq = 0.75\nr = p*p + q\n"
    assert window.session.program.output.data == 1.75
    assert "r 5 → 1.75" in window.statusBar().currentMessage()
    # an edited, unbuilt text is not overwritten
    window.editor.set_text("p = 9.0\n")
    action.trigger()
    assert dialogs and "Build it first" in dialogs[-1][2]
    assert window.editor.text() == "p = 9.0\n"


def test_exercise_5_scripts_beside_the_tensorflow_check(window, qtbot):
    tab = open_learn(window, qtbot, "tensorflow")
    ex = tab.exercises["frameworks"]
    ex.buttons["jax"].click()
    expected = script(window.session.program, "jax")
    assert QApplication.clipboard().text() == expected
    assert ex.code.toPlainText() == expected and not ex.is_solved  # a copy checks nothing
    # the same from the File menu
    window.code_copier.actions["pytorch"].trigger()
    assert QApplication.clipboard().text() == script(window.session.program, "pytorch")
    # the in-app check's answer, as the checker delivers it
    checker = window.checker
    checker.generation = window.session.generation
    checker.rows = [GradientRow("w1", -2.0, -2.0, 0.0), GradientRow("w2", -4.0, -4.0, 0.0)]
    checker.message = ""
    checker.changed.emit()
    assert ex.results.verdict == "right"
    assert not ex.is_solved  # the Rules tab's own check: the learner did nothing
    ex.run_check()  # the learner asks; the answer agrees
    checker.generation = window.session.generation
    checker.changed.emit()
    assert ex.is_solved
    assert "2 gradients, largest difference from ours 0." in ex.results.plain
    assert "<td>w2</td><td align='right'>-4.0</td><td align='right'>-4.0</td>" \
        "<td align='right'>0</td>" in ex.table.text()
    checker.rows = [GradientRow("w1", -2.0, -2.5, 0.5)]
    checker.changed.emit()
    assert ex.results.verdict == "wrong" and "1 gradient, largest difference from ours 5.00e-01" \
        in ex.results.plain
    checker.message = "TensorFlow cannot be imported"
    checker.changed.emit()
    assert ex.results.verdict == "wrong"


def test_exercise_6_counts_and_times_the_passes(window, qtbot):
    tab = open_learn(window, qtbot, "reverse")
    ex = tab.exercises["passes"]
    ex.n.setValue(30)
    ex.start.click()
    assert ex.running and not ex.start.isEnabled()
    qtbot.waitUntil(lambda: not ex.running, timeout=60_000)
    assert ex.result.forward_passes == 30 and ex.result.reverse_passes == 1
    assert "Forward mode: 30 passes" in ex.feedback.plain
    assert "Reverse mode: 1 pass" in ex.feedback.plain
    assert ex.is_solved and ex.start.isEnabled()


def test_the_quiz_gives_immediate_feedback(window, qtbot):
    tab = open_learn(window, qtbot, "quiz")
    quiz = tab.quiz
    assert len(quiz.groups) == 5
    assert all(len(q.options) == 4 for q in QUESTIONS)
    assert all(not note.plain for note in quiz.feedback)  # no reason before an answer
    for q, question in enumerate(QUESTIONS):
        quiz.radio(q, question.right).click()
        assert quiz.feedback[q].verdict == "right"
        assert quiz.feedback[q].plain == f"Right. {question.explanation}"
        assert not any(b.isEnabled() for b in quiz.groups[q].buttons())  # answered
    assert "5 of 5 right at the first answer" in quiz.score.text()
    assert tab.sections.item(len(SECTIONS) - 1).text() == "12. Recap and quiz  ✓"
    # the right answers are not all in one place
    assert len({q.right for q in QUESTIONS}) >= 3


def test_the_first_answer_counts_and_try_again_does_not_change_the_score(window, qtbot):
    tab = open_learn(window, qtbot, "quiz")
    quiz = tab.quiz
    right = QUESTIONS[0].right
    wrong = (right + 1) % 4
    qtbot.mouseClick(quiz.radio(0, wrong), Qt.MouseButton.LeftButton)
    assert quiz.feedback[0].verdict == "wrong"
    assert QUESTIONS[0].explanation not in quiz.feedback[0].plain  # not given away
    assert "0 of 5 right" in quiz.score.text() and "(1 answered)" in quiz.score.text()
    quiz.radio(0, right).click()  # a second click on an answered question does nothing
    assert quiz.answers[0] == wrong and "0 of 5 right" in quiz.score.text()
    assert quiz.try_again[0].isVisibleTo(quiz) and quiz.show_answer[0].isVisibleTo(quiz)
    quiz.try_again[0].click()
    assert quiz.radio(0, right).isEnabled() and not quiz.radio(0, wrong).isChecked()
    quiz.radio(0, right).click()
    assert quiz.feedback[0].verdict == "right"
    assert quiz.feedback[0].plain.startswith(
        f"Right this time (your first answer, {quiz.letter(0, wrong)}, is the one that counts)")
    assert quiz.answers[0] == wrong and "0 of 5 right" in quiz.score.text()
    assert tab.progress.answers == {0: wrong}
    assert not quiz.try_again[0].isVisibleTo(quiz)
    # another question: wrong, then Show the answer gives the letter it is shown under
    other = (QUESTIONS[1].right + 2) % 4
    quiz.radio(1, other).click()
    quiz.show_answer[1].click()
    letter = quiz.letter(1, QUESTIONS[1].right)
    assert quiz.feedback[1].plain == f"The answer is {letter}. {QUESTIONS[1].explanation}"
    assert not any(b.isEnabled() for b in quiz.groups[1].buttons())


def test_the_options_are_alike_in_length_and_shuffled_per_learner():
    from gui.tabs.learn.progress import option_order

    for question in QUESTIONS:
        lengths = [len(o) for o in question.options]
        assert lengths[question.right] < max(lengths)  # the longest is never the answer
        assert max(lengths) <= 1.5 * min(lengths)
    assert option_order(7, 2) == option_order(7, 2)  # stable for one learner
    orders = {tuple(option_order(seed, q)) for seed in range(1, 30) for q in range(5)}
    assert len(orders) > 10 and all(sorted(o) == [0, 1, 2, 3] for o in orders)
    places = {option_order(seed, 0).index(QUESTIONS[0].right) for seed in range(1, 30)}
    assert places == {0, 1, 2, 3}  # the answer is not always under the same letter


def settings():
    return QSettings("AutogradDebugger", "AutogradDebugger")


def test_progress_is_remembered(qtbot):
    first = LearnTab(settings=settings())
    qtbot.addWidget(first)
    first.open_section("neuron")
    ex = first.exercises["step"]
    for name, value in (("w1", "0.7"), ("w2", "0.1"), ("b", "0.3")):
        ex.fields[name].setText(value)
    ex.check.click()
    first.quiz.radio(3, QUESTIONS[3].right).click()
    first.quiz.radio(1, 0).click()

    again = LearnTab(settings=settings())
    qtbot.addWidget(again)
    assert again.current == 4
    assert again.progress.solved == {"step"}
    assert again.progress.seen == {"idea", "neuron"}
    assert again.quiz.answers == {3: QUESTIONS[3].right, 1: 0}
    assert again.quiz.radio(3, QUESTIONS[3].right).isChecked()
    assert again.quiz.feedback[1].verdict == "wrong"
    assert "1 of 6 exercises solved" in again.summary.text()


@pytest.mark.parametrize("section, seen, solved, quiz", [
    ("banana", 3, "nothing,multiply ", "x:y,9:9,0:7,2:1,2"),
    ("-4", ["idea", 7], ["chain", None], ["1:1", "oops"]),
    ("99", "", "", ""),
])
def test_bad_progress_falls_back_to_the_defaults(qtbot, section, seen, solved, quiz):
    s = settings()
    for key, value in (("section", section), ("seen", seen), ("solved", solved),
                       ("quiz", quiz)):
        s.setValue("learn/" + key, value)
    s.sync()
    tab = LearnTab(settings=settings())
    qtbot.addWidget(tab)
    assert tab.current == 0
    assert tab.progress.solved <= {"multiply", "chain"}
    assert set(tab.quiz.answers) <= {1, 2}
    assert all(0 <= o < 4 for o in tab.quiz.answers.values())


def test_a_click_on_an_options_words_chooses_it(qtbot):
    tab = LearnTab()
    qtbot.addWidget(tab)
    tab.show()
    tab.open_section("quiz")
    radio = tab.quiz.radio(4, 0)
    words = next(w for w in tab.quiz.findChildren(QLabel) if getattr(w, "radio", None) is radio)
    assert words.wordWrap() and words.text() == QUESTIONS[4].options[0]
    qtbot.mouseClick(words, Qt.MouseButton.LeftButton)
    assert radio.isChecked() and tab.quiz.feedback[4].verdict == "right"


def test_alt_page_down_and_up_move_between_sections(window, qtbot):
    tab = open_learn(window, qtbot)
    window.activateWindow()
    tab.sections.setFocus()
    qtbot.keyClick(tab.sections, Qt.Key.Key_PageDown, Qt.KeyboardModifier.AltModifier)
    assert tab.current == 1
    qtbot.keyClick(tab.sections, Qt.Key.Key_PageUp, Qt.KeyboardModifier.AltModifier)
    assert tab.current == 0
    assert "Alt+PgDown" in tab.next.toolTip()


def test_the_window_remembers_learn_progress(qtbot):
    from gui.window.main_window import MainWindow

    first = MainWindow(remember=True)
    qtbot.addWidget(first)
    first.learn_tab.open_section("quiz")
    first.learn_tab.quiz.radio(2, QUESTIONS[2].right).click()
    first.close()
    again = MainWindow(remember=True)
    qtbot.addWidget(again)
    tab = again.learn_tab
    assert tab.current == len(SECTIONS) - 1
    assert tab.quiz.answers == {2: QUESTIONS[2].right}
    assert tab.quiz.feedback[2].verdict == "right"
    again.close()


def test_counting_the_passes_can_be_cancelled(qtbot):
    tab = LearnTab()
    qtbot.addWidget(tab)
    ex = tab.exercises["passes"]
    ex.n.setValue(2000)
    ex.start.click()
    assert ex.cancel.isEnabled()
    ex.cancel.click()
    assert not ex.running and ex.result is None
    assert ex.feedback.plain == "Cancelled." and ex.start.isEnabled()
    assert not ex.is_solved


def test_a_new_check_clears_the_old_rules_gradients(window, qtbot):
    tab = open_learn(window, qtbot, "engine")
    ex = tab.exercises["multiply"]
    ex.da.setText("a")
    ex.db.setText("b")
    ex.check.click()
    ex.run.click()
    assert ex.engine_note.verdict == "wrong"
    assert "w1 -1 (should be -2)" in ex.engine_note.plain

    ex.da.setText("b")
    ex.db.setText("a")
    ex.check.click()
    assert ex.feedback.verdict == "right"
    assert ex.feedback.plain.startswith("Right at all 12 points")
    # the swapped rule's red gradients no longer stand under the green verdict
    assert ex.engine_note.plain == "" and ex.engine_note.verdict == ""
    assert ex.engine_note.text() == ""

    # the neuron is stepped with the rule as typed, checked again first
    ex.da.setText("a")
    ex.db.setText("b")
    ex.run.click()
    assert ex.feedback.verdict == "wrong" and ex.engine_note.verdict == "wrong"
    assert "w1 -1 (should be -2)" in ex.engine_note.plain


def test_the_inspector_shows_the_local_derivative_the_learners_rule_used(window, qtbot):
    tab = open_learn(window, qtbot, "engine")
    ex = tab.exercises["multiply"]
    ex.da.setText("a")
    ex.db.setText("b")
    ex.check.click()
    ex.run.click()
    # stopped at the first wrong step, w2*x2's rule: the inspector and the edge agree
    w2x2 = window.session.stepper.current.node
    assert w2x2.op == "*" and w2x2.parents[0].label == "w2"
    text = window.inspector.toPlainText()
    assert ("d(w2 * x2)/dw2 = -0.3 by your multiply rule (right: d(w2 * x2)/dw2 = x2 = 2)"
            in text)
    assert ("d(w2 * x2)/dx2 = 2 by your multiply rule (right: d(w2 * x2)/dx2 = w2 = -0.3)"
            in text)
    assert "d(w2 * x2)/dw2 = x2 = 2\n" not in text + "\n"  # never the right one alone
    assert window.graph_tab.scene.edge_item(w2x2, 0).label == "-0.3 × (-2)\n= 0.6\nright: 2"

    # the correct engine on the same graph: the rule as recorded, nothing beside it
    window.graph_tab.engine_box.setCurrentIndex(window.graph_tab.engine_box.findData(CORRECT))
    window.session.run_to_end()
    window.graph_tab.scene.clearSelection()
    node = next(v for v in window.session.program.values
                if v.op == "*" and v.parents[0].label == "w2")
    html = describe_node(node, window.session.stepper, "intermediate")
    assert "<code>d(w2 * x2)/dw2 = x2 = 2</code>" in html and "right:" not in html


def test_applying_the_step_fits_the_graph_so_the_new_loss_shows(window, qtbot):
    # a width at which the neuron, at the size its text is readable, is wider than the view
    window.resize(1600, 900)
    tab = open_learn(window, qtbot, "neuron")
    tab.exercises["step"].apply.click()
    assert window.tabs.currentWidget() is window.graph_tab
    view, scene = window.graph_tab.view, window.graph_tab.scene
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    loss = scene.value_item_of(window.session.program.output)
    # rounded: ≈, its 4 first digits and '…' (the box as wide as they need)
    assert loss.texts()[:2] == ("loss", "value ≈ 0.02767…")
    assert visible.contains(loss.sceneBoundingRect())  # not cut at the right edge
    assert visible.contains(scene.graph_rect())


def test_the_lessons_texts_and_quiz_write_zero_as_0(qtbot):
    tab = LearnTab()
    qtbot.addWidget(tab)
    texts = [s.body for s in SECTIONS] + [q.text for q in QUESTIONS] + \
        [o for q in QUESTIONS for o in q.options] + [q.explanation for q in QUESTIONS]
    assert not [t for t in texts if "e+00" in t]
    assert "(difference 0)" in next(s.body for s in SECTIONS if s.key == "tensorflow")
    assert "so the checks agree to 0 rather than about 1e-7." in QUESTIONS[4].explanation
    labels = [w.text() for w in tab.findChildren(QLabel)]
    assert not [t for t in labels if "e+00" in t]


def test_show_me_says_the_editor_holds_a_new_program_and_ctrl_z_brings_yours_back(
        window, qtbot):
    mine = "p = 2.0\nq = p * p\n"
    window.editor.set_text(mine)
    window.build(mine)
    tab = open_learn(window, qtbot)
    tab.show_buttons["idea"].click()
    assert window.statusBar().currentMessage() == (
        "Show me: the editor now holds the lesson's neuron (Ctrl+Z in the editor brings "
        "your text back).")
    assert window.editor.text().startswith("# The lesson's neuron")
    window.editor.editor.undo()  # what Ctrl+Z in the editor does
    assert window.editor.text() == mine
    # the same program again: nothing of the user's is replaced, and it says so
    window.editor.editor.redo()
    tab.show_buttons["neuron"].click()
    assert window.statusBar().currentMessage() == (
        "Show me: the editor holds the lesson's neuron, as it did.")
    # a Show me on another exercise's program
    tab.open_section("accumulate")
    tab.exercises["accumulate"].show_step.click()
    assert window.statusBar().currentMessage() == (
        "Show me the step: the editor now holds a = 3.0; b = a + a (Ctrl+Z in the editor "
        "brings your text back).")


def test_ctrl_z_in_the_editor_after_a_show_me(window, qtbot):
    mine = "p = 2.0\nq = p * p\n"
    window.editor.set_text(mine)
    window.build(mine)
    tab = open_learn(window, qtbot)
    tab.show_buttons["smallest"].click()
    assert "ab + a" in window.statusBar().currentMessage()
    window.editor.editor.setFocus()
    qtbot.keyClick(window.editor.editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.editor.text() == mine


def test_applying_the_step_says_what_the_editor_now_holds(window, qtbot):
    mine = "p = 2.0\nq = p * p\n"
    window.editor.set_text(mine)
    window.build(mine)
    tab = open_learn(window, qtbot, "neuron")
    tab.exercises["step"].apply.click()
    message = window.statusBar().currentMessage()
    assert message.startswith(
        "Apply the step: the editor now holds the lesson's neuron after one gradient step "
        "(Ctrl+Z in the editor: the neuron before the step; again: your text). One "
        "gradient step at η = 0.1: w1 0.5 → 0.7, w2 -0.3 → 0.1, b 0.1 → 0.3; loss 1 → "
        "0.0276708.")
    window.editor.editor.undo()
    assert "w1 = 0.5; w2 = -0.3; b = 0.1" in window.editor.text()
    window.editor.editor.undo()
    assert window.editor.text() == mine


def test_exercise_2_plots_nothing_but_a_hint_before_compare(window, qtbot):
    tab = open_learn(window, qtbot, "chain")
    ex = tab.exercises["chain"]
    plot, diff = ex.plot.getPlotItem(), ex.diff_plot.getPlotItem()
    # no 0-1 axes with a clipped '1.0': no axes at all, and what to do
    assert ex.hint.isVisible() and ex.hint.toPlainText() == "Type a derivative and press Compare"
    for item in (plot, diff):
        assert not item.getAxis("left").isVisible() and not item.getAxis("bottom").isVisible()
    assert not plot.legend.isVisible()
    ex.derivative.setText("1/0 +")
    ex.compare.click()  # not a formula: still nothing to plot
    assert ex.feedback.verdict == "wrong" and ex.hint.isVisible()

    ex.derivative.setText("1 - tanh(x**3 + 3*x)**2")
    ex.compare.click()
    assert not ex.hint.isVisible() and plot.legend.isVisible()
    for item in (plot, diff):
        assert item.getAxis("left").isVisible() and item.getAxis("bottom").isVisible()
    # the range follows the data again (pyqtgraph auto-ranges when it next updates)
    qtbot.waitUntil(lambda: plot.viewRange()[0][0] <= -3 <= 3 <= plot.viewRange()[0][1],
                    timeout=5_000)


def test_exercise_3s_predictions_are_remembered(qtbot):
    first = LearnTab(settings=settings())
    qtbot.addWidget(first)
    ex = first.exercises["accumulate"]
    for case, engine, guess in (("a + a", "+=", "2"), ("a * a", "=", "3"),
                                ("a * a", "+=", "7")):  # the last one wrong
        ex.case.setCurrentText(case)
        ex.engine.setCurrentText(engine)
        ex.prediction.setText(guess)
        ex.reveal.click()
    assert ex.score.text() == "Predicted right: 2 of 4 combinations."

    again = LearnTab(settings=settings())
    qtbot.addWidget(again)
    ex = again.exercises["accumulate"]
    assert ex.score.text() == "Predicted right: 2 of 4 combinations."
    assert ex.right == {("a + a", "+="), ("a * a", "=")}
    for case, engine, guess in (("a + a", "=", "1"), ("a * a", "+=", "6")):
        ex.case.setCurrentText(case)
        ex.engine.setCurrentText(engine)
        ex.prediction.setText(guess)
        ex.reveal.click()
    assert ex.score.text() == "Predicted right: 4 of 4 combinations." and ex.is_solved
    third = LearnTab(settings=settings())
    qtbot.addWidget(third)
    assert third.exercises["accumulate"].score.text() == \
        "Predicted right: 4 of 4 combinations."
    assert "accumulate" in third.progress.solved


@pytest.mark.parametrize("stored, kept", [
    ("a + a|+=,banana,a * a|=,a * a|==,|", {("a + a", "+="), ("a * a", "=")}),
    (["a * a|+=", 3, None], {("a * a", "+=")}),
    (17, set()), ("", set()), ("a + a", set()),
])
def test_bad_predictions_read_back_are_dropped(qtbot, stored, kept):
    s = settings()
    s.setValue("learn/predicted", stored)
    s.sync()
    tab = LearnTab(settings=settings())
    qtbot.addWidget(tab)
    ex = tab.exercises["accumulate"]
    assert ex.right == kept
    assert ex.score.text() == f"Predicted right: {len(kept)} of 4 combinations."


def test_show_me_the_timing_starts_the_sweep_it_promises_once(window, qtbot):
    tab = open_learn(window, qtbot)
    tab.show_buttons["modes"].click()
    modes = window.modes_tab
    assert window.tabs.currentWidget() is modes
    assert modes.running
    assert window.statusBar().currentMessage().startswith("Show me: timing both modes")
    qtbot.waitUntil(lambda: len(modes.rows) >= 2, timeout=60_000)
    rows = list(modes.rows)
    tab.show_buttons["modes"].click()  # a second time: the sweep is not started again
    assert modes.rows[:len(rows)] == rows
    modes.cancel_sweep()
    qtbot.waitUntil(lambda: not modes.running, timeout=10_000)
