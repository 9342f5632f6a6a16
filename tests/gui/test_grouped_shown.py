"""What a grouped graph shows, without a window: the renumbered grouping keeps every group
a run, and the quotient made a slice at a time is the plain one of model.py."""

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
    assert grouping.groups
    return arrays, grouping


def test_renumbered_groups_are_runs_and_the_graph_is_the_same(grouped):
    arrays, grouping = grouped
    new_arrays, new_grouping = renumbered(arrays, grouping)
    assert new_grouping.order == list(range(len(arrays)))
    old = grouping.order
    for place, i in enumerate(old):  # node i is now node `place`, with the same parents
        assert [old[p] for p in new_arrays.parents[place]] == list(arrays.parents[i])
        assert new_arrays.labels[place] == arrays.labels[i]
    assert all(p < i for i, ps in enumerate(new_arrays.parents) for p in ps)
    for g in new_grouping.groups:
        inside = {i for i in range(len(arrays)) if g.id in new_grouping.ancestors(i)}
        assert inside == set(range(g.first, g.last)) and len(inside) == g.members


def test_the_sliced_quotient_is_model_quotient(grouped):
    arrays, grouping = renumbered(*grouped)
    rng = random.Random(4)
    ids = [g.id for g in grouping.groups]
    for expanded in (set(), set(ids), set(rng.sample(ids, len(ids) // 3))):
        shown = Shown(None, arrays, grouping, expanded)
        for _ in shown.quotient_steps():
            pass
        plain = quotient(arrays, grouping, expanded)
        assert shown.quotient.units == plain.units
        assert shown.quotient.unit_of == plain.unit_of
        assert sorted(shown.quotient.edges) == sorted(plain.edges)
