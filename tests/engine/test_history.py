"""LossHistory: every epoch counted, rises as `rises` counts them, a bounded curve that
keeps each bucket's extremes."""

import math

import numpy as np
import pytest

from engine.lesson.history import LossHistory
from engine.lesson.nn import rises


def test_a_short_run_keeps_every_loss_exactly():
    losses = [3.0, 2.0, 2.5, 0.0, 2.4, math.inf]
    history = LossHistory(capacity=8)
    history.extend(losses[:2])
    history.extend(losses[2:])
    x, y = history.points()
    # zero and infinity have no place on a log axis: left out of the curve, not the count
    assert x.tolist() == [1.0, 2.0, 3.0, 5.0]
    assert y.tolist() == [3.0, 2.0, 2.5, 2.4]
    assert history.epochs == 6 and history.last == math.inf
    assert (history.rises, history.largest_rise) == (2, 2.4)  # 2 -> 2.5, 0 -> 2.4


def test_rises_match_the_whole_list_whatever_the_batches():
    rng = np.random.default_rng(3)
    losses = rng.uniform(0.1, 2.0, 1000).tolist()
    history = LossHistory(capacity=16)
    for start in range(0, 1000, 37):
        history.extend(losses[start:start + 37])
    assert (history.rises, history.largest_rise) == rises(losses)


def test_a_long_run_is_bounded_and_keeps_every_bucket_extremes():
    rng = np.random.default_rng(5)
    losses = rng.uniform(1.0, 2.0, 100_000)
    losses[77_777] = 50.0   # a spike
    losses[12_345] = 1e-3   # a dip
    history = LossHistory(capacity=64)
    for start in range(0, losses.size, 999):
        history.extend(losses[start:start + 999])
    x, y = history.points()
    assert len(x) <= 128
    assert history.width == 2048  # 100,000 epochs in 64 buckets: 49 of width 2,048
    assert (77_778.0, 50.0) in zip(x.tolist(), y.tolist())  # epochs count from 1
    assert (12_346.0, 1e-3) in zip(x.tolist(), y.tolist())
    assert np.all(np.diff(x) > 0)
    for b in range(49):  # each bucket's points are its own lowest and highest loss
        part = losses[b * 2048:(b + 1) * 2048]
        inside = (x > b * 2048) & (x <= (b + 1) * 2048)
        assert sorted(y[inside].tolist()) == [part.min(), part.max()]


def test_capacity_must_split_in_pairs():
    with pytest.raises(ValueError):
        LossHistory(capacity=7)


def test_an_empty_history_has_no_points():
    x, y = LossHistory().points()
    assert x.size == 0 and y.size == 0
