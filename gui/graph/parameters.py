"""Which named leaves are a model's parameters, by the path a script's variables reach
them by, and why: the inspector says 'kind: parameter' and the box's tooltip the reason.

A leaf is a parameter if its path names a part of a model after its variable:
- a string key (`state_dict['wte'][5][3]`, `params['b1']`): a table of named tensors, as
  PyTorch's `state_dict` and microgpt's name a model's weights;
- an attribute after an index, or last (`model.layers[1].neurons[3].w[2]`, `model.b`):
  a weight of one of a model's parts, as micrograd's `Neuron.w` and `Neuron.b`.
A path of integer indexes after a variable or its attributes is data (`inputs[7][0]`,
`xs[3]`, `demo.inputs[0][1]`), and so is a bare variable (`x1`, `w1`: a lesson's inputs).
"""
# Qt-free: decided from the labels alone, as the grouping reads them.

from __future__ import annotations

from gui.graph.groups.names import path_parts


def parameter_reason(label: str) -> str | None:
    """Why the leaf named `label` is taken as a parameter (see the module's docstring),
    or None if it is not one (a data point, a bare variable, no path)."""
    parts = path_parts(label) or []
    steps = parts[1:]
    keys = [p for p in steps if p[1:2] in ("'", '"')]
    if keys:
        return (f"its name reaches it through the string key {keys[0][1:-1]} of "
                f"{parts[0]}: a table of a model's named weights (as a state_dict)")
    indexed = next((k for k, p in enumerate(steps) if p.startswith("[")), len(steps))
    named = [p for p in steps[indexed:] if p.startswith(".")]
    if named:
        return (f"its name reaches it through the attribute {named[-1]} after an index: a "
                "weight of one of a model's parts (as micrograd's Neuron.w)")
    if steps and steps[-1].startswith("."):
        return (f"its name ends with the attribute {steps[-1]}: a weight of a model "
                "(a data point is reached by indexes only, as inputs[7][0])")
    return None



def parameter_note(label: str) -> str:
    """The line a parameter's box adds to its tooltip ('' for any other leaf)."""
    why = parameter_reason(label)
    return f"A parameter: {why}." if why else ""
