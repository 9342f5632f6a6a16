"""The PySide6 window. Importing this package imports no Qt (a spawned child imports
gui.jobs without it); `debug` imports the window only when called."""


def debug(root, block: bool = True, output_name: str = "out"):
    """Open the window on a graph built in Python; see gui.debug_graph.open_debug_window."""
    from gui.debug_graph import open_debug_window

    return open_debug_window(root, block, output_name)
