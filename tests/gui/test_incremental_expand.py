"""Opening and closing groups without laying out or scanning the whole graph again: the
quotient made from the one before (gui/graph/quotients.py) is the one made from scratch,
for any sequence of opens, closes, levels and reveals; and a picture laid out again from
the one before (gui/graph/layout/reuse.py) keeps the drawing's standard."""

import random

import pytest

from gui.graph.grouped import Shown, renumbered
from gui.graph.groups import arrays_of, group_graph
from gui.graph.groups.model import quotient
from tests.graph_models import graph_of, microgpt_step, micrograd_mlp


@pytest.fixture(scope="module", params=["mlp", "gpt"])
def grouped(request):
    root = micrograd_mlp(8).loss if request.param == "mlp" else microgpt_step(positions=3).loss
    nodes, roles = graph_of(root)
    arrays = arrays_of(nodes, roles)
    grouping = group_graph(arrays, threshold=100)
    assert len(grouping.groups) > 10
    return renumbered(arrays, grouping)


def _made(shown: Shown) -> Shown:
    for _ in shown.quotient_steps():
        pass
    return shown


def _moves(shown: Shown, rng: random.Random):
    """A random next set of open groups, as the window's actions make them."""
    groups = shown.groups
    choice = rng.random()
    if choice < 0.45:
        closed = [g.id for g in groups if g.id not in shown.expanded]
        return shown.expanding(rng.choice(closed)) if closed else set()
    if choice < 0.75 and shown.expanded:
        return shown.collapsing(rng.choice(sorted(shown.expanded)))
    if choice < 0.9:
        return shown.revealing(rng.randrange(len(shown.arrays)))
    return shown.to_level(rng.randrange(4))


@pytest.mark.parametrize("seed", range(3))
def test_a_quotient_made_from_the_one_before_is_the_one_made_from_scratch(grouped, seed):
    arrays, grouping = grouped
    rng = random.Random(seed)
    shown = _made(Shown(None, arrays, grouping, set()))
    for _ in shown.bucket_steps():
        pass
    assert shown.shared.buckets.done
    # every operand held inside a group is filed once, under the innermost group that
    # holds both its ends
    filed = [op for ops in shown.shared.buckets.inside.values() for op in ops]
    assert len(filed) == len(set(filed))
    for g, ops in shown.shared.buckets.inside.items():
        for c, k in ops:
            both = [h for h, h2 in zip(grouping.ancestors(c),
                                       grouping.ancestors(arrays.parents[c][k])) if h == h2]
            assert both and both[-1] == g
    held = sum(1 for c, ps in enumerate(arrays.parents) for p in ps
               if set(grouping.ancestors(c)) & set(grouping.ancestors(p)))
    assert len(filed) == held
    changed = 0
    for _ in range(40):
        expanded = _moves(shown, rng)
        shown.shared.quotients.clear()  # made from the one before, not found kept
        following = shown.opened(expanded)
        assert following._before is shown
        _made(following)
        plain = quotient(arrays, grouping, set(expanded))
        assert following.quotient.units == plain.units
        assert following.quotient.unit_of == plain.unit_of
        assert following.quotient.edges == plain.edges  # the same edges, in the same order
        changed += following.quotient.edges != shown.quotient.edges
        shown = following
    assert changed > 20


def test_a_set_of_open_groups_seen_before_reuses_its_quotient(grouped):
    arrays, grouping = grouped
    shown = _made(Shown(None, arrays, grouping, set()))
    g = grouping.top()[0]
    opened = _made(shown.opened(shown.expanding(g)))
    again = _made(opened.opened(set()))
    assert again.quotient is shown.quotient
    assert again.quotient.edges == quotient(arrays, grouping, set()).edges
