"""The theme: light, dark, or the system's, applied to the whole app and remembered.

`apply(choice)` picks the colour set (gui/palette.py), gives the application a palette
to match (the widgets), sets pyqtgraph's defaults (plots made later) and tells every
follower (`follow`, `changed`) so that what was drawn before is drawn again: the graph,
the plots, the style sheets and rich texts that name a colour.
"""

from __future__ import annotations

import re
import sys
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from gui import palette

CHOICES = ("light", "dark", "system")
LABELS = {"light": "&Light", "dark": "&Dark", "system": "Follow the &system"}
KEY = "theme"
DEFAULT = "light"


class _Changes(QObject):
    changed = Signal(str)  # the colour set now in use: 'light' or 'dark'


_changes: _Changes | None = None
_followers: list[tuple[weakref.ref, Callable]] = []
_light_palette: list[QPalette] = []  # the application's own, before a dark one replaced it


def changes() -> _Changes:
    """The object whose `changed` signal says that the colour set changed."""
    global _changes
    if _changes is None:
        _changes = _Changes()
    return _changes


def chosen(settings: QSettings) -> str:
    """The remembered choice ('light', 'dark' or 'system'); DEFAULT if none or wrong."""
    try:
        value = settings.value(KEY)
    except Exception:  # a value Qt cannot convert is as good as none
        value = None
    return value if isinstance(value, str) and value in CHOICES else DEFAULT


def remember(settings: QSettings, choice: str) -> None:
    settings.setValue(KEY, choice)


def system_is_dark() -> bool:
    """True when the desktop asks for dark colours (Qt's colour scheme hint)."""
    hints = QGuiApplication.styleHints()
    return hints is not None and hints.colorScheme() == Qt.ColorScheme.Dark


def resolved(choice: str) -> str:
    """The colour set a choice means now: 'light' or 'dark'."""
    if choice == "system":
        return "dark" if system_is_dark() else "light"
    if choice not in CHOICES:
        raise ValueError(f"no theme {choice!r}: {', '.join(CHOICES)}")
    return choice


def dark_palette() -> QPalette:
    """The widgets' palette for the dark set."""
    c = palette.qcolor
    colours = palette.DARK
    result = QPalette()
    roles = QPalette.ColorRole
    for role, key in ((roles.Window, "window"), (roles.WindowText, "text"),
                      (roles.Base, "base"), (roles.AlternateBase, "window"),
                      (roles.ToolTipBase, "window"), (roles.ToolTipText, "text"),
                      (roles.Text, "text"), (roles.Button, "window"),
                      (roles.ButtonText, "text"), (roles.BrightText, "wrong"),
                      (roles.PlaceholderText, "muted"), (roles.Link, "link")):
        result.setColor(role, c(colours[key]))
    shades = palette.DARK_SHADES
    for role in ("Highlight", "HighlightedText", "Light", "Midlight", "Mid", "Dark", "Shadow"):
        result.setColor(getattr(roles, role), c(shades[role]))
    disabled = QPalette.ColorGroup.Disabled
    for role in (roles.WindowText, roles.Text, roles.ButtonText):
        result.setColor(disabled, role, c(shades["Disabled"]))
    return result


def dark_indicators() -> str:
    """A radio button's ring and dot for the dark set: Fusion draws them from the window's
    colour darkened, black on near-black, so they are drawn here in the set's own
    colours (the ring 3:1 on the window at least, as WCAG asks of a control's edge)."""
    c = palette.DARK
    return (f"QRadioButton::indicator {{ width: 12px; height: 12px; border-radius: 7px; "
            f"border: 1px solid {c['faint']}; background: {c['base']}; }}"
            f"QRadioButton::indicator:checked {{ background: qradialgradient(cx:0.5, "
            f"cy:0.5, radius:0.5, fx:0.5, fy:0.5, stop:0 {c['blue']}, stop:0.5 {c['blue']},"
            f" stop:0.6 {c['base']}); }}"
            f"QRadioButton::indicator:disabled {{ border-color: "
            f"{palette.DARK_SHADES['Disabled']}; }}")


