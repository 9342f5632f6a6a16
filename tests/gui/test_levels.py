"""Stepping at the level shown (gui/graph/levels.py): a collapsed group's forward and
backward are one step each, a node shown as itself one step, and whatever is expanded
when, the pass ends on backward()'s gradients."""

import pytest

from engine import parse
from engine.core.pitfalls import NO_SORT
from engine.core.stepping import Stepper
from engine.core.value import topological_order
from engine.numbers import number
from gui.graph.groups.model import Grouping, group_unit, quotient, unit_group
from gui.graph.levels import LevelSteps
from tests.gui.grouped_graphs import arrays_of_values, grouped_mlp


@pytest.fixture(scope="module")
def mlp():
    loss, order, arrays, grouping = grouped_mlp()
    for v in order:
        v.grad = 0.0
    loss.backward()
    want = [v.grad for v in order]
    for v in order:
        v.grad = 0.0
    return loss, order, arrays, grouping, want


def levels_of(mlp, expanded=(), engine=None):
    loss, order, arrays, grouping, _ = mlp
    walk = [order[i] for i in grouping.order]
    stepper = (Stepper(loss, forward_steps=walk) if engine is None
               else Stepper(loss, engine, forward_steps=walk))
    folded = {i for i, r in enumerate(arrays.roles) if r == "constant"}
    return LevelSteps(stepper, arrays, grouping, expanded, folded)


def grads(mlp):
    return [v.grad for v in mlp[1]]


def expected_counts(levels):
    """The steps the units say there are: a forward step per unit drawn (a folded
    constant shown as itself has none), the root step and a backward step per unit
    holding a node with a rule."""
    arrays, q = levels.arrays, levels.quotient
    drawn = [u for u in q.units if u < 0 or u not in levels.folded]
    with_rules = {q.unit_of[i] for i in range(len(arrays)) if arrays.parents[i]}
    return len(drawn), 1 + len(with_rules)


def all_groups(mlp):
    return set(range(len(mlp[3].groups)))


def mixed(mlp):
    """The stack and two of its instances open, one of them with its first layer too;
    the parameters' group open, its layers closed."""
    groups = mlp[3].groups
    instances = [g.id for g in groups if g.kind == "instance"]
    stack = next(g.id for g in groups if g.kind == "stack")
    inner = groups[instances[1]].children[0]
    return {stack, instances[1], instances[3], inner, 0}


@pytest.mark.parametrize("which", ["collapsed", "expanded", "mixed"])
def test_stepping_at_any_level_ends_on_backwards_gradients(mlp, which):
    expanded = {"collapsed": set(), "expanded": all_groups(mlp), "mixed": mixed(mlp)}[which]
    levels = levels_of(mlp, expanded)
    n_forward, n_backward = levels.counts()
    assert (n_forward, n_backward) == expected_counts(levels)
    taken = 0
    while levels.step():
        taken += 1
    assert taken == n_forward + n_backward
    assert levels.stepper.position == levels.stepper.total
    assert grads(mlp) == mlp[4]  # == on floats: to the bit
    assert levels.progress().startswith(f"backward {n_backward}/{n_backward} (done)")
    while levels.back():
        taken -= 1
    assert taken == 0 and levels.stepper.position == 0
    assert all(g == 0.0 for g in grads(mlp))


def test_collapsed_steps_are_the_units_in_order(mlp):
    """Each forward step at the collapsed level reveals one unit whole; each backward
    step applies the rules of one unit, the root step first."""
    levels = levels_of(mlp)
    q, stepper = levels.quotient, levels.stepper
    n = len(stepper.forward_steps)
    seen = []
    while levels.step() and stepper.position <= n:
        start, end = levels.current_span()
        units = {q.unit_of[levels.node_index(v)] for v in stepper.forward_steps[start:end]}
        assert units - {u for u in units if u in levels.folded} == {levels.current_unit()}
        assert levels.units_between(start, end) == units
        seen.append(levels.current_unit())
    drawn = [u for u in q.units if u < 0 or u not in levels.folded]
    assert seen == drawn  # in the quotient's order
    assert stepper.current.root and levels.progress() == "backward 1/" + \
        f"{levels.counts()[1]}"
    while levels.step():
        start, end = levels.current_span()
        units = {q.unit_of[levels.node_index(s.node)]
                 for s in stepper.backward_steps[start - n:end - n]}
        assert units == {levels.current_unit()} == levels.units_between(end, start)
    everything = levels.units_between(0, stepper.total)
    assert everything == {u for u in q.units}
    assert levels.units_between(5, 5) == set()


