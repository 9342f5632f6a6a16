"""`check-engine` against engines with one classic bug each: the right checks are named,
with the right sentence, and nothing that works is flagged."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import micrograd.engine
import pytest

from engine.checks.engine_check import CHECKS, CheckRun, EngineLoadError, finish_report

ENGINES = Path(__file__).parent / "engines"
ROOT = Path(__file__).resolve().parents[2]
CLOSURES = (ENGINES / "closures.py").read_text()
LOCAL_GRADS = (ENGINES / "local_grads.py").read_text()


# what an engine written before sin, cos, sqrt, abs and x**y were added reports for them
NEW_OPS_MISSING = {"sin": "missing", "cos": "missing", "sqrt": "missing", "abs": "missing",
                   "pow_input": "missing"}


def check(tmp_path, source: str, class_name: str = "Value", timeout: float = 10.0) -> dict:
    path = tmp_path / "engine.py"
    path.write_text(source)
    run = CheckRun(str(path), class_name, timeout)
    try:
        run.wait()
    finally:
        run.cancel()
    return finish_report(run)


def broken(source: str, old: str, new: str) -> str:
    assert source.count(old) == 1, old
    return source.replace(old, new)


def flagged(report: dict) -> dict[str, str]:
    return {name: r["status"] for name, r in report["checks"].items() if r["status"] != "ok"}


def test_a_correct_engine_checks_clean(tmp_path):
    report = check(tmp_path, CLOSURES)
    assert list(report["checks"]) == list(CHECKS)
    assert flagged(report) == {}
    assert report["summary"] == {"ok": 24, "wrong": 0, "missing": 0, "error": 0,
                                 "timeout": 0, "total": 24}


def test_micrograd_checks_clean_but_for_missing_methods_and_recursion(tmp_path):
    run = CheckRun(micrograd.engine.__file__)
    run.wait()
    report = finish_report(run)
    assert flagged(report) == {"tanh": "missing", "exp": "missing", "log": "missing",
                               "sigmoid": "missing", **NEW_OPS_MISSING, "deep_graph": "error"}
    deep = report["checks"]["deep_graph"]
    assert deep["sentence"].startswith(f"RecursionError at depth {deep['depth']:,}")
    assert 900 < deep["depth"] < 1000
    assert 900 < deep["longest_chain"] < 1000


def test_a_microgpt_style_engine_checks_clean(tmp_path):
    report = check(tmp_path, LOCAL_GRADS)
    assert flagged(report) == {"tanh": "missing", "sigmoid": "missing", **NEW_OPS_MISSING,
                               "deep_graph": "error"}
    # with the two methods and a sort that does not recurse, nothing at all
    full = LOCAL_GRADS.replace("    def log(self):", """    def tanh(self):
        t = math.tanh(self.data)
        return Value(t, (self,), (1 - t**2,))

    def sigmoid(self):
        s = 1 / (1 + math.exp(-self.data))
        return Value(s, (self,), (s * (1 - s),))

    def log(self):""")
    full = broken(full, """        build_topo(self)""", """        stack = [(self, False)]
        while stack:
            v, done = stack.pop()
            if done:
                topo.append(v)
            elif v not in visited:
                visited.add(v)
                stack.append((v, True))
                stack.extend((c, False) for c in v._children)""")
    assert flagged(check(tmp_path, full)) == NEW_OPS_MISSING


RULE_BUGS = [
    ("tanh", "(1 - t * t) * out.grad  # tanh", "(1 - t) * out.grad", "1 - t instead of 1 - t²"),
    ("pow", "k * self.data ** (k - 1) * out.grad", "k * self.data ** k * out.grad",
     "n·x^n instead of n·x^(n-1)"),
    ("relu", "(1.0 if self.data > 0 else 0.0) * out.grad", "1.0 * out.grad",
     "relu passes the gradient for negative inputs"),
    ("exp", "e * out.grad  # exp", "self.data * out.grad", "x (the input) instead of e^x"),
    ("log", "(1 / self.data) * out.grad", "self.data * out.grad", "x instead of 1/x"),
    ("sigmoid", "s * (1 - s) * out.grad", "s * out.grad", "s instead of s·(1 - s)"),
    # the ops added through the op table alone
    ("sin", "math.cos(self.data) * out.grad  # sin", "-math.cos(self.data) * out.grad",
     "-cos(x) instead of cos(x)"),
    ("cos", "-math.sin(self.data) * out.grad  # cos", "math.sin(self.data) * out.grad",
     "sin(x) instead of -sin(x)"),
    ("sqrt", "0.5 / r * out.grad  # sqrt", "1 / r * out.grad",
     "1/sqrt(x) instead of 1/(2·sqrt(x))"),
    ("abs", "sign * out.grad  # abs", "1.0 * out.grad",
     "abs passes the gradient unchanged for negative inputs"),
    ("pow_input", "out.data * math.log(self.data) * out.grad  # pow-exponent",
     "out.data * out.grad", "d(x^y)/dy received x^y instead of x^y·ln x"),
]


@pytest.mark.parametrize("name, old, new, sentence", RULE_BUGS, ids=[b[0] for b in RULE_BUGS])
def test_a_broken_rule_is_named_and_nothing_else(tmp_path, name, old, new, sentence):
    report = check(tmp_path, broken(CLOSURES, old, new))
    expected = {name: "wrong"}
    if name == "pow":  # this engine divides with x ** -1
        expected |= {"div": "wrong", "rdiv": "wrong"}
    assert flagged(report) == expected
    record = report["checks"][name]
    assert sentence in record["sentence"]
    assert record["expected"] != record["received"]
    for other in set(expected) - {name}:
        assert report["checks"][other]["because"] == [name]
        assert report["checks"][other]["sentence"].startswith(f"fails because {name} is wrong")


DERIVED_BUGS = [
    # (name, old, new, what is flagged, the sentence of the broken one)
    ("rsub", "return (-self) + other", "return self - other", {"rsub": "wrong"},
     "the value is wrong: 2 - x at x = 1.5 gives -0.5 instead of 0.5"),
    ("rdiv", "return self ** -1 * other", "return self * other ** -1", {"rdiv": "wrong"},
     "the value is wrong: 2 / x at x = 4.0 gives 2 instead of 0.5"),
    ("sub", "return self + (-other)", "return self + other", {"sub": "wrong"},
     "the value is wrong: x - y at x = 1.5, y = -2.0 gives -0.5 instead of 3.5"),
    ("neg", "return self * -1", "return self * 1",
     {"neg": "wrong", "sub": "wrong", "rsub": "wrong"},
     "the value is wrong: -x at x = 2.5 gives 2.5 instead of -2.5"),
]


@pytest.mark.parametrize("name, old, new, bad, sentence", DERIVED_BUGS,
                         ids=[b[0] for b in DERIVED_BUGS])
def test_a_derived_operator_broken_the_usual_way(tmp_path, name, old, new, bad, sentence):
    report = check(tmp_path, broken(CLOSURES, old, new))
    assert flagged(report) == bad
    assert report["checks"][name]["sentence"] == sentence
    for other in set(bad) - {name}:  # built on the broken one, and said so
        assert report["checks"][other]["because"] == [name]


def test_mul_with_the_wrong_operand_is_blamed_for_what_is_built_on_it(tmp_path):
    source = broken(CLOSURES, "other.data * out.grad  # mul-self", "self.data * out.grad")
    source = broken(source, "self.data * out.grad  # mul-other", "other.data * out.grad")
    report = check(tmp_path, source)
    bad = flagged(report)
    assert bad.pop("mul") == "wrong"
    assert "wrong operand" in report["checks"]["mul"]["sentence"]
    # everything else that fails is made of products here, and says so
    assert set(bad) == {"div", "neg", "sub", "rsub", "rmul", "rdiv", "accumulation",
                        "topological_order", "root_gradient"}
    for name in bad:
        assert report["checks"][name]["because"] == ["mul"], name
    assert report["checks"]["mul"]["received"]["grads"] == {"x": 3.0, "y": -2.0}
    assert report["checks"]["mul"]["expected"]["grads"] == {"x": -2.0, "y": 3.0}


def test_a_missing_contribution_in_add(tmp_path):
    report = check(tmp_path, broken(CLOSURES, "other.grad += out.grad  # add-other", "pass"))
    assert flagged(report) == {"add": "wrong", "sub": "wrong", "accumulation": "wrong",
                               "topological_order": "wrong"}
    assert report["checks"]["add"]["sentence"] == (
        "no gradient reaches y: the rule never adds to its .grad")
    for name in ("sub", "accumulation", "topological_order"):
        assert report["checks"][name]["because"] == ["add"]


def test_equals_instead_of_plus_equals(tmp_path):
    source = CLOSURES.replace("self.grad += ", "self.grad = ").replace("other.grad += ",
                                                                       "other.grad = ")
    report = check(tmp_path, source)
    assert flagged(report) == {"accumulation": "wrong", "topological_order": "wrong"}
    acc = report["checks"]["accumulation"]
    assert acc["sentence"] == ("`a + a` gives 1 instead of 2 for d out/da: `=` instead of "
                               "`+=` (a value used twice keeps only the last of its "
                               "contributions)")
    assert acc["received"]["grads"] == {"a": 1.0}
    assert report["checks"]["topological_order"]["because"] == ["accumulation"]


NO_SORT = """        from collections import deque
        self.grad = 1.0
        queue, seen = deque([self]), {self}
        while queue:
            node = queue.popleft()
            node._backward()
            for p in node._prev:
                if p not in seen:
                    seen.add(p)
                    queue.append(p)
