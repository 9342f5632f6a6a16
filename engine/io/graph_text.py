"""The text of a Program read from Python (engine.io.graph_import): the program of the
expression language that builds the same graph, written when `Program.source` is first
read (File -> Save, the editor for a small graph, the TensorFlow check)."""

from __future__ import annotations

from engine.core import ops
from engine.io import naming
from engine.language.program import CONST, FUNCTIONS, INPUT, POW, Program


def graph_text(program: Program) -> str:
    """The program of the language that builds `program`'s graph: one statement per
    node that is not a constant (constants are written as numbers where they are used),
    each name made an identifier the language accepts (engine.io.naming.identifier)."""
    values, instructions = program.values, program.instructions
    taken = set(FUNCTIONS)
    ident: dict[int, str] = {}
    output = program.output_index
    ident[output] = naming.identifier(program.output_name, taken)
    taken.add(ident[output])
    for i, v in enumerate(values):
        if v.label and i != output:
            ident[i] = name = naming.identifier(v.label, taken)
            taken.add(name)
    text: list[str] = []   # each node as it is written where it is used
    lines: list[str] = []
    fresh = 0
    for i, ins in enumerate(instructions):
        op = ins.op
        if op == CONST and i != output:
            x = repr(ins.number)
            text.append(f"({x})" if x.startswith("-") else x)
            continue
        name = ident.get(i)
        if name is None:
            while f"v{fresh}" in taken:
                fresh += 1
            name = f"v{fresh}"
            fresh += 1
        text.append(name)
        if op in (INPUT, CONST):
            lines.append(f"{name} = {ins.number!r}")
            continue
        a = [text[j] for j in ins.args]
        entry = ops.BY_NAME[op]
        if op == POW:
            k = repr(ins.number)
            rhs = f"{a[0]} ** ({k})"
        elif entry.infix:
            rhs = f"{a[0]} {entry.infix} {a[1]}"
        elif entry is ops.NEG:
            rhs = f"-{a[0]}"
        else:
            rhs = f"{entry.spelling}({a[0]})"
        lines.append(f"{name} = {rhs}")
    return "\n".join(lines) + "\n"
