"""Guards against the PySide6 6.12.0 defect on Python 3.11 (DESIGN.md, Dependencies)."""

import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from PySide6.QtCore import QObject

ROOT = Path(__file__).resolve().parents[2]


def test_void_qt_calls_do_not_drop_references_to_none(qapp):
    """6.12.0 drops a reference to None on every void call; 3.11 then aborts."""
    obj = QObject()
    before = sys.getrefcount(None)
    for _ in range(20_000):
        obj.setObjectName("probe")  # returns None
    after = sys.getrefcount(None)
    assert after >= before - 100, f"None lost {before - after} references"


def test_the_broken_release_cannot_be_installed():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    requirements = [Requirement(r) for r in project["project"]["dependencies"]]
    guarded = {r.name.lower(): r.specifier for r in requirements}
    for name in ("pyside6-essentials", "shiboken6"):
        assert name in guarded
        assert not guarded[name].contains("6.12.0")
