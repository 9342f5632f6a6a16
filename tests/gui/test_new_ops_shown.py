"""The ops added through the op table (sin, cos, sqrt, abs, x**y) as the window shows
them: their rows in the Rules tab and their formulas in the inspector."""

import html
import math

import pytest
from PySide6.QtGui import QFont, QFontMetrics

from engine import parse
from engine.core.stepping import Stepper
from gui.graph.inspector import describe_node
from gui.graph.spec import graph_spec
from gui.jobs.tensorflow_checker import TensorFlowChecker
from tests.gui import without_tensorflow

NEW_ROWS = {"sin": math.cos(0.5), "cos": -math.sin(0.5), "sqrt": 0.5 / math.sqrt(2.0),
            "abs (x < 0)": -1.0, "power, input exponent (2^x)": 2**1.5 * math.log(2.0)}


@pytest.fixture
def no_tensorflow(monkeypatch):
    monkeypatch.setattr(TensorFlowChecker, "loader", staticmethod(without_tensorflow.load))


def test_the_rules_tab_has_a_row_for_each_new_op(window, qtbot, no_tensorflow):
    window.tabs.setCurrentWidget(window.rules_tab)
    qtbot.waitUntil(window.rules_tab.isVisible, timeout=5_000)
    table = window.rules_tab.rule_table
    names = table.column_texts(0)
    autograd = dict(zip(names, table.column_texts(1)))
    calculus = dict(zip(names, table.column_texts(2)))
    for name, exact in NEW_ROWS.items():
        assert name in names
        assert float(autograd[name]) == pytest.approx(exact, rel=1e-7)  # shown in 8 digits
        assert autograd[name] == calculus[name]
    # the chart's axis has room for every case's name, the new ones the longest
    axis = window.rules_tab.rule_plot.getPlotItem().getAxis("left")
    metrics = QFontMetrics(axis.style.get("tickFont") or QFont())
    assert axis.width() >= max(metrics.horizontalAdvance(name) for name in names)


def _inspected(text: str, name: str) -> str:
    program = parse(text)
    stepper = Stepper(program.output)
    stepper.run_to_end()
    return describe_node(program.names[name], stepper, "intermediate")


@pytest.mark.parametrize("text, name, computed, rule", [
    ("x = 0.5\ny = sin(x)", "y", "sin(x)", "d sin(x)/dx = cos(x) = cos(0.5) = 0.877583"),
    ("x = 0.5\ny = cos(x)", "y", "cos(x)", "d cos(x)/dx = -sin(x) = -sin(0.5) = -0.479426"),
    ("x = 4\ny = sqrt(x)", "y", "sqrt(x)", "d sqrt(x)/dx = 1/(2·sqrt(x)) = 1/(2·2) = 0.25"),
    ("x = -1.5\ny = abs(x)", "y", "abs(x)",
     "d abs(x)/dx = 1 if x > 0, -1 if x < 0, else 0; x = -1.5, so -1"),
    ("x = 2; y = 3\nout = x**y", "out", "x^y", "d(x^y)/dy = x^y·ln(x) = 8·ln(2) = 5.54518"),
])
def test_the_inspector_writes_their_rules(qtbot, text, name, computed, rule):
    shown = _inspected(text, name)
    assert f"<tr><td><b>computed as</b></td><td>{computed}</td></tr>" in shown
    assert f"<li><code>{html.escape(rule)}</code></li>" in shown


@pytest.mark.parametrize(("text", "symbol"), [
    ("x = 1.5\nout = 2**x", "2^y"),          # the base, a number, written in
    ("x = 1.5; y = 2.5\nout = x**y", "x^y"),  # nothing folded
    ("x = 1.5\nout = x**x", "x^y"),
])
def test_a_power_with_an_input_exponent_is_drawn_with_its_folded_base(text, symbol):
    program = parse(text)
    stepper = Stepper(program.output)
    roles = {v: "constant" for v in program.values if not v.parents}
    roles.update({v: "input" for v in program.inputs.values()})
    spec = graph_spec(stepper, roles, folded=True)  # as the Graph tab draws it
    assert spec.symbols[stepper.forward_steps.index(program.output)] == symbol
