"""The network on the engine, XOR training, and `main.py train`."""

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.lesson.history import LossHistory
from engine.lesson.nn import (
    MLP,
    XOR,
    decision_surface,
    forward_numpy,
    initial_parameters,
    not_learned,
    output_activation,
    predictions,
    rises,
    train_xor,
    unpack,
)

ROOT = Path(__file__).resolve().parents[2]

# The lesson's XOR tables, as it prints them
LESSON_LOSSES = {1: "1.766174", 100: "0.938014", 500: "0.729389", 1000: "0.461485",
                 2000: "0.001065", 3000: "0.000541"}
LESSON_PREDICTIONS = ["+0.0003", "+0.9824", "+0.9848", "+0.0001"]


@pytest.fixture(scope="module")
def default_run():
    return list(train_xor())


def test_the_default_start_is_the_lessons():
    lesson = np.random.default_rng(0).uniform(-1, 1, 9).tolist()
    assert initial_parameters((2, 2, 1), 0) == lesson
    assert [p.data for p in MLP((2, 2, 1), "tanh", seed=0).parameters()] == lesson
    # other seeds draw from the same distribution, as many as the network has
    assert initial_parameters((2, 3, 1), 7) == np.random.default_rng(7).uniform(
        -1, 1, 13).tolist()


def test_default_run_is_the_lessons_to_every_printed_digit(default_run):
    assert len(default_run) == 3000
    losses = [r.loss for r in default_run]
    assert {e: f"{losses[e - 1]:.6f}" for e in LESSON_LOSSES} == LESSON_LOSSES
    shown = [f"{p:+.4f}" for _, p, _ in predictions(default_run[-1].parameters, 2, "tanh")]
    assert shown == LESSON_PREDICTIONS
    # the same from the start given explicitly, as the lesson gives it
    again = list(train_xor(start=np.random.default_rng(0).uniform(-1, 1, 9).tolist()))
    assert [r.loss for r in again] == losses


def test_plateau_then_collapse(default_run):
    losses = np.array([r.loss for r in default_run])
    assert losses[:1000].min() == losses[999]  # still falling slowly, on the plateau
    assert round(losses[999], 6) == 0.461485
    assert np.argmax(losses < 0.1) + 1 == 1031  # then it collapses within 120 epochs
    assert np.argmax(losses < 0.01) + 1 == 1119


def test_rises_as_the_lesson_counts_them(default_run):
    count, largest = rises([r.loss for r in default_run])
    assert count == 27  # the lesson: 27 of 2,999
    # the lesson's largest rise is 0.010974: no order of the four rows' gradients gives
    # it (see engine.lesson.nn.xor_loss and the report); this order gives
    assert f"{largest:.6f}" == "0.010852"


def test_one_seed_one_run(default_run):
    again = list(train_xor())
    assert again == default_run  # every loss and parameter, to the bit
    assert list(train_xor(seed=12))[-1] != default_run[-1]
    other = list(train_xor(epochs=1, seed=12))[0]
    assert f"{other.loss:.6f}" != LESSON_LOSSES[1]


def test_resuming_from_parameters_continues_the_same_run(default_run):
    first = list(train_xor(epochs=1000))
    rest = list(train_xor(epochs=2000, start=first[-1].parameters))
    assert [r.loss for r in first + rest] == [r.loss for r in default_run]
    assert rest[-1].parameters == default_run[-1].parameters


def test_divergence_stops_with_the_epoch():
    # five relu units of weights near 1e200 send ±inf to the output unit: inf - inf
    run = list(train_xor(epochs=50, lr=1e200, seed=0, hidden=5, activation="relu"))
    assert run[-1].diverged and run[-1].epoch == 2
    assert not math.isfinite(run[-1].loss)
    assert not any(r.diverged for r in run[:-1])


def test_numpy_forward_matches_the_value_network():
    model = MLP((2, 3, 1), "sigmoid", seed=5)
    params = [p.data for p in model.parameters()]
    points = np.array([x for x, _ in XOR] + [(0.3, 0.7)])
    ours = [model(p).data for p in points.tolist()]
    assert forward_numpy(params, 3, "sigmoid", points) == pytest.approx(ours, abs=1e-14)
    surface = decision_surface(params, 3, "sigmoid", resolution=8)
    axis = np.linspace(-0.25, 1.25, 8)
    for i, j in [(0, 7), (7, 0), (2, 5), (6, 1)]:  # row i is x2, column j is x1
        expected = forward_numpy(params, 3, "sigmoid", np.array([[axis[j], axis[i]]]))[0]
        assert surface[i, j] == pytest.approx(expected, abs=1e-15)  # one grid, one point
    assert surface[0, 7] != surface[7, 0]