def _widgets(name: str) -> None:
    app = QApplication.instance()
    if app is None:
        return
    if name == "dark":
        if not _light_palette:
            _light_palette.append(QPalette(app.palette()))
        if app.style().name().lower() != "fusion":
            app.setStyle("Fusion")  # the one style that draws every widget from the palette
        app.setPalette(dark_palette())
        app.setStyleSheet(dark_indicators())
    elif _light_palette:
        app.setStyleSheet("")
        light = _light_palette[0]
        if light.color(QPalette.ColorRole.Window).lightness() < 128:  # the system's dark
            light = app.style().standardPalette()
        light = QPalette(light)
        light.setColor(QPalette.ColorRole.Link, palette.qcolor(palette.LIGHT["link"]))
        app.setPalette(light)


def _plots_defaults() -> None:
    pg = sys.modules.get("pyqtgraph")  # loaded with the first tab that plots
    if pg is not None:
        pg.setConfigOptions(background=palette.hex_of("plot_ground"),
                            foreground=palette.hex_of("plot_text"))


_HEX = re.compile(r"#[0-9a-fA-F]{6}\b")


def retint(text: str, table: dict[str, str]) -> str:
    """`text` (a style sheet, a rich text) with each colour of one set written in the
    other's (`palette.translation`); colours of neither are left."""
    return _HEX.sub(lambda m: table.get(m.group(0).lower(), m.group(0)), text)


def _retint_widgets(table: dict[str, str]) -> None:
    """Every widget's style sheet, every label's rich text and every editor's marks (the
    line and the token of an error) in the new set."""
    from PySide6.QtWidgets import QLabel, QPlainTextEdit, QTextEdit

    for widget in QApplication.allWidgets():
        sheet = widget.styleSheet()
        if "#" in sheet:
            widget.setStyleSheet(retint(sheet, table))
        text = widget.text() if isinstance(widget, QLabel) else ""
        if "color:" in text or "<a " in text:
            widget.setText("")  # read again: a link takes its colour when its text is read
            widget.setText(retint(text, table))
        if isinstance(widget, (QPlainTextEdit, QTextEdit)) and widget.extraSelections():
            widget.setExtraSelections([_retint_mark(s, table)
                                       for s in widget.extraSelections()])


def _retint_mark(selection, table: dict[str, str]):
    fmt = selection.format
    for get, put in ((lambda: fmt.background().color(), fmt.setBackground),
                     (fmt.underlineColor, fmt.setUnderlineColor)):
        now = table.get(get().name())
        if now is not None:
            put(QColor(now))
    selection.format = fmt
    return selection


def apply(choice: str) -> bool:
    """Use the theme `choice` ('light', 'dark' or 'system', resolved now): colours,
    widgets, plots' defaults, then every follower. True if the colour set changed."""
    name = resolved(choice)
    old = palette.theme()
    if not palette.use(name):
        return False
    _widgets(name)
    _plots_defaults()
    if QApplication.instance() is not None:
        _retint_widgets(palette.translation(old, name))
        if "pyqtgraph" in sys.modules:
            from gui.tabs import plot_colours

            plot_colours.retint_all(old, name)
    for ref, fn in list(_followers):
        widget = ref()
        if widget is None or not _alive(widget):
            _followers.remove((ref, fn))
            continue
        fn(widget)
    changes().changed.emit(name)
    return True


def _alive(widget) -> bool:
    import shiboken6

    return shiboken6.isValid(widget)


def follow(widget, fn: Callable) -> None:
    """Call `fn(widget)` now and whenever the colour set changes, while `widget`
    lives (a style sheet or a rich text that names colours: `palette.hex_of`)."""
    fn(widget)
    _followers.append((weakref.ref(widget), fn))


def styled(widget, sheet: Callable[[], str]) -> None:
    """`widget`'s style sheet made by `sheet()` now and again at every change."""
    follow(widget, lambda w: w.setStyleSheet(sheet()))


@contextmanager
def applied(choice: str) -> Iterator[str]:
    """The app in the theme `choice` (its QApplication made if need be) while the block
    runs, then in the colour set it had: a picture or an animation in either theme."""
    from gui.app import application

    application()
    before = palette.theme()
    apply(choice)
    try:
        yield palette.theme()
    finally:
        apply(before)
