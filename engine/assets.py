"""Where the app's own files are (the presets, the example engines, the icon, the .desktop
file): the checkout's assets/ folder, which an installed wheel carries as the package
`autograd_debugger_assets` (pyproject.toml maps the one to the other)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

PACKAGE = "autograd_debugger_assets"
CHECKOUT = Path(__file__).resolve().parent.parent / "assets"


def _root() -> Path:
    # the installed package if there is one (a wheel, or an editable install that maps
    # it to the checkout), else the checkout run as it is (python main.py, no install)
    try:
        spec = importlib.util.find_spec(PACKAGE)
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        for folder in spec.submodule_search_locations:
            if Path(folder, "presets").is_dir():
                return Path(folder)
    return CHECKOUT


ROOT = _root()


def asset_path(*parts: str) -> Path:
    """The path of one of the app's files or folders, e.g. asset_path("presets",
    "01-neuron.expr"); whether it exists is not checked."""
    return ROOT.joinpath(*parts)
