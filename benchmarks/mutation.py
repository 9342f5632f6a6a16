"""Mutation testing of the engine's core: `python -m benchmarks.mutation [--jobs 2]`.

A hand-written mutator (no dependency): each mutant is one change of the syntax tree of
one function of engine/core/value.py or engine/_gc.py (a comparison or an operator
turned, `and`/`or` swapped, a condition negated, a number or a string changed, `True`
and `False` swapped, `_a`/`_b` or `_ga`/`_gb` swapped, `break` and `continue` swapped,
a statement deleted), or of one of value.py's module-level numbers (`_BATCH`,
`_RECURSION_DEPTH`). The mutated function is compiled against its module's globals and
its code put in place of the function's (`__code__`), so every reference to it (a
method, a name imported elsewhere) runs the mutant. Each mutant runs in a forked child
of one process that has loaded pytest and the tests, with a timeout (a mutant that loops
is killed by it). Stage one runs FAST_TESTS, stopping at the first failure; a mutant it
leaves alive is run again on SECOND_TESTS (stage two; `--recheck LOG` runs only that
stage, on the survivors a earlier run printed to LOG). Survivors are
printed with their place and change; docs/mutation.md says why each is equivalent or
which test kills it.
"""

from __future__ import annotations

import argparse
import ast
import copy
import importlib
import os
import select
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = ("engine.core.value", "engine._gc")
FAST_TESTS = [
    "tests/engine/test_value.py",
    "tests/engine/test_quiet_nodes.py",
    "tests/engine/test_mutation_survivors.py",
    "tests/engine/test_collector.py",
    "tests/engine/test_blank_nodes.py",
    "tests/engine/test_stepping_orders.py",
    "tests/engine/test_op_table.py",
    "tests/engine/test_core_mutants.py",
]
FAST_SKIP = "not demo_epochs_gradients and not no_module_but_the_table"
# stage two: the fast tests in full, and the other engine tests that read the core's
# nodes and orders and run in seconds (all of tests/engine takes 9 minutes a run: 50
# survivors would take hours on 2 cores)
SECOND_TESTS = FAST_TESTS[-1:] + FAST_TESTS[:-1] + [
    "tests/engine/test_stepping.py",
    "tests/engine/test_pitfalls.py",
    "tests/engine/test_engines.py",
    "tests/engine/test_new_ops.py",
]
SWAPS = {  # what each node type is turned into
    ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
    ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.Gt: ast.LtE, ast.LtE: ast.Gt,
    ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
    ast.Pow: ast.Mult, ast.BitOr: ast.BitAnd, ast.Mod: ast.Mult,
    ast.And: ast.Or, ast.Or: ast.And,
}
ATTRIBUTES = {"_a": "_b", "_b": "_a", "_ga": "_gb", "_gb": "_ga"}
MUTABLE_CONSTANTS = {"_BATCH", "_RECURSION_DEPTH"}
APPLY_FAILED = 98  # a child's exit code when the mutant could not be put in place


