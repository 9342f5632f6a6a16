"""Checking a user's own autograd engine: every rule and behaviour against this one.

The user's file runs only in child processes (`runner.CheckRun`); this process sees
numbers and sentences. `cases` says what is built, `adapter` and `child` run in the
child, `diagnosis` turns numbers into a likely cause, `replay` steps a failing case as
the user's engine did it.
"""

from engine.checks.engine_check.cases import BEHAVIOURS, CHECKS, RULES
from engine.checks.engine_check.runner import (
    DEFAULT_TIMEOUT_S,
    STATUSES,
    CheckRun,
    EngineLoadError,
    finish_report,
)

__all__ = ["BEHAVIOURS", "CHECKS", "DEFAULT_TIMEOUT_S", "RULES", "STATUSES", "CheckRun",
           "EngineLoadError", "finish_report"]
