"""The Graph tab draws as well as Graphviz's dot (issue 13's quality bar), read through
the export JSON: on every preset and on generated programs that reuse values, at the end
of the backward pass (every label shown), with constants folded and as nodes:

- no edge path enters a box other than its two ends;
- no two boxes overlap; no label overlaps a label or a box;
- no edge comes within 3 px of a label, but the label's own edge running level under it
  (a bend climbing along a label's side reads as crossing it); no two arrowheads
  into a box overlap (edges ending less than a head's height apart, not at one point);
- no two edges share their middle (q*q has two visibly separate edges);
- no more edge crossings than today's drawing of the same graph (baseline_drawing), where
  an edge that today runs through a box counts as a crossing too: going around a box
  instead of through it can cost a crossing (x feeding both `x + 2` and `-x` while the
  constant 2 feeds `x + 2`), and hiding an edge under a box is no better than crossing.

These fail on the old scene, whose edges run straight through the boxes between their
ends and whose labels stack; they are the acceptance test of the routed layout.
"""

import random
from pathlib import Path

import pytest

from gui.graph.export import graph_records
from tests.gui.baseline_drawing import baseline_graph
from tests.gui.graph_geometry import (
    crossings,
    edges_through_boxes,
    labels_crossed,
    overlapping_boxes,
    overlapping_labels,
    piled_arrowheads,
    shared_middles,
)

pytestmark = pytest.mark.layout_quality

PRESETS = Path(__file__).resolve().parents[2] / "assets" / "presets"
FUNCTIONS = ("tanh", "exp", "sigmoid", "relu")


def reuse_programs() -> dict[str, str]:
    """Programs that reuse values, by name: deterministic, so a failure can be redrawn."""
    programs = {}
    for k in range(2, 7):
        # q used k times at growing depth: the long edges that cross other layers
        lines = ["q = 0.7", "s1 = tanh(q)"]
        lines += [f"s{j} = s{j - 1} {'*' if j % 2 else '+'} q" for j in range(2, k + 1)]
        programs[f"deep-use-{k}"] = "\n".join(lines)
        # q used k times side by side
        terms = " + ".join(f"{FUNCTIONS[j % 4]}(q)" for j in range(k))
        programs[f"wide-use-{k}"] = f"q = 0.7\ny = {terms}"
    programs["diamond"] = "x = 0.5\na = tanh(x)\nb = exp(x)\ny = a*b"
    programs["nested-diamonds"] = ("x = 0.5\na = tanh(x)\nb = exp(x)\nc = a*b\n"
                                   "d = sigmoid(c)\ne = c + a\ny = d*e")
    programs["diamonds-in-series"] = ("x = 0.5\na = tanh(x)\nb = exp(x)\nc = a*b\n"
                                      "d = tanh(c)\ne = sigmoid(c)\nf = d + e\n"
                                      "g = relu(f)\nh = f*f\ny = g - h")
    programs["q*q"] = "q = 3\nr = q*q"
    programs["q*q*q+q"] = "q = 3\nr = q*q*q + q"
    programs["sigmoid-log-exp"] = "x = 0.7\ny = sigmoid(x)*log(x + 2) / exp(-x)"
    programs["no-sort"] = "x = 1.5\nb = x*3\nc = b*2\nd = b + c"
    for seed in range(3):
        programs[f"random-{seed}"] = _random_program(random.Random(seed))
    return programs


def _random_program(rng: random.Random, statements: int = 10) -> str:
    """Inputs a, b, c, then statements that pick their operands among the last few
    names (so that values are reused near and far) and sometimes a constant."""
    names = ["a", "b", "c"]
    lines = ["a = 0.3", "b = -0.5", "c = 0.8"]
    for k in range(statements):
        name = f"t{k}"
        left = rng.choice(names[-4:])
        right = rng.choice(names) if rng.random() < 0.8 else str(rng.choice((2, 0.5, 3)))
        kind = rng.random()
        if kind < 0.3:
            expr = f"{rng.choice(FUNCTIONS[:3])}({left})"
        else:
            expr = f"{left} {rng.choice('+-*')} {right}"
        lines.append(f"{name} = {expr}")
        names.append(name)
    return "\n".join(lines)


CASES = {p.stem: p.read_text(encoding="utf-8") for p in sorted(PRESETS.glob("*.expr"))}
CASES.update(reuse_programs())


def _parents(stepper) -> list[tuple[int, ...]]:
    # as the Graph tab computes them for its layout
    index = {node: i for i, node in enumerate(stepper.forward_steps)}
    return [tuple(index[p] for p in node.parents) for node in stepper.forward_steps]


@pytest.mark.parametrize("constants", ["folded", "nodes"])
@pytest.mark.parametrize("name", list(CASES))
def test_the_graph_is_drawn_cleanly(window, name, constants):
    assert window.build(CASES[name])
    window.graph_tab.set_constants_as_nodes(constants == "nodes")
    window.graph_tab.wait_for_layout()
    window.session.run_to_end()
    stepper = window.session.stepper
    program = window.session.program
    graph = graph_records(window.graph_tab.scene)

    # every gradient sent is on its edge: only contributions to a folded constant have none
    inputs = set(program.inputs.values())
    sent = [c for s in stepper.backward_steps if not s.root for c in s.contributions
            if constants == "nodes" or c.parent.parents or c.parent in inputs]
    shown = [e for e in graph["edges"] if e["label"] is not None]

    today = baseline_graph(_parents(stepper))
    baseline = crossings(today) + len(edges_through_boxes(today))
    problems = {
        "labels shown, gradients sent (constants folded: none to a constant)":
            [] if len(shown) == len(sent) else [len(shown), len(sent)],
        "edges through boxes (edge, node)": edges_through_boxes(graph),
        "overlapping boxes": overlapping_boxes(graph),
        "overlapping labels": overlapping_labels(graph),
        "labels crossed or grazed by an edge (label's edge, edge)": labels_crossed(graph),
        "arrowheads piled into a box (node, ends)": piled_arrowheads(graph),
        "edges sharing their middle": shared_middles(graph),
    }
    drawn = crossings(graph)
    problems = {k: v for k, v in problems.items() if v}
    if drawn > baseline:
        problems["crossings"] = (f"{drawn}, today's layout has {baseline} "
                                 "(crossings and edges through boxes)")
    assert not problems, f"{name} ({constants} constants): {problems}"
