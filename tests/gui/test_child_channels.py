"""Issue 26 item 1: what any child sends its parent is plain data (engine.frames, or a
JSON line), read without blocking: a pickle runs nothing here, a length header with
nothing after it holds nothing, and no job's records are ever unpickled in the parent."""

import multiprocessing.connection
import pickle
import threading
from multiprocessing.reduction import ForkingPickler

import pytest

from engine import frames
from engine.boundary import ProtocolError
from gui.jobs.process_job import ProcessJob
from gui.jobs.worker import ProcessWorker
from tests.gui import job_functions


def _wait_finished(job: ProcessJob, seconds: float = 60.0) -> list:
    records = []
    done = threading.Event()

    def read():
        while not job.finished:
            job._conn.poll(0.05)
            records.extend(job.drain())
        done.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert done.wait(seconds), "the parent was held by what the child wrote"
    return records


def test_a_pickle_sent_up_the_pipe_runs_nothing_here(tmp_path):
    ran = tmp_path / "ran"
    job = ProcessJob(job_functions.sends_a_pickle, path=str(ran))
    try:
        records = _wait_finished(job)
        assert not ran.exists()  # os.system never ran in this process
        assert records == []
        assert job.error.startswith("the worker process sent a message of ")
    finally:
        job.cancel()


def test_a_length_header_with_nothing_after_it_never_blocks_the_reader():
    job = ProcessJob(job_functions.sends_a_header_only)
    try:
        finished = threading.Event()

        def drain_a_while():
            for _ in range(20):  # a second of looks, each returning at once
                job._conn.poll(0.05)
                job.drain()
            finished.set()

        threading.Thread(target=drain_a_while, daemon=True).start()
        assert finished.wait(30), "drain() blocked on a frame that never came"
        assert not job.finished and job.process.is_alive()
    finally:
        job.cancel()  # its frame never completes: the window's Cancel ends it
    job.process.join(10)  # cancel kills it and does not wait: it is gone soon after
    assert not job.process.is_alive()


def test_a_record_of_a_class_the_parent_does_not_list_is_refused(tmp_path):
    job = ProcessJob(job_functions.sends_an_unlisted_record)
    try:
        assert _wait_finished(job) == []
        assert job.error == ("the worker process sent a record of a class it may not send: "
                             "'tests.gui.job_functions:NotListed'")
    finally:
        job.cancel()


def test_frames_refuse_what_is_not_plain_data():
    with pytest.raises(TypeError):
        frames.frame(["batch", [job_functions.RunsWhereUnpickled("x")]])
    good = frames.frame(["batch", [(1, 2.5), {"a": b"\x00"}]])
    assert frames.decode_frame(good) == ["batch", [(1, 2.5), {"a": b"\x00"}]]
    for bad in (good[:-1], good[:8] + b"{" + good[9:], b"\x00" * 8,
                frames._FRAME_HEADER.pack(2, 0) + b'{"~x":1}'[:2]):
        with pytest.raises(ProtocolError):
            frames.decode_frame(bad)


# -- every job, with unpickling made impossible in this process --------------------------

@pytest.fixture
def no_unpickling(monkeypatch):
    def refused(*_args, **_kwargs):
        raise AssertionError("the parent unpickled what a child sent")

    for name in ("recv", "recv_bytes", "recv_bytes_into"):
        monkeypatch.setattr(multiprocessing.connection.Connection, name, refused)
    monkeypatch.setattr(pickle, "loads", refused)
    monkeypatch.setattr(pickle, "load", refused)
    monkeypatch.setattr(ForkingPickler, "loads", refused)


def _run(qtbot, worker: ProcessWorker, requests=()) -> list:
    records, errors = [], []
    worker.yielded.connect(records.append)
    worker.errored.connect(errors.append)
    worker.start()
    for request in requests:
        worker.send(request)
    return records, errors


def _small_layout():
    from gui.graph.layout.transfer import pack_graph

    sizes = [(40.0, 20.0)] * 4
    edges = [(0, 2, None), (1, 2, (10.0, 8.0)), (2, 3, None)]
    return pack_graph(sizes, edges)


