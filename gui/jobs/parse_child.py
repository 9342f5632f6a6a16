"""A program parsed in a child process and sent back as plain tuples, in pieces.

Parsing 200,000 nodes takes a second or more of pure Python; in the window's process it
would hold the interpreter lock the whole time. The child parses, and sends either the
error or the instructions, a piece at a time, so that no single unpickle holds the
window long; the window replays them into Values (`values_in_slices`). Qt-free.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine import ExpressionError, parse

INSTRUCTIONS_PER_PIECE = 20_000  # ~10 ms to unpickle


def parse_pieces(text: str) -> Iterator[tuple]:
    """Parse `text`; yield ("error", message, line, col), or ("head", nodes,
    output_index, output_name, names, labels) then ("instructions", start, tuples) records."""
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
