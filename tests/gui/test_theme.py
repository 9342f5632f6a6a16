"""The dark theme and the palette: every text colour readable on its ground (WCAG AA) in
both sets, the graph's items drawn in the set in use, the choice remembered, the tabs'
plots and words retinted, and pictures in either theme."""

import pytest
from PIL import Image
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from engine.core.pitfalls import OVERWRITE
from gui import palette, theme
from gui.graph.items import EDGE, FAINT, INK, GroupItem, OpItem, ValueItem
from tests.engine.helpers import NEURON

AA = 4.5


@pytest.fixture(autouse=True)
def light_after():
    yield
    theme.apply("light")
    QApplication.processEvents()


def test_every_text_pair_reaches_aa_in_both_sets():
    ratios = {(t, text, ground): palette.pair_contrast(text, ground, t)
              for t in palette.THEMES for text, ground in palette.TEXT_PAIRS}
    low = {k: round(v, 2) for k, v in ratios.items() if v < AA}
    assert low == {}
    assert len(ratios) == 2 * len(palette.TEXT_PAIRS) > 60
    # the sets name the same colours
    assert set(palette.LIGHT) == set(palette.DARK)


def test_the_retinted_colours_translate_one_to_one():
    # a colour alike for two names in one set is alike in the other, so that a text
    # written in one set reads the same in the other
    for old, new in (("light", "dark"), ("dark", "light")):
        for a in palette.RETINTED:
            for b in palette.RETINTED:
                if palette.SETS[old][a] == palette.SETS[old][b]:
                    assert palette.SETS[new][a] == palette.SETS[new][b], (old, a, b)
        table = palette.translation(old, new)
        assert all(table[palette.SETS[old][k].lower()] == palette.SETS[new][k]
                   for k in palette.RETINTED)


def test_contrast_is_the_wcag_formula():
    assert palette.contrast(QColor("#000000"), QColor("#ffffff")) == pytest.approx(21.0)
    assert palette.contrast(QColor("#777777"), QColor("#ffffff")) == pytest.approx(4.48, abs=0.01)
    half = palette.over(QColor(0, 0, 0, 128), QColor("#ffffff"))
    assert half.red() == pytest.approx(127, abs=1)


def _ground(window) -> QColor:
    return window.graph_tab.view.viewport().palette().color(QPalette.ColorRole.Base)


def _texts_on_their_grounds(window):
    """(text colour, ground colour, what) for every text drawn in the scene."""
    scene = window.graph_tab.scene
    ground = _ground(window)
    pairs = []
    for item in scene.items():
        if isinstance(item, (ValueItem, OpItem, GroupItem)):
            fill = item.brush().color()
            for child in item.childItems():
                if hasattr(child, "text") and child.isVisible():
                    pairs.append((child.brush().color(), fill, child.text()))
        elif item.zValue() == 2 and item.childItems():  # an edge's label on its ground
            text = item.childItems()[0]
            if item.isVisible():
                pairs.append((text.brush().color(), palette.over(item.brush().color(), ground),
                              text.text()))
    return pairs


@pytest.mark.parametrize("name", palette.THEMES)
def test_the_scene_draws_every_text_readably_in_each_theme(window, name):
    window.load_program(NEURON)
    theme.apply(name)
    QApplication.processEvents()
    stepper = window.session.stepper
    window.session.seek(stepper.total - 3)  # forward done, some gradients sent
    pairs = _texts_on_their_grounds(window)
    kinds = {text.name() for text, _, _ in pairs}
    assert len(pairs) > 30 and palette.hex_of("ink") in kinds
    assert palette.hex_of("backward") in kinds and palette.hex_of("current") in kinds
    low = [(what, text.name(), ground.name(), round(palette.contrast(text, ground), 2))
           for text, ground, what in pairs if palette.contrast(text, ground) < AA]
    assert low == []
    # and the set asked for is what is drawn: the fills, the ink, the view's ground
    box = window.graph_tab.scene.value_item_of(window.session.program.inputs["w1"])
    assert box.brush().color().name() == palette.SETS[name]["input"]
    assert INK.name() == palette.SETS[name]["ink"]
    assert _ground(window).name() == palette.SETS[name]["background"]
    dark = palette.luminance(_ground(window)) < 0.05
    assert dark == (name == "dark")


def test_the_not_yet_computed_and_the_wrong_are_readable(window):
    window.load_program("x = 2\nb = x * 3\nd = b + b * 2")  # b's gradient arrives twice
    for name in palette.THEMES:
        theme.apply(name)
        QApplication.processEvents()
        window.session.set_engine(OVERWRITE)
        window.session.seek(window.session.stepper.total)
        scene = window.graph_tab.scene
        red = palette.colour("wrong").rgba()
        wrong = [e for e in scene._edges.values() if e.tag is not None and e.tag.isVisible()
                 and e.tag.childItems()[0].brush().color().rgba() == red]
        assert wrong, name
        ground = _ground(window)
        for edge in wrong:
            text = edge.tag.childItems()[0].brush().color()
            assert palette.contrast(text, palette.over(edge.tag.brush().color(), ground)) >= AA
        window.session.seek(0)
        faint = [c for c in scene.items() if isinstance(c.parentItem(), ValueItem)
                 and c.brush().color().rgba() == FAINT.rgba()]
        assert faint, name
        for child in faint:
            fill = child.parentItem().brush().color()
            assert palette.contrast(child.brush().color(), fill) >= AA
    assert EDGE.name() == palette.DARK["edge"]


