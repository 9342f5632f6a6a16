"""A stepper walking another topological order than the reference one (a grouped graph
is walked group by group) still ends on `backward()`'s gradients, to the bit."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.engines import CORRECT
from engine.core.pitfalls import NO_SORT, NO_ZERO_GRAD, OVERWRITE
from engine.core.stepping import Stepper, backward_plan
from engine.core.value import Value, topological_order
from engine.lesson.nn import MLP


@st.composite
def graphs(draw):
    """A random graph of sums, products and tanh over leaves of very different sizes
    (so that the order of a sum changes its last bits), with much sharing: every node
    feeds the output, many feed several nodes."""
    n_leaves = draw(st.integers(1, 6))
    nodes = [Value(draw(st.sampled_from([1, -1])) * 10.0 ** draw(st.floats(-4, 4)),
                   label=f"x{i}") for i in range(n_leaves)]
    for _ in range(draw(st.integers(1, 40))):
        a = nodes[draw(st.integers(0, len(nodes) - 1))]
        b = nodes[draw(st.integers(0, len(nodes) - 1))]
        kind = draw(st.integers(0, 4))
        if kind == 0:
            nodes.append(a + b)
        elif kind == 1:
            nodes.append(a * b * 0.37)
        elif kind == 2:
            nodes.append((a * 1e-3).tanh() + b)
        elif kind == 3:
            nodes.append(a - b * 1.7)
        else:
            nodes.append(a * 3.1)
    out = nodes[-1]
    for v in nodes[n_leaves:-1]:
        out = out + v * draw(st.floats(-2, 2))
    return out


def random_topological_order(output: Value, rnd: random.Random) -> list[Value]:
    """A topological order of `output`'s graph picked at random (Kahn's algorithm, a
    random ready node each time)."""
    nodes = topological_order(output)
    waiting = {v: len({id(p) for p in v.parents}) for v in nodes}
    consumers = {v: [] for v in nodes}
    for v in nodes:
        for p in {id(p): p for p in v.parents}.values():
            consumers[p].append(v)
    ready = [v for v in nodes if not v.parents]
    order = []
    while ready:
        v = ready.pop(rnd.randrange(len(ready)))
        order.append(v)
        for c in consumers[v]:
            waiting[c] -= 1
            if waiting[c] == 0:
                ready.append(c)
    return order


def backward_grads(output: Value) -> list[float]:
    nodes = topological_order(output)
    for v in nodes:
        v.grad = 0.0
    output.backward()
    grads = [v.grad for v in nodes]
    for v in nodes:
        v.grad = 0.0
    return grads


def stepped_grads(stepper: Stepper) -> list[float]:
    stepper.run_to_end()
    grads = [v.grad for v in topological_order(stepper.output)]
    return grads


def plain_sums(output: Value, order: list[Value]) -> list[float]:
    """Each node's gradient when contributions are added as they arrive in `order`'s
    rule order (what a plan that ignored the reference order would give)."""
    grads = {output: 1.0}
    for node in reversed(order):
        for p, local in zip(node.parents, node.local_grads):
            grads[p] = grads.get(p, 0.0) + local * grads.get(node, 0.0)
    return [grads.get(v, 0.0) for v in topological_order(output)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs(), st.randoms(use_true_random=False))
def test_any_topological_order_ends_on_backwards_gradients_to_the_bit(output, rnd):
    order = random_topological_order(output, rnd)
    want = backward_grads(output)
    assert stepped_grads(Stepper(output, forward_steps=order)) == want  # == : bit for bit
    stepper = Stepper(output, forward_steps=order)
    assert stepper.forward_steps == order
    known = Stepper(output, forward_steps=order, reference=topological_order(output))
    assert stepped_grads(known) == want
    sliced = Stepper.in_slices(output, CORRECT, 7, order)
    while True:
        try:
            next(sliced)
        except StopIteration as done:
            assert stepped_grads(done.value) == want
            break


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs(), st.randoms(use_true_random=False))
def test_each_step_before_and_after_are_what_the_node_holds(output, rnd):
    """Stepping through, each contribution's `before` is the parent's gradient at that
    moment, `after` what it holds next; stepping back restores every state exactly."""
    stepper = Stepper(output, forward_steps=random_topological_order(output, rnd))
    nodes = stepper.forward_steps
    states = [[v.grad for v in nodes]]
    while stepper.step():
        step = stepper.current
        if not isinstance(step, Value):
            held = {}
            for c in step.contributions:
                held.setdefault(c.parent, c.before)
                assert c.before == held[c.parent]
                held[c.parent] = c.after
                assert c.contribution == c.local * c.upstream
                assert c.after == pytest.approx(c.before + c.contribution, rel=1e-12,
                                                abs=1e-300 + 1e-12 * abs(c.contribution))
            for parent, grad in held.items():
                assert parent.grad == grad
        states.append([v.grad for v in nodes])
    while stepper.back():
        assert [v.grad for v in nodes] == states[stepper.position]


def mlp_loss(points: int, seed: int = 3) -> tuple[Value, MLP, list[list[Value]]]:
    rnd = random.Random(seed)
    model = MLP((2, 8, 8, 1), seed=seed)
    xs = [[Value(rnd.uniform(-1, 1)), Value(rnd.uniform(-1, 1))] for _ in range(points)]
    ys = [rnd.choice((-1.0, 1.0)) for _ in range(points)]
    total = Value(0.0)
    for x, y in zip(xs, ys):
        total = total + (1 + -y * model(x)).relu()
    reg = Value(0.0)
    for p in model.parameters():
        reg = reg + p * p
    return total * (1.0 / points) + 1e-4 * reg, model, xs


def grouped_like_order(output: Value, model: MLP, xs: list[list[Value]]) -> list[Value]:
    """The order a grouping of an MLP walks: the parameters first (their group), then
    the samples' passes, the last sample first, then the rest of the loss."""
    reference = topological_order(output)
    params = {id(p) for p in model.parameters()}
    sample_of = {}
    for s, x in enumerate(xs):
        for v in x:
            sample_of[id(v)] = {s}
    for v in reference:
        if v.parents:
            tags = set().union(*(sample_of.get(id(p), set()) for p in v.parents))
            sample_of[id(v)] = tags
    by_sample = {}
    rest = []
    for v in reference:
        if id(v) in params:
            continue
        tags = sample_of.get(id(v), set())
        (by_sample.setdefault(next(iter(tags)), []) if len(tags) == 1 else rest).append(v)
    order = list(model.parameters())
    for s in sorted(by_sample, reverse=True):
        order += by_sample[s]
    return order + rest