def node_mutations(node: ast.AST):
    """(description, function changing `node` in place) for each mutant of one node."""
    for field in ("op", "ops"):
        value = getattr(node, field, None)
        items = value if isinstance(value, list) else [value]
        for i, op in enumerate(items):
            if type(op) in SWAPS:
                swapped = SWAPS[type(op)]

                def turn(n, field=field, i=i, new=swapped):
                    if field == "ops":
                        n.ops[i] = new()
                    else:
                        n.op = new()
                yield f"{type(op).__name__} -> {SWAPS[type(op)].__name__}", turn
    if isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, bool):
            yield f"{v} -> {not v}", lambda n: setattr(n, "value", not n.value)
        elif isinstance(v, (int, float)):
            new = 1 if v == 0 else (v + 1 if isinstance(v, int) else v * 2.0 + 1.0)
            yield f"{v!r} -> {new!r}", lambda n, new=new: setattr(n, "value", new)
        elif isinstance(v, str) and v:
            yield f"{v!r} -> 'XX'", lambda n: setattr(n, "value", "XX" + n.value + "XX")
    if isinstance(node, ast.Attribute) and node.attr in ATTRIBUTES:
        yield (f".{node.attr} -> .{ATTRIBUTES[node.attr]}",
               lambda n: setattr(n, "attr", ATTRIBUTES[n.attr]))
    if isinstance(node, (ast.If, ast.While, ast.IfExp)):
        yield "condition negated", lambda n: setattr(
            n, "test", ast.UnaryOp(op=ast.Not(), operand=n.test))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
        yield f"{type(node.op).__name__} dropped", lambda n: setattr(n, "op", ast.UAdd())
    if isinstance(node, ast.Break):
        yield "break -> continue", lambda n: setattr(n, "__class__", ast.Continue)
    if isinstance(node, ast.Continue):
        yield "continue -> break", lambda n: setattr(n, "__class__", ast.Break)
    for field in ("body", "orelse", "finalbody"):
        body = getattr(node, field, None)
        if isinstance(body, list) and node_is_code(node):
            for i, stmt in enumerate(body):
                if isinstance(stmt, ast.stmt) and not is_docstring(stmt):
                    yield (f"line {stmt.lineno} deleted",
                           lambda n, field=field, i=i: getattr(n, field).__setitem__(
                               i, ast.Pass()))


def node_is_code(node: ast.AST) -> bool:
    return isinstance(node, (ast.FunctionDef, ast.If, ast.For, ast.While, ast.With,
                             ast.Try, ast.ExceptHandler))


def is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
        and isinstance(stmt.value.value, str)


def targets(module_name: str):
    """(owner name, function definition or assignment) of each place to mutate."""
    tree = ast.parse(Path(importlib.import_module(module_name).__file__).read_text())
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef):
            yield stmt.name, stmt
        elif isinstance(stmt, ast.ClassDef):
            for item in stmt.body:
                if isinstance(item, ast.FunctionDef):
                    setter = any(isinstance(d, ast.Attribute) and d.attr == "setter"
                                 for d in item.decorator_list)
                    yield f"{stmt.name}.{item.name}{'.setter' if setter else ''}", item
        elif isinstance(stmt, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id in MUTABLE_CONSTANTS for t in stmt.targets):
            yield stmt.targets[0].id, stmt


def mutants():
    """Every mutant: (module, owner, index of the node in ast.walk, index of its change,
    description, line)."""
    for module_name in MODULES:
        for owner, target in targets(module_name):
            for i, node in enumerate(walk(target)):
                if is_docstring_constant(target, node):
                    continue
                for j, (what, _change) in enumerate(node_mutations(node)):
                    yield (module_name, owner, i, j, what,
                           getattr(node, "lineno", target.lineno))


def walk(target: ast.AST) -> list[ast.AST]:
    """The nodes of `target` that run: not its arguments' defaults (a function's code
    put in place keeps the old defaults) nor annotations (never evaluated)."""
    found, todo = [], [target]
    while todo:
        node = todo.pop(0)
        found.append(node)
        for field, value in ast.iter_fields(node):
            if field in ("args", "returns", "annotation", "decorator_list") \
                    and isinstance(node, (ast.FunctionDef, ast.AnnAssign)):
                continue
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    todo.append(child)
    return found


def is_docstring_constant(target: ast.AST, node: ast.AST) -> bool:
    body = getattr(target, "body", [])
    return bool(body) and is_docstring(body[0]) and node is body[0].value


def function_of(module, owner: str):
    """The live function object a definition made (a property's getter or setter too)."""
    if "." not in owner:
        return getattr(module, owner)
    cls_name, name, *setter = owner.split(".")
    found = vars(getattr(module, cls_name))[name]
    if isinstance(found, property):
        return found.fset if setter else found.fget
    return found