def test_an_ungrouped_graph_steps_as_the_stepper_does():
    """No groups: one step at the level shown is one step of the stepper, and the
    counter reads as the stepper's own, but for folded constants, which are skipped."""
    program = parse("x = 0.5\nw = -1.5\ny = tanh(x*w + 2*x)")
    order = topological_order(program.output)
    arrays = arrays_of_values(order)
    stepper = Stepper(program.output)
    levels = LevelSteps(stepper, arrays, Grouping.none(len(arrays)))
    assert levels.counts() == (len(stepper.forward_steps), len(stepper.backward_steps))
    while True:
        assert levels.progress() == stepper.progress()
        position = stepper.position
        if not levels.step():
            break
        assert stepper.position == position + 1
    folded = {i for i, r in enumerate(arrays.roles) if r == "constant"}
    assert folded  # the 2
    levels = LevelSteps(Stepper(program.output), arrays, Grouping.none(len(arrays)),
                        folded=folded)
    rests = []
    while levels.step():
        rests.append(levels.stepper.position)
    # the tab's rule: never rest just after a step that reveals nothing drawn
    n = len(order)
    assert rests == [p for p in range(1, levels.stepper.total + 1)
                     if p > n or (p - 1) not in folded]


def instance_step(levels, backward=True):
    """Step collapsed-level steps until the current unit is a collapsed instance (in
    the backward pass if `backward`); its group id."""
    n = len(levels.stepper.forward_steps)
    while levels.step():
        unit = levels.current_unit()
        if (unit < 0 and levels.grouping.groups[unit_group(unit)].kind == "instance"
                and (levels.stepper.position > n) == backward):
            return unit_group(unit)
    raise AssertionError("no instance step")


@pytest.mark.parametrize("backward", [True, False])
def test_expanding_the_group_just_stepped_goes_to_its_first_inner_step(mlp, backward):
    stack = next(g.id for g in mlp[3].groups if g.kind == "stack")
    levels = levels_of(mlp, {stack})
    g = instance_step(levels, backward)
    start, end = levels.current_span()
    title = mlp[3].groups[g].title
    before = levels.progress()
    position = levels.expand(g)
    assert start < position < end  # part of the group's steps undone
    levels.stepper.seek(position)
    assert levels.current_span()[0] == start  # its first inner step was just taken
    inner = levels.current_unit()
    assert inner != group_unit(g) and (inner >= 0 and mlp[3].ancestors(inner)[-1] == g or
                                       inner < 0 and mlp[3].groups[unit_group(inner)].parent
                                       == g)
    assert levels.progress().endswith(f" · inside {title}")
    assert levels.progress().split(" · ")[0] != before.split(" · ")[0]
    assert levels.step()  # Right steps inside it
    nxt = levels.current_unit()
    assert nxt != inner
    while levels.step():
        pass
    assert grads(mlp) == mlp[4]


def test_expanding_another_group_keeps_the_position(mlp):
    stack = next(g.id for g in mlp[3].groups if g.kind == "stack")
    levels = levels_of(mlp, {stack})
    g = instance_step(levels)
    other = next(h.id for h in mlp[3].groups if h.kind == "instance" and h.id != g)
    position = levels.stepper.position
    assert levels.expand(other) == position
    assert levels.current_unit() == group_unit(g)
    assert levels.expand(0) == position  # the parameters' group
    levels.stepper.seek(position)
    while levels.step():
        pass
    assert grads(mlp) == mlp[4]


def test_a_pass_that_is_done_stays_done_when_groups_open(mlp):
    """At the end of the backward pass, opening groups (the last one stepped, or every
    one: View → Expand to level) keeps the pass done, every gradient in."""
    stack = next(g.id for g in mlp[3].groups if g.kind == "stack")
    levels = levels_of(mlp, {stack})
    while levels.step():
        pass
    end = levels.stepper.total
    assert levels.stepper.position == end
    last = levels.current_unit()
    assert last < 0  # the last step taken was a collapsed group's
    assert levels.expand(unit_group(last)) == end
    assert levels.set_expanded(range(len(mlp[3].groups))) == end
    assert grads(mlp) == mlp[4]