def test_an_mlp_walked_by_group_ends_on_backwards_gradients():
    output, model, xs = mlp_loss(30)
    order = grouped_like_order(output, model, xs)
    assert len(order) == len(topological_order(output))
    want = backward_grads(output)
    # the test has teeth: adding as contributions arrive would not give them
    assert plain_sums(output, order) != want
    stepper = Stepper(output, forward_steps=order)
    reference = topological_order(output)
    # the plan's own view of the end agrees, before a step is taken
    assert [stepper.final_grad(v) for v in reference] == want
    assert stepped_grads(stepper) == want


def test_the_reference_order_gives_the_plan_it_always_gave():
    """Given or not, the reference order's plan adds every contribution as it arrives:
    each `after` is exactly `before + contribution`, as before there was any other
    order."""
    output, _, _ = mlp_loss(5)
    plans = [backward_plan(output),
             Stepper(output).backward_steps,
             Stepper(output, forward_steps=topological_order(output)).backward_steps]
    for steps in plans:
        for step in steps[1:]:
            for c in step.contributions:
                assert c.after == c.before + c.contribution
    assert [[(c.parent, c.after) for c in s.contributions] for s in plans[0]] == \
        [[(c.parent, c.after) for c in s.contributions] for s in plans[2]]


def test_an_order_that_is_not_topological_is_refused():
    x = Value(2.0, label="x")
    y = x * x
    z = y + x
    with pytest.raises(ValueError, match="not a topological order"):
        Stepper(z, forward_steps=[x, z, y])
    with pytest.raises(ValueError, match="not a topological order"):
        Stepper(z, forward_steps=[x, y])


@pytest.mark.parametrize("engine", [OVERWRITE, NO_SORT, NO_ZERO_GRAD])
def test_the_classic_bugs_keep_their_own_orders(engine):
    """The bugs' steps under a grouped order: no-sort still walks breadth first (its
    plan does not depend on the forward order), overwrite and no-zero-grad apply the
    rules in the reverse of the order walked, and every step still says how it departs
    from the correct engine."""
    output, model, xs = mlp_loss(4)
    order = grouped_like_order(output, model, xs)
    grouped = Stepper(output, engine, forward_steps=order)
    reference = Stepper(output, engine)
    rules = [s.node for s in grouped.backward_steps[1:]]
    if engine is NO_SORT:
        assert rules == [s.node for s in reference.backward_steps[1:]]
        assert [s.problem for s in grouped.backward_steps] == \
            [s.problem for s in reference.backward_steps]
    else:
        assert rules == [v for v in reversed(order) if v.parents]
    if engine is NO_ZERO_GRAD:  # within one pass it is the correct engine's
        assert stepped_grads(grouped) == backward_grads(output)


def test_made_in_slices_the_work_before_the_plan_is_sliced_too():
    """With another order than the reference one (given), the ranking and the check of
    the order come in slices as well: more yields than the plan's own."""
    output, model, xs = mlp_loss(6)
    order = grouped_like_order(output, model, xs)
    reference = topological_order(output)
    plain = list(Stepper.in_slices(output, CORRECT, 50, reference, reference))
    grouped = list(Stepper.in_slices(output, CORRECT, 50, order, reference))
    n = len(order)
    assert len(grouped) >= len(plain) + 2 * (n // 50)
    assert [d for d, _ in grouped] == sorted(d for d, _ in grouped)  # progress only grows


@pytest.mark.parametrize("n", [3_000, 20_000])
def test_a_value_used_by_thousands_in_reverse_order(n):
    """x used by n products, walked so that its contributions all arrive in the reverse
    of the reference's order: up to EXACT_UP_TO of them are added in the reference's
    order (to the bit), the rest as they come (each in O(1), so 20,000 do not take
    n² additions), close to backward()'s."""
    from engine.core.stepping import EXACT_UP_TO

    x = Value(0.3, label="x")
    constants = [Value(1.0 + k / n) for k in range(n)]
    terms = [x * c for c in constants]
    out = terms[0]
    adds = []
    for t in terms[1:]:
        out = out + t
        adds.append(out)
    order = [x, *constants, *terms[::-1], *adds]
    want = backward_grads(out)
    stepper = Stepper(out, forward_steps=order)
    got = stepped_grads(stepper)
    reference = topological_order(out)
    x_at = reference.index(x)
    if n <= EXACT_UP_TO:
        assert plain_sums(out, order) != want  # the order does reverse the sum
        assert got == want
    else:
        assert got[x_at] == pytest.approx(want[x_at], rel=1e-12)
        assert got[:x_at] + got[x_at + 1:] == want[:x_at] + want[x_at + 1:]
