"""Exercise 5: the current program as a runnable TensorFlow, PyTorch or JAX script that
prints its gradients, so a learner can check the app against a framework of their own."""

from __future__ import annotations

import keyword

from engine.core import ops
from engine.io.naming import identifier
from engine.language import Program
from engine.language.program import CONST, INPUT, NEG, POW

FRAMEWORKS = ("tensorflow", "pytorch", "jax")
TITLES = {"tensorflow": "TensorFlow", "pytorch": "PyTorch", "jax": "JAX"}
MAX_NODES = 20_000   # a script a person can still open
INLINE_DEPTH = 40    # deeper unnamed subexpressions get a line of their own

# each function op's spelling in each framework, from the op table
_FUNCTIONS = {framework: {op.name: getattr(op, framework) for op in ops.FUNCTIONS}
              for framework in FRAMEWORKS}
_INFIX = {op.name: op.infix for op in ops.OPS if op.infix and op is not ops.POWER}
# a number a function is applied to must be a float64 tensor of the framework
_CONSTANT = {"tensorflow": "tf.constant({}, dtype=tf.float64)",
             "pytorch": "torch.tensor({}, dtype=torch.float64)",
             "jax": "jnp.float64({})"}
_RESERVED = {"tf", "torch", "jax", "jnp", "np", "inputs", "grads", "tape", "name", "g",
             "f", "print", "float", "zip", "list", "range", "dict"}


def _safe_names(program: Program) -> dict[str, str]:
    """Each label a Python name that clashes with nothing in the script."""
    taken, names = set(), {}
    for v in program.values:
        if v.label and v.label not in names:
            # a graph read from Python names nodes `model.layers[0].w[1]`: made identifiers
            name = v.label if v.label.isidentifier() else identifier(v.label)
            while keyword.iskeyword(name) or name in _RESERVED or name in taken:
                name += "_"
            taken.add(name)
            names[v.label] = name
    return names


def _body(program: Program, framework: str) -> tuple[list[str], dict[str, str], str]:
    """The statements computing the program (one per named node), the inputs' script
    names by program name, and the output's expression."""
    names = _safe_names(program)
    functions = _FUNCTIONS[framework]
    text: list[str] = []      # each instruction as an expression
    depth: list[int] = []
    variable: list[bool] = []  # depends on an input
    lines: list[str] = []
    inputs: dict[str, str] = {}
    for i, (ins, value) in enumerate(zip(program.instructions, program.values)):
        args = [text[a] for a in ins.args]
        deep = max((depth[a] for a in ins.args), default=0) + 1
        if ins.op == INPUT:
            expr, deep = names[value.label], 0
            inputs[value.label] = expr
        elif ins.op == CONST:
            expr, deep = repr(ins.number), 0
        elif ins.op == POW:
            expr = f"{args[0]} ** {ins.number!r}"
        elif ins.op == NEG:
            expr = f"-{args[0]}"
        elif ins.op in functions:
            arg = args[0] if variable[ins.args[0]] else _CONSTANT[framework].format(args[0])
            expr = f"{functions[ins.op]}({arg})"
        else:
            expr = f"{args[0]} {_INFIX[ins.op]} {args[1]}"
        is_variable = ins.op == INPUT or any(variable[a] for a in ins.args)
        if ins.op != INPUT and (value.label or deep > INLINE_DEPTH):
            name = names[value.label] if value.label else f"_t{i}"
            lines.append(f"{name} = {expr}")
            expr, deep = name, 0
        elif ins.op not in (INPUT, CONST):
            expr = f"({expr})" if ins.op not in functions else expr
        text.append(expr)
        depth.append(deep)
        variable.append(is_variable)
    output = text[program.output_index]
    return lines, inputs, output


def script(program: Program, framework: str) -> str:
    """A runnable Python script computing `program` in float64 with `framework`
    ('tensorflow', 'pytorch' or 'jax') and printing d(output)/d(input) for every
    input. Raises ValueError for an unknown framework or a program over MAX_NODES."""
    if framework not in FRAMEWORKS:
        raise ValueError(f"unknown framework {framework!r}; choose from {FRAMEWORKS}")
    if len(program.values) > MAX_NODES:
        raise ValueError(f"the program has {len(program.values):,} nodes; scripts are "
                         f"written for programs of up to {MAX_NODES:,}")
    lines, inputs, output = _body(program, framework)
    out = program.output_name
    header = [f"# {out} and its gradients, in {TITLES[framework]} (float64).",
              "# Written by Autograd Debugger from this program:"]
    header += [f"#   {line}" if line.strip() else "#" for line in program.source.splitlines()]
    header.append("")
    names = f"names = {list(inputs)!r}"
    variables = "[" + ", ".join(inputs.values()) + "]"
    values = [program.inputs[n].data for n in inputs]
    named = output.isidentifier() and output not in inputs.values()
    result = output if named else "output_"
    if framework == "tensorflow":
        body = ["import tensorflow as tf", ""]
        body += [f"{v} = tf.Variable({program.inputs[n].data!r}, dtype=tf.float64)"
                 for n, v in inputs.items()]
        body += ["", "with tf.GradientTape() as tape:"]
        body += [f"    {line}" for line in lines]
        if not named:
            body.append(f"    output_ = tf.identity({output})")
        body += ["", names, f"grads = tape.gradient({result}, {variables})"]
    elif framework == "pytorch":
        body = ["import torch", ""]
        body += [f"{v} = torch.tensor({program.inputs[n].data!r}, dtype=torch.float64, "
                 "requires_grad=True)" for n, v in inputs.items()]
        body += [""] + lines + ([] if named else [f"output_ = {output}"])
        body += ["", names, f"grads = torch.autograd.grad({result}, {variables}, "
                 "allow_unused=True)"]
    else:
        params = ", ".join(inputs.values())
        body = ["import jax", "", 'jax.config.update("jax_enable_x64", True)',
                "import jax.numpy as jnp  # noqa: E402", "", "", f"def f({params}):"]
        body += [f"    {line}" for line in lines] + [f"    return {output}", "", ""]
        body += [names, f"values = {values!r}",
                 f"{result}, grads = jax.value_and_grad(f, argnums=tuple(range({len(values)})))"
                 "(*values)"]
    body += [f'print(f"{out} = {{float({result})!r}}")',
             "for name, g in zip(names, grads):",
             f'    print(f"d{out}/d{{name}} = {{0.0 if g is None else float(g)!r}}")']
    return "\n".join(header + body) + "\n"
