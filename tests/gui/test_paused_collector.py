"""One pause of the garbage collector for the whole window: a program built in the
background and its graph's drawing each hold it, and it is on again only when both let go."""

import gc

from gui.graph.scene import GraphScene
from gui.jobs.collector import PausedCollector
from tests.gui.test_background_layout import LINES, chain


def test_the_collector_is_on_again_only_when_the_last_holder_lets_go():
    assert gc.isenabled()
    build, drawing = PausedCollector(), PausedCollector()
    build.pause()
    drawing.pause()
    drawing.pause()  # once per holder, however often it asks
    build.resume()
    assert not gc.isenabled()  # the drawing still holds it
    drawing.resume()
    assert gc.isenabled()
    drawing.resume()  # letting go twice changes nothing
    assert gc.isenabled()


def test_a_collector_found_off_stays_off():
    gc.disable()
    try:
        holder = PausedCollector()
        holder.pause()
        holder.resume()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_collector_stays_off_from_the_build_to_the_last_slice_of_the_drawing(
        window, qtbot, monkeypatch):
    tab = window.graph_tab
    seen = []
    build_steps = GraphScene.build_steps

    def steps(scene, *args):
        for _ in build_steps(scene, *args):
            seen.append(gc.isenabled())
            yield

    monkeypatch.setattr(GraphScene, "build_steps", steps)
    # over 20,000 characters: parsed in a child, its stepper made in slices (the build
    # holds the collector), then its graph worked out, laid out and drawn (the tab does)
    assert window.build(chain(LINES // 4))
    qtbot.waitUntil(lambda: not window.building and not tab.laying_out, timeout=120_000)
    assert tab.scene.stepper is window.session.stepper
    assert len(seen) > 10 and not any(seen)
    assert gc.isenabled()
