"""The layout keeps its promises: no two public names alike, and the modules of gui/ that
say they are Qt-free (the layout, the child processes' entry points, the Learn content)
load no Qt. (The engine's own boundary: tests/engine/test_boundaries.py and
test_imports.py; the op table's: tests/engine/test_op_table.py.)"""

import ast
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "gui", "cli")
QT = ("PySide6", "shiboken6", "pyqtgraph")
# every command module of cli/ has the same two functions, by design: main.py calls
# module.add_arguments(parser) and module.run(args) for each subcommand
SUBCOMMAND_PROTOCOL = {"add_arguments", "run"}


def sources():
    for package in PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))


def public_names(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                and not node.name.startswith("_"):
            yield node.name


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_two_public_functions_or_classes_share_a_name():
    where = defaultdict(list)
    for path in sources():
        for name in public_names(path):
            where[name].append(module_name(path))
    shared = {name: modules for name, modules in where.items() if len(modules) > 1
              and not (name in SUBCOMMAND_PROTOCOL
                       and all(m.startswith("cli.") for m in modules))}
    assert shared == {}


def test_the_scan_sees_the_names_it_must():
    found = {name for path in sources() for name in public_names(path)}
    assert {"Value", "Stepper", "SlicedTask", "ProcessWorker", "MainWindow"} <= found


def qt_free_modules() -> list[str]:
    return [module_name(path) for path in sorted((ROOT / "gui").rglob("*.py"))
            if "\n# Qt-free:" in path.read_text(encoding="utf-8")]


def test_the_modules_that_say_they_are_qt_free_load_no_qt():
    marked = qt_free_modules()
    # the layout and every child process's entry point are among them
    assert {"gui.graph.layout", "gui.graph.layout.ordering", "gui.jobs.parse_child",
            "gui.jobs.process_child", "gui.jobs.tensorflow_child",
            "gui.tabs.learn.content"} <= set(marked)
    for module in marked:  # each alone: one module's import could hide another's
        probe = (f"import sys, {module}\n"
                 f"print(sorted(m for m in sys.modules if m.startswith({QT!r})))")
        result = subprocess.run([sys.executable, "-c", probe], capture_output=True,
                                text=True, cwd=ROOT, timeout=120, check=True)
        assert result.stdout.strip() == "[]", module


def test_every_layout_module_and_child_entry_point_is_marked():
    marked = set(qt_free_modules())
    expected = {module_name(p) for p in (ROOT / "gui" / "graph" / "layout").glob("*.py")}
    expected |= {module_name(p) for p in (ROOT / "gui" / "jobs").glob("*_child.py")}
    assert expected - marked == set()
