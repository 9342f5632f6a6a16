"""The package installs: the wheel `uv build` makes from the checkout, installed into a
fresh virtual environment, runs `autograd-debugger` from a folder that is not the checkout.

Cost, measured on 2 cores: 13-15 s alone, up to 25 s under load. The build (an sdist,
then the wheel from it; setuptools from uv's cache after the first time) takes 5 s; the
fresh environment 0.2 s; its install under 2 s: the dependencies come from uv's cache at
the versions the project's environment holds (nothing that `uv sync` did not already
fetch), and uv hard-links their files (1.7 GB of TensorFlow and Qt) rather than copying
them, when the cache is on the same file system. The commands take the rest."""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("engine", "gui", "cli")
PROGRAM = b"x = 2\ny = x*x + 3*x\n"  # dy/dx = 2x + 3 = 7


def _uv() -> str:
    uv = os.environ.get("UV") or shutil.which("uv")  # `uv run` names itself in $UV
    assert uv, "uv is needed to build and install the wheel (the README's set-up installs it)"
    return uv


def _clean_env() -> dict[str, str]:
    """The environment, less what would point a child at the checkout's environment."""
    env = dict(os.environ)
    for name in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP"):
        env.pop(name, None)
    env["QT_QPA_PLATFORM"] = "offscreen"
    return env


def _run(args, cwd, stdin=None, timeout=600):
    return subprocess.run([str(a) for a in args], input=stdin, capture_output=True, cwd=cwd,
                          env=_clean_env(), timeout=timeout)