def test_no_job_is_ever_unpickled_in_the_parent(qtbot, no_unpickling, tmp_path):
    from engine.lesson.learn.passes import count_passes
    from engine.lesson.modes import timing_sweep
    from engine.lesson.nn import Epoch, train_xor
    from gui.graph.layout.transfer import layout_packed
    from gui.jobs.group_child import group_pieces, pack_arrays_steps
    from gui.jobs.layout_child import READY, serve_layouts
    from gui.jobs.parse_child import parse_pieces
    from gui.jobs.tensorflow_child import CheckResult, serve

    packed = _small_layout()
    workers = {
        "training": ProcessWorker(train_xor, epochs=3),
        "sweep": ProcessWorker(timing_sweep, sizes=(2, 3), repeats=1),
        "passes": ProcessWorker(count_passes, n=3),
        "parse": ProcessWorker(parse_pieces, one_by_one=True, text="x = 2\ny = x * x"),
        "layout": ProcessWorker(layout_packed, one_by_one=True, **packed),
    }
    from engine import parse

    program = parse("a = 1\nb = 2\nc = a * b + a")
    steps = pack_arrays_steps(list(program.values), {})
    try:
        while True:
            next(steps)
    except StopIteration as done:
        arrays = done.value
    workers["grouping"] = ProcessWorker(group_pieces, one_by_one=True, budget=10, **arrays)
    served = {"layout server": (ProcessWorker(layout_packed, child_main=serve_layouts),
                                [(1, packed), "stop"]),
              "tensorflow": (ProcessWorker(job_functions.no_tensorflow, child_main=serve),
                             [(7, "x = 1\ny = x * 2", False)])}
    results = {name: _run(qtbot, w) for name, w in workers.items()}
    results.update({name: _run(qtbot, w, requests) for name, (w, requests) in served.items()})
    everything = [*workers.values(), *(w for w, _ in served.values())]
    qtbot.waitUntil(lambda: all(w.done for w in everything), timeout=180_000)
    for name, (records, errors) in results.items():
        assert errors == [], name
        assert records, name
    assert [type(r) for r in results["training"][0]] == [Epoch] * 3
    assert results["parse"][0][0][0] == "head" and results["parse"][0][-1][0] == "order"
    assert results["layout"][0][-1][0] == "rest"
    grouping = [r for r in results["grouping"][0] if r[0] == "grouping"]
    assert len(grouping) == 1 and sorted(grouping[0][1]["order"]) == list(
        range(len(program.values)))
    assert results["layout server"][0][0] == (0, READY)
    assert results["layout server"][0][-1][1][0] == "rest"
    answer = results["tensorflow"][0][0]
    assert isinstance(answer, CheckResult) and answer.generation == 7 and answer.unavailable


def test_draw_reads_its_child_without_unpickling(no_unpickling, tmp_path):
    from engine import Value
    from gui import draw

    x = Value(2.0, label="x")
    y = x * x + x
    path = draw(y, str(tmp_path / "drawn.json"))
    assert (tmp_path / "drawn.json").read_text(encoding="utf-8").startswith('{"nodes": [')
    assert path == str(tmp_path / "drawn.json")


def test_cancel_never_waits_for_the_child_on_the_calling_thread(monkeypatch):
    """A big stale layout given up on: the window's thread kills it and goes on; the
    child is reaped, and its pipe closed, by another thread."""
    job = ProcessJob(job_functions.endless)
    caller = threading.current_thread()
    waited_here = []
    join = job.process.join

    def recording_join(timeout=None):
        if threading.current_thread() is caller:
            waited_here.append(timeout)
        return join(timeout)

    monkeypatch.setattr(job.process, "join", recording_join)
    job._conn.poll(60.0)  # it runs
    job.cancel()
    assert waited_here == []
    assert job.finished
    join(10.0)
    assert not job.process.is_alive()
    for _ in range(100):
        if job._conn.closed:
            break
        threading.Event().wait(0.05)
    assert job._conn.closed


def test_the_warm_layout_child_is_waited_on_not_polled(qtbot):
    """Idle between pictures, the warm layout child wakes the window only when it has
    something to say: no clock runs, the pipe is watched."""
    from gui.jobs.layout_server import LayoutServer

    server = LayoutServer()
    server.warm()
    try:
        qtbot.waitUntil(lambda: server.ready, timeout=60_000)
        worker = server.worker
        assert not worker._timer.isActive()  # nothing looks at the pipe on a clock
        assert worker._notifier is not None and worker._notifier.isEnabled()
        ticket = server.request(_small_layout(), 4)
        steps = []
        qtbot.waitUntil(lambda: (steps.extend(server.pieces(ticket) or [])
                                 or any(p[0] == "rest" for p in steps)), timeout=60_000)
        assert not worker._timer.isActive()
    finally:
        server.stop()
