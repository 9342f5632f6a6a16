"""`main.py export` and the JSON contract it writes: run in-process, read back, checked."""

import json
from pathlib import Path

import main
from engine import parse
from engine.core.stepping import Stepper

ROOT = Path(__file__).resolve().parents[2]
NEURON = ROOT / "assets" / "presets" / "01-neuron.expr"


def _export(tmp_path, capsys, *args, name="g.json"):
    out = tmp_path / name
    code = main.main(["export", str(NEURON), str(out), *args])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert captured.out.strip() == str(out)
    return out


def _neuron():
    program = parse(NEURON.read_text(encoding="utf-8"))
    stepper = Stepper(program.output)
    constants = [v for v in stepper.forward_steps
                 if not v.parents and v not in program.inputs.values()]
    return program, stepper, constants


def _short(x: float) -> str:
    # the graph's number format (4 significant digits), as a reader sees it
    return "0" if x == 0.0 else f"{x:.4g}"


def _label(c) -> str:
    # 'local × upstream = contribution' on one line, a negative upstream bracketed
    upstream = _short(c.upstream)
    if upstream.startswith("-"):
        upstream = f"({upstream})"
    return f"{_short(c.local)} × {upstream} = {_short(c.contribution)}"


def _near(point, box, tolerance=2.0) -> bool:
    x, y, w, h = box
    dx = max(x - point[0], 0.0, point[0] - (x + w))
    dy = max(y - point[1], 0.0, point[1] - (y + h))
    return (dx * dx + dy * dy) ** 0.5 <= tolerance


def _rounded(x) -> bool:
    return round(x, 2) == x


def test_export_json_shape_with_constants_as_nodes(tmp_path, capsys):
    out = _export(tmp_path, capsys, "--constants", "nodes")
    graph = json.loads(out.read_text(encoding="utf-8"))
    assert set(graph) == {"nodes", "edges", "values"}
    program, stepper, constants = _neuron()
    nodes = {n["id"]: n for n in graph["nodes"]}
    assert len(nodes) == len(graph["nodes"])  # ids are unique
    kinds = [n["kind"] for n in graph["nodes"]]
    assert kinds.count("value") + kinds.count("constant") == len(stepper.forward_steps)
    assert kinds.count("constant") == len(constants)
    assert kinds.count("op") == sum(1 for v in stepper.forward_steps if v.parents)
    labels = {n["label"] for n in graph["nodes"] if n["kind"] == "value"}
    assert set(program.inputs) | {"z", "p", "loss"} <= labels
    for n in graph["nodes"]:
        assert set(n) == {"id", "kind", "label", "box"}
        assert len(n["box"]) == 4 and n["box"][2] > 0 and n["box"][3] > 0
        assert all(_rounded(v) for v in n["box"])
    # every parent-to-op and op-to-value edge once: the neuron has no repeated parent
    n_edges = sum(len(v.parents) + 1 for v in stepper.forward_steps if v.parents)
    assert len(graph["edges"]) == n_edges
    for e in graph["edges"]:
        assert set(e) == {"source", "target", "path", "label"}
        assert e["source"] in nodes and e["target"] in nodes
        assert len(e["path"]) >= 16
        assert all(len(p) == 2 and _rounded(p[0]) and _rounded(p[1]) for p in e["path"])
        # the path runs from the source's box to the target's
        assert _near(e["path"][0], nodes[e["source"]]["box"])
        assert _near(e["path"][-1], nodes[e["target"]]["box"])
        assert e["label"] is None  # no step taken: no gradient sent yet


def test_export_folds_constants_by_default(tmp_path, capsys):
    source = tmp_path / "scaled.expr"
    source.write_text("x = 0.5\ny = tanh(1.2*x) + 3\n", encoding="utf-8")
    out = tmp_path / "g.json"
    assert main.main(["export", str(source), str(out)]) == 0, capsys.readouterr().err
    graph = json.loads(out.read_text(encoding="utf-8"))
    kinds = {n["id"]: n["kind"] for n in graph["nodes"]}
    assert sorted(kinds.values()) == ["op"] * 3 + ["value"] * 4, "constants are not folded"
    assert any("1.2" in n["label"] for n in graph["nodes"] if n["kind"] == "op")
    assert len(graph["edges"]) == 6  # x -> ×, × -> value, value -> tanh, ... -> +, + -> y
    assert all(kinds[e["source"]] != "constant" for e in graph["edges"])
    out_nodes = tmp_path / "n.json"
    assert main.main(["export", str(source), str(out_nodes), "--constants", "nodes"]) == 0
    graph = json.loads(out_nodes.read_text(encoding="utf-8"))
    assert [n["kind"] for n in graph["nodes"]].count("constant") == 2
    assert len(graph["edges"]) == 8


