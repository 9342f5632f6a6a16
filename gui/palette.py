"""Every colour the app draws with, in one place: a light set and a dark set.

A module reads a colour by its name: `colour("ink")` gives a QColor shared by every
reader, which `use("dark")` changes in place (so a module constant `INK =
colour("ink")` follows the theme, and `color is EDGE` still holds); `hex_of("error")`
gives the colour now as '#rrggbb' for a style sheet or a rich text. What was drawn
before a change keeps its colours: gui/theme.py draws it again.

TEXT_PAIRS lists every text colour with the ground it is read on, and tests hold each
pair to WCAG AA (`contrast` at least 4.5) in both sets.
"""

from __future__ import annotations

from PySide6.QtGui import QColor

THEMES = ("light", "dark")

LIGHT = {
    # the graph: the scene's ground, its ink, the meaning colours, the boxes' fills
    "background": "#ffffff",
    "ink": "#1f2937",
    "faint": "#5f6673",       # a value not yet computed ('?', '·')
    "current": "#c2410c",     # the node whose step was just taken
    "received": "#16a34a",    # a parent that just received a contribution
    "backward": "#2563eb",    # gradient flow already applied
    "wrong": "#dc2626",       # what a buggy engine's step gets wrong
    "edge": "#6b7280",
    "label_ground": "#e6ffffff",  # under an edge's label: the edge runs beneath it
    "input": "#dbeafe",
    "constant": "#ececec",
    "intermediate": "#ffffff",
    "output": "#fef3c7",
    "op": "#f3f4f6",
    "group": "#ede9fe",
    # the widgets: the window's grounds and the words said in colour
    "window": "#efefef",
    "base": "#ffffff",
    "text": "#000000",
    "muted": "#4b5563",       # a note, a hint
    "soft": "#374151",        # an exercise's words: softer than the text
    "error": "#b91c1c",
    "warning": "#92400e",
    "right": "#166534",
    "link": "#1d4ed8",        # a link in a rich text (the breadcrumb's groups)
    "notice": "#92400e",
    "notice_ground": "#fef3c7",
    "gutter": "#f3f4f6",       # the editor's line numbers
    "gutter_text": "#4b5563",
    "error_line": "#fee2e2",   # the line of the editor with the error
    "error_mark": "#fca5a5",   # the token with the error
    "wrong_row": "#fecaca",    # a table's row that is wrong
    "highlight_row": "#3c2563eb",  # a table's row picked out (translucent blue)
    # the plots
    "plot_ground": "#ffffff",
    "axis": "#374151",
    "plot_text": "#111827",
    "plot_hint": "#4b5563",
    "blue": "#2563eb",
    "red": "#dc2626",
    "orange": "#ea580c",
    "deep_blue": "#1e3a8a",
    "grey": "#6b7280",
    "ring": "#ffffff",        # around a dot drawn on a surface of its own colour
    # an animation's caption
    "caption": "#111827",
    "rule": "#d1d5db",
}

DARK = {
    "background": "#16181d",
    "ink": "#e5e7eb",
    "faint": "#9ca3af",
    "current": "#fb923c",
    "received": "#4ade80",
    "backward": "#60a5fa",
    "wrong": "#f87171",
    "edge": "#8b93a1",
    "label_ground": "#e616181d",
    "input": "#1e3a5f",
    "constant": "#2e3138",
    "intermediate": "#22252b",
    "output": "#45370f",
    "op": "#2a2d34",
    "group": "#362c55",
    "window": "#202227",
    "base": "#16181d",
    "text": "#e5e7eb",
    "muted": "#aab1bd",
    "soft": "#d1d5db",
    "error": "#fca5a5",
    "warning": "#fde68a",
    "right": "#4ade80",
    "link": "#93c5fd",
    "notice": "#fde68a",
    "notice_ground": "#3f3210",
    "gutter": "#202227",
    "gutter_text": "#9ca3af",
    "error_line": "#4c1d1d",
    "error_mark": "#7f1d1d",
    "wrong_row": "#5c1f1f",
    "highlight_row": "#5060a5fa",
    "plot_ground": "#16181d",
    "axis": "#d1d5db",
    "plot_text": "#e5e7eb",
    "plot_hint": "#aab1bd",
    "blue": "#60a5fa",
    "red": "#f87171",
    "orange": "#fb923c",
    "deep_blue": "#bfdbfe",
    "grey": "#9ca3af",
    "ring": "#16181d",
    "caption": "#e5e7eb",
    "rule": "#3a3f48",
}

# the dark widgets' shades of the Qt palette's other roles (the light theme keeps the
# application's own palette); "Disabled" is the text of a disabled widget
DARK_SHADES = {
    "Highlight": "#2f5f9e", "HighlightedText": "#ffffff", "Light": "#3a3f48",
    "Midlight": "#30343c", "Mid": "#2a2d34", "Dark": "#101216", "Shadow": "#000000",
    "Disabled": "#7b8290",
}

