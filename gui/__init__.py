"""The PySide6 window. Importing this package imports no Qt (a spawned child imports
gui.jobs without it); `debug` imports the window only when called, `draw` only in the
child it draws in."""

import sys


def debug(root, block: bool = True, names=None):
    """Open the window on the graph under `root` (this engine's Value, micrograd's or
    microgpt's), its Values named after the caller's variables (`names` maps Values to
    names, adding or overriding); see gui.debug_graph.open_debug_window. Returns the
    window."""
    from gui.debug_graph import open_debug_window

    return open_debug_window(root, block, names, sys._getframe(1))


def draw(root, path: str, steps: int = 0, names=None) -> str:
    """Write what `debug(root)` would open on, after `steps` steps (clamped), to `path`
    (.png, .svg or .json by the extension), without a window; see
    gui.debug_graph.draw_graph. Returns `path`."""
    from gui.debug_graph import draw_graph

    return draw_graph(root, path, steps, names, sys._getframe(1))
