"""What runs in the child process that checks a user's engine.

The user's file is executed here and nowhere else: the parent only ever sees numbers and
sentences. Everything the file prints is captured and sent with the results.
"""

from __future__ import annotations

import contextlib
import gc
import io
import math
import os
import runpy
import sys
import traceback

import engine.checks.engine_check.adapter as adapter
import engine.checks.engine_check.cases as cases
import engine.checks.engine_check.diagnosis as diagnosis
from engine import boundary
from engine._gc import collector_paused
from engine.language import parse

OUTPUT_LIMIT = 4000  # characters of captured output kept per message


class LoadError(Exception):
    """The file cannot be run, or has no such class: one line, no traceback."""


def load_class(path: str, class_name: str):
    """Run the file at `path` (not as __main__) and return its class `class_name`."""
    folder = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, folder)
    try:
        namespace = runpy.run_path(path, run_name="__engine_check__")
    except SystemExit as e:
        raise LoadError(f"the file called exit({e.code})") from None
    except BaseException as e:  # noqa: BLE001 - the user's code: any error is theirs
        raise LoadError(one_line(e, path)) from None
    cls = namespace.get(class_name)
    if not isinstance(cls, type):
        found = sorted(k for k, v in namespace.items() if isinstance(v, type)
                       and v.__module__ == "__engine_check__")
        hint = f" (classes in it: {', '.join(found)})" if found else " (it defines no class)"
        raise LoadError(f"no class named {class_name} in {path}{hint}")
    if not callable(getattr(cls, "backward", None)):
        raise LoadError(f"class {class_name} has no backward() method")
    return cls


def one_line(e: BaseException, path: str | None = None) -> str:
    """`Type: message`, and where in the user's file it was raised, on one line."""
    text = f"{type(e).__name__}: {e}".strip().replace("\n", " ")
    if len(text) > 300:
        text = text[:297] + "..."
    where = ""
    if path is not None:
        target = os.path.abspath(path)
        frames = [f for f in traceback.extract_tb(e.__traceback__)
                  if os.path.abspath(f.filename) == target]
        if frames:
            f = frames[-1]
            where = f" (line {f.lineno} of {os.path.basename(path)}, in {f.name})"
    if isinstance(e, SyntaxError) and e.lineno and not where:
        where = f" (line {e.lineno})"
    return text + where


def describe_style(cls) -> dict:
    """Which convention the class follows, seen on a small graph it builds."""
    info = {"parents": None, "ordered": None, "local_grads": False, "ops": False}
    try:
        out = cls(2.0) * cls(3.0)
    except BaseException:  # noqa: BLE001 - the mul check will say what is wrong
        return info
    for name in adapter.PARENT_ATTRS:
        parents = getattr(out, name, None)
        if parents is not None:
            info["parents"] = name
            info["ordered"] = not isinstance(parents, (set, frozenset))
            break
    info["local_grads"] = adapter.local_grads_of(out) is not None
    info["ops"] = adapter.op_of(out) is not None
    return info


def _expected(program) -> dict:
    program.output.backward()
    return {"value": program.output.data,
            "grads": {n: v.grad for n, v in program.inputs.items()}}


def _received(program, values: list) -> dict:
    out = values[program.output_index]
    grads = {}
    for name, v in program.inputs.items():
        grads[name] = adapter.as_float(values[program.values.index(v)].grad)
    return {"value": adapter.as_float(out.data), "grads": grads,
            "root_grad": adapter.as_float(out.grad)}


def _number(u) -> bool:
    """A constant, or arithmetic of constants: a plain number on the user's side."""
    return isinstance(u, (int, float))


