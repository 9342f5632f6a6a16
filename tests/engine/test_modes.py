"""Forward mode against reverse mode: same gradients, and a sweep that can be stopped."""

import math

import pytest

from engine.core.forward_mode import Dual, forward_gradient, jvp
from engine.lesson.modes import (
    SIZES,
    Problem,
    SweepProgress,
    SweepRow,
    break_even,
    break_even_words,
    forward_mode_gradient,
    passes_table,
    reverse_mode_gradient,
    sweep_rows,
    timing_sweep,
)


@pytest.mark.parametrize("n", [n for n in SIZES if n <= 800])
def test_forward_and_reverse_gradients_agree(n):
    problem = Problem.make(n)
    forward, reverse = forward_mode_gradient(problem), reverse_mode_gradient(problem)
    assert len(forward) == len(reverse) == n
    assert max(abs(f - r) for f, r in zip(forward, reverse)) <= 1e-12
    assert any(abs(g) > 1e-3 for g in reverse)  # a real gradient, not all zeros


@pytest.mark.slow
def test_forward_and_reverse_agree_at_1600():
    problem = Problem.make(1600)
    forward, reverse = forward_mode_gradient(problem), reverse_mode_gradient(problem)
    assert max(abs(f - r) for f, r in zip(forward, reverse)) <= 1e-12


def test_dual_rules_match_calculus():
    x = 0.7
    cases = [
        (lambda v: v[0] * v[0] * v[0], 3 * x * x),
        (lambda v: (v[0] ** 3) / (v[0] + 2.0), (3 * x**2 * (x + 2) - x**3) / (x + 2) ** 2),
        (lambda v: 2.0 / v[0] - v[0], -2 / x**2 - 1),
        (lambda v: 1.0 - v[0].tanh(), -(1 - math.tanh(x) ** 2)),
        (lambda v: v[0].exp().log() + v[0].sigmoid(),
         1 + math.exp(-x) / (1 + math.exp(-x)) ** 2),
        (lambda v: (-v[0]).relu() + v[0].relu(), 1.0),
    ]
    for f, slope in cases:
        assert jvp(f, [x], [1.0])[1] == pytest.approx(slope, rel=1e-14)


def test_forward_gradient_of_the_seeds_neuron():
    def loss(p):
        w1, w2, b = p
        return ((w1 * 1.0 + w2 * 2.0 + b).tanh() - 1.0) ** 2
    assert forward_gradient(loss, [0.5, -0.3, 0.1]) == [-2.0, -4.0, -2.0]
    assert repr(Dual(1.0, 2.0)) == "Dual(primal=1.0, tangent=2.0)"


def test_sweep_yields_progress_and_one_row_per_size():
    records = list(timing_sweep(sizes=(2, 5, 10), repeats=2))
    rows = [r for r in records if isinstance(r, SweepRow)]
    assert [r.n for r in rows] == [2, 5, 10]
    assert all(isinstance(r, SweepProgress) for r in records if not isinstance(r, SweepRow))
    assert records[-2].done == records[-2].total  # the last progress is complete
    for r in rows:
        assert r.forward_ms > 0 and r.reverse_ms > 0
        assert r.ratio == pytest.approx(r.forward_ms / r.reverse_ms)
        assert r.max_difference <= 1e-12


def test_sweep_stops_when_no_longer_iterated():
    sweep = timing_sweep(sizes=(400, 800), repeats=3)
    first = next(sweep)
    assert isinstance(first, SweepProgress) and first.n == 400
    sweep.close()  # a caller stops by no longer iterating


def test_passes_table_is_computed():
    rows = passes_table()
    assert [(r.parameters, r.forward_passes, r.reverse_passes) for r in rows] == [
        (2, 2, 1), (100, 100, 1), (10_000, 10_000, 1), (1_000_000, 1_000_000, 1)]


def test_break_even_interpolates_on_log_scales():
    rows = [SweepRow(2, 0.5, 1.0, 0.5, 0.0), SweepRow(8, 2.0, 1.0, 2.0, 0.0)]
    assert break_even(rows) == pytest.approx(4.0)
    assert break_even([SweepRow(2, 3.0, 1.0, 3.0, 0.0)]) == 2.0
    assert break_even([SweepRow(2, 0.5, 1.0, 0.5, 0.0)]) is None


def _row(n, ratio):
    return SweepRow(n, ratio, 1.0, ratio, 0.0)


def test_break_even_between_two_sizes_is_fractional_and_said_in_whole_counts():
    # ratio 0.8 at N = 2 and 2.0 at N = 5: the log ratio reaches 0 a fraction
    # ln 1.25 / ln 2.5 of the way along log N, at N = 2 · 2.5^(ln 1.25 / ln 2.5) = 2.5
    rows = [_row(2, 0.8), _row(5, 2.0), _row(10, 4.0)]
    at = break_even(rows)
    assert at == pytest.approx(2.5)
    words = break_even_words(rows)
    assert words.at == at and words.label == "curves cross at N ≈ 2.5"
    assert words.sentence == (
        "The timing curves cross at N ≈ 2.5 (interpolated on the log-log plot between the "
        "sizes timed, 2 and 5); a network has a whole number of parameters, so from N = 3 "
        "on reverse mode is the cheaper.")
    # the page's kind of figure: ≈ 2.37
    rows = [_row(2, 0.854), _row(5, 2.0)]
    assert f"{break_even(rows):.3g}" == "2.37"
    assert "cross at N ≈ 2.37" in break_even_words(rows).sentence
    assert "from N = 3 on" in break_even_words(rows).sentence


def test_break_even_at_the_smallest_size_and_never():
    words = break_even_words([_row(2, 1.07), _row(5, 2.2)])
    assert words.at == 2.0 and words.label == "reverse cheaper from N = 2"
    assert words.sentence == ("Reverse mode is already as cheap or cheaper at the smallest "
                              "size timed, N = 2.")
    words = break_even_words([_row(2, 0.5), _row(5, 0.9)])
    assert words.at is None and words.label == ""
    assert words.sentence == "Forward mode was the cheaper at every size timed."


def test_break_even_of_measured_rows_lies_where_the_ratio_crosses_one():
    rows = sweep_rows(sizes=(2, 5, 10), repeats=1)
    words = break_even_words(rows)
    if rows[0].ratio >= 1.0:
        assert words.at == 2.0
    elif words.at is not None:
        below = max((r for r in rows if r.n < words.at), key=lambda r: r.n)
        above = min((r for r in rows if r.n > words.at), key=lambda r: r.n)
        assert below.ratio < 1.0 <= above.ratio
