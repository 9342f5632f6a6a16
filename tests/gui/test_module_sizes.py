"""No module of gui/ over LINES lines and no function over FUNCTION_LINES, unless the
module says why at its top: a line `# size: <reason>` right after its docstring."""

import ast
from pathlib import Path

GUI = Path(__file__).resolve().parents[2] / "gui"
LINES = 420          # "about 400"
FUNCTION_LINES = 60


def _too_big(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    found = []
    if text.count("\n") > LINES:
        found.append(f"{text.count(chr(10))} lines")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > FUNCTION_LINES:
                found.append(f"{node.name}() {length} lines")
    return found


def _reason(path: Path) -> str:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstring = tree.body[0] if tree.body and isinstance(tree.body[0], ast.Expr) else None
    after = docstring.end_lineno if docstring is not None else 0
    lines = path.read_text(encoding="utf-8").splitlines()
    for line in lines[after:after + 3]:
        if line.startswith("# size: ") and len(line) > len("# size: ") + 10:
            return line
    return ""


def test_big_modules_and_functions_say_why():
    unexplained = {str(p.relative_to(GUI)): found for p in sorted(GUI.rglob("*.py"))
                   if (found := _too_big(p)) and not _reason(p)}
    assert unexplained == {}


def test_the_check_finds_a_long_function(tmp_path):
    body = "\n".join(f"    x{k} = {k}" for k in range(FUNCTION_LINES))
    path = tmp_path / "long.py"
    path.write_text(f'"""A module."""\n\n\ndef f():\n{body}\n', encoding="utf-8")
    assert _too_big(path) == [f"f() {FUNCTION_LINES + 1} lines"] and _reason(path) == ""
    path.write_text(f'"""A module."""\n# size: one table of cases, read top down\n\n'
                    f'def f():\n{body}\n', encoding="utf-8")
    assert _reason(path)
