"""A user's engine stays in its box (issue 26, item 1): what its child sends is plain data
read with a deadline, never unpickled; the child and everything it starts end with the
check and with the parent; the child's memory is limited. Each trick is a hostile
engine file run in a real child."""

from __future__ import annotations

import multiprocessing.connection
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import boundary
from engine.checks.engine_check import CheckRun, finish_report

ENGINES = Path(__file__).parent / "engines"
ROOT = Path(__file__).resolve().parents[2]
CLOSURES = (ENGINES / "closures.py").read_text()
MUL = "        out = Value(self.data * other.data, (self, other), \"*\")\n"

# the user's code finds the check's pipe by walking up the frames to the child's main()
FIND_PIPE = '''
def _pipe():
    import sys
    frame = sys._getframe()
    while frame is not None:
        if "conn" in frame.f_locals and hasattr(frame.f_locals["conn"], "fileno"):
            return frame.f_locals["conn"]
        frame = frame.f_back
'''


def with_mul(body: str, header: str = "") -> str:
    """The correct closures engine with `body` run at the start of every __mul__ but
    the first (loading the file multiplies once, to see the engine's conventions)."""
    assert CLOSURES.count(MUL) == 1
    body = ('globals()["_muls"] = globals().get("_muls", 0) + 1\nif _muls > 1:\n'
            + "".join(f"    {line}\n" for line in body.strip().splitlines()))
    indented = "".join(f"        {line}\n" for line in body.strip().splitlines())
    return header + FIND_PIPE + CLOSURES.replace(MUL, indented + MUL)


def run_checks(tmp_path, source: str, timeout: float = 10.0, **options) -> dict:
    path = tmp_path / "engine.py"
    path.write_text(source)
    run = CheckRun(str(path), "Value", timeout, **options)
    try:
        run.wait()
    finally:
        run.cancel()
    return finish_report(run)


def test_a_pickled_object_sent_up_the_pipe_runs_nothing_here(tmp_path):
    marker = tmp_path / "it-ran-in-the-parent"
    source = with_mul(f'''
if not globals().get("_sent"):
    globals()["_sent"] = True
    import os
    class Evil:
        def __reduce__(self):
            return (os.system, ("touch {marker}",))
    _pipe().send(Evil())
''')
    started = time.monotonic()
    report = run_checks(tmp_path, source)
    assert not marker.exists()
    mul = report["checks"]["mul"]
    assert mul["status"] == "error"
    assert "not a JSON line" in mul["error"] and "wrote to the app's pipe" in mul["sentence"]
    # the other checks ran in a new child; add does not multiply
    assert report["checks"]["add"]["status"] == "ok"
    assert report["checks"]["tanh"]["status"] == "ok"
    assert time.monotonic() - started < 120


def test_a_length_header_with_nothing_after_it_cannot_block_the_deadline(tmp_path):
    source = with_mul('''
import os, struct, time
os.write(_pipe().fileno(), struct.pack("!i", 100))
time.sleep(3600)
''')
    started = time.monotonic()
    report = run_checks(tmp_path, source, timeout=2.0)
    elapsed = time.monotonic() - started
    statuses = {name: r["status"] for name, r in report["checks"].items()}
    # the header arrives before the check's start message: the start line is garbled
    assert statuses["mul"] in ("error", "timeout")
    assert statuses["add"] == "ok" and statuses["tanh"] == "ok"
    assert elapsed < 90  # each multiplying check ends at its deadline, not in an hour


def test_well_formed_json_of_the_wrong_shape_is_refused(tmp_path):
    source = with_mul('''
import os
if not globals().get("_sent"):
    globals()["_sent"] = True
    os.write(_pipe().fileno(), b'["result"]\\n')
''')
    report = run_checks(tmp_path, source)
    assert report["checks"]["mul"]["status"] == "error"
    assert "unknown form" in report["checks"]["mul"]["error"]
    assert report["checks"]["add"]["status"] == "ok"


def test_the_parent_never_unpickles_what_the_child_sends(tmp_path, monkeypatch):
    def refused(*_args, **_kwargs):
        raise AssertionError("the parent unpickled what a user's child sent")

    monkeypatch.setattr(multiprocessing.connection.Connection, "recv", refused)
    monkeypatch.setattr(multiprocessing.connection.Connection, "recv_bytes", refused)
    monkeypatch.setattr(pickle, "loads", refused)
    report = run_checks(tmp_path, CLOSURES)
    assert report["checks"]["mul"]["status"] == "ok"
    assert report["summary"]["ok"] >= 19


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


