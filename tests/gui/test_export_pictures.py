"""A picture too long to draw is refused with its sizes, and a picture is written whole or
not at all (gui/graph/export.py)."""

from PySide6.QtWidgets import QGraphicsScene

from gui.graph.export import picture_problem, write_scene


def test_a_graph_too_long_for_one_png_is_refused_with_its_sizes(qtbot, tmp_path):
    scene = QGraphicsScene()
    scene.addRect(0, 0, 400_000, 60)
    problem = picture_problem(scene, "x.png")
    assert problem.startswith("the picture would be 7,999 × 2 pixels (the graph is "
                              "400,041 × 101 units")  # the rect's pen adds a unit
    assert "export it as SVG or JSON" in problem
    out = tmp_path / "long.png"
    out.write_bytes(b"the old picture")
    assert write_scene(scene, str(out)) is False
    assert out.read_bytes() == b"the old picture"
    assert picture_problem(scene, "x.svg") is None
    assert write_scene(scene, str(tmp_path / "long.svg")) is True


def test_a_png_is_written_whole_through_a_temporary_file(qtbot, tmp_path):
    scene = QGraphicsScene()
    scene.addRect(0, 0, 300, 200)
    out = tmp_path / "g.png"
    assert write_scene(scene, str(out))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.png"]
