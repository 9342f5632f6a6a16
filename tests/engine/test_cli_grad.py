"""`main.py grad` as a script would use it: real processes, real exit codes."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.engine.helpers import PRESETS

ROOT = Path(__file__).resolve().parents[2]
NEURON_FILE = PRESETS / "01-neuron.expr"


def run(*args, stdin=None):
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], input=stdin,
                          capture_output=True, cwd=ROOT, timeout=120)


def test_json_for_the_seeds_neuron():
    result = run("grad", str(NEURON_FILE), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["output"] == {"name": "loss", "value": 1.0}
    assert list(report["inputs"]) == ["w1", "w2", "b", "x1", "x2", "y"]
    assert report["inputs"]["w1"] == {"value": 0.5, "grad": -2.0}
    assert report["inputs"]["w2"]["grad"] == -4.0
    assert report["inputs"]["b"]["grad"] == -2.0


def test_finite_differences_and_standard_input():
    result = run("grad", "-", "--json", "--fd", stdin=b"a = 3\nb = 4\nf = a*b + a\n")
    assert result.returncode == 0, result.stderr
    inputs = json.loads(result.stdout)["inputs"]
    assert inputs["a"]["grad"] == 5.0 and inputs["b"]["grad"] == 3.0
    assert inputs["a"]["fd"] == pytest.approx(5.0, abs=1e-8)
    assert inputs["b"]["fd"] == pytest.approx(3.0, abs=1e-8)


@pytest.mark.parametrize(("pitfall", "text", "grad"), [
    ("overwrite", b"a = 3\nb = a + a", 1.0),
    ("overwrite", b"a = 3\nb = a * a", 3.0),
    ("no-sort", b"x = 1\nb = x*3; c = b*2; d = b + c", 3.0),
])
def test_pitfalls(pitfall, text, grad):
    first = text.split(b"=")[0].strip().decode()
    result = run("grad", "-", "--json", "--pitfall", pitfall, stdin=text)
    assert json.loads(result.stdout)["inputs"][first]["grad"] == grad


def test_an_unknown_pitfall_is_refused_with_the_choices():
    """The names stay the command line's: a bug the window knows but the command line
    does not switch on (no-zero-grad) is refused like a typo."""
    for name in ("bogus", "no-zero-grad"):
        result = run("grad", "-", "--pitfall", name, stdin=b"a = 3\nb = a + a")
        assert result.returncode == 2 and result.stdout == b""
        last = result.stderr.decode().strip().splitlines()[-1]
        assert last == (f"main.py grad: error: argument --pitfall: invalid choice: "
                        f"'{name}' (choose from 'overwrite', 'no-sort')")


def test_text_table():
    result = run("grad", str(NEURON_FILE))
    assert result.returncode == 0
    lines = result.stdout.decode().splitlines()
    assert lines[0] == "output loss = 1"
    assert lines[2].split() == ["w1", "0.5", "-2"]


@pytest.mark.parametrize(("text", "message"), [
    (b"x = 0\ny = log(x)\n", "error: line 2, col 5: log needs a positive number"),
    (b"", "error: line 1, col 1: the program is empty"),
    (b"\xff\xfe x = 1", "error: line 1, col 1: the file is not UTF-8 text"),
    (b"__import__('os')", "error: line 1, col 12: unexpected character"),
])
def test_bad_input_exits_2_with_position_and_no_traceback(text, message):
    result = run("grad", "-", "--json", stdin=text)
    assert result.returncode == 2
    assert result.stdout == b""
    err = result.stderr.decode()
    assert err.startswith(message)
    assert "Traceback" not in err


def test_missing_file():
    result = run("grad", "no-such-file.expr")
    assert result.returncode == 2
    assert result.stderr.decode().startswith("error: cannot read 'no-such-file.expr'")


def test_tensorflow_agrees_on_the_neuron():
    result = run("grad", str(NEURON_FILE), "--json", "--tf")
    assert result.returncode == 0, result.stderr
    inputs = json.loads(result.stdout)["inputs"]
    for name in inputs:
        assert inputs[name]["tf"] == inputs[name]["grad"]  # the seed's 0.00e+00
    assert [inputs[n]["tf"] for n in ("w1", "w2", "b")] == [-2.0, -4.0, -2.0]


def test_tensorflow_says_nothing_on_standard_error():
    # its C++ start-up notices (absl, oneDNN) are silenced: only the app's words go there
    pytest.importorskip("tensorflow")
    result = run("grad", str(NEURON_FILE), "--tf")
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    assert result.stdout.decode().splitlines()[2].split() == ["w1", "0.5", "-2", "-2"]


def test_missing_tensorflow_exits_3_with_install_hint():
    code = ("import sys; sys.modules['tensorflow'] = None\n"
            "import main; sys.exit(main.main(['grad', 'assets/presets/01-neuron.expr', '--tf']))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, timeout=120)
    assert result.returncode == 3
    assert result.stdout == ""
    assert result.stderr.startswith("error: TensorFlow cannot be imported")
    assert "pip install tensorflow-cpu" in result.stderr
    assert "Traceback" not in result.stderr


def test_text_output_has_no_minus_zero_and_big_numbers_in_scientific_notation(capsys):
    from cli.grad import format_table
    report = {"output": {"name": "y", "value": 1343001721.278586},
              "inputs": {"x": {"value": -0.0, "grad": -0.0}, "w": {"value": 2.5e7, "grad": 1.0}}}
    assert format_table(report).splitlines() == [
        "output y = 1.343001721e+09",
        "input  value    grad",
        "x      0        0",
        "w      2.5e+07  1",
    ]


NEW_OPS_PROGRAM = b"x = 0.5; y = 2.0\nout = sin(x)**y + sqrt(abs(cos(x))) + 2**x\n"


def test_the_new_ops_with_finite_differences_and_tensorflow():
    import math

    pytest.importorskip("tensorflow")
    result = run("grad", "-", "--json", "--fd", "--tf", stdin=NEW_OPS_PROGRAM)
    assert result.returncode == 0, result.stderr
    inputs = json.loads(result.stdout)["inputs"]
    x, y = 0.5, 2.0
    dx = (y * math.sin(x) ** (y - 1) * math.cos(x)
          - 0.5 / math.sqrt(math.cos(x)) * math.sin(x) + 2**x * math.log(2))
    dy = math.sin(x) ** y * math.log(math.sin(x))
    for name, exact in (("x", dx), ("y", dy)):
        assert inputs[name]["grad"] == pytest.approx(exact, rel=1e-14)
        assert inputs[name]["tf"] == pytest.approx(exact, rel=1e-14)
        assert inputs[name]["fd"] == pytest.approx(exact, rel=1e-8)


def test_a_new_ops_domain_error_exits_2_at_its_position():
    result = run("grad", "-", stdin=b"x = 0\ny = 1 + sqrt(x)\n")
    assert result.returncode == 2
    assert result.stderr.decode().startswith(
        "error: line 2, col 9: the derivative of sqrt(x) is infinite at x = 0")
    result = run("grad", "-", stdin=b"x = -1; y = 2\nout = x ** y\n")
    assert result.stderr.decode().startswith(
        "error: line 2, col 9: the base of ** must be positive")


def test_json_never_carries_a_bare_infinity_and_the_table_says_why():
    program = b"x = 5e-7; y = 1e303 * tanh(1e9 * x)\n"
    result = run("grad", "-", "--json", "--fd", stdin=program)
    assert result.returncode == 0, result.stderr
    row = json.loads(result.stdout)["inputs"]["x"]  # strict JSON: no Infinity
    assert row["fd"] is None and row["fd_reason"] == "∞ (overflow: too large for a float)"
    table = run("grad", "-", "--fd", stdin=program).stdout.decode().splitlines()
    assert table[-1].split(None, 3)[3] == "∞ (overflow: too large for a float)"


def test_a_closed_standard_output_is_an_error_not_silence():
    result = subprocess.run(f"{sys.executable} {ROOT / 'main.py'} grad {NEURON_FILE} >&-",
                            shell=True, capture_output=True, cwd=ROOT, timeout=120)
    assert result.returncode == 4
    assert result.stderr == b"error: cannot write the output: standard output is closed\n"


def test_central_differences_recompute_only_what_each_input_reaches():
    from engine import parse
    from engine.checks.central_difference import central_difference, central_differences

    text = "\n".join(f"x{i} = {0.001 * i}" for i in range(1000)) + "\ny = " + " + ".join(
        f"tanh(x{i}) * x{i}" for i in range(1000))
    program = parse(text)
    got = central_differences(program)
    assert len(got) == 1000
    for name in ("x0", "x1", "x500", "x999"):  # the same as rebuilding the whole program
        assert got[name] == pytest.approx(central_difference(program, name), abs=1e-9)


def test_central_differences_over_the_budget_are_refused_with_the_figure():
    inputs = 10_000
    text = "\n".join(f"x{i} = 0.5" for i in range(inputs)) + "\ny = " + " + ".join(
        f"x{i}" for i in range(inputs))
    result = run("grad", "-", "--fd", stdin=text.encode())
    assert result.returncode == 2
    message = result.stderr.decode()
    assert message.startswith("error: --fd: central differences of all 10,000 inputs would "
                              "evaluate about ")
    assert "the limit is 20,000,000" in message and len(message.splitlines()) == 1