def _replay_record(program, cls, values: list, order: list[int]) -> dict:
    """What the Graph tab needs to step this case as the user's engine did it: the
    order their backward applied the rules in, each operation's local derivatives by
    their rules, every node's final gradient and the root's."""
    grads = {}
    for i, u in enumerate(values):
        if not _number(u):
            grads[i] = adapter.as_float(u.grad)
    probe = adapter.replay(cls, program.instructions)
    locals_ = {}
    for i, ins in enumerate(program.instructions):
        if not ins.args or _number(probe[i]):
            continue
        operands = [probe[a] for a in ins.args if not _number(probe[a])]
        try:
            got = adapter.probe_locals(probe[i], operands)
        except Exception:  # noqa: BLE001 - a rule that fails here failed in the check too
            got = None
        if got is not None:
            # a folded number is not a user node: its edge gets no local of theirs
            it = iter(got)
            locals_[i] = [None if _number(probe[a]) else next(it) for a in ins.args]
    return {"text": None, "order": order or None, "grads": grads, "locals": locals_,
            "seed": adapter.as_float(values[program.output_index].grad)}


def _run_case(cls, case: cases.Case, want_replay: bool,
              calls: adapter.CallRecorder | None = None) -> dict:
    program = parse(case.text)
    if calls is not None:
        calls.recording = True
    try:
        user = adapter.replay(cls, program.instructions)
    finally:
        if calls is not None:
            calls.recording = False
    nodes = adapter.graph_nodes(user[program.output_index])
    key = {id(u): i for i, u in enumerate(user) if not isinstance(u, (int, float))}
    order = adapter.record_rule_order(nodes, key)
    user[program.output_index].backward()
    received = _received(program, user)
    expected = _expected(program)
    record = {"title": case.title, "text": case.text, "expected": expected,
              "received": received}
    ok = diagnosis.same_number(received["value"], expected["value"]) and all(
        diagnosis.same_number(received["grads"].get(n, math.nan), g)
        for n, g in expected["grads"].items())
    if case.check == "root_gradient":
        ok = ok and diagnosis.same_number(received["root_grad"], 1.0)
    record["ok"] = ok
    if not ok and want_replay:
        record["replay"] = _replay_record(program, cls, user, order)
        record["replay"]["text"] = case.text
    return record


def _deep(cls, length: int) -> tuple[float, float]:
    x = cls(1.0)
    y = x
    for _ in range(length):
        y = y + 1.0
    y.backward()
    return adapter.as_float(y.data), adapter.as_float(x.grad)


def _recursion_depth(e: BaseException, path: str) -> int:
    target = os.path.abspath(path)
    return sum(1 for f in traceback.extract_tb(e.__traceback__)
               if os.path.abspath(f.filename) == target)


def _longest_chain(cls, failed_at: int) -> int:
    """The longest chain backward() handles, by bisection below `failed_at`."""
    good, bad = 0, failed_at
    while bad - good > 1:
        mid = (good + bad) // 2
        try:
            _deep(cls, mid)
            good = mid
        except RecursionError:
            bad = mid
    return good


def deep_graph(cls, path: str) -> dict:
    n = cases.DEEP_CHAIN
    title = f"a chain of {n:,} additions: y = x + 1 + 1 + … at x = 1"
    expected = {"value": float(n + 1), "grads": {"x": 1.0}}
    try:
        value, grad = _deep(cls, n)
    except RecursionError as e:
        depth = _recursion_depth(e, path)
        longest = _longest_chain(cls, n)
        return {"status": "error", "case": title, "expected": expected,
                "error": "RecursionError: maximum recursion depth exceeded",
                "depth": depth, "longest_chain": longest,
                "sentence": (f"RecursionError at depth {depth:,}: backward() walks the "
                             "graph recursively and reaches Python's recursion limit "
                             f"(the longest chain it handles is {longest:,} operations)")}
    received = {"value": value, "grads": {"x": grad}}
    if diagnosis.same_number(value, n + 1) and diagnosis.same_number(grad, 1.0):
        return {"status": "ok"}
    return {"status": "wrong", "case": title, "expected": expected, "received": received,
            "sentence": f"on a chain of {n:,} operations d y/dx is {grad:.6g} instead of 1"}