# relu(x1) + relu(-x2): hidden unit 1 = relu(1*x1 + 0*x2 + 0), unit 2 = relu(0*x1 - x2 + 0),
# output = sigmoid(h1 + h2 + 0) (under relu hidden units the output is a sigmoid); the
# order is MLP.parameters()'s, (w, w, b) per neuron
HAND_RELU = [1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 1.0, 0.0]


def test_numpy_relu_is_zero_below_zero():
    points = np.array([[0.5, -0.25], [-0.25, 0.5], [-1.0, -2.0], [2.0, 3.0]])
    sums = np.array([0.75, 0.0, 2.0, 2.0])  # h1 + h2: each relu is 0 below 0
    assert forward_numpy(HAND_RELU, 2, "relu", points).tolist() == pytest.approx(
        (1 / (1 + np.exp(-sums))).tolist(), abs=1e-15)


def test_decision_surface_rows_are_x2_and_columns_x1():
    surface = decision_surface(HAND_RELU, 2, "relu", resolution=3)  # axis -0.25, 0.5, 1.25
    sums = np.array([[0.25, 0.75, 1.5], [0.0, 0.5, 1.25], [0.0, 0.5, 1.25]])
    assert np.allclose(surface, 1 / (1 + np.exp(-sums)), rtol=0, atol=1e-15)


def test_relu_hidden_units_get_a_sigmoid_output_unit():
    assert [output_activation(a) for a in ("tanh", "relu", "sigmoid")] == \
        ["tanh", "sigmoid", "sigmoid"]
    model = MLP((2, 3, 1), "relu", seed=2)
    assert [n.activation for layer in model.layers for n in layer.neurons] == \
        ["relu", "relu", "relu", "sigmoid"]
    assert repr(model) == "MLP(2-3-1, relu hidden, sigmoid output)"
    assert 0 < model((5.0, -7.0)).data < 1


def test_relu_with_eight_hidden_units_learns_xor_on_most_seeds():
    # with a relu output unit this was 0 of 20: it died, or diverged as a linear one
    learned = 0
    for seed in range(1, 21):
        *_, last = train_xor(seed=seed, hidden=8, activation="relu")
        learned += all((p > 0.5) == (t > 0.5) for _, p, t in predictions(last.parameters, 8,
                                                                           "relu"))
    assert learned >= 16


def test_a_run_that_does_not_learn_says_why_from_its_own_numbers():
    def why(**config):
        run = list(train_xor(**config))
        history = LossHistory(capacity=2)
        history.extend([r.loss for r in run])
        return not_learned(run[-1].parameters, config.get("hidden", 2),
                           config.get("activation", "tanh"), history, config.get("lr", 0.1))

    assert "One hidden unit draws one straight line" in why(hidden=1)
    # seed 3's second relu unit is off on all four rows by the end
    dead = why(seed=3, activation="relu")
    assert "1 of 2 hidden relu units are dead" in dead
    (w, b), _ = unpack(train_xor_last(seed=3, activation="relu"), 2)
    z = np.array([x for x, _ in XOR]) @ w.T + b
    assert int(np.sum(np.all(z <= 0, axis=0))) == 1
    saturated = why(lr=10.0, seed=1)
    assert "the units are saturated; the learning rate (η = 10) was too large" in saturated
    assert why() == ""  # the lesson's run learns


def train_xor_last(**config):
    *_, last = train_xor(**config)
    return last.parameters


def test_rises_counts_transitions():
    assert rises([3.0, 2.0, 2.5, 2.4, 2.6]) == (2, pytest.approx(0.5))
    assert rises([1.0]) == (0, 0.0)


def run_train(*args):
    return subprocess.run([sys.executable, str(ROOT / "main.py"), "train", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_train_json_contract():
    result = run_train("--epochs", "300", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert result.stdout == json.dumps(report) + "\n"  # streamed, in json.dumps's own form
    assert [e["epoch"] for e in report["epochs"]] == list(range(1, 301))
    assert f"{report['epochs'][0]['loss']:.6f}" == "1.766174"
    assert [p["input"] for p in report["predictions"]] == [[0, 0], [0, 1], [1, 0], [1, 1]]
    assert [p["target"] for p in report["predictions"]] == [0, 1, 1, 0]
    assert report["final_loss"] == report["epochs"][-1]["loss"]
    count, largest = rises([e["loss"] for e in report["epochs"]])
    assert (report["rises"], report["largest_rise"]) == (count, largest)


def test_train_table_and_divergence_message():
    result = run_train("--epochs", "1000")
    lines = result.stdout.splitlines()
    assert "Epoch   Loss (sum over the 4 rows)" in lines
    assert [line.split()[0] for line in lines[3:7]] == ["1", "100", "500", "1000"]
    diverged = run_train("--lr", "1e200", "--activation", "relu", "--hidden", "5", "--seed", "0",
                         "--json")
    assert diverged.returncode == 1
    report = json.loads(diverged.stdout)
    assert report["stopped"]["epoch"] == 2
    assert report["epochs"][-1]["loss"] is None
