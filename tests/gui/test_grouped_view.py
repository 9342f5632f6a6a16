"""What the view shows of a grouped graph: it opens on the output, readable; every step
at the level shown (Right, Left, Home, End) and every group opened or closed keeps the
current unit and the units it sends to on screen, with a margin, and a step that comes
near the view's edge is brought well inside (centred), not left at the margin."""

import pytest
from PySide6.QtCore import QRectF

from gui.graph.view import EDGE_BAND, MARGIN_PX, SMALLEST_TEXT_PT
from tests.gui.grouped_models import load_grouped


def visible(view) -> QRectF:
    return view.mapToScene(view.viewport().rect()).boundingRect()


def inside_with_margin(view, item) -> bool:
    """`item` is whole in the viewport, with (nearly) the view's margin around it where
    the scroll bars reach that far (at the graph's edge, the scene's own margin)."""
    margin, px = (MARGIN_PX - 2) / view.scale_factor(), 2 / view.scale_factor()
    rect = item.sceneBoundingRect().adjusted(-margin, -margin, margin, margin)
    return visible(view).adjusted(-px, -px, px, px).contains(rect.intersected(view.sceneRect()))


def fits_readable(view, items) -> bool:
    """Whether `items` fit in the viewport together, with the margin, at the readable size."""
    rect = QRectF(items[0].sceneBoundingRect())
    for item in items[1:]:
        rect = rect.united(item.sceneBoundingRect())
    scale, port = view.readable_scale(), view.viewport().rect()
    return (rect.width() * scale + 2 * MARGIN_PX <= port.width()
            and rect.height() * scale + 2 * MARGIN_PX <= port.height())


def ready(window) -> bool:
    tab = window.graph_tab
    return not window.building and not tab.laying_out and tab.scene.shown is not None


def unit_items(view):
    """(the current unit's item, the items of the units with an edge into it)."""
    items = view.step_items()
    scene = view.scene()
    if len(items) > 1 and items[1] is scene.op_items.get(getattr(items[0], "index", None)):
        return items[0], items[2:]
    return items[0], items[1:]


def check_step_in_view(view) -> int:
    """The current unit and the units it sends to are on screen, if they fit at the readable
    text (else the current unit is, at that size); how many senders were checked."""
    current, senders = unit_items(view)
    assert inside_with_margin(view, current)
    assert view.scale_factor() >= view.readable_scale() * 0.999
    if not fits_readable(view, [current, *senders]):
        assert view.scale_factor() == pytest.approx(view.readable_scale())
        return 0
    for item in senders:
        assert inside_with_margin(view, item), item.texts()[0]
    return len(senders)


def test_micrograds_mlp_opens_on_its_output_readable(qtbot):
    """micrograd's demo on 20 points, grouped: the first view shows the loss, and its
    text is at least READABLE_PX high (fitted if it fits so, at its output's end otherwise)."""
    from gui import debug
    from tests.foreign_models import micrograd_demo

    loss = micrograd_demo(20).loss
    window = debug(loss, block=False)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: ready(window), timeout=180_000)
    tab, view = window.graph_tab, window.graph_tab.view
    scene = tab.scene
    output = scene.value_item_of(window.session.program.output)
    assert view.scale_factor() >= view.readable_scale() * 0.999
    assert inside_with_margin(view, output)
    before = scene
    tab.expansion.to_level(3)  # too wide to read whole: opened at its output's end
    qtbot.waitUntil(lambda: tab.scene is not before and ready(window), timeout=120_000)
    scene = tab.scene
    output = scene.value_item_of(window.session.program.output)
    assert inside_with_margin(view, output)  # the zoom kept, the output's end shown
    for size in ((1400, 860), (1280, 720)):
        window.resize(*size)
        view.fit(readable=True)  # as a new graph is
        assert scene.graph_rect().width() * view.scale_factor() > view.viewport().width()
        assert view.scale_factor() == pytest.approx(view.readable_scale())
        assert inside_with_margin(view, output), size
        assert visible(view).right() >= scene.graph_rect().right()
    window.close()


@pytest.fixture
def zoomed_in(window, qtbot):
    """A grouped MLP of 12 samples in a small window, zoomed in three times."""
    window.resize(1000, 640)
    program, grouping = load_grouped(window, points=12, sizes=(2, 6, 6, 1))
    qtbot.waitUntil(lambda: ready(window), timeout=60_000)
    view = window.graph_tab.view
    nine_px = 9.0 * 72.0 / (SMALLEST_TEXT_PT * view.logicalDpiY())  # the old floor's zoom
    view.zoom_by(3.0 * nine_px / view.scale_factor())
    return window, grouping


def test_every_step_backward_and_forward_keeps_the_unit_and_its_senders_in_view(zoomed_in):
    window, _ = zoomed_in
    tab, view = window.graph_tab, window.graph_tab.view
    zoomed = view.scale_factor()
    senders = 0
    while tab.actions["step"].isEnabled():  # Right, to the end of the backward pass
        tab.actions["step"].trigger()
        senders += check_step_in_view(view)
    assert senders > 10
    assert view.scale_factor() < zoomed  # it had to zoom out for a group's parents
    for _ in range(6):  # Left
        tab.actions["back"].trigger()
        check_step_in_view(view)
    tab.actions["reset"].trigger()  # Home, then Right and End
    tab.actions["step"].trigger()
    check_step_in_view(view)
    tab.actions["end"].trigger()
    check_step_in_view(view)


