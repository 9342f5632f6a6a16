"""The micrograd comparison in benchmarks/ times the same work on both sides: the same
losses epoch by epoch, the same gradients. (Its timings are never asserted.)"""

import pytest

from benchmarks.peers import (
    MicrogradValue,
    OurValue,
    deep_recursion,
    make_parameters,
    wide_sum,
    xor_epoch,
)


def test_both_engines_train_the_same_network_the_same_way():
    ours, theirs = make_parameters(OurValue), make_parameters(MicrogradValue)
    for _ in range(200):
        assert xor_epoch(ours) == pytest.approx(xor_epoch(theirs), rel=1e-12)
    assert [p.data for p in ours] == pytest.approx([p.data for p in theirs], rel=1e-10)


def test_both_engines_give_the_same_gradient_of_the_wide_sum():
    # d/da_999 of Σ a_i b_i is b_999 = 1 - 0.999
    assert wide_sum(OurValue) == pytest.approx(0.001, rel=1e-9)
    with deep_recursion():
        assert wide_sum(MicrogradValue) == pytest.approx(0.001, rel=1e-9)