def _checked(result) -> subprocess.CompletedProcess:
    assert result.returncode == 0, (result.stdout.decode()[-2000:], result.stderr.decode()[-4000:])
    return result


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(wheel, the fresh environment's bin folder, an empty folder to run in)."""
    base = tmp_path_factory.mktemp("wheel")
    uv, dist, venv, away = _uv(), base / "dist", base / "venv", base / "elsewhere"
    away.mkdir()
    _checked(_run([uv, "build", "--quiet", "--out-dir", dist, ROOT], cwd=away))
    (wheel,) = dist.glob("autograd_debugger-*.whl")
    _checked(_run([uv, "venv", "--quiet", "--python", sys.executable, venv], cwd=away))
    # the versions this environment was tested with, so uv's cache has every one of them
    frozen = _checked(_run([uv, "pip", "freeze", "--exclude-editable",
                            "--python", sys.executable], cwd=away)).stdout
    constraints = base / "constraints.txt"
    constraints.write_bytes(frozen)
    python = venv / "bin" / "python"
    _checked(_run([uv, "pip", "install", "--quiet", "--python", python, wheel,
                   "--constraint", constraints], cwd=away))
    return wheel, venv / "bin", away


def _files(folder: Path) -> set[str]:
    return {p.relative_to(folder.parent).as_posix() for p in folder.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


def test_the_wheel_holds_every_module_and_every_asset(installed):
    wheel, _, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = set().union(*(_files(ROOT / top) for top in SOURCES))
    modules = {m for m in modules if m.endswith(".py")}
    assert modules - names == set(), "a package is missing from pyproject.toml's list"
    assets = {name.replace("assets/", "autograd_debugger_assets/", 1)
              for name in _files(ROOT / "assets")}
    assert {"autograd_debugger_assets/autograd-debugger.desktop",
            "autograd_debugger_assets/icons/autograd-debugger.svg",
            "autograd_debugger_assets/presets/01-neuron.expr",
            "autograd_debugger_assets/engines/tanh_rule.py"} <= assets
    assert assets - names == set()
    assert "main.py" in names


def test_the_installed_code_and_assets_are_the_environments_own(installed):
    _, bin_folder, away = installed
    probe = ("import json, gui.app, gui.graph.editor, gui.engine_dialog, "
             "gui.window.main_window, main\n"
             "print(json.dumps({'main': main.__file__, 'icon': str(gui.app.ICON),\n"
             "  'neuron': str(gui.window.main_window.DEFAULT_PROGRAM),\n"
             "  'presets': [str(p) for _, p in gui.graph.editor.list_presets()],\n"
             "  'examples': [str(p) for p in gui.engine_dialog.examples()]}))\n")
    found = json.loads(_checked(_run([bin_folder / "python", "-c", probe], cwd=away)).stdout)
    environment = bin_folder.parent.resolve()
    paths = [found["main"], found["icon"], found["neuron"], *found["presets"],
             *found["examples"]]
    for path in paths:
        assert Path(path).is_file() and Path(path).resolve().is_relative_to(environment), path
    assert [Path(p).name for p in found["presets"]] == sorted(
        p.name for p in (ROOT / "assets" / "presets").glob("*.expr"))
    assert [Path(p).name for p in found["examples"]] == sorted(
        p.name for p in (ROOT / "assets" / "engines").glob("*.py"))
    assert Path(found["neuron"]).read_bytes() == (
        ROOT / "assets" / "presets" / "01-neuron.expr").read_bytes()


def test_grad_reads_a_program_on_standard_input(installed):
    _, bin_folder, away = installed
    result = _checked(_run([bin_folder / "autograd-debugger", "grad", "-", "--json"],
                           cwd=away, stdin=PROGRAM, timeout=120))
    report = json.loads(result.stdout)
    assert report["output"] == {"name": "y", "value": 10.0}
    assert report["inputs"] == {"x": {"value": 2.0, "grad": 7.0}}
    usage = _checked(_run([bin_folder / "autograd-debugger", "grad", "--help"], cwd=away))
    assert usage.stdout.decode().startswith("usage: autograd-debugger grad ")


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_screenshot_opens_the_window_on_the_neuron(installed):
    _, bin_folder, away = installed
    out = away / "window.png"
    result = _checked(_run([bin_folder / "autograd-debugger", "screenshot", out,
                            "--size", "1300x800"], cwd=away, timeout=300))
    assert result.stdout.decode().strip() == str(out)
    assert _png_size(out) == (1300, 800)
    # the icon and the neuron were found: Qt says so on standard error when one is not
    assert b"Cannot open" not in result.stderr and b"No such file" not in result.stderr
    # and the window is the checkout's, pixel for pixel (the drawing is deterministic)
    here = away / "checkout.png"
    _checked(subprocess.run([sys.executable, str(ROOT / "main.py"), "screenshot", str(here),
                             "--size", "1300x800"], capture_output=True, cwd=ROOT,
                            timeout=300))
    assert out.read_bytes() == here.read_bytes()


def test_check_engine_on_an_installed_example(installed):
    _, bin_folder, away = installed
    where = _checked(_run([bin_folder / "python", "-c",
                           "from engine.assets import asset_path; "
                           "print(asset_path('engines', 'tanh_rule.py'))"], cwd=away))
    example = Path(where.stdout.decode().strip())
    result = _run([bin_folder / "autograd-debugger", "check-engine", example, "--json"],
                  cwd=away, timeout=300)
    report = json.loads(result.stdout)
    here = subprocess.run([sys.executable, str(ROOT / "main.py"), "check-engine",
                           str(ROOT / "assets" / "engines" / "tanh_rule.py"), "--json"],
                          capture_output=True, cwd=ROOT, timeout=300)
    assert (result.returncode, report["checks"]) == (here.returncode,
                                                     json.loads(here.stdout)["checks"])
    statuses = {name: check["status"] for name, check in report["checks"].items()}
    assert [name for name, status in statuses.items() if status == "wrong"] == ["tanh"]
    # a micrograd-style example has no sin, cos, sqrt, abs or Value exponent: not checked
    assert {name for name, status in statuses.items() if status == "missing"} == {
        "sin", "cos", "sqrt", "abs", "pow_input"}
    assert set(statuses.values()) == {"ok", "wrong", "missing"}