"""


def test_no_topological_sort(tmp_path):
    start = CLOSURES.index("        topo, seen, stack")
    source = CLOSURES[:start] + NO_SORT
    report = check(tmp_path, source)
    assert flagged(report) == {"topological_order": "wrong"}
    record = report["checks"]["topological_order"]
    assert "does not apply the rules in reverse topological order" in record["sentence"]
    assert "With `_prev` a set" in record["sentence"]
    assert 0 < record["failed_cases"] < record["cases"]


def test_a_recursive_sort_fails_only_the_deep_graph(tmp_path):
    start = CLOSURES.index("        topo, seen, stack")
    source = CLOSURES[:start] + """        topo, seen = [], set()

        def visit(v):
            if v not in seen:
                seen.add(v)
                for p in v._prev:
                    visit(p)
                topo.append(v)
        visit(self)
        self.grad = 1.0
        for node in reversed(topo):
            node._backward()
"""
    report = check(tmp_path, source)
    assert flagged(report) == {"deep_graph": "error"}
    deep = report["checks"]["deep_graph"]
    assert "RecursionError at depth" in deep["sentence"]
    assert deep["longest_chain"] < 1000


def test_dl_dl_never_set_blames_every_check_on_the_root(tmp_path):
    report = check(tmp_path, broken(CLOSURES, "self.grad = 1.0  # seed", "pass"))
    bad = flagged(report)
    assert bad.pop("root_gradient") == "wrong"
    assert report["checks"]["root_gradient"]["sentence"].startswith(
        "dL/dL is never set to 1")
    assert bad and all(status == "wrong" for status in bad.values())
    for name in bad:
        assert report["checks"][name]["because"] == ["root_gradient"], name


def test_a_crash_in_a_rule_is_an_error_of_that_rule(tmp_path):
    report = check(tmp_path, broken(CLOSURES, "(1 - t * t) * out.grad  # tanh",
                                    "(1 - t * t) * out.gradient"))
    assert flagged(report) == {"tanh": "error"}
    error = report["checks"]["tanh"]["error"]
    assert error.startswith("AttributeError: ")
    assert "line 57 of engine.py, in _backward" in error


def test_a_hang_is_stopped_and_the_other_checks_still_run(tmp_path):
    report = check(tmp_path, broken(CLOSURES, "self.grad += e * out.grad  # exp",
                                    "while True: pass"), timeout=3.0)
    assert flagged(report) == {"exp": "timeout"}
    assert report["checks"]["exp"]["sentence"] == "did not finish within 3 s: stopped"
    assert report["summary"]["ok"] == 23


def test_an_import_error_cannot_be_loaded(tmp_path):
    with pytest.raises(EngineLoadError, match="^ModuleNotFoundError: No module named "
                                              "'no_such_module_i15' \\(line 1 of engine.py"):
        check(tmp_path, "import no_such_module_i15\n" + CLOSURES)


def test_a_class_with_another_name(tmp_path):
    source = CLOSURES.replace("Value", "Scalar")
    with pytest.raises(EngineLoadError, match=r"no class named Value .*\(classes in it: Scalar\)"):
        check(tmp_path, source)
    assert flagged(check(tmp_path, source, "Scalar")) == {}


def test_a_microgpt_style_rule_bug_is_blamed_without_op_names(tmp_path):
    source = broken(LOCAL_GRADS, "(other * self.data ** (other - 1),)",
                    "(other * self.data ** other,)")
    report = check(tmp_path, source)
    assert flagged(report) == {"pow": "wrong", "div": "wrong", "rdiv": "wrong",
                               "tanh": "missing", "sigmoid": "missing", **NEW_OPS_MISSING,
                               "deep_graph": "error"}
    assert report["checks"]["pow"]["sentence"] == "n·x^n instead of n·x^(n-1)"
    assert report["checks"]["div"]["because"] == ["pow"]


def test_what_the_file_prints_is_captured(tmp_path):
    report = check(tmp_path, "print('hello from the engine')\n" + CLOSURES)
    assert "hello from the engine" in report["output"]


def cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "main.py"), "check-engine", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_the_command_prints_the_contract_json_and_exits_1(tmp_path):
    path = tmp_path / "engine.py"
    path.write_text(broken(CLOSURES, "(1 - t * t) * out.grad  # tanh", "(1 - t) * out.grad"))
    done = cli(str(path), "--json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert set(report) == {"engine", "class", "checks", "summary"}
    assert report["engine"] == str(path) and report["class"] == "Value"
    assert list(report["checks"]) == list(CHECKS)
    tanh = report["checks"]["tanh"]
    assert tanh["status"] == "wrong"
    assert tanh["sentence"] == "1 - t instead of 1 - t² (t = tanh(x))"
    assert tanh["case"] == "tanh(x) at x = 0.5"
    assert tanh["expected"]["grads"]["x"] == pytest.approx(1 - 0.46211715726000974 ** 2)
    assert tanh["received"]["grads"]["x"] == pytest.approx(1 - 0.46211715726000974)
    assert "replay" not in tanh
    assert report["summary"]["wrong"] == 1 and report["summary"]["ok"] == 23


def test_the_text_report_gives_each_wrong_checks_case_and_numbers(tmp_path):
    import math

    path = tmp_path / "engine.py"
    path.write_text(broken(CLOSURES, "(1 - t * t) * out.grad  # tanh", "(1 - t) * out.grad"))
    done = cli(str(path))
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.split()[:2] == ["tanh", "wrong"])
    assert lines[at].endswith("1 - t instead of 1 - t² (t = tanh(x))")
    t = math.tanh(0.5)
    assert [line.strip() for line in lines[at + 1:at + 4]] == [
        "case: tanh(x) at x = 0.5",
        f"expected: value {t:.6f}; d out/dx = {1 - t * t:.6f}",
        f"received: value {t:.6f}; d out/dx = {1 - t:.6f}",
    ]
    assert lines[at + 4].split()[:2] == ["relu", "ok"]  # nothing under a check that passed


def test_the_command_exits_0_when_only_methods_are_missing():
    done = cli(micrograd.engine.__file__.replace("engine.py", "nn.py"), "--class", "Neuron")
    assert done.returncode == 2  # not a value class: it has no backward()
    assert done.stderr.startswith("error: cannot load ") and "no backward()" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_command_exits_2_on_a_syntax_error(tmp_path):
    path = tmp_path / "engine.py"
    path.write_text("class Value(:\n")
    done = cli(str(path))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "SyntaxError" in done.stderr


def test_a_file_that_hangs_while_loading_cannot_be_loaded(tmp_path):
    with pytest.raises(EngineLoadError, match="^loading the file took longer than 2 s"):
        check(tmp_path, "while True:\n    pass\n", timeout=2.0)


def test_a_rule_that_ends_the_process_is_an_error_of_that_rule_only(tmp_path):
    report = check(tmp_path, broken(CLOSURES, "self.grad += e * out.grad  # exp",
                                    "import os; os._exit(3)"))
    assert flagged(report) == {"exp": "error"}
    assert report["checks"]["exp"]["error"] == "the process ended (exit code 3)"


def test_the_time_limit_reached_after_the_last_result_ends_the_run_without_a_timeout():
    """On a loaded machine the child's "done" can come later than the time limit after
    its last result: nothing is left to blame, so the run just ends (it raised an
    IndexError)."""
    run = CheckRun(micrograd.engine.__file__, checks=(CHECKS[0],))
    while CHECKS[0] not in run.results:
        run.poll(0.1)
    finished: list[str] = []
    run._time_out(finished)
    assert run.done and finished == []
    assert run.results[CHECKS[0]]["status"] == "ok"