def test_export_shows_each_label_at_the_step_that_sends_it(tmp_path, capsys):
    program, stepper, _ = _neuron()
    n_forward = len(stepper.forward_steps)
    # the backward step of `p - y`: it sends to p and to the input y
    j = next(k for k, s in enumerate(stepper.backward_steps)
             if not s.root and s.node.parents == (program.names["p"], program.inputs["y"]))
    nodes_of = {}
    for taken in (j, j + 1):  # the step before it, then the step itself
        out = _export(tmp_path, capsys, "--steps", str(n_forward + taken),
                      "--constants", "nodes", name=f"step{taken}.json")
        graph = json.loads(out.read_text(encoding="utf-8"))
        nodes_of[taken] = {n["id"]: n["label"] for n in graph["nodes"]}
        shown = {(nodes_of[taken][e["source"]], e["label"]["text"])
                 for e in graph["edges"] if e["label"] is not None}
        sent = {(c.parent.label, _label(c))
                for c in stepper.backward_steps[j].contributions}
        assert {parent for parent, _ in sent} == {"p", "y"}
        if taken == j:
            assert not sent & shown, "a label shows before its step"
        else:
            assert sent <= shown, f"{sent} not among {shown}"
        # every label shown was sent by a step already taken (local × upstream = result)
        taken_texts = {_label(c)
                       for s in stepper.backward_steps[:taken] for c in s.contributions}
        assert {text for _, text in shown} <= taken_texts


def test_export_png_and_svg(tmp_path, capsys):
    from PySide6.QtGui import QImage

    png = _export(tmp_path, capsys, "--steps", "1000", name="g.png")
    assert QImage(str(png)).width() > 100
    svg = _export(tmp_path, capsys, name="g.svg")
    assert "<svg" in svg.read_text(encoding="utf-8")


def test_export_errors(tmp_path, capsys):
    assert main.main(["export", str(NEURON), str(tmp_path / "g.txt")]) != 0
    assert "error:" in capsys.readouterr().err
    assert not (tmp_path / "g.txt").exists()
    assert main.main(["export", str(NEURON), str(tmp_path / "missing" / "g.json")]) != 0
    err = capsys.readouterr().err
    assert err.startswith("error: cannot write")
    bad = tmp_path / "bad.expr"
    bad.write_text("x = 1\ny = x +\n", encoding="utf-8")
    assert main.main(["export", str(bad), str(tmp_path / "g.json")]) == 2
    assert capsys.readouterr().err.startswith("error: line 2")


def test_export_leaves_the_app_usable(window, tmp_path, capsys):
    from gui.graph.export import graph_records

    _export(tmp_path, capsys, "--steps", "1000")
    assert window.build("a = 2\nb = a*a")
    window.session.run_to_end()
    graph = graph_records(window.graph_tab.scene)
    assert {n["label"] for n in graph["nodes"] if n["kind"] == "value"} >= {"a", "b"}


def test_export_values_lists_every_named_leaf_after_the_steps_taken(tmp_path, capsys):
    program, stepper, _ = _neuron()
    n_forward = len(stepper.forward_steps)
    for steps in (0, n_forward + 4, 10**9):
        out = _export(tmp_path, capsys, "--steps", str(steps), name=f"v{steps}.json")
        values = json.loads(out.read_text(encoding="utf-8"))["values"]
        assert {v["name"] for v in values} == set(program.inputs)
        assert len(values) == len(program.inputs)
        stepper.seek(steps)  # the same program stepped as far: the same numbers
        for v in values:
            leaf = program.inputs[v["name"]]
            assert set(v) == {"name", "value", "grad"}
            assert v["value"] == leaf.data and v["grad"] == leaf.grad
        if steps == 0:
            assert all(v["grad"] == 0.0 for v in values)
    fresh = parse(NEURON.read_text(encoding="utf-8"))
    fresh.output.backward()  # at the end, backward()'s own gradients
    assert {v["name"]: v["grad"] for v in values} == {
        name: leaf.grad for name, leaf in fresh.inputs.items()}


def test_a_group_is_exported_with_its_name_members_and_instances(window):
    from PySide6.QtCore import QRectF

    from gui.graph.export import graph_records, group_record
    from gui.graph.groups.model import Group

    stack = Group(3, "stack", "inputs", -1, [4, 5], [], 1200, instances=100)
    record = group_record(stack, QRectF(10.004, 20.0, 120.5, 40.25), label="inputs × 100")
    assert record == {"id": "g3", "kind": "group", "label": "inputs × 100",
                      "box": [10.0, 20.0, 120.5, 40.25], "name": "inputs",
                      "members": 1200, "instances": 100}
    neuron = Group(7, "structure", "relu(Σ 16 terms + b)", 3, [], [1, 2], 34)
    assert group_record(neuron, QRectF(0, 0, 1, 1), "n7")["instances"] == 0
    assert group_record(neuron, QRectF(0, 0, 1, 1), "n7")["label"] == "relu(Σ 16 terms + b)"
    # a scene that exports a group's record as it is: kept so, beside the others
    assert window.build("a = 2\nb = a*a")
    scene = window.graph_tab.scene
    drawn = scene.export_nodes
    scene.export_nodes = lambda: [*drawn(), record]
    try:
        graph = graph_records(scene)
    finally:
        del scene.export_nodes
    assert graph["nodes"][-1] == record
    assert [n["kind"] for n in graph["nodes"][:-1]] == [n["kind"] for n in drawn()]
    assert graph["values"] == [{"name": "a", "value": 2.0, "grad": 0.0}]
