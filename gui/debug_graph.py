"""`open_debug_window(root)`: the window on a graph built in Python (see engine.io.graph_import)."""

from __future__ import annotations

from engine.io.graph_import import graph_program


def open_debug_window(root, block: bool = True, output_name: str = "out"):
    """Open the window on the graph under `root`, with full stepping.

    `root` is a `Value` of this engine, or a micrograd-style (`_prev`, `_op`) or
    microgpt-style (`_children`, `_local_grads`) node. The graph is written as a program
    in the editor; a microgpt-style graph is stepped with its recorded local
    derivatives. With `block` (the default) this returns when the window is closed;
    pass False where an event loop already runs (IPython's `%gui qt`). Returns the
    window. Raises engine.io.graph_import.GraphImportError, naming the node, for a graph
    this engine cannot step (an unknown op).
    """
    text, replay = graph_program(root, output_name)
    from gui.app import application
    from gui.window.main_window import MainWindow

    app = application()
    window = MainWindow(remember=False)
    name = f"debug({output_name})"  # the title says what the user called
    if replay is None:
        window.load_program(text, name=name, undoable=False)
    else:
        window.show_program(text, name=name, undoable=False)
        window.session.load_recorded(replay, "recorded local derivatives")
        window.show_status("Stepping your graph with the local derivatives it recorded; "
                           "the correct engine is one click away (Engine).")
    window.show()
    if block:
        app.exec()
    return window