def test_collapsing_the_group_the_position_is_inside_takes_its_step_whole(mlp):
    stack = next(g.id for g in mlp[3].groups if g.kind == "stack")
    levels = levels_of(mlp, {stack})
    g = instance_step(levels)
    _, end = levels.current_span()
    levels.stepper.seek(levels.expand(g))
    levels.step()
    assert levels.stepper.position < end
    assert levels.collapse(g) == end
    levels.stepper.seek(end)
    assert levels.current_unit() == group_unit(g)


def test_expanding_mid_pass_again_and_again_ends_on_backwards_gradients(mlp):
    """Open a group every few steps, close one now and then: the end is the same."""
    levels = levels_of(mlp)
    k = 0
    while True:
        k += 1
        unit = levels.current_unit()
        if unit is not None and unit < 0 and k % 3 == 0:
            levels.stepper.seek(levels.expand(unit_group(unit)))
        elif k % 11 == 0 and levels.expanded:
            levels.stepper.seek(levels.collapse(max(levels.expanded)))
        if not levels.step():
            break
    assert grads(mlp) == mlp[4]


def test_an_edge_into_a_collapsed_group_carries_the_sum_of_its_paths(mlp):
    """After an instance's backward step, each edge into it from a parameter carries
    Σ local × upstream over the operands it stands for, and says how many."""
    loss, order, arrays, grouping, _ = mlp
    stack = next(g.id for g in grouping.groups if g.kind == "stack")
    levels = levels_of(mlp, {stack, 0, 1, 2, 3})
    g = instance_step(levels)
    edges = [e for e in levels.quotient.edges if e[1] == group_unit(g)]
    assert edges
    several = [e for e in edges if len(e[2]) > 1]
    assert several  # a parameter used by more than one node of the sample
    for e in edges:
        total = 0.0
        for c, k in e[2]:  # the consumer's gradient was whole when its rule ran
            total += order[c].local_grads[k] * order[c].grad
        sent = levels.sent(e)
        assert (sent.total, sent.sent, sent.paths) == (total, len(e[2]), len(e[2]))
        assert levels.sent_text(e) == (f"Σ {number(total, 4)} "
                                       f"({len(e[2])} path{'s' if len(e[2]) > 1 else ''})")
    # expanded, the paths send one inner step after another
    _, end = levels.current_span()
    levels.stepper.seek(levels.expand(g))
    e = max(several, key=lambda e: len(e[2]))
    counts, texts = [], []
    while True:
        sent = levels.sent(e)
        counts.append(0 if sent is None else sent.sent)
        texts.append(levels.sent_text(e))
        if levels.stepper.position >= end:
            break
        levels.step()
    assert counts[0] < len(e[2]) and counts[-1] == len(e[2])
    assert counts == sorted(counts) and len(set(counts)) > 2
    for k, text in zip(counts, texts):
        assert text.endswith(f"({k} of {len(e[2])} paths)" if 0 < k < len(e[2]) else
                             f"({len(e[2])} paths)" if k else "") and (k == 0) == (not text)
    levels.stepper.seek(0)
    assert levels.sent(e) is None and levels.sent_text(e) == ""


def test_a_shown_parameter_edge_sums_what_reached_it(mlp):
    """Into a node shown as itself an edge is one operand: its sum is that operand's
    contribution, once the consumer's rule has run."""
    levels = levels_of(mlp, all_groups(mlp))
    while levels.step():
        pass
    q = levels.quotient
    edge = next(e for e in q.edges if e[1] >= 0 and mlp[2].parents[e[1]])
    (c, k), = edge[2]
    step = next(s for s in levels.stepper.backward_steps[1:]
                if s.node is mlp[1][c])
    assert levels.sent(edge).total == step.contributions[k].contribution
    assert levels.sent_text(edge).endswith("(1 path)")


def test_no_sort_breaks_a_group_into_runs_each_a_step(mlp):
    """Breadth first, a collapsed group's rules are not one run: each maximal run is a
    step, and the pass ends where no-sort's own pass ends."""
    levels = levels_of(mlp, engine=NO_SORT)
    q, stepper = levels.quotient, levels.stepper
    units = [q.unit_of[levels.node_index(s.node)] for s in stepper.backward_steps[1:]]
    runs = 1 + sum(1 for a, b in zip(units, units[1:]) if a != b)
    assert levels.counts()[1] == 1 + runs
    assert runs > len(set(units))  # some group's rules come in several runs
    seen = []
    while levels.step():
        if stepper.position > len(stepper.forward_steps) + 1:
            seen.append(levels.current_unit())
    assert seen == [u for k, u in enumerate(units) if k == 0 or units[k - 1] != u]
    end = grads(mlp)
    plain = Stepper(mlp[0], NO_SORT)
    plain.run_to_end()
    assert end == grads(mlp)


