"""`report`: every exact figure of the lesson matches; measured ones are side by side."""

import subprocess
import sys
from pathlib import Path

import pytest

from engine.lesson.report import EXACT, KNOWN, MEASURED, compute, to_markdown

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def data():
    return compute(quick=True)


def test_every_exact_figure_matches_the_seed(data):
    exact = [r for s in data.sections for r in s.rows if r.kind == EXACT]
    assert len(exact) >= 35
    assert data.mismatches == []
    assert all(r.lesson == r.ours for r in exact)


def test_the_seeds_headline_figures_are_there(data):
    ours = {(s.title, r.what): r.ours for s in data.sections for r in s.rows}
    chain = "A longer chain against calculus: tanh(x³ + 3x) at x = 0.5"
    assert ours[(chain, "autograd dy/dx")] == "0.5390038624"
    assert ours[("The smallest check", "∂f/∂a")] == "5.0"
    assert ours[("One neuron, one step, by hand", "w2 after one step at η = 0.1")] == "0.100000"
    assert ours[("Gradients accumulate", "a = 3; b = a + a: ∂/∂a with = instead of +=")] == "1.0"


def test_the_xor_rows_are_exact_but_one_known_difference(data):
    xor = next(s for s in data.sections if s.title.startswith("Train a network"))
    rows = {r.what: r for r in xor.rows}
    exact = [r for r in xor.rows if r.kind == EXACT]
    assert [r.what for r in exact][:6] == [f"loss at epoch {e}" for e in
                                           (1, 100, 500, 1000, 2000, 3000)]
    assert [r.ours for r in exact] == ["1.766174", "0.938014", "0.729389", "0.461485",
                                       "0.001065", "0.000541", "+0.0003", "+0.9824",
                                       "+0.9848", "+0.0001", "27 of 2,999", "yes"]
    assert all(r.verdict == "matches" for r in exact)
    largest = rows["largest single rise"]
    assert (largest.kind, largest.lesson, largest.ours) == (KNOWN, "0.010974", "0.010852")
    assert largest.verdict == "differs, see below"
    assert data.known_differences == [largest]
    assert "default_rng(0).uniform(-1, 1, 9)" in xor.note and "24 orders" in xor.note
    assert not any(r.kind == MEASURED for r in xor.rows)
    assert "1 known difference (explained in its section)" in to_markdown(data)


def test_markdown_escapes_pipes_and_links_figures(data):
    text = to_markdown(data)
    assert "worst \\|autograd − central difference\\|" in text
    for figure in ("rules.png", "modes.png", "xor.png"):
        assert f"]({figure})" in text
    assert "](rules.png)" not in to_markdown(data, figures=False)


def test_report_command_writes_markdown_and_figures(tmp_path):
    result = subprocess.run([sys.executable, str(ROOT / "main.py"), "report", "--quick",
                             "--out", str(tmp_path)], capture_output=True, text=True,
                            cwd=ROOT, timeout=600)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["modes.png", "report.md",
                                                          "rules.png", "xor.png"]
    assert "0 exact mismatches" in (tmp_path / "report.md").read_text()
    for png in ("rules.png", "modes.png", "xor.png"):
        assert (tmp_path / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_runs_without_tensorflow():
    code = ("import sys; sys.modules['tensorflow'] = None\n"
            "from engine.lesson.report import compute, to_markdown\n"
            "d = compute(quick=True)\nprint(to_markdown(d, figures=False))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "TensorFlow was not available" in result.stdout
    assert "TensorFlow is not available here" in result.stdout
    assert "0 exact mismatches" in result.stdout
