"""`debug(root)` and `draw(root, path)`: the window on a graph built in Python.

The graph is read directly into a Program of this engine's own Values (see
engine.io.graph_import; the user's Values are only read), named after the caller's
variables (engine.io.naming), and loaded into the window as a parsed program is: a big
one through the background path (`MainWindow.load_graph`), so the window keeps drawing
while it opens.

`draw` writes what the window would open on without showing one. It runs in a spawned
child with QT_QPA_PLATFORM=offscreen, given the Program as plain data (`imported_records`),
and the same export path as `main.py export` (gui.screenshot.export_graph): a script
with no QApplication must not get one in its own process, because the first
QApplication fixes the platform for the whole process (an offscreen one would make a
later `debug()` window invisible, a real one needs a display for a picture). The child
is started with the script's `__main__` hidden (engine._spawn), so the script never
runs again.
"""
# Qt-free: the child half (`draw_child`) runs in a child process before Qt is set up.

from __future__ import annotations

import atexit
import gc
import os

from engine import boundary
from engine.core.value import Value, _node
from engine.io.graph_import import ImportedGraph, import_graph
from engine.language.program import CONST, INPUT, Instruction, Program

EDITOR_NODES = 2_000  # a bigger graph is not shown as text: a note says what it is
DRAW_TIMEOUT_S = 600.0
ENGINE_NAME = "recorded local derivatives"


def editor_text(graph: ImportedGraph, name: str) -> str:
    """What the editor shows for an imported graph: its program, or for a graph of more
    than EDITOR_NODES nodes a note saying what it is (File → Save writes the program)."""
    program = graph.program
    n = len(program.values)
    if n <= EDITOR_NODES:
        return program.source
    return (f"# {name}: a graph of {n:,} nodes read from Python ({graph.described()}),\n"
            f"# not shown here as text. File → Save writes it as a program of the\n"
            f"# expression language. Edit and Build to replace it with a program of yours.\n")


def open_debug_window(root, block: bool = True, names=None, scope=None):
    """Open the window on the graph under `root`, with full stepping; returns the window.

    `root` is a `Value` of this engine, or a micrograd-style (`_prev`, `_op`) or
    microgpt-style (`_children`, `_local_grads`) node. `scope` (a frame) names the
    Values after its variables; `names` maps Values to names. With `block` (the
    default) this returns when the window is closed; pass False where an event loop
    already runs (IPython's `%gui qt`). Raises engine.io.graph_import.GraphImportError,
    naming the node, for a graph this engine cannot step (an unknown op), or the node
    count for one over the limit.
    """
    graph = import_graph(root, names=names, scope=scope)
    from gui.app import application
    from gui.window.main_window import MainWindow

    _exit_quickly()
    app = application()
    _use_remembered_theme()
    window = MainWindow(remember=False)
    name = f"debug({graph.title})"  # the title says what the user called
    text = editor_text(graph, name)
    if graph.replay is None:
        window.load_graph(graph.program, name, text)
    else:
        _load_recorded(window, graph, name, text)
    window.show()
    if block:
        app.exec()
    return window


_exiting_quickly = False


def _exit_quickly() -> None:
    """Once per process: when the interpreter exits, after the script is done, its last
    collections skip every object alive then (`gc.freeze`). A big graph's objects, the
    script's and the window's, are most of them in reference cycles (micrograd's
    `_backward` closures, Qt's signal connections), and walking them at exit kept a
    script's terminal waiting 3-4 s after the window closed on micrograd's demo (0.3 s
    now); the system frees the memory either way. Nothing changes while the script runs."""
    global _exiting_quickly
    if not _exiting_quickly:
        _exiting_quickly = True
        atexit.register(gc.freeze)


def _use_remembered_theme() -> None:
    """The theme the user chose in the app (read, never written: a debug() window keeps
    no settings of its own)."""
    from gui import theme
    from gui.settings import open_settings

    settings, _, _ = open_settings()
    if settings is not None:
        theme.apply(theme.chosen(settings))


def _load_recorded(window, graph: ImportedGraph, name: str, text: str) -> None:
    """A microgpt-style graph whose recorded local derivatives are not this engine's:
    stepped with the recorded ones, as check-engine replays a user's engine."""
    from engine.checks.engine_check.replay import recorded_engine
    from engine.core.stepping import Stepper

    window.show_program(text, name=name, undoable=False)
    program, engine, _ = recorded_engine(graph.replay, graph.program, ENGINE_NAME)
    session = window.session
    session.recorded = session.engine = engine
    session.load_prepared(program, Stepper(program.output, engine), ENGINE_NAME)
    window.show_status("Stepping your graph with the local derivatives it recorded, where "
                       "they differ from this engine's; the correct engine is one click "
                       "away (Engine).")


