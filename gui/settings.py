"""What the window remembers between runs, read back as data from outside.

Every value is checked (type, range, size) and replaced by its default when it is
wrong, so a damaged or hand-edited settings file never stops the window from starting.
The file is read and written only when it is a regular file or absent (`open_settings`):
never through a link to a device, never a FIFO (whose open would wait for ever). The
program itself is not kept here but in each window's recovery copy (gui/window/recovery.py).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from PySide6.QtCore import QByteArray, QSettings

from engine.io.files import check_regular
from engine.language import MAX_CHARS

ORGANIZATION = APPLICATION = "AutogradDebugger"
KEYS = ("geometry", "state", "speed", "constants_as_nodes")  # what the window writes
LEGACY_PROGRAM = "program"  # the program an earlier version kept here: read, then removed
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


def settings_path() -> str:
    """Where QSettings(ORGANIZATION, APPLICATION) keeps its file, found without reading
    it: a QSettings of a name no file has tells the folder (QSettings.setPath included)."""
    probe = QSettings(ORGANIZATION, APPLICATION + ".where")
    folder, name = os.path.split(probe.fileName())
    return os.path.join(folder, APPLICATION + os.path.splitext(name)[1])


def settings_problem(path: str) -> str | None:
    """None if the settings file at `path` is a regular file (links followed) or absent;
    else why it is not used, in words."""
    try:
        check_regular(path)
    except FileNotFoundError:
        return "it is a link to nothing" if os.path.islink(path) else None
    except OSError as e:
        return e.strerror or str(e)
    return None


def open_settings() -> tuple[QSettings | None, str, str | None]:
    """(the settings or None, their file's path, why they are not used or None)."""
    path = settings_path()
    problem = settings_problem(path)
    if problem is not None:
        return None, path, problem
    return QSettings(path, QSettings.Format.IniFormat), path, None


def write_problem(settings: QSettings) -> str | None:
    """Write what was set now; None if it was written, else why not (QSettings.status)."""
    problem = settings_problem(settings.fileName())
    if problem is not None:  # replaced since it was read: never written through
        return problem
    settings.sync()
    status = settings.status()
    if status == QSettings.Status.NoError:
        return None
    if status == QSettings.Status.AccessError:
        return "it cannot be written (no permission, a full disk, or a folder in its way)"
    return "it is not in the settings format"


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
        program=program_text(_value(settings, LEGACY_PROGRAM)),
        speed=integer(_value(settings, "speed"), DEFAULT_SPEED, *speed_range),
        constants_as_nodes=boolean(_value(settings, "constants_as_nodes"), False),
    )


def write(settings: QSettings, geometry: QByteArray, state: QByteArray, speed: int,
          constants_as_nodes: bool) -> str | None:
    """Write the window's settings; None if they were written, else why not."""
    if settings_problem(settings.fileName()) is not None:
        return write_problem(settings)
    settings.setValue("geometry", geometry)
    settings.setValue("state", state)
    settings.remove(LEGACY_PROGRAM)  # the window's recovery copy keeps it now
    settings.setValue("speed", speed)
    settings.setValue("constants_as_nodes", constants_as_nodes)
    return write_problem(settings)
