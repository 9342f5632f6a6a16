"""The warm layout process: started ahead of the pictures it lays out, kept between them,
stopped with the window (gui/jobs/layout_child.py runs in it).

`BackgroundDrawing` asks it for a picture (`request(packed)` gives a ticket) and takes
the pieces of the drawing as they come (`pieces(ticket)`); a request given up on while
the child still works on it (a group opened, then another at once) ends that child and
starts a new one, so that the next picture never waits behind a stale one. The child is
a ProcessWorker like any other: closing the window stops it (`worker.stop_workers`).
"""

from __future__ import annotations

from collections import deque

from PySide6.QtCore import QObject, Signal, Slot

from gui.graph.layout.transfer import DrawingAssembler, layout_packed
from gui.jobs.layout_child import FAILED, READY, serve_layouts
from gui.jobs.sliced import WAIT
from gui.jobs.worker import ProcessWorker

READ_BUDGET_S = 0.005  # reading its pieces takes at most this long per look
# a picture given up on while the child lays it out is left to finish (its pieces are
# dropped) when it is at most this big; a bigger one's child is ended and started again
FINISH_UP_TO = 4_000


class LayoutFailed(RuntimeError):
    """The layout's child ended, or failed, without a drawing."""


class LayoutServer(QObject):
    """One warm layout child (see the module's docstring). `arrived()` whenever a piece
    of the drawing asked for has come, or the child has gone."""

    arrived = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self._worker: ProcessWorker | None = None
        self.ready = False  # the child has imported the layout and answers at once
        self._ticket = 0
        self._asked: int | None = None  # the ticket of the picture being laid out
        self._pieces: deque = deque()
        self._size = 0  # how big the picture being laid out is
        self.error: str | None = None  # why the child went, while a picture was asked

    @property
    def running(self) -> bool:
        return self._worker is not None

    @property
    def worker(self) -> ProcessWorker | None:
        """The child's worker, while it runs."""
        return self._worker

    def warm(self) -> None:
        """Start the child now, if it is not running, so that it is ready when asked."""
        if self._worker is None:
            self.ready = False
            # no clock: the pipe is waited on, so an idle child costs the window nothing
            worker = self._worker = ProcessWorker(layout_packed, child_main=serve_layouts,
                                                  interval_ms=None,
                                                  read_budget_s=READ_BUDGET_S, parent=self)
            worker.yielded.connect(self._on_record)
            worker.finished.connect(self._on_finished)
            worker.start()

    def request(self, packed: dict, size: int = 0) -> int:
        """Ask for the drawing of `packed` (transfer.pack_graph's arrays, and `start`),
        about `size` nodes and virtual nodes; returns its ticket. A picture asked before
        and not yet all come is given up."""
        self.give_up()
        self.warm()
        self._ticket += 1
        self._asked, self.error, self._size = self._ticket, None, size
        self._worker.send((self._ticket, packed))
        return self._ticket

    def drawing_steps(self, packed: dict, size: int = 0):
        """The drawing of `packed` (see `request`), as a SlicedTask's steps: WAIT until
        each piece comes (whoever runs them wakes them on `arrived`); given up if they
        are not run to their end. Raises LayoutFailed."""
        ticket = self.request(packed, size)
        try:
            assembler = DrawingAssembler()
            while assembler.drawing is None:
                pieces = self.pieces(ticket)
                if pieces is None:
                    raise LayoutFailed(self.error or "the layout process ended without a "
                                       "drawing")
                if pieces:
                    piece = pieces.popleft()
                    if piece is None:
                        raise LayoutFailed(self.error)
                    assembler.add(piece)
                    yield None
                else:
                    yield WAIT
            self.done(ticket)
            return assembler.drawing
        finally:
            if ticket == self._asked:
                self.give_up()

    def pieces(self, ticket: int) -> deque | None:
        """The records come so far for `ticket` (taken from the left), or None if the
        child has gone before sending them all (`error` says why)."""
        if ticket != self._asked:
            return None
        if self._worker is None and not self._pieces:
            return None
        return self._pieces

    def done(self, ticket: int) -> None:
        """The whole drawing for `ticket` has come."""
        if ticket == self._asked:
            self._asked = None
            self._pieces = deque()

    def give_up(self) -> None:
        """Forget the picture being laid out; a child still at work on a big one is
        ended (and another started, warm for the next)."""
        if self._asked is None:
            return
        self._asked = None
        self._pieces = deque()
        if self._size > FINISH_UP_TO:
            self.stop()
            self.warm()

    def stop(self) -> None:
        """End the child now (the window closes, or a stale picture is given up)."""
        if self._worker is not None:
            worker, self._worker = self._worker, None
            self.ready = False
            worker.cancel()

    @Slot(object)
    def _on_record(self, record) -> None:
        ticket, piece = record
        if piece == READY:
            self.ready = True
        elif ticket == self._asked:
            if piece[0] == FAILED:
                self.error = piece[1]
                self._pieces.append(None)
            else:
                self._pieces.append(piece)
            self.arrived.emit()

    @Slot()
    def _on_finished(self) -> None:
        if self.sender() is not self._worker:
            return  # ended on purpose
        self._worker = None
        self.ready = False
        if self._asked is not None:
            self.error = self.error or "the layout process ended without a drawing"
            self.arrived.emit()
