"""A program parsed in a child process and sent back as plain tuples, in pieces.

Parsing 200,000 nodes takes a second or more of pure Python; in the window's process it
would hold the interpreter lock the whole time. The child parses, and sends either the
error or the instructions, a piece at a time, so that no single unpickle holds the
window long; the window replays them into Values (`values_in_slices`). Qt-free.
"""
# Qt-free: runs in a child process; tests/test_structure.py imports it alone and finds no Qt.

from __future__ import annotations

from array import array
from collections.abc import Iterator

from engine import ExpressionError, parse
from engine.core.value import topological_order
from gui.jobs.group_child import GROUP_FROM, grouped_records, program_arrays

INSTRUCTIONS_PER_PIECE = 5_000  # a piece unpickled and made Instructions in ~10 ms


def parse_pieces(text: str, group: bool = False, budget: int = 60) -> Iterator[tuple]:
    """Parse `text`; yield ("error", message, line, col), or ("head", nodes,
    output_index, output_name, names, labels) then ("instructions", start, tuples) records
    and last ("order", indices): the output's topological order as indices into the
    values (found here, not on the window's thread). With `group`, a graph of over
    GROUP_FROM nodes is grouped first: ("group", …) records, those of
    `group_child.grouped_records` (its "order" indexes the topological order)."""
    try:
        program = parse(text)
    except ExpressionError as e:
        yield "error", e.message, e.line, e.col
        return
    instructions = program.instructions
    labels = {i: v.label for i, v in enumerate(program.values) if v.label}
    yield ("head", len(instructions), program.output_index, program.output_name,
           program._name_index, labels)
    for start in range(0, len(instructions), INSTRUCTIONS_PER_PIECE):
        yield "instructions", start, [tuple(ins) for ins in
                                      instructions[start:start + INSTRUCTIONS_PER_PIECE]]
    where = {id(v): i for i, v in enumerate(program.values)}
    order = array("q", [where[id(v)] for v in topological_order(program.output)])
    if group and len(order) > GROUP_FROM:  # grouped here: the window never waits for it
        for record in grouped_records(program_arrays(program, order), budget):
            yield ("group", *record)
    yield "order", order
