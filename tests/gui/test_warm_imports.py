"""Issue 26 item 6: the tabs' heavy modules (numpy, pyqtgraph) are imported in a thread
while the window is idle, so opening Rules, Pitfalls or Modes the first time does not
hold the window for them (half a second, measured at 199,990 nodes)."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent("""
    import sys, threading, time
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    for fmt in (QSettings.Format.IniFormat, QSettings.Format.NativeFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, sys.argv[1])
    importing = []

    class Recorder:  # first on the import path: notes which thread imports pyqtgraph
        @staticmethod
        def find_spec(name, path=None, target=None):
            if name == "pyqtgraph":
                importing.append(threading.current_thread().name)
            return None

    sys.meta_path.insert(0, Recorder)
    from gui.window.main_window import MainWindow
    window = MainWindow()
    window.show()
    print("at start", "pyqtgraph" in sys.modules)
    from gui.jobs import warm_imports
    deadline = time.monotonic() + 120
    while not warm_imports._started and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    warm_imports._started[0].join(120)
    print("made", sorted(name for name in ("Rules", "Pitfalls", "Modes")
                         if window.lazy_tabs.made(name)))
    print("imported by", importing)
    window.remember = False
    window.close()
""")


def test_the_tabs_modules_are_imported_off_the_windows_thread(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[-3:] == ["at start False", "made []", "imported by ['warm-imports']"]
