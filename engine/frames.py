"""Frames: what the app's own children send their parent, as plain data.

The children that run the app's work (training, sweeps, parsing, layout, grouping,
TensorFlow, draw()) send records that JSON lines would make slow (arrays of a million
numbers, tuples that must stay tuples) but that must never be unpickled: a pickle can
run code in the parent, and its length header can hold a reader in `recv()` for ever.
A frame carries plain data only, its arrays as raw bytes behind a length header, read
without blocking and with a size limit (`FrameReader`); a record class is made only if
the reader names it (`records`), from its fields.
"""

from __future__ import annotations

import array
import dataclasses
import json
import os
import select
import struct

from engine.boundary import READ_BUDGET, READ_CHUNK, ProtocolError

# A frame is a header (!II: the JSON part's length, the binary part's length), a JSON
# tree and the raw bytes its arrays point into. The tree holds JSON's own values (lists,
# str, int, float with NaN and infinities, bool, None) and one-key objects for the rest:
# {"~t": [...]} a tuple, {"~d": [[k, v], ...]} a dict, {"~s"}/{"~f"} a set/frozenset,
# {"~b": [at, n]} bytes, {"~a": [typecode, at, n]} an array.array, {"~n": [dtype, shape,
# at, n]} a numpy array of numbers, {"~c": [name, [[field, value], ...]]} a record: a
# dataclass of the app's own, named in the reader's `records` (nothing else is made).

_FRAME_HEADER = struct.Struct("!II")
MAX_FRAME = 256 * 1024 * 1024  # bytes of one frame: the biggest graph's grouping is ~20 MB
_ARRAY_CODES = frozenset("bBhHiIlLqQfd")
_NUMPY_KINDS = frozenset("biufc")
_SCALARS = frozenset((str, int, float, bool, type(None)))


def record_name(cls) -> str:
    """How a frame names the record class `cls`: 'module:QualName'."""
    return f"{cls.__module__}:{cls.__qualname__}"


class RecordClasses:
    """The record classes a reader makes, by `record_name`: each imported (from the app's
    own modules, named here, never by the child) the first time a frame holds one."""

    def __init__(self, names):
        self.names = frozenset(names)
        self._classes: dict = {}

    def get(self, name):
        if name not in self.names:
            return None
        if name not in self._classes:
            import importlib

            module, _, qualname = name.partition(":")
            cls = importlib.import_module(module)
            for part in qualname.split("."):
                cls = getattr(cls, part)
            if not dataclasses.is_dataclass(cls):
                raise TypeError(f"{name} is not a dataclass")
            self._classes[name] = cls
        return self._classes[name]


def _tree(obj, blobs: list, at: list):
    kind = type(obj)
    if kind in _SCALARS:
        return obj
    if kind is list or kind is tuple:
        scalars = _SCALARS
        items = [x if type(x) in scalars else _tree(x, blobs, at) for x in obj]
        return items if kind is list else {"~t": items}
    if kind is dict:
        return {"~d": [[_tree(k, blobs, at), _tree(v, blobs, at)] for k, v in obj.items()]}
    if kind in (set, frozenset):
        return {"~s" if kind is set else "~f": [_tree(x, blobs, at) for x in obj]}
    if kind in (bytes, bytearray, memoryview):
        return {"~b": _blob(bytes(obj), blobs, at)}
    if kind is array.array:
        return {"~a": [obj.typecode, *_blob(obj.tobytes(), blobs, at)]}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        fields = [[f.name, _tree(getattr(obj, f.name), blobs, at)]
                  for f in dataclasses.fields(obj)]
        return {"~c": [record_name(kind), fields]}
    if kind.__module__ == "numpy":
        if getattr(obj, "ndim", None) == 0 and hasattr(obj, "item"):
            return _tree(obj.item(), blobs, at)  # a numpy scalar: the Python number
        if kind.__name__ == "ndarray" and obj.dtype.kind in _NUMPY_KINDS:
            data = obj.tobytes()  # C order
            return {"~n": [obj.dtype.str, list(obj.shape), *_blob(data, blobs, at)]}
    if isinstance(obj, (str, int, float)):  # a subclass (an enum of str, a bool): its value
        return _tree((str if isinstance(obj, str) else float if isinstance(obj, float)
                      else int)(obj), blobs, at)
    raise TypeError(f"{kind.__name__} is not plain data a frame can carry")


def _blob(data: bytes, blobs: list, at: list) -> list[int]:
    start = at[0]
    blobs.append(data)
    at[0] += len(data)
    return [start, len(data)]


def frame(message) -> bytes:
    """`message` (plain data: see above) as one frame's bytes; TypeError for anything
    else (a function, a live object), ValueError past MAX_FRAME."""
    blobs: list[bytes] = []
    text = json.dumps(_tree(message, blobs, [0]), separators=(",", ":")).encode()
    binary = b"".join(blobs)
    if len(text) + len(binary) > MAX_FRAME:
        raise ValueError(f"a message of {len(text) + len(binary):,} bytes, over the "
                         f"{MAX_FRAME:,} a frame may have")
    return _FRAME_HEADER.pack(len(text), len(binary)) + text + binary


def send_frame(fd: int, *message) -> None:
    """Write `message` (a list: its kind, then plain data) as one frame to `fd`."""
    data = memoryview(frame(list(message)))
    while data:
        data = data[os.write(fd, data):]


