"""Where the app's own files are (the presets, the example engines, the icon, the .desktop
file): the checkout's assets/ folder, which an installed wheel carries as the package
`autograd_debugger_assets` (pyproject.toml maps the one to the other)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

PACKAGE = "autograd_debugger_assets"
# the folder that holds the top-level packages, however deep this module is moved
CHECKOUT = Path(__file__).resolve().parents[__name__.count(".")] / "assets"


def _root() -> Path:
    # the files that came with this code: a checkout's own (run as it is, or installed
    # editable) even if a wheel is installed too; otherwise the installed package's
    if (CHECKOUT / "presets").is_dir() and (CHECKOUT.parent / "pyproject.toml").is_file():
        return CHECKOUT
    try:
        spec = importlib.util.find_spec(PACKAGE)
    except (ImportError, ValueError):
        spec = None
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        if Path(folder, "presets").is_dir():
            return Path(folder)
    return CHECKOUT  # not found: the messages then name the path that is missing


ROOT = _root()


def asset_path(*parts: str) -> Path:
    """The path of one of the app's files or folders, e.g. asset_path("presets",
    "01-neuron.expr"); whether it exists is not checked."""
    return ROOT.joinpath(*parts)
