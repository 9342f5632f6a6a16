"""Pieces of the scripts the benchmarks run in a fresh process each."""

# the event loop run as the window's own runs (no sleeps between events) until done() is
# true, looked at every millisecond: a probe that slept between looks would add its
# sleeps to every slice of the window's work
UNTIL = """from PySide6.QtCore import QEventLoop, QTimer
def until(done):
    if done():
        return
    loop, look = QEventLoop(), QTimer()
    look.setInterval(1)
    look.timeout.connect(lambda: done() and loop.quit())
    look.start()
    loop.exec()
    look.stop()
"""