def check_well_inside(view) -> int:
    """The current unit is clear of the view's outer EDGE_BAND on each axis, unless the
    scroll bar is at its end that way, the unit (with its operation) is too big to be,
    or it and its senders fit in the view only within its band (they are then centred);
    how many axes were checked."""
    items = view.step_items()
    current, senders = unit_items(view)
    span = QRectF(current.sceneBoundingRect())
    if len(items) > 1 and items[1] is view.scene().op_items.get(getattr(current, "index", -1)):
        span = span.united(items[1].sceneBoundingRect())
    for rect in view._step_label_rects():  # the labels it sends, kept with it
        span = span.united(rect)
    everything = QRectF(span)
    for item in senders:
        everything = everything.united(item.sceneBoundingRect())
    shown, box, checked = visible(view), current.sceneBoundingRect(), 0
    margin = MARGIN_PX / view.scale_factor()
    for low, high, size, most, bar in (
            (box.left() - shown.left(), shown.right() - box.right(), span.width(),
             everything.width(), view.horizontalScrollBar()),
            (box.top() - shown.top(), shown.bottom() - box.bottom(), span.height(),
             everything.height(), view.verticalScrollBar())):
        whole = (shown.width() if bar is view.horizontalScrollBar() else shown.height())
        band = max(EDGE_BAND * whole, margin)
        if size + 2 * band > whole or most + 2 * margin <= whole < most + 2 * band:
            continue
        checked += 1
        px = 2 / view.scale_factor()  # scrolled by whole pixels
        assert low >= band - px or bar.value() == bar.minimum(), (low, band)
        assert high >= band - px or bar.value() == bar.maximum(), (high, band)
    return checked


def test_a_step_near_the_edge_of_the_view_is_brought_well_inside(zoomed_in):
    window, _ = zoomed_in
    tab, view = window.graph_tab, window.graph_tab.view
    checked = 0
    while tab.actions["step"].isEnabled():
        tab.actions["step"].trigger()
        checked += check_well_inside(view)
        check_step_in_view(view)
    assert checked > 10


def test_the_view_does_not_move_while_the_step_is_in_view(zoomed_in):
    window, _ = zoomed_in
    tab, view = window.graph_tab, window.graph_tab.view
    view.fit()  # the whole graph: nothing to pan for
    before = visible(view)
    for _ in range(5):
        tab.actions["step"].trigger()
        assert visible(view) == before


@pytest.mark.parametrize("size", [(1600, 1000), (1280, 720)])
def test_opening_and_closing_a_group_keeps_the_step_in_view(zoomed_in, qtbot, size):
    window, grouping = zoomed_in
    window.resize(*size)
    tab, view = window.graph_tab, window.graph_tab.view
    stack = next(g for g in grouping.groups if g.kind == "stack")
    stepper = window.session.stepper
    tab.actions["step"].trigger()
    while tab.expansion.levels().current_unit() != -1 - stack.id:
        tab.actions["step"].trigger()  # to the stack's forward step
    check_step_in_view(view)
    before = tab.scene
    tab.expansion.expand(stack.id)  # its first sample's step is the one just taken
    qtbot.waitUntil(lambda: tab.scene is not before and ready(window), timeout=60_000)
    assert stack.id in tab.scene.shown.expanded
    assert stepper.position == grouping.groups[stack.children[0]].last
    senders = check_step_in_view(view)  # a sample's step, and the units it sends to
    for _ in range(3):
        tab.actions["step"].trigger()
        senders += check_step_in_view(view)
    assert senders >= 8  # each sample uses the three layers and its own inputs
    tab.actions["end"].trigger()
    check_step_in_view(view)
    before = tab.scene
    tab.expansion.collapse(stack.id)
    qtbot.waitUntil(lambda: tab.scene is not before and ready(window), timeout=60_000)
    assert check_step_in_view(view) >= 3  # the stack's backward, sent to the layers


def test_the_samples_stack_opens_on_a_few_samples_and_one_box_for_the_rest(qtbot):
    """micrograd's demo on 20 points: opened, the stack of samples draws its first three
    and one stack of the other 17, each with an edge from each layer, not 20 boxes and
    60 edges from three boxes (a wall); the rest opens on parts of ten at most."""
    from gui import debug
    from tests.foreign_models import micrograd_demo

    demo = micrograd_demo(20)  # its parameters and inputs named after this variable
    window = debug(demo.loss, block=False)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: ready(window), timeout=180_000)
    tab = window.graph_tab
    grouping = tab.expansion.shown.grouping
    stack = next(g for g in grouping.groups if g.kind == "stack" and g.instances == 20)
    for g in (stack.id, stack.children[-1]):
        opened, up = set(), g
        while up >= 0:  # g and what holds it open, nothing else
            opened.add(up)
            up = grouping.groups[up].parent
        before = tab.scene
        tab.expansion.draw(opened)
        qtbot.waitUntil(lambda old=before: tab.scene is not old and ready(window),
                        timeout=120_000)
        shown = tab.scene.shown
        assert shown.expanded == opened
        children = [-1 - c for c in grouping.groups[g].children]
        assert all(-1 - u in tab.scene.group_items for u in children)
        into = [(s, t) for s, t, _ in shown.quotient.edges if t in children]
        assert len(children) <= 10 and len(into) <= 4 * len(children)
        assert len({s for s, _ in into}) <= 4  # the layers (and the inputs' names)
    assert len(grouping.groups[stack.id].children) == 4
    rest = grouping.groups[stack.children[-1]]
    assert rest.kind == "stack" and rest.instances == 17
    # titled by what they compute (the script names its losses): demo.losses[3–11]
    assert tab.scene.group_items[rest.children[0]].texts()[0].startswith("demo.losses[3")
    window.close()