def run_check(cls, check: str, style: dict, path: str,
              calls: adapter.CallRecorder | None = None,
              memory_bytes: int | None = None) -> dict:
    """One check's result: {"status": ..., and when not ok "case", "expected",
    "received", "sentence", ...}."""
    absent = [a for a in cases.NEEDS[check] if not hasattr(cls, a)]
    if absent:
        what = ", ".join(a if a.startswith("__") else f"{a}()" for a in absent)
        return {"status": "missing", "sentence": f"{cls.__name__} has no {what}"}
    try:
        if check == "deep_graph":
            return deep_graph(cls, path)
        if calls is not None:
            calls.nested = set()
        records = [_run_case(cls, case, want_replay=True, calls=calls)
                   for case in cases.cases_of(check)]
    except RecursionError as e:
        return {"status": "error", "error": one_line(e, path),
                "sentence": f"RecursionError at depth {_recursion_depth(e, path):,}"}
    except MemoryError:
        limit = f" of {memory_bytes / 1024 ** 3:g} GB" if memory_bytes else ""
        return {"status": "error", "error": "MemoryError",
                "sentence": f"ran out of memory: the check's limit{limit} (--memory) was "
                            "reached"}
    except Exception as e:  # noqa: BLE001 - the user's code: any error is theirs
        return {"status": "error", "error": one_line(e, path),
                "sentence": f"raised {one_line(e, path)}"}
    failures = [r for r in records if not r["ok"]]
    if not failures:
        return {"status": "ok"}
    for f in failures:
        f.pop("ok")
    if check in cases.RULES:
        sentence = diagnosis.rule_sentence(check, failures)
    elif check == "accumulation":
        sentence = diagnosis.accumulation_sentence(failures)
    elif check == "topological_order":
        sentence = diagnosis.order_sentence(failures, len(records), style["ordered"] is False)
    else:
        sentence = diagnosis.root_sentence(failures)
    first = failures[0]
    result = {"status": "wrong", "case": first["title"], "expected": first["expected"],
              "received": first["received"], "sentence": sentence,
              "what": diagnosis.what_differs(first),
              "failed_cases": len(failures), "cases": len(records)}
    if "replay" in first:
        result["replay"] = first["replay"]
    if calls is not None:  # the other rules this one is built on, in the user's class
        result["built_on"] = sorted(calls.nested - {check})
    return result


def main(conn, path: str, class_name: str, checks: list[str],
         memory_bytes: int | None = None, parent_pid: int | None = None) -> None:
    """The child's entry point: confine this process (engine.boundary.confine), load,
    then run `checks` one by one, writing JSON lines to `conn`'s pipe: ["loaded",
    style, output] or ["load_error", message, output], ["start", name] and ["result",
    name, record, output] for each, and ["done"]."""
    boundary.confine(memory_bytes, parent_pid if parent_pid is not None else os.getppid())
    fd = conn.fileno()
    captured = io.StringIO()
    devnull = os.open(os.devnull, os.O_RDWR)
    for target in (0, 1, 2):  # what the user's code (and all it starts) reads or writes
        os.dup2(devnull, target)  # below Python's level: nothing of the parent's

    def output() -> str:
        text = captured.getvalue()
        captured.seek(0)
        captured.truncate()
        return text[:OUTPUT_LIMIT]

    with contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
        try:
            cls = load_class(path, class_name)
        except LoadError as e:
            boundary.send(fd, "load_error", str(e), output())
            boundary.send(fd, "done")
            return
        style = describe_style(cls)
        calls = adapter.CallRecorder(cls)
        boundary.send(fd, "loaded", style, output())
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
        # learners' graphs are reference cycles (a closure holds its output): the
        # collector would rescan a 100,000-node chain again and again while it is built;
        # each check's cycles are collected before the next (collect works while paused)
        with collector_paused():
            for check in checks:
                boundary.send(fd, "start", check)
                result = run_check(cls, check, style, path, calls, memory_bytes)
                boundary.send(fd, "result", check, result, output())
                gc.collect()
        boundary.send(fd, "done")
