"""`main.py train` at the edges: bad learning rates refused in one line (issue 17, defect
9), long runs streamed in flat memory (defect 6), a run that does not learn said so."""

import gc
import io
import json
import tracemalloc

import pytest

import main
from cli import train as cli_train
from engine.lesson.nn import train_xor


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e308", "1e400", "0", "-1", "abc",
                                  "9" * 5000])
def test_bad_learning_rates_are_refused_in_one_short_line(text, capsys):
    code = main.main(["train", f"--lr={text}", "--epochs", "10"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: --lr: the learning rate must be")
    assert len(err) < 250  # at most 80 characters of the text are quoted


def test_the_refusals_say_what_is_wrong(capsys):
    expected = {
        "nan": "error: --lr: the learning rate must be a number, not 'nan'",
        "1e400": "error: --lr: the learning rate must be a finite number, not '1e400' (it is "
                 "beyond the largest float, ~1.8e308)",
        "-1": "error: --lr: the learning rate must be positive, not '-1'",
        "1e308": "error: --lr: the learning rate must be at most 1e+300, not '1e308'",
    }
    for text, message in expected.items():
        main.main(["train", "--lr", text])
        assert capsys.readouterr().err == message + "\n"


def test_scientific_learning_rates_are_taken(capsys):
    assert main.main(["train", "--lr", "1e-7", "--epochs", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["epochs"]) == 2


class Sink(io.TextIOBase):
    """Standard output that counts what it is given and keeps none of it."""

    def __init__(self):
        self.chars = 0

    def write(self, text):
        self.chars += len(text)
        return len(text)


def _peak_bytes(epochs: int, monkeypatch) -> int:
    sink = Sink()
    monkeypatch.setattr("sys.stdout", sink)
    gc.collect()
    tracemalloc.start()
    try:
        assert main.main(["train", "--epochs", str(epochs), "--json"]) == 0
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_train_memory_does_not_grow_with_the_epochs(monkeypatch):
    short = _peak_bytes(4_000, monkeypatch)
    long = _peak_bytes(24_000, monkeypatch)
    # keeping every epoch (as a list of records, or as one JSON string) costs several
    # hundred bytes an epoch: megabytes here
    assert long - short < 200_000, (short, long)


def test_train_json_is_written_as_the_epochs_come(monkeypatch):
    sink = Sink()
    monkeypatch.setattr("sys.stdout", sink)
    written_before = []

    def watched(*args, **kwargs):
        for record in train_xor(*args, **kwargs):
            if record.epoch == 3000:
                written_before.append(sink.chars)
            yield record

    monkeypatch.setattr(cli_train, "train_xor", watched)
    assert main.main(["train", "--epochs", "3001", "--json"]) == 0
    assert written_before[0] > 2000 * len('{"epoch": 1000, "loss": 0.5}, ')


def test_a_run_that_does_not_learn_says_so(capsys):
    assert main.main(["train", "--activation", "relu", "--lr", "100"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("A 2-2-1 (relu hidden units, sigmoid output) network")
    assert lines[-7:-3] == ["(0, 0)   +0.0000      0", "(0, 1)   +0.0000      1",
                            "(1, 0)   +0.0000      1", "(1, 1)   +0.0000      0"]
    assert [line.split()[1] for line in lines[4:9]] == ["2.000000"] * 5
    assert lines[-1] == (
        "XOR is not learned: 2 of 4 predictions are on the wrong side of 0.5; the network "
        "answers 0.0000 whatever the input. All 2 hidden relu units are dead: off on all four "
        "rows, they pass no gradient back, so training cannot revive them. Try another seed, "
        "a smaller learning rate or more hidden units.")


def test_train_with_defaults_prints_the_lessons_tables(capsys):
    assert main.main(["train"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("A 2-2-1 tanh network learning XOR: 3,000 epochs, learning rate 0.1, "
                        "seed 0 (the lesson's start)")
    assert lines[2:9] == ["Epoch   Loss (sum over the 4 rows)", "1       1.766174",
                          "100     0.938014", "500     0.729389", "1000    0.461485",
                          "2000    0.001065", "3000    0.000541"]
    assert lines[10:15] == ["Input    Prediction   Target", "(0, 0)   +0.0003      0",
                            "(0, 1)   +0.9824      1", "(1, 0)   +0.9848      1",
                            "(1, 1)   +0.0001      0"]
    assert lines[16] == ("The loss rose on 27 of 2,999 epoch-to-epoch transitions; the "
                         "largest rise was 0.010852.")
    assert len(lines) == 17  # XOR is learned: no warning


def test_a_negative_seed_is_refused_in_one_line(capsys):
    assert main.main(["train", "--seed", "-1"]) == 2
    assert capsys.readouterr().err == (
        "error: --seed must be 0 to 4,294,967,295 (the seeds numpy draws from), not -1\n")