def test_the_level_is_the_innermost_expanded_group(mlp):
    loss, order, arrays, grouping, _ = mlp
    levels = levels_of(mlp, all_groups(mlp))
    assert levels.level() == -1
    while levels.step():
        unit = levels.current_unit()
        assert unit >= 0
        g = grouping.group_of[unit]
        assert levels.level() == g
        text = levels.progress()
        assert text.endswith(f" · inside {grouping.groups[g].title}") if g >= 0 else \
            "·" not in text


def test_a_quotient_made_elsewhere_is_used_as_given(mlp):
    expanded = mixed(mlp)
    q = quotient(mlp[2], mlp[3], expanded)
    levels = levels_of(mlp)
    levels.set_expanded(expanded, q)
    assert levels.quotient is q and levels.expanded == frozenset(expanded)
    assert levels.counts() == expected_counts(levels)


def test_a_units_state_follows_its_steps(mlp):
    """Collapsed: a unit is revealed by its forward step and not before; its backward
    step applies every one of its rules, none before."""
    levels = levels_of(mlp)
    q, stepper = levels.quotient, levels.stepper
    n = len(stepper.forward_steps)
    units = [u for u in q.units if u < 0 or u not in levels.folded]
    while levels.step():
        unit = levels.current_unit()
        if stepper.position <= n:
            k = units.index(unit)
            assert all(levels.revealed(u) for u in units[:k + 1])
            assert not any(levels.revealed(u) for u in units[k + 1:])
            assert levels.rules_applied(unit)[0] == 0
        elif stepper.position > n + 1:
            done, total = levels.rules_applied(unit)
            assert done == total > 0
            levels.back()
            assert levels.rules_applied(unit) == (0, total)
            levels.step()
    assert all(levels.rules_applied(u)[0] == levels.rules_applied(u)[1] for u in q.units)
    leaves = [u for u in q.units if u >= 0 and not mlp[2].parents[u]]
    assert leaves and all(levels.rules_applied(u) == (0, 0) for u in leaves)
    params = next(u for u in q.units if u < 0 and mlp[3].groups[unit_group(u)].kind == "names")
    assert levels.rules_applied(params) == (0, 0)  # a group of leaves has no rule


@pytest.mark.parametrize("engine", [None, NO_SORT])
def test_steps_prepared_ahead_are_the_steps_worked_out_at_once(mlp, engine):
    """A picture drawn in the background has its steps worked out ahead
    (`prepare_steps`); swapped in, they are the ones `set_expanded` works out itself,
    and a stale preparation (another quotient) is not used."""
    expanded = mixed(mlp)
    q = quotient(mlp[2], mlp[3], expanded)
    fresh = levels_of(mlp, engine=engine)
    fresh.set_expanded(expanded, q)
    ahead = levels_of(mlp, engine=engine)
    pieces = list(ahead.prepare_steps(q))
    assert len(pieces) >= 1  # the forward's stops, then the backward's
    ahead.set_expanded(expanded, q)
    assert ahead._stops == fresh._stops and ahead.counts() == fresh.counts()
    other = levels_of(mlp, engine=engine)
    list(other.prepare_steps(quotient(mlp[2], mlp[3], all_groups(mlp))))
    other.set_expanded(expanded, q)  # prepared for another picture: worked out again
    assert other._stops == fresh._stops


def test_levels_made_in_steps_are_the_levels_made_at_once(mlp):
    loss, order, arrays, grouping, _ = mlp
    walk = [order[i] for i in grouping.order]
    stepper = Stepper(loss, forward_steps=walk)
    folded = {i for i, r in enumerate(arrays.roles) if r == "constant"}
    expanded = mixed(mlp)
    at_once = LevelSteps(stepper, arrays, grouping, expanded, folded)
    index = {v: i for i, v in enumerate(stepper.forward_steps)}  # grouped.Shown's
    steps = LevelSteps.made_steps(stepper, arrays, grouping, expanded, folded, index=index)
    pieces = 0
    while True:
        try:
            next(steps)
            pieces += 1
        except StopIteration as done:
            levels = done.value
            break
    assert pieces > 1
    assert levels._stops == at_once._stops and levels.expanded == at_once.expanded
    assert levels._rule_step == at_once._rule_step
    assert levels._backward_nodes == at_once._backward_nodes
    assert levels.counts() == at_once.counts()