def test_the_theme_is_remembered_across_a_restart(qtbot):
    from gui.window.main_window import MainWindow

    first = MainWindow()
    qtbot.addWidget(first)
    assert first.theme_menu.choice == "light" and palette.theme() == "light"
    first.theme_menu.actions["dark"].trigger()
    assert palette.theme() == "dark"
    first.close()
    palette.use("light")  # a new process starts in the light set
    second = MainWindow()
    qtbot.addWidget(second)
    assert second.theme_menu.choice == "dark" and second.theme_menu.actions["dark"].isChecked()
    assert palette.theme() == "dark"
    assert QApplication.instance().palette().color(QPalette.ColorRole.Window).name() == \
        palette.DARK["window"]
    second.theme_menu.actions["light"].trigger()
    second.close()
    third = MainWindow()
    qtbot.addWidget(third)
    assert third.theme_menu.choice == "light" and palette.theme() == "light"
    third.close()


def test_a_graph_opened_with_debug_is_in_the_theme_the_app_remembers(qtbot):
    from engine import Value
    from gui import debug
    from gui.settings import open_settings

    settings, _, _ = open_settings()
    theme.remember(settings, "dark")
    settings.sync()
    palette.use("light")  # a script's process starts in the light set
    x = Value(2.0, label="x")
    out = x * x
    window = debug(out, block=False)
    qtbot.addWidget(window)
    assert palette.theme() == "dark" and window.theme_menu.actions["dark"].isChecked()
    assert QApplication.instance().palette().color(QPalette.ColorRole.Window).name() == \
        palette.DARK["window"]
    window.close()
    again, _, _ = open_settings()
    assert theme.chosen(again) == "dark"  # read, not written over


def test_a_radio_buttons_ring_and_dot_are_seen_in_the_dark(qtbot):
    from PySide6.QtWidgets import QRadioButton

    theme.apply("dark")
    shown = {}
    for checked in (False, True):
        button = QRadioButton("B.  an answer")
        qtbot.addWidget(button)
        button.setChecked(checked)
        button.resize(button.sizeHint())
        image = button.grab().toImage()
        ring = [image.pixelColor(x, y) for y in range(image.height()) for x in range(16)]
        window = palette.qcolor(palette.DARK["window"])
        shown[checked] = ring
        assert max(palette.contrast(p, window) for p in ring) >= 3.0  # the ring is seen
    blue = palette.qcolor(palette.DARK["blue"])
    assert not any(p == blue for p in shown[False]) and any(p == blue for p in shown[True])
    theme.apply("light")
    assert QApplication.instance().styleSheet() == ""


def test_a_damaged_setting_is_the_default():
    from PySide6.QtCore import QSettings

    settings = QSettings("AutogradDebugger", "AutogradDebugger")
    for wrong in ("purple", 3, ""):
        settings.setValue(theme.KEY, wrong)
        assert theme.chosen(settings) == "light"
    settings.setValue(theme.KEY, "system")
    assert theme.chosen(settings) == "system"


def test_following_the_system(window, monkeypatch):
    monkeypatch.setattr(theme, "system_is_dark", lambda: True)
    window.theme_menu.choose("system")
    assert palette.theme() == "dark"
    monkeypatch.setattr(theme, "system_is_dark", lambda: False)
    window.theme_menu._on_system_changed()
    assert palette.theme() == "light"


def test_words_in_colour_and_plots_are_retinted(window):
    from gui.tabs import plots

    window.editor.show_notice("a notice")
    window.load_program("x = 1\ny = x +")  # an error: the red line under the editor
    widget = plots.plot_widget()
    plot = widget.getPlotItem()
    plots.empty_hint(plot, "nothing yet")
    hint = [i for i in plot.items if isinstance(i, plots.pg.TextItem)][0]
    assert hint.color.name() == palette.LIGHT["plot_hint"]
    marks = window.editor.editor.extraSelections()
    assert [m.format.background().color().name() for m in marks] == [
        palette.LIGHT["error_line"], palette.LIGHT["error_mark"]]
    theme.apply("dark")
    marks = window.editor.editor.extraSelections()
    assert [m.format.background().color().name() for m in marks] == [
        palette.DARK["error_line"], palette.DARK["error_mark"]]
    assert marks[1].format.underlineColor().name() == palette.DARK["wrong"]
    assert palette.DARK["error"] in window.editor.error.styleSheet()
    assert palette.DARK["notice_ground"] in window.editor.notice.styleSheet()
    legend = window.graph_tab.legend.text()
    assert palette.DARK["current"] in legend and palette.LIGHT["current"] not in legend
    assert hint.color.name() == palette.DARK["plot_hint"]
    assert widget.backgroundBrush().color().name() == palette.DARK["plot_ground"]
    assert plot.getAxis("left").textPen().color().name() == palette.DARK["plot_text"]
    theme.apply("light")
    assert palette.LIGHT["error"] in window.editor.error.styleSheet()
    assert hint.color.name() == palette.LIGHT["plot_hint"]
    widget.close()