def _wait_gone(pid: int, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and prctl")
def test_what_the_engine_starts_ends_with_the_check_even_in_a_new_session(tmp_path):
    pids = tmp_path / "pids"
    header = f'''
import subprocess
_sleeper = subprocess.Popen(["sleep", "121"], start_new_session=True)
open({str(pids)!r}, "a").write(f"{{_sleeper.pid}}\\n")
'''
    run_checks(tmp_path, header + CLOSURES)
    started = [int(p) for p in pids.read_text().split()]
    assert started  # one per child that loaded the file
    assert all(_wait_gone(pid) for pid in started)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and prctl")
def test_a_leftover_cannot_hold_the_commands_output_open(tmp_path):
    path = tmp_path / "engine.py"
    path.write_text("import subprocess, os\n"
                    "if os.fork() == 0:\n    os.setsid()\n    import time\n"
                    "    time.sleep(121)\n    os._exit(0)\n" + CLOSURES)
    started = time.monotonic()
    # as `check-engine engine.py | cat`: the output is read to its end
    done = subprocess.run([sys.executable, str(ROOT / "main.py"), "check-engine", str(path)],
                          capture_output=True, cwd=ROOT, timeout=100)
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - started < 100
    assert b"0 wrong" in done.stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl")
@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_ending_the_command_ends_a_hanging_check(tmp_path, how):
    # SIGTERM: the command ends the checks' processes; SIGKILL leaves it no chance to,
    # and the child's own death signal does it
    pid_file = tmp_path / "child"
    source = with_mul(f'''
import os, time
open({str(pid_file)!r}, "w").write(str(os.getpid()))
time.sleep(3600)
''')
    path = tmp_path / "engine.py"
    path.write_text(source)
    command = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "check-engine",
                                str(path), "--timeout", "600"], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline, "the check never reached mul"
            time.sleep(0.05)
        child = int(pid_file.read_text())
        command.send_signal(getattr(signal, how))
        code = command.wait(30)
        if how == "SIGTERM":
            assert code == 128 + signal.SIGTERM
        assert _wait_gone(child)
    finally:
        command.kill()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS")
def test_a_check_that_takes_too_much_memory_is_an_error_of_that_check(tmp_path):
    source = with_mul('''
_hoard = bytearray(3 * 1024 ** 3)
''')
    report = run_checks(tmp_path, source, memory_bytes=1024 ** 3)
    mul = report["checks"]["mul"]
    assert mul["status"] == "error"
    assert mul["sentence"] == ("ran out of memory: the check's limit of 1 GB (--memory) was "
                               "reached")
    assert report["checks"]["add"]["status"] == "ok"


def test_the_line_reader_never_waits_past_its_deadline():
    read_end, write_end = os.pipe()
    try:
        reader = boundary.LineReader(read_end)
        os.write(write_end, b'["start", "mul"]\n["resu')
        assert reader.read(0.0) == [["start", "mul"]]
        started = time.monotonic()
        assert reader.read(0.2) == []  # half a line: nothing yet, and no wait past 0.2 s
        assert time.monotonic() - started < 2.0
        os.write(write_end, b'lt"]\n\x80\x04garbage\n')
        assert reader.read(0.0) == [["result"]]  # the messages before a bad line count
        with pytest.raises(boundary.ProtocolError):
            reader.read(0.0)
    finally:
        os.close(read_end)
        os.close(write_end)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl")
def test_every_child_of_the_app_leads_its_own_group_and_ends_with_its_parent(tmp_path):
    script = tmp_path / "parent.py"
    script.write_text(f"""import sys, time
sys.path.insert(0, {str(ROOT)!r})
from engine.lesson.nn import train_xor
from gui.jobs.process_job import ProcessJob
job = ProcessJob(train_xor, epochs=10**9)
while not job.drain(): time.sleep(0.05)  # it runs
print(job.process.pid, flush=True)
time.sleep(600)
""")
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                              text=True, cwd=ROOT)
    try:
        child = int(parent.stdout.readline())
        assert os.getpgid(child) == child  # its own group
        parent.kill()  # no chance to clean up: the child's death signal does it
        parent.wait(30)
        assert _wait_gone(child)
    finally:
        parent.kill()
