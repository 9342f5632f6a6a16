"""Every engine module imports alone, and no module of the engine imports, at its top,
one that imports it back (directly or through others)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def engine_modules() -> dict[str, Path]:
    """Every module under engine/, by its dotted name (a package by its own name)."""
    modules = {}
    for path in sorted((ROOT / "engine").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def top_level_imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The engine modules `name` imports when it is imported (not those imported inside
    functions). `from package import name` counts as importing the package (whose
    `__init__` runs and is read) and, if `name` is a module, that module too."""
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    # importing a.b.c runs a and a.b first, unless the importer is inside them already
    implied = {".".join(m.split(".")[:k]) for m in found for k in range(1, m.count(".") + 1)}
    implied = {p for p in implied if not name.startswith(p + ".")}
    return {m for m in found | implied if m in modules and m != name}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each module that reaches itself, by a depth-first walk."""
    found, done = [], set()

    def walk(start: str) -> None:
        stack, path, seen = [iter(sorted(graph[start]))], [start], {start}
        while stack:
            child = next(stack[-1], None)
            if child is None:
                stack.pop()
                path.pop()
            elif child == start:
                found.append([*path, start])
                return
            elif child not in seen and child not in done:
                seen.add(child)
                stack.append(iter(sorted(graph[child])))
                path.append(child)

    for module in sorted(graph):
        walk(module)
        done.add(module)
    return found


def test_no_engine_module_imports_one_that_imports_it_back():
    modules = engine_modules()
    graph = {name: top_level_imports(name, path, modules) for name, path in modules.items()}
    # the walk sees edges
    assert "engine.checks.engine_check.runner" in graph["engine.checks.engine_check"]
    assert cycles(graph) == []


def test_the_cycle_walk_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c", "a"]]


def test_every_engine_module_imports_alone_in_a_fresh_interpreter():
    modules = sorted(engine_modules())
    assert len(modules) > 30
    # all at once: each is a fresh interpreter, and they need not wait for each other
    runs = {name: subprocess.Popen([sys.executable, "-c", f"import {name}"], cwd=ROOT,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
            for name in modules}
    failed = {}
    for name, run in runs.items():
        _, err = run.communicate(timeout=300)
        if run.returncode != 0:
            failed[name] = err.strip().splitlines()[-1:]
    assert failed == {}
