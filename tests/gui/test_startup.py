"""What the window imports at start: the heavy libraries wait until a tab needs them."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("pyqtgraph", "numpy", "networkx", "tensorflow")

# in a fresh interpreter, so that what other tests imported does not count
PROBE = f"""
import json, os, sys
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from gui.app import application
from gui.window.main_window import MainWindow
heavy = {HEAVY!r}
app = application()
w = MainWindow(remember=False)
w.show()
app.processEvents()
at_start = [m for m in heavy if m in sys.modules]
w.tabs.setCurrentWidget(w.rules_tab)
app.processEvents()
rules_shown = w.tabs.currentWidget() is w.rules_tab and w.rules_tab.isVisible()
after_rules = [m for m in heavy if m in sys.modules]
w.close()
print(json.dumps({{"at_start": at_start, "after_rules": after_rules,
                  "rules_shown": rules_shown}}))
"""


def test_the_window_starts_without_the_heavy_libraries():
    result = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                            cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["at_start"] == []
    assert seen["rules_shown"]
    assert "pyqtgraph" in seen["after_rules"]
    # the Rules tab has asked for TensorFlow, which loads in a child process, not here
    assert "tensorflow" not in seen["after_rules"]


def test_each_tab_is_made_when_first_shown_and_keeps_its_place(window, qtbot):
    titles = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert titles == ["Graph", "Rules", "Modes", "XOR", "Pitfalls", "Learn"]
    assert not window.lazy_tabs.made("XOR")
    window.tabs.setCurrentIndex(3)  # as Ctrl+4 does
    assert window.lazy_tabs.made("XOR") and not window.lazy_tabs.made("Modes")
    assert window.tabs.currentWidget() is window.xor_tab
    assert window.tabs.indexOf(window.xor_tab) == 3
    pitfalls = window.pitfalls_tab  # asked for, not shown: made in its place, XOR stays
    assert window.tabs.indexOf(pitfalls) == 4
    assert window.tabs.currentWidget() is window.xor_tab
    assert [window.tabs.tabText(i) for i in range(window.tabs.count())] == titles