SETS = {"light": LIGHT, "dark": DARK}

# (text, ground): every colour text is drawn in, on what it is read
TEXT_PAIRS = (
    *[(text, fill) for text in ("ink", "faint")
      for fill in ("input", "constant", "intermediate", "output", "op", "group")],
    *[(text, "label_ground") for text in ("ink", "current", "backward", "wrong")],
    ("ink", "background"),
    *[(text, ground) for text in ("text", "muted", "soft", "error", "warning", "right",
                                  "link")
      for ground in ("window", "base")],
    ("notice", "notice_ground"),
    ("gutter_text", "gutter"), ("error", "gutter"),
    ("text", "error_line"), ("text", "error_mark"), ("text", "wrong_row"),
    ("text", "highlight_row"),
    *[(text, "plot_ground") for text in ("plot_text", "plot_hint", "axis")],
    ("caption", "background"),
)

_shared: dict[str, QColor] = {}
_theme = ["light"]


def qcolor(text: str) -> QColor:
    """'#rrggbb' or '#aarrggbb' as a QColor."""
    return QColor.fromString(text) if hasattr(QColor, "fromString") else QColor(text)


def colour(name: str) -> QColor:
    """The shared QColor of `name` in the set in use; KeyError for an unknown name."""
    shared = _shared.get(name)
    if shared is None:
        shared = _shared[name] = qcolor(SETS[_theme[0]][name])
    return shared


def hex_of(name: str) -> str:
    """`name`'s colour now, as '#rrggbb' (a translucent one as '#aarrggbb')."""
    return SETS[_theme[0]][name]


def theme() -> str:
    """The set in use: 'light' or 'dark'."""
    return _theme[0]


def use(name: str) -> bool:
    """Use the set `name` ('light' or 'dark'): every shared colour changes in place.
    True if that changed the set; ValueError for another name."""
    if name not in SETS:
        raise ValueError(f"no colour set {name!r}: {', '.join(THEMES)}")
    if name == _theme[0]:
        return False
    _theme[0] = name
    for key, shared in _shared.items():
        shared.setRgba(qcolor(SETS[name][key]).rgba())
    return True


# the colours a style sheet, a rich text or a plot is written in, and so translated from
# one set to the other when the theme changes: alike in one set, alike in the other
RETINTED = ("error", "muted", "soft", "warning", "right", "notice", "notice_ground", "blue",
            "red", "orange", "deep_blue", "grey", "ring", "axis", "plot_text", "plot_hint",
            "plot_ground", "error_line", "error_mark")


def name_of(color: QColor, theme_name: str) -> str | None:
    """Which of the RETINTED colours of the set `theme_name` `color` is, or None."""
    rgba = color.rgba()
    for key in RETINTED:
        if qcolor(SETS[theme_name][key]).rgba() == rgba:
            return key
    return None


def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def luminance(color: QColor) -> float:
    """WCAG 2 relative luminance of an opaque colour."""
    return (0.2126 * _linear(color.redF()) + 0.7152 * _linear(color.greenF())
            + 0.0722 * _linear(color.blueF()))


def over(top: QColor, ground: QColor) -> QColor:
    """`top` (translucent or not) composited over the opaque `ground`."""
    a = top.alphaF()
    return QColor.fromRgbF(top.redF() * a + ground.redF() * (1 - a),
                           top.greenF() * a + ground.greenF() * (1 - a),
                           top.blueF() * a + ground.blueF() * (1 - a))


def contrast(text: QColor, ground: QColor) -> float:
    """WCAG 2 contrast ratio of `text` on `ground` (1 to 21; AA for text is 4.5)."""
    high, low = sorted((luminance(text), luminance(ground)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def pair_contrast(text: str, ground: str, theme_name: str) -> float:
    """The contrast of the named text colour on the named ground in a set; a
    translucent ground is taken over the set's background (the scene's or a window's)."""
    colours = SETS[theme_name]
    under = qcolor(colours["base" if ground == "highlight_row" else "background"])
    return contrast(qcolor(colours[text]), over(qcolor(colours[ground]), under))


_stroke = [1.0]


def stroke() -> float:
    """How much wider than drawn the graph's lines are (presentation mode: wider)."""
    return _stroke[0]


def set_stroke(factor: float) -> None:
    """Draw the graph's lines `factor` times as wide from now on (gui/graph/items.pen's
    pens are made again: the caller clears its cache and draws the graph again)."""
    _stroke[0] = factor


def translation(old: str, new: str) -> dict[str, str]:
    """'#rrggbb' (lower case) of each RETINTED colour of the set `old` -> the same-named
    colour of the set `new`: a text or a style sheet written in one set, read in the
    other."""
    return {SETS[old][key].lower(): SETS[new][key] for key in RETINTED}
