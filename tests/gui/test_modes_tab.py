"""The Modes tab: the sweep in a worker, cancel, and a window that keeps responding."""

from gui.jobs import process_job, worker


def open_modes(window, qtbot, sizes, repeats=1):
    tab = window.modes_tab
    tab.sizes, tab.repeats = sizes, repeats
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(tab.isVisible, timeout=5_000)
    return tab


def test_sweep_fills_the_table_and_plots(window, qtbot):
    tab = open_modes(window, qtbot, (2, 5, 10, 20))
    tab.start.click()
    assert tab.running and not tab.start.isEnabled() and tab.cancel.isEnabled()
    qtbot.waitUntil(lambda: not tab.running, timeout=60_000)
    assert [r.n for r in tab.rows] == [2, 5, 10, 20]
    assert tab.table.column_texts(0) == ["2", "5", "10", "20"]
    assert tab.bar.value() == 1000
    assert tab.state.text() == "Done: 4 sizes timed."
    timing = tab.timing_plot.getPlotItem().listDataItems()
    assert [len(c.getData()[0]) for c in timing] == [4, 4]
    assert "agree to" in tab.agreement.text()
    assert all(r.max_difference <= 1e-12 for r in tab.rows)


def test_cancel_stops_the_worker_before_its_end(window, qtbot):
    tab = open_modes(window, qtbot, (800, 1600), repeats=3)
    tab.start.click()
    qtbot.waitUntil(lambda: tab.bar.value() > 0, timeout=30_000)  # mid-way through
    tab.cancel.click()
    qtbot.waitUntil(lambda: not tab.running, timeout=60_000)
    assert not worker.running_workers() and not process_job.running()
    assert tab.state.text().startswith("Cancelled after")
    assert len(tab.rows) < 2 and tab.bar.value() < 1000  # it stopped: not every size timed
    assert tab.start.isEnabled()


def test_window_responds_during_the_sweep(window, qtbot):
    tab = open_modes(window, qtbot, (400, 800, 1600), repeats=3)
    tab.start.click()
    qtbot.waitUntil(lambda: tab.bar.value() > 0, timeout=30_000)
    window.tabs.setCurrentWidget(window.graph_tab)
    for _ in range(5):  # the GUI thread takes a user's step, then the worker's next progress
        window.graph_tab.actions["step"].trigger()
        with qtbot.waitSignal(tab.bar.valueChanged, timeout=30_000):
            pass
    assert window.session.stepper.position == 5
    assert tab.running
    tab.cancel_sweep()
    qtbot.waitUntil(lambda: not tab.running, timeout=60_000)


def test_closing_the_window_mid_sweep_stops_the_worker(qtbot):
    from gui.window.main_window import MainWindow

    w = MainWindow(remember=False)
    qtbot.addWidget(w)
    w.modes_tab.sizes = (800, 1600)
    w.modes_tab.start_sweep()
    qtbot.waitUntil(lambda: w.modes_tab.bar.value() > 0, timeout=30_000)
    w.close()
    assert not worker.running_workers() and not process_job.running()


def test_break_even_is_marked_and_said_in_whole_counts(window):
    import pyqtgraph as pg

    from engine.lesson.modes import SweepRow
    tab = window.modes_tab
    tab.rows = [SweepRow(2, 0.854, 1.0, 0.854, 0.0), SweepRow(5, 2.0, 1.0, 2.0, 1e-16)]
    tab._show_rows()
    assert tab.agreement.text().endswith(
        "The timing curves cross at N ≈ 2.37 (interpolated on the log-log plot between the "
        "sizes timed, 2 and 5); a network has a whole number of parameters, so from N = 3 "
        "on reverse mode is the cheaper.")
    lines = [item for item in tab.timing_plot.getPlotItem().items
             if isinstance(item, pg.InfiniteLine)]
    assert [line.label.format for line in lines] == ["curves cross at N ≈ 2.37"]
    tab.rows = [SweepRow(1, 2.0, 1.0, 2.0, 0.0)]
    tab._show_rows()
    assert tab.agreement.text().endswith("already as cheap or cheaper at the smallest size "
                                         "timed, N = 1.")


def test_one_size_is_one_size(window, qtbot):
    tab = open_modes(window, qtbot, (2,))
    tab.start.click()
    qtbot.waitUntil(lambda: not tab.running, timeout=60_000)
    assert tab.state.text() == "Done: 1 size timed."


def test_a_zero_difference_reads_0_in_the_table_and_the_sentence(window):
    from engine.lesson.modes import SweepRow
    tab = window.modes_tab
    tab.rows = [SweepRow(2, 0.854, 1.0, 0.854, 0.0), SweepRow(5, 2.0, 1.0, 2.0, 1.11e-16)]
    tab._show_rows()
    assert tab.table.column_texts(4) == ["0", "1.11e-16"]
    tab.rows = [SweepRow(2, 0.854, 1.0, 0.854, 0.0)]
    tab._show_rows()
    assert tab.agreement.text().startswith("The two modes' gradients agree to 0 at worst "
                                           "(N = 2)")


def test_the_plots_say_what_fills_them_until_a_sweep_has(window, qtbot):
    import pyqtgraph as pg

    tab = open_modes(window, qtbot, (2, 5))
    for widget, hint in ((tab.timing_plot, "Press Start to time both modes"),
                         (tab.ratio_plot, "forward ÷ reverse, once sizes are timed")):
        plot = widget.getPlotItem()
        assert not plot.getAxis("left").isVisible() and not plot.getAxis("bottom").isVisible()
        texts = [i.toPlainText() for i in plot.items if isinstance(i, pg.TextItem)]
        assert texts == [hint]
    tab.start.click()
    qtbot.waitUntil(lambda: not tab.running, timeout=60_000)
    for widget in (tab.timing_plot, tab.ratio_plot):
        plot = widget.getPlotItem()
        assert plot.getAxis("left").isVisible() and plot.getAxis("bottom").isVisible()
    assert tab.timing_plot.getPlotItem().getAxis("left").labelText == "ms per full gradient"
