"""The engine imports no Qt, and nothing imports TensorFlow until asked."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def modules_after(code: str) -> set[str]:
    probe = code + "\nimport sys\nprint('\\n'.join(sys.modules))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            cwd=ROOT, timeout=120, check=True)
    return set(result.stdout.split())


def test_engine_imports_no_qt_and_no_tensorflow():
    loaded = modules_after(
        "import engine, engine.core.stepping, engine.core.pitfalls\n"
        "import engine.checks.central_difference\n"
        "import engine.checks.tensorflow_check\n"
        "engine.parse('x = 1; y = tanh(x)').output.backward()")
    assert not {m for m in loaded if m.startswith(("PySide6", "shiboken6", "pyqtgraph"))}
    assert "tensorflow" not in loaded


def test_grad_command_does_not_import_tensorflow_without_tf_flag():
    loaded = modules_after(
        "import main, io, contextlib\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main.main(['grad', 'assets/presets/01-neuron.expr', '--fd'])")
    assert "tensorflow" not in loaded
    assert not {m for m in loaded if m.startswith("PySide6")}


def test_no_eval_or_exec_in_the_app():
    for path in [ROOT / "main.py", *ROOT.glob("engine/**/*.py"), *ROOT.glob("gui/**/*.py"),
                 *ROOT.glob("cli/**/*.py")]:
        source = path.read_text(encoding="utf-8")
        for word in ("eval(", "exec(", "compile("):
            assert f" {word}" not in source and f"({word}" not in source, (path, word)
