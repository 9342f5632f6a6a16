"""The words a new user read in the tryout (issue 22): links seen in the dark, groups
titled by what they compute, the outputs said plainly, text inside its box, the step
label and the Pitfalls table at 1280 px, the progress bar's words, an alias output."""

from collections import Counter

import pytest
from PySide6.QtWidgets import QApplication

from gui import palette, theme


@pytest.fixture(autouse=True)
def light_after():
    yield
    theme.apply("light")
    QApplication.processEvents()


def _colours(widget) -> Counter:
    image = widget.grab().toImage()
    return Counter(image.pixelColor(x, y).name()
                   for y in range(image.height()) for x in range(image.width()))


def test_a_breadcrumb_link_is_drawn_in_the_themes_link_colour(qtbot):
    from gui.graph.breadcrumb import Breadcrumb

    crumb = Breadcrumb()
    qtbot.addWidget(crumb)
    crumb.show_path([(1, "data_loss")])  # written in the light theme
    crumb.resize(300, 30)
    crumb.show()
    theme.apply("dark")
    QApplication.processEvents()
    shown = _colours(crumb)
    assert shown["#0000ff"] == 0  # not the light theme's blue on near-black
    assert shown[palette.DARK["link"]] > 20
    window = palette.qcolor(palette.DARK["window"])
    assert palette.contrast(palette.qcolor(palette.DARK["link"]), window) > 7
    theme.apply("light")
    QApplication.processEvents()
    assert _colours(crumb)[palette.LIGHT["link"]] > 20
    assert ("link", "window") in palette.TEXT_PAIRS and ("link", "base") in palette.TEXT_PAIRS
