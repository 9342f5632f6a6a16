"""The inspector of a parameter used by many samples lists its gradient's contributions
by group, the largest first, in a handful of lines, not one line a path."""

import re

import pytest

from engine.core.stepping import Stepper
from engine.numbers import number
from gui.graph.inspector import MANY_PATHS, SHOWN_GROUPS, describe_node
from gui.graph.levels import LevelSteps
from tests.gui.grouped_graphs import grouped_mlp


@pytest.fixture(scope="module")
def stepped():
    loss, order, arrays, grouping = grouped_mlp(points=30)
    stepper = Stepper(loss, forward_steps=[order[i] for i in grouping.order])
    levels = LevelSteps(stepper, arrays, grouping)
    stepper.run_to_end()
    return order, stepper, levels


def first_weight(order):
    return next(v for v in order if v.label == "model.layers[0].neurons[0].w[0]")


def sums_by(stepper, node, key):
    """The contributions `node` received, summed by key(sender), the largest first."""
    sums = {}
    for step, c in stepper.received(node):
        entry = sums.setdefault(key(step.node), [0.0, 0])
        entry[0] += c.contribution
        entry[1] += 1
    return sorted(sums.items(), key=lambda kv: -abs(kv[1][0]))


def lines(html):
    return re.findall(r"<li>(.*?)</li>", html)


def test_a_parameter_used_by_30_samples_is_listed_by_instance(stepped):
    order, stepper, levels = stepped
    w = first_weight(order)
    received = stepper.received(w)
    assert len(received) == 32 > MANY_PATHS  # a sample each, two from the regulariser's w*w
    html = describe_node(w, stepper, "input", levels=levels)
    groups = levels.grouping.groups

    def key(sender):
        g = levels.consumer_group(sender)
        return groups[g].title if g >= 0 else f"node {id(sender)}"

    ranked = sums_by(stepper, w, key)
    assert len(ranked) == 31  # 30 instances; the two paths of w*w from one node
    shown = lines(html)
    assert len(shown) == SHOWN_GROUPS + 1
    for (title, (total, paths)), line in zip(ranked, shown[:SHOWN_GROUPS]):
        if title.startswith("node "):
            assert line.startswith("from w*w") or line.startswith("from model")
        else:
            assert line.startswith(f"from {title} (")
        assert line.endswith(f"({paths} path{'s' if paths > 1 else ''}): Σ {number(total)}")
    rest = ranked[SHOWN_GROUPS:]
    assert shown[-1] == (f"and {len(rest)} more ({sum(p for _, (_, p) in rest)} paths), "
                         f"summing to {number(sum(t for _, (t, _) in rest))}")
    assert "from 32 paths, summed by group" in html
    assert [abs(t) for _, (t, _) in ranked] == sorted((abs(t) for _, (t, _) in ranked),
                                                      reverse=True)


def test_without_groups_many_paths_are_listed_by_the_node_they_came_from(stepped):
    order, stepper, _ = stepped
    w = first_weight(order)
    html = describe_node(w, stepper, "input")
    ranked = sums_by(stepper, w, lambda sender: sender)
    shown = lines(html)
    assert len(shown) == SHOWN_GROUPS + 1 and len(ranked) == 31
    for (_, (total, _)), line in zip(ranked, shown[:SHOWN_GROUPS]):
        assert line.endswith(f"Σ {number(total)}")
    assert shown[-1].startswith(f"and {len(ranked) - SHOWN_GROUPS} more (")
    assert "summed by the node each came from" in html


def test_a_few_paths_are_still_one_line_each(stepped):
    order, stepper, levels = stepped
    bias = next(v for v in order if v.label == "model.layers[2].neurons[0].b")
    # the output's bias: once per sample, 30 paths; a hidden node inside one sample has few
    inner = next(v for v in order if v.parents and 1 < len(stepper.received(v)) <= MANY_PATHS)
    html = describe_node(inner, stepper, "intermediate", levels=levels)
    assert "one line per path" in html
    assert len(re.findall("<li>from ", html)) == len(stepper.received(inner))
    assert "summed by group" in describe_node(bias, stepper, "input", levels=levels)
