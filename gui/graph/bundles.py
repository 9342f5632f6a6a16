"""Edges bundled through a junction: the parameter groups of one open group (the 16
neurons of `model.layers[1]`, opened) each feed every sample's box, 16 × 14 edges that
would run side by side as a grey band. Drawn instead: one short edge from each into a
junction (a dot beside them), and one edge from the junction into each box, labelled,
as stepping goes, with the gradient that box sends all of them together."""
# Qt-free: a grouped picture's spec is made in a background job (gui/graph/prepared.py).

from __future__ import annotations

BUNDLE_FROM = 3    # parameter groups of one open group, and
BUNDLE_EDGES = 12  # their edges into collapsed groups, from which these are bundled
JUNCTION = (8.0, 8.0)  # a junction's room in the layout


def bundled_sources(shown) -> dict[int, tuple[int, tuple[int, ...]]]:
    """For each source unit of `shown`'s quotient whose edges into collapsed groups are
    bundled: (the open 'names' group it is bundled in, every source bundled there).

    A source is bundled if nothing feeds it (a parameter, or a group of them) and the
    innermost open group around it is a group of parameters ('names') with at least
    BUNDLE_FROM such sources and BUNDLE_EDGES such edges."""
    quotient, groups = shown.quotient, shown.groups
    if not any(groups[g].kind == "names" for g in shown.expanded):
        return {}  # no group of parameters open (a big program grouped by structure)
    fed = {t for _, t, _ in quotient.edges}
    holder_of: dict[int, int] = {}
    sources: dict[int, dict[int, None]] = {}
    edges: dict[int, int] = {}
    for s, t, _ in quotient.edges:
        if t >= 0 or s in fed:
            continue
        holder = holder_of.get(s)
        if holder is None:
            holder = holder_of[s] = _holder(shown, s)
        if holder < 0 or groups[holder].kind != "names":
            continue
        sources.setdefault(holder, {})[s] = None
        edges[holder] = edges.get(holder, 0) + 1
    out = {}
    for holder, found in sources.items():
        if len(found) >= BUNDLE_FROM and edges[holder] >= BUNDLE_EDGES:
            members = tuple(found)
            out.update((s, (holder, members)) for s in members)
    return out


def _holder(shown, unit: int) -> int:
    """The innermost open group around `unit` (-1: none)."""
    if unit < 0:
        return shown.groups[-1 - unit].parent
    around = shown.grouping.ancestors(unit)
    return around[-1] if around else -1
