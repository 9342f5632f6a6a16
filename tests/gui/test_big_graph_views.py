"""The readability of a big graph after a new user's tryout (issue 22): what the editor
says the graph is, where the view goes after a group opens, the smallest text a fit
shows, the zoom keys, the breadcrumb, the inspector's lists."""

from __future__ import annotations

from engine.io.graph_import import import_graph
from gui.debug_graph import editor_text
from tests.engine.engines.closures import Value as ClosureValue


def test_the_editor_names_the_users_own_class_not_micrograd():
    # a class of the user's with micrograd's fields (_prev, _op), not micrograd itself
    x = ClosureValue(1.5)
    y = x
    for k in range(1_100):  # over EDITOR_NODES: the editor shows a note, not the text
        y = y + ClosureValue(0.25 * (k % 3))
    graph = import_graph(y, title="y")
    assert graph.described() == "tests.engine.engines.closures.Value, micrograd-style"
    note = editor_text(graph, "debug(y)")
    assert note.startswith("# debug(y): a graph of 2,201 nodes read from Python "
                           "(tests.engine.engines.closures.Value, micrograd-style),")
    assert "micrograd's" not in note