class _Decoder:
    """Makes the tree of one frame back into values; ProtocolError for anything else."""

    def __init__(self, binary: memoryview, records: dict):
        self.binary, self.records = binary, records

    def hook(self, obj: dict):
        if len(obj) != 1:
            raise ProtocolError("an object that is not a tagged value")
        (tag, value), = obj.items()
        if tag == "~t":
            return tuple(value)
        if tag == "~d":
            return {k: v for k, v in value}
        if tag in ("~s", "~f"):
            return set(value) if tag == "~s" else frozenset(value)
        if tag == "~b":
            return bytes(self._slice(*value))
        if tag == "~a":
            code, start, length = value
            if code not in _ARRAY_CODES:
                raise ProtocolError(f"an array of type code {code!r}")
            made = array.array(code)
            made.frombytes(self._slice(start, length))
            return made
        if tag == "~n":
            return self._numpy(*value)
        if tag == "~c":
            return self._record(*value)
        raise ProtocolError(f"an unknown tag {shorten_text(tag)}")

    def _slice(self, start, length) -> memoryview:
        if not (type(start) is int and type(length) is int and 0 <= start
                and 0 <= length and start + length <= len(self.binary)):
            raise ProtocolError("an array outside its frame")
        return self.binary[start:start + length]

    def _numpy(self, dtype, shape, start, length):
        import numpy as np

        kind = np.dtype(dtype)
        if kind.kind not in _NUMPY_KINDS or kind.hasobject:
            raise ProtocolError(f"a numpy array of {kind}")
        made = np.frombuffer(self._slice(start, length), dtype=kind).copy()
        return made.reshape([int(n) for n in shape])

    def _record(self, name, fields):
        cls = self.records.get(name)
        if cls is None:
            raise ProtocolError(f"a record of a class it may not send: {shorten_text(name)}")
        values = dict(fields)
        init = {f.name: values.pop(f.name) for f in dataclasses.fields(cls)
                if f.init and f.name in values}
        made = cls(**init)
        for key, value in values.items():
            object.__setattr__(made, key, value)
        return made


def shorten_text(text, limit: int = 80) -> str:
    text = repr(text)
    return text if len(text) <= limit else text[:limit] + "…"


def decode_frame(data: bytes | memoryview, records=None):
    """The message of one frame's bytes (header included); ProtocolError if it is not a
    frame of plain data, or names a record class not in `records` (a RecordClasses, or a
    dict name -> class)."""
    view = memoryview(data)
    if len(view) < _FRAME_HEADER.size:
        raise ProtocolError("a frame shorter than its header")
    text_n, binary_n = _FRAME_HEADER.unpack_from(view)
    if _FRAME_HEADER.size + text_n + binary_n != len(view):
        raise ProtocolError("a frame whose length is not its header's")
    text = view[_FRAME_HEADER.size:_FRAME_HEADER.size + text_n]
    decoder = _Decoder(view[_FRAME_HEADER.size + text_n:], records or {})
    try:
        message = json.loads(bytes(text), object_hook=decoder.hook)
    except ProtocolError:
        raise
    except (ValueError, TypeError, KeyError, RecursionError) as e:
        # not JSON, not UTF-8, a pair that is not a pair, a field a record does not have
        raise ProtocolError(f"a frame that is not plain data ({type(e).__name__})") from None
    if not (isinstance(message, list) and message and isinstance(message[0], str)):
        raise ProtocolError("a frame that is not a message")
    return message


class FrameReader:
    """Reads frames from `fd` without ever blocking (select before each read, so the fd
    may stay blocking for a writer sharing it): `read(wait_s, limit)` waits at most
    `wait_s` for data, reads at most READ_BUDGET bytes, and returns up to `limit` whole
    messages; EOFError once the writer has closed its end and every message was
    returned; ProtocolError for a frame over MAX_FRAME or not plain data."""

    def __init__(self, fd: int, records=None):
        self.fd = fd
        self.records = records or {}
        self._buffer = bytearray()
        self._eof = False

    def read(self, wait_s: float = 0.0, limit: int | None = None) -> list[list]:
        messages: list[list] = []
        self._take(messages, limit)
        if not messages and not self._eof:
            self._fill(wait_s)
            self._take(messages, limit)
        if not messages and self._eof:
            if self._buffer:
                raise ProtocolError("a frame cut short by the end of the stream")
            raise EOFError
        return messages

    @property
    def pending(self) -> bool:
        """A whole frame is in the buffer: `read` returns it without reading the fd."""
        size = _FRAME_HEADER.size
        if len(self._buffer) < size:
            return False
        text_n, binary_n = _FRAME_HEADER.unpack_from(self._buffer)
        return len(self._buffer) >= size + text_n + binary_n

    def _fill(self, wait_s: float) -> None:
        budget, wait = READ_BUDGET, max(0.0, wait_s)
        while budget > 0:
            ready, _, _ = select.select([self.fd], [], [], wait)
            if not ready:
                return
            wait = 0.0
            try:
                chunk = os.read(self.fd, min(READ_CHUNK * 16, budget))
            except BlockingIOError:
                return
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                self._eof = True
                return
            self._buffer += chunk
            budget -= len(chunk)

    def _take(self, messages: list, limit: int | None) -> None:
        size = _FRAME_HEADER.size
        while (limit is None or len(messages) < limit) and len(self._buffer) >= size:
            text_n, binary_n = _FRAME_HEADER.unpack_from(self._buffer)
            total = size + text_n + binary_n
            if total > MAX_FRAME + size:
                raise ProtocolError(f"a message of {total:,} bytes, over the "
                                    f"{MAX_FRAME:,} a frame may have")
            if len(self._buffer) < total:
                return
            data = bytes(self._buffer[:total])
            del self._buffer[:total]
            messages.append(decode_frame(data, self.records))