def draw_graph(root, path: str, steps: int = 0, names=None, scope=None) -> str:
    """Write the graph under `root` as the window would open on it, after `steps` steps
    (clamped: 10**9 is the end), to `path` (.png, .svg or .json by its extension),
    without showing a window. Returns `path`. Raises ValueError for another extension,
    GraphImportError for a graph that cannot be read, OSError if it cannot be written."""
    extension = os.path.splitext(path)[1].lower().lstrip(".")
    if extension not in ("png", "svg", "json"):
        raise ValueError(f"cannot draw to {path!r}: the name must end in .png, .svg or .json")
    graph = import_graph(root, names=names, scope=scope)
    import multiprocessing

    from engine import _spawn

    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    # not a daemon: the window in it lays a big graph out in a child of its own; confined,
    # so that it (and that child) end if the calling script is killed while it waits
    process = context.Process(target=boundary.confined, daemon=False,
                              args=(draw_child, os.getpid(), None, send,
                                    imported_records(graph), os.path.abspath(path),
                                    max(0, int(min(steps, 2**62)))))
    _spawn.start(process)
    send.close()
    try:  # a JSON line read with a deadline, never unpickled (engine.boundary)
        ok, message = _drawn(boundary.LineReader(receive.fileno()), path)
    finally:
        receive.close()
        process.join(5)
        if process.is_alive():
            boundary.kill_tree(process.pid)
            process.join(1)
    if not ok:
        raise OSError(f"cannot write {path!r}: {message}")
    return path


def _drawn(reader, path: str) -> tuple[bool, str]:
    """(ok, why not) from the draw child's one line ["drawn", ok, message], waited for
    at most DRAW_TIMEOUT_S."""
    import time

    deadline = time.monotonic() + DRAW_TIMEOUT_S
    while time.monotonic() < deadline:
        try:
            messages = reader.read(min(1.0, max(0.0, deadline - time.monotonic())))
        except EOFError:
            return False, "the drawing process ended early"
        except boundary.ProtocolError as e:
            return False, f"the drawing process sent {e}"
        for message in messages:
            if (len(message) == 3 and message[0] == "drawn" and isinstance(message[1], bool)
                    and isinstance(message[2], str)):
                return message[1], message[2]
            return False, "the drawing process sent a message of the wrong shape"
    raise OSError(f"drawing {path!r} took longer than {DRAW_TIMEOUT_S:.0f} s")


def imported_records(graph: ImportedGraph) -> dict:
    """The imported Program as plain data a child rebuilds it from exactly (its
    instructions as tuples, labels, every node's number, op and local derivatives)."""
    program = graph.program
    return {"instructions": [tuple(ins) for ins in program.instructions],
            "labels": {i: v.label for i, v in enumerate(program.values) if v.label},
            "data": [v.data for v in program.values],
            "ops": [v._op for v in program.values],
            "locals": [v._local for v in program.values],
            "output_index": program.output_index, "output_name": program.output_name,
            "title": graph.title, "style": graph.style, "replay": graph.replay,
            "kind": graph.kind}


def imported_from_records(records: dict) -> ImportedGraph:
    """The ImportedGraph `imported_records` describes, its Values made again to the bit."""
    from engine.io.graph_text import graph_text

    instructions = [Instruction._make(t) for t in records["instructions"]]
    labels, data, op_of, local_of = (records["labels"], records["data"], records["ops"],
                                     records["locals"])
    values: list[Value] = []
    for i, ins in enumerate(instructions):
        if ins.op in (INPUT, CONST):
            v = Value(ins.number)
        else:
            v = _node(data[i], tuple(values[a] for a in ins.args), op_of[i],
                      tuple(local_of[i]))
        v.label = labels.get(i, "")
        values.append(v)
    names = {v.label: i for i, v in enumerate(values) if v.label}
    program = Program(graph_text, instructions, values, names, records["output_index"],
                      records["output_name"])
    return ImportedGraph(program, records["title"], records["style"], records["replay"],
                         records.get("kind", ""))


def draw_child(conn, records: dict, path: str, steps: int) -> None:
    """The child of `draw_graph`: the window offscreen, the graph loaded, `steps` taken,
    the scene written; sends one JSON line ["drawn", ok, message]."""
    os.environ["QT_QPA_PLATFORM"] = "offscreen"  # before Qt is imported here
    try:
        graph = imported_from_records(records)
        name = f"debug({graph.title})"
        from gui.screenshot import export_graph

        def load(window) -> None:
            text = editor_text(graph, name)
            if graph.replay is None:
                window.load_graph(graph.program, name, text)
            else:
                _load_recorded(window, graph, name, text)

        ok = export_graph(path, "", steps, False, load=load)
        boundary.send(conn.fileno(), "drawn", ok, "" if ok else "the file cannot be written")
    except Exception as e:  # the parent says why, in one line
        boundary.send(conn.fileno(), "drawn", False, f"{type(e).__name__}: {e}")
    finally:
        conn.close()

