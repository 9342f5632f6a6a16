"""Element by element on the rows of named matrices: a token's embedding
`x = [t + p for t, p in zip(wte[5], wpe[3])]` is 16 additions whose operands are all
parameters; the regulariser's `p * p` for the parameters of one neuron likewise. Each such
set of nodes (one level's, one op, the same rows) is one group titled by the rows,
`wte[5] + wpe[3]`, `layers[0].neurons[3]²`: a set of nodes whose operands are all leaves
is convex (no path leads back to a node whose operands are leaves).
"""
# Qt-free: grouped in a child process, which never loads Qt (tests/test_structure.py).

from __future__ import annotations

from engine.core import ops
from gui.graph.groups.model import GraphArrays
from gui.graph.groups.names import path_prefixes
from gui.graph.groups.structure import Draft, Regions
from gui.graph.groups.titles import row_name

MIN_ROW = 2


def row_drafts(arrays: GraphArrays, regions: Regions, drafts: list[Draft], gnode: list[int],
               members: list[list[int]]) -> None:
    """Add a 'structure' draft (several outputs) for each set of at least MIN_ROW nodes
    of one level that apply one op to parameters (leaves hung from the root, see
    structure.regions_of) of the same rows, unless the set is the whole level."""
    n = len(arrays)
    parents, labels, up = arrays.parents, arrays.labels, regions.parent
    items: dict[int, int] = {}  # how many items each level holds
    for g in gnode:
        items[g] = items.get(g, 0) + 1
    for d in drafts:
        items[d.parent] = items.get(d.parent, 0) + 1
    rows: dict[str, str] = {}
    found: dict[tuple, list[int]] = {}
    for i in range(n):
        ps = parents[i]
        if not ps or parents[ps[0]] or up[ps[0]] < n or not all(
                not parents[p] and labels[p] and up[p] >= n for p in ps):
            continue
        key = []
        for p in ps:
            label = labels[p]
            if label not in rows:
                prefixes = path_prefixes(label)
                rows[label] = prefixes[-1] if prefixes else ""
            key.append(rows[label])
        if all(key):
            same = len(ps) == 2 and ps[0] == ps[1]
            found.setdefault((gnode[i], arrays.ops[i], tuple(key), same), []).append(i)
    for (g, op, key, same), nodes in found.items():
        if len(nodes) < MIN_ROW or len(nodes) >= items[g]:
            continue
        drafts.append(Draft("structure", g, root=max(nodes), title=_title(op, key, same),
                            outputs=True, room=len(nodes)))
        members.append(nodes)
        for i in nodes:
            gnode[i] = len(drafts) - 1


def _title(op: str, rows: tuple[str, ...], same: bool) -> str:
    names = [row_name(r) for r in rows]
    entry = ops.of(op)
    if same and op == ops.MUL.name:
        return f"{names[0]}²"
    if len(names) == 2:
        symbol = entry.symbol if entry is not None else op
        return f"{names[0]} {symbol} {names[1]}"
    return f"{op}({', '.join(names)})"
