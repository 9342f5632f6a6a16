"""What the window remembers between runs, read back as data from outside.

Every value is checked (type, range, size) and replaced by its default when it is
wrong, so a damaged or hand-edited settings file never stops the window from starting.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtCore import QByteArray, QSettings

from engine.language import MAX_CHARS

KEYS = ("geometry", "state", "program", "speed", "constants_as_nodes")
MAX_LAYOUT_BYTES = 64 * 1024  # a window's geometry and dock state take a few hundred bytes
MAX_PROGRAM_CHARS = MAX_CHARS  # a longer remembered program could never build
DEFAULT_SPEED = 4
_INTEGER = re.compile(r"[+-]?\d{1,9}")


@dataclass(frozen=True)
class Remembered:
    """The settings as the window uses them; None where the default applies."""

    geometry: QByteArray | None = None
    state: QByteArray | None = None
    program: str | None = None
    speed: int = DEFAULT_SPEED
    constants_as_nodes: bool = False


def _value(settings: QSettings, key: str):
    try:
        return settings.value(key)
    except Exception:  # a value Qt cannot convert is as good as none
        return None


def layout_bytes(value) -> QByteArray | None:
    """A geometry or state blob: bytes of a sane size, else None."""
    if isinstance(value, (bytes, bytearray)):
        value = QByteArray(bytes(value))
    if isinstance(value, QByteArray) and 0 < value.size() <= MAX_LAYOUT_BYTES:
        return value
    return None


def program_text(value) -> str | None:
    """A remembered program: text of at most MAX_PROGRAM_CHARS with something in it."""
    if isinstance(value, str) and len(value) <= MAX_PROGRAM_CHARS and value.strip():
        return value
    return None


def integer(value, default: int, low: int, high: int) -> int:
    """An int in [low, high] (INI files hold it as text), else `default`."""
    if isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
        value = int(value.strip())
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    return default


def boolean(value, default: bool) -> bool:
    if value is True or value == "true":
        return True
    if value is False or value == "false":
        return False
    return default


def read(settings: QSettings, speed_range: tuple[int, int]) -> Remembered:
    """Every remembered value, checked; a wrong one is its default."""
    return Remembered(
        geometry=layout_bytes(_value(settings, "geometry")),
        state=layout_bytes(_value(settings, "state")),
        program=program_text(_value(settings, "program")),
        speed=integer(_value(settings, "speed"), DEFAULT_SPEED, *speed_range),
        constants_as_nodes=boolean(_value(settings, "constants_as_nodes"), False),
    )


def write(settings: QSettings, geometry: QByteArray, state: QByteArray, program: str,
          speed: int, constants_as_nodes: bool) -> None:
    settings.setValue("geometry", geometry)
    settings.setValue("state", state)
    # a program too long to build is not kept: it would only slow every start
    if len(program) <= MAX_PROGRAM_CHARS:
        settings.setValue("program", program)
    else:
        settings.remove("program")
    settings.setValue("speed", speed)
    settings.setValue("constants_as_nodes", constants_as_nodes)