@pytest.mark.parametrize("name", palette.THEMES)
def test_an_exported_png_and_svg_are_in_the_theme_asked_for(tmp_path, name):
    from gui.screenshot import export_graph

    png, svg = tmp_path / "g.png", tmp_path / "g.svg"
    assert export_graph(str(png), NEURON, steps=30, theme=name)
    assert export_graph(str(svg), NEURON, steps=30, theme=name)
    assert palette.theme() == "light"  # put back
    corner = Image.open(png).convert("RGB").getpixel((2, 2))
    assert "#{:02x}{:02x}{:02x}".format(*corner) == palette.SETS[name]["background"]
    text = svg.read_text()
    assert (palette.DARK["ink"] in text) == (name == "dark")
    assert (palette.LIGHT["ink"] in text) == (name == "light")


def test_animate_takes_a_theme(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    out = {}
    for name in palette.THEMES:
        out[name] = tmp_path / f"{name}.gif"
        done = subprocess.run([sys.executable, str(root / "main.py"), "animate",
                               str(root / "assets" / "presets" / "01-neuron.expr"),
                               str(out[name]), "--steps", "20:21", "--size", "320x200",
                               "--theme", name], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        frame = Image.open(out[name]).convert("RGB")  # most of a frame is its background
        _, commonest = max(frame.getcolors(frame.width * frame.height))
        assert "#{:02x}{:02x}{:02x}".format(*commonest) == palette.SETS[name]["background"]
    bad = subprocess.run([sys.executable, str(root / "main.py"), "animate", "x.expr", "x.gif",
                          "--theme", "blue"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--theme" in bad.stderr


def test_every_kind_of_plot_item_is_retinted(qtbot):
    from engine.lesson.rules import rule_errors
    from gui.tabs import plots

    rows = rule_errors()
    widgets = [plots.plot_widget() for _ in range(2)]
    for widget in widgets:
        qtbot.addWidget(widget)
    bars_plot, surface_plot = (w.getPlotItem() for w in widgets)
    plots.rule_bars(bars_plot, rows)
    plots.decision_surface_items(surface_plot)

    def colours(plot):
        found = set()
        for item in plot.items:
            if isinstance(item, plots.pg.BarGraphItem):
                found |= {plots.pg.mkBrush(b).color().name() for b in item.opts["brushes"]}
            elif isinstance(item, plots.pg.InfiniteLine):
                found.add(item.pen.color().name())
                found.add(item.label.color.name())
            elif isinstance(item, plots.pg.ScatterPlotItem):
                found |= {p.brush().color().name() for p in item.points()}
                found |= {p.pen().color().name() for p in item.points()}
            elif isinstance(item, plots.pg.PlotDataItem):
                found.add(plots.pg.mkPen(item.opts["pen"]).color().name())
        return found

    light = {id(p): colours(p) for p in (bars_plot, surface_plot)}
    assert {palette.LIGHT["blue"], palette.LIGHT["deep_blue"], palette.LIGHT["grey"],
            palette.LIGHT["axis"]} <= light[id(bars_plot)]
    # the XOR dots are drawn on the surface, the same in both themes: so are they
    dots = {plots.DOT_EDGE, plots.DOT_RING, *plots.DOT_FILL.values()}
    assert light[id(surface_plot)] == dots
    theme.apply("dark")
    dark = colours(bars_plot)
    assert dark == {palette.translation("light", "dark")[c] for c in light[id(bars_plot)]}
    assert not dark & {palette.LIGHT["deep_blue"], palette.LIGHT["ring"]}
    assert colours(surface_plot) == dots
    title = bars_plot.titleLabel.opts["color"]
    assert title == palette.DARK["plot_text"]


def test_a_closed_window_does_not_draw_again_when_the_theme_changes(qtbot):
    """A theme chosen after a window closed (in another window) drew the closed one's
    graph again: a layout child started for a window that is gone."""
    from gui.jobs import worker
    from gui.window.main_window import MainWindow

    gone = MainWindow(remember=False)
    qtbot.addWidget(gone)
    gone.show()
    qtbot.waitUntil(lambda: gone.graph_tab.session.stepper is not None, timeout=30_000)
    drawn = []
    gone.graph_tab.redraw = lambda: drawn.append(True)
    gone.close()
    theme.apply("dark")
    QApplication.processEvents()
    theme.apply("light")
    QApplication.processEvents()
    assert drawn == [] and not worker.running_workers()
    gone.close()  # closing twice is harmless