def apply(mutant) -> None:
    """Put the mutant in place, in this process."""
    module_name, owner, i, j, _what, _line = mutant
    module = importlib.import_module(module_name)
    target = dict(targets(module_name))[owner]
    tree = copy.deepcopy(target)
    walked = walk(tree)
    list(node_mutations(walked[i]))[j][1](walked[i])
    if isinstance(tree, ast.Assign):
        exec(compile(ast.fix_missing_locations(ast.Module([tree], [])), "<mutant>", "exec"),
             module.__dict__)
        if owner == "_BATCH":
            module._batch = module._BATCH[0]
        return
    tree.decorator_list = []
    made: dict = {}
    code = compile(ast.fix_missing_locations(ast.Module([tree], [])),
                   module.__file__, "exec")
    exec(code, module.__dict__, made)
    function_of(module, owner).__code__ = made[tree.name].__code__
    if owner == "value_method":  # its methods were made at import: make them again
        for op in module.ops.FUNCTIONS:
            if not op.written_out:
                setattr(module.Value, op.method, module.value_method(op))


def run_child(mutant, tests: list[str], extra: list[str]) -> int:
    """Fork: the child applies the mutant and runs pytest; returns the child's pid."""
    import pytest

    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        try:
            apply(mutant)
        except BaseException:
            os._exit(APPLY_FAILED)  # a fault of the runner, not a mutant killed
        try:
            code = pytest.main([*tests, "-x", "-q", "-p", "no:cacheprovider", *extra])
        except BaseException:
            code = 99
        os._exit(int(code))
    return pid


def run_all(todo, tests, extra, jobs: int, timeout: float) -> dict:
    """{mutant: 'killed' | 'timeout' | 'survived'}, `jobs` children at a time."""
    results, running = {}, {}
    todo = list(todo)
    while todo or running:
        while todo and len(running) < jobs:
            mutant = todo.pop(0)
            running[run_child(mutant, tests, extra)] = (mutant, time.monotonic())
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            select.select([], [], [], 0.05)
            for pid, (mutant, started) in list(running.items()):
                if time.monotonic() - started > timeout:
                    os.kill(pid, 9)
                    os.waitpid(pid, 0)
                    results[mutant] = "timeout"
                    del running[pid]
                    print(f"{len(results):4d} timeout  {describe(mutant)}", flush=True)
            continue
        if pid in running:
            mutant, _started = running.pop(pid)
            code = os.waitstatus_to_exitcode(status)
            results[mutant] = ("survived" if code == 0 else "error" if code == APPLY_FAILED
                               else "killed")
            print(f"{len(results):4d} {results[mutant]:8s} {describe(mutant)}", flush=True)
    return results


def describe(mutant) -> str:
    module_name, owner, _i, _j, what, line = mutant
    return f"{module_name.split('.')[-1]}.py:{line} {owner}: {what}"


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.mutation")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--only", default="", help="owners to mutate, comma-separated")
    parser.add_argument("--recheck", default="", help="a log of an earlier run")
    args = parser.parse_args()
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    every = [m for m in mutants() if not args.only or m[1] in args.only.split(",")]
    for path in SECOND_TESTS:  # loaded once here, so each child only runs them
        importlib.import_module(path[:-3].replace("/", "."))
    if args.recheck:
        logged = {line.split(None, 2)[2] for line in Path(args.recheck).read_text().splitlines()
                  if line.split()[1:2] == ["survived"]}
        first = {m: "survived" if describe(m) in logged else "killed" for m in every}
    else:
        first = run_all(every, FAST_TESTS, ["-k", FAST_SKIP], args.jobs, args.timeout)
    alive = [m for m in every if first[m] == "survived"]
    print(f"stage two: {len(alive)} on {len(SECOND_TESTS)} files", flush=True)
    second = run_all(alive, SECOND_TESTS, [], args.jobs, args.timeout * 10)
    survivors = [m for m in alive if second[m] == "survived"]
    timeouts = sum(1 for r in [*first.values(), *second.values()] if r == "timeout")
    errors = [m for m in every if "error" in (first[m], second.get(m))]
    for mutant in errors:
        print("  not applied: " + describe(mutant))
    print(f"\n{len(every)} mutants, {len(every) - len(survivors)} killed "
          f"({timeouts} by the timeout), {len(survivors)} survived:")
    for mutant in survivors:
        print("  " + describe(mutant))


if __name__ == "__main__":
    main()
