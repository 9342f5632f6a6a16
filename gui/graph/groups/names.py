"""Groups of named leaves by the prefix tree of their Python paths.

`model.layers[1].neurons[3].w[0]` sits in `model` › `model.layers[1]` ›
`model.layers[1].neurons[3]`: a group per prefix that ends with an index or is a bare
variable, a level with one child and nothing else merged into it. The paths are parsed
here (attribute, [int], ['str']); nothing is evaluated.
"""
# Qt-free: grouped in a child process, which never loads Qt (tests/test_structure.py).

from __future__ import annotations

import re

from gui.graph.groups.structure import Draft

_TOKEN = re.compile(r"\.[A-Za-z_]\w*|\[-?\d+\]|\['(?:[^'\\]|\\.)*'\]|\[\"(?:[^\"\\]|\\.)*\"\]")
_ROOT = re.compile(r"[A-Za-z_]\w*")


def path_parts(label: str) -> list[str] | None:
    """The parts of a Python path: 'model.layers[1].w' → ['model', '.layers', '[1]',
    '.w']; None if `label` is not one."""
    m = _ROOT.match(label)
    if m is None:
        return None
    parts, at = [m.group()], m.end()
    while at < len(label):
        t = _TOKEN.match(label, at)
        if t is None:
            return None
        parts.append(t.group())
        at = t.end()
    return parts


def path_prefixes(label: str) -> list[str]:
    """The prefixes of `label` a group is made for, outermost first: the variable and
    every prefix that ends with an index, the whole path excluded."""
    parts = path_parts(label)
    if parts is None:
        return []
    found, text = [parts[0]], parts[0]
    for part in parts[1:-1]:
        text += part
        if part.startswith("["):
            found.append(text)
    return [p for p in found if p != label]


def name_drafts(labels: list[str], leaves: list[int], drafts: list[Draft],
                gnode: list[int]) -> None:
    """Add to `drafts` the names groups of `leaves` (nodes in no group, with a path for
    a label), at the top level, and put each leaf in its innermost one."""
    children: dict[str, list[str]] = {}
    held: dict[str, list[int]] = {}
    tops: list[str] = []
    for i in leaves:
        prefixes = path_prefixes(labels[i])
        if not prefixes:
            continue
        held.setdefault(prefixes[-1], []).append(i)
        for outer, inner in zip([None, *prefixes], prefixes):
            if inner in children:
                continue
            children[inner] = []
            (tops if outer is None else children[outer]).append(inner)
    for top in tops:
        _emit(top, -1, children, held, drafts, gnode)


def _emit(prefix: str, parent: int, children, held, drafts, gnode) -> None:
    # a level with one child and no leaves of its own is merged into its child
    while len(children[prefix]) == 1 and not held.get(prefix):
        prefix = children[prefix][0]
    leaves = held.get(prefix, [])
    if not children[prefix] and len(leaves) < 2:
        for i in leaves:
            gnode[i] = parent
        return
    drafts.append(Draft("names", parent, title=prefix))
    g = len(drafts) - 1
    for i in leaves:
        gnode[i] = g
    for child in children[prefix]:
        _emit(child, g, children, held, drafts, gnode)
