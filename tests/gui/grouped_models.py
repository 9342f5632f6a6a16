"""An MLP on this engine's Values with a grouping made by hand, as it is built: the
parameters of each layer and neuron ('names'), each neuron's Σ w·x + b and its relu
('structure'), each sample ('instance') in a stack of them ('stack'; past SHORT samples,
the first FIRST and a stack of the rest, as gui/graph/groups/repetition.py makes a long
stack). The nodes come in
the order they were made (topological), in which every group is a contiguous run, so the
grouping's order is range(n). For the drawing's tests before and besides the real
grouping (gui/graph/groups)."""

from __future__ import annotations

import random

from engine.core.engines import CORRECT
from engine.core.stepping import Stepper
from engine.core.value import Value
from engine.language.program import INPUT, Instruction, Program
from gui.graph.groups.model import GraphArrays, Group, Grouping
from gui.graph.groups.repetition import FIRST, SHORT


class _Recorder:
    """Collects the Values made since the last `take`, operands first."""

    def __init__(self):
        self.nodes: list[Value] = []
        self.index: dict[Value, int] = {}
        self.groups: list[Group] = []
        self.stack: list[int] = []  # the open groups' ids

    def take(self, *outs: Value) -> None:
        todo = [(out, False) for out in outs]
        while todo:
            node, done = todo.pop()
            if node in self.index:
                continue
            if done:
                self.index[node] = len(self.nodes)
                self.nodes.append(node)
                continue
            todo.append((node, True))
            todo.extend((p, False) for p in reversed(node._prev) if p not in self.index)

    def open(self, kind: str, title: str) -> int:
        g = len(self.groups)
        parent = self.stack[-1] if self.stack else -1
        self.groups.append(Group(g, kind, title, parent, [], [], 0, 0, len(self.nodes), 0))
        if parent >= 0:
            self.groups[parent].children.append(g)
        self.stack.append(g)
        return g

    def close(self) -> None:
        g = self.groups[self.stack.pop()]
        g.last = len(self.nodes)
        g.members = g.last - g.first
        if g.kind == "stack":  # its instances, through the stack of the rest
            g.instances = sum(self.groups[c].instances or 1 for c in g.children)

    def grouping(self) -> Grouping:
        n = len(self.nodes)
        group_of = [-1] * n
        for g in self.groups:  # parents before children: the innermost wins
            group_of[g.first:g.last] = [g.id] * (g.last - g.first)
        for i, g in enumerate(group_of):
            if g >= 0:
                self.groups[g].nodes.append(i)
        return Grouping(list(range(n)), self.groups, group_of)


def grouped_mlp(points: int = 4, sizes=(2, 3, 1), seed: int = 0):
    """(loss, nodes, roles, grouping): an MLP's max-margin loss on `points` samples."""
    rnd = random.Random(seed)
    rec = _Recorder()
    layers = []
    for li, (a, b) in enumerate(zip(sizes, sizes[1:])):
        rec.open("names", f"layers[{li}]")
        layer = []
        for j in range(b):
            rec.open("names", f"layers[{li}].neurons[{j}]")
            w = [Value(rnd.uniform(-1, 1), f"layers[{li}].neurons[{j}].w[{k}]") for k in range(a)]
            bias = Value(0.1 * j, f"layers[{li}].neurons[{j}].b")
            rec.take(*w, bias)
            rec.close()
            layer.append((w, bias))
        rec.close()
        layers.append(layer)
    total = Value(0.0)
    rec.take(total)
    rec.open("stack", f"sample × {points}")
    terms = []
    for s in range(points):
        if s == FIRST and points > SHORT:  # as the app opens a long stack: a few, the rest
            rec.open("stack", f"sample {FIRST}–{points - 1} × {points - FIRST}")
        rec.open("instance", f"sample {s}")
        x = [Value(rnd.uniform(-2, 2), f"inputs[{s}][{k}]") for k in range(sizes[0])]
        rec.take(*x)
        y = rnd.choice([-1.0, 1.0])
        for li, layer in enumerate(layers):
            out = []
            for w, bias in layer:
                last = li == len(layers) - 1
                rec.open("structure", f"Σ {len(w)} terms + b" if last
                         else f"relu(Σ {len(w)} terms + b)")
                act = sum((wi * xi for wi, xi in zip(w, x)), bias)
                act = act if last else act.relu()
                rec.take(act)
                rec.close()
                out.append(act)
            x = out
        term = (1 + -y * x[0]).relu()
        rec.take(term)
        rec.close()
        terms.append(term)
    if points > SHORT:
        rec.close()
    rec.close()
    for term in terms:
        total = total + term
    loss = total * (1.0 / points)
    rec.take(loss)
    loss.label = "loss"
    names = {v for v in rec.nodes if v.label and not v._prev}
    roles = {v: ("input" if v in names else "constant") for v in rec.nodes if not v._prev}
    roles[loss] = "output"
    return loss, rec.nodes, roles, rec.grouping()


def arrays_for(nodes: list[Value], roles: dict) -> GraphArrays:
    """`nodes` (topological) as GraphArrays."""
    index = {v: i for i, v in enumerate(nodes)}
    return GraphArrays([tuple(index[p] for p in v._prev) for v in nodes],
                       [v._op for v in nodes], [v.label for v in nodes],
                       [roles.get(v, "intermediate") for v in nodes], len(nodes) - 1)


def program_of(nodes: list[Value], output_name: str = "loss") -> Program:
    """A Program over `nodes` themselves (topological, the output last): a named leaf is
    an input, an unnamed one a constant."""
    index = {v: i for i, v in enumerate(nodes)}
    instructions = [Instruction(INPUT if v.label and not v._prev else
                                ("const" if not v._prev else v._op),
                                tuple(index[p] for p in v._prev), v.data, 1, 1) for v in nodes]
    names = {v.label: i for i, v in enumerate(nodes) if v.label and not v._prev}
    names[output_name] = len(nodes) - 1
    return Program("", instructions, nodes, names, len(nodes) - 1, output_name)


def stepper_of(output: Value, nodes: list[Value]) -> Stepper:
    """The correct engine's stepper of `output`, its forward steps `nodes` in order."""
    steps = Stepper.in_slices(output, CORRECT, forward_steps=nodes)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def load_grouped(window, points: int = 4, sizes=(2, 3, 1)):
    """Load the grouped MLP into `window`, its grouping given to the Graph tab; returns
    (program, grouping)."""
    from gui.jobs.grouping_job import Grouped

    loss, nodes, roles, grouping = grouped_mlp(points, sizes)
    program = program_of(nodes)
    window.graph_tab.expansion.give(Grouped(loss, nodes, arrays_for(nodes, roles), grouping,
                                            set()))
    window.session.load_prepared(program, stepper_of(loss, nodes))
    return program, grouping
