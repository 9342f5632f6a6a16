"""A big graph's groups: the model's names, single-output pieces, repeated instances.

See model.py for the records every part of the window shares (`GraphArrays`, `Group`,
`Grouping`, `Quotient`). Qt-free: grouping runs in a child process for big graphs.

    arrays = arrays_of(nodes, session.roles())   # Values in a topological order
    grouping = group_graph(arrays)                # Grouping.none(n) up to THRESHOLD nodes
    expanded = initial_expansion(grouping)        # what fits a screen
    shown = fast_quotient(arrays, grouping, expanded)  # = quotient(...), faster
"""
# Qt-free: grouped in a child process, which never loads Qt (tests/test_structure.py).

from gui.graph.groups.arrays import arrays_of
from gui.graph.groups.expansion import (
    as_digraph,
    collapsed_groups,
    expansion_to_level,
    fast_quotient,
    initial_expansion,
    shown_units,
)
from gui.graph.groups.grouping import THRESHOLD, group_graph
from gui.graph.groups.model import (
    GraphArrays,
    Group,
    Grouping,
    Quotient,
    group_unit,
    quotient,
    unit_group,
    visible_unit,
)

__all__ = ["THRESHOLD", "GraphArrays", "Group", "Grouping", "Quotient", "arrays_of", "as_digraph",
           "collapsed_groups", "expansion_to_level", "fast_quotient", "group_graph",
           "group_unit", "initial_expansion", "quotient", "shown_units", "unit_group",
           "visible_unit"]
