"""The batch grader's channel: frames, and plain values encoded as JSON (no pickle).

A frame is 4 bytes of length (big-endian) and that many bytes of UTF-8 JSON.  The grading
process reads what the worker sends with :func:`decode`, which accepts exactly the types that
:func:`mltutor.check._compare._plain` produces (``None``, ``bool``, ``int``, ``float``, ``complex``, ``str``,
``bytes``, ``list``, ``tuple``, ``dict``, NumPy scalars and arrays of numbers or text) and raises
:class:`WireError` for anything else, so a worker cannot make the grading process build an object
of its choosing.  This module imports only the standard library and NumPy: the worker loads it
by its path, before any submission code runs.
"""

from __future__ import annotations

import base64
import json
import math
import os
import struct
from typing import Any

import numpy as np

#: The largest frame either side accepts, in bytes.
MAX_FRAME = 64 * 2**20
_MAX_DEPTH = 64
_DTYPE_KINDS = "biufcSU"  # numbers, bytes and text; not objects, records or dates


class WireError(ValueError):
    """A frame or value that does not follow the protocol."""


def encode(value: Any, _depth: int = 0) -> Any:
    """A JSON-ready form of a plain value (the output of ``mltutor.check._compare._plain``)."""
    if _depth > _MAX_DEPTH:
        raise WireError("value nested too deeply")
    t = type(value)
    if value is None or t is bool or t is int or t is str:
        return value
    if t is float:
        return {"float": repr(value)}
    if t is complex:
        return {"complex": [repr(value.real), repr(value.imag)]}
    if t is bytes:
        return {"bytes": base64.b64encode(value).decode("ascii")}
    if t is list:
        return {"list": [encode(v, _depth + 1) for v in value]}
    if t is tuple:
        return {"tuple": [encode(v, _depth + 1) for v in value]}
    if t is dict:
        return {"dict": [[encode(k, _depth + 1), encode(v, _depth + 1)] for k, v in value.items()]}
    if t is np.ndarray:
        if value.dtype.kind not in _DTYPE_KINDS:
            raise WireError(f"arrays of dtype {value.dtype} are not sent")
        data = np.ascontiguousarray(value).tobytes()
        return {
            "ndarray": value.dtype.str,
            "shape": list(value.shape),
            "data": base64.b64encode(data).decode("ascii"),
        }
    if isinstance(value, np.generic) and type(value) is np.dtype(type(value)).type:
        if value.dtype.kind not in _DTYPE_KINDS:
            raise WireError(f"scalars of dtype {value.dtype} are not sent")
        return {
            "npscalar": value.dtype.str,
            "data": base64.b64encode(value.tobytes()).decode("ascii"),
        }
    raise WireError(f"{t.__name__} values are not sent")


def _dtype(text: Any) -> np.dtype:
    if not isinstance(text, str) or len(text) > 16:
        raise WireError("bad dtype")
    try:
        dtype = np.dtype(text)
    except TypeError as exc:
        raise WireError(f"bad dtype {text!r}") from exc
    if dtype.kind not in _DTYPE_KINDS or dtype.fields is not None or dtype.subdtype is not None:
        raise WireError(f"dtype {text!r} is not accepted")
    return dtype


def _bytes(text: Any) -> bytes:
    if not isinstance(text, str):
        raise WireError("bad data")
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError) as exc:
        raise WireError("bad base64 data") from exc


def _float(text: Any) -> float:
    if not isinstance(text, str) or len(text) > 40:
        raise WireError("bad float")
    try:
        return float(text)
    except ValueError as exc:
        raise WireError("bad float") from exc


def decode(obj: Any, _depth: int = 0) -> Any:
    """The value :func:`encode` made; :class:`WireError` for anything that is not such a value."""
    if _depth > _MAX_DEPTH:
        raise WireError("value nested too deeply")
    t = type(obj)
    if obj is None or t is bool or t is int or t is str:
        return obj
    if t is not dict or not obj:
        raise WireError(f"unexpected {t.__name__} in a value")
    keys = set(obj)
    if keys == {"float"}:
        return _float(obj["float"])
    if keys == {"complex"}:
        parts = obj["complex"]
        if type(parts) is not list or len(parts) != 2:
            raise WireError("bad complex")
        return complex(_float(parts[0]), _float(parts[1]))
    if keys == {"bytes"}:
        return _bytes(obj["bytes"])
    if keys == {"list"} or keys == {"tuple"}:
        items = obj.get("list", obj.get("tuple"))
        if type(items) is not list:
            raise WireError("bad sequence")
        out = [decode(v, _depth + 1) for v in items]
        return out if "list" in keys else tuple(out)
    if keys == {"dict"}:
        pairs = obj["dict"]
        if type(pairs) is not list or any(type(p) is not list or len(p) != 2 for p in pairs):
            raise WireError("bad dict")
        out = {}
        for k, v in pairs:
            key = decode(k, _depth + 1)
            try:
                hash(key)
            except TypeError as exc:
                raise WireError("unhashable dict key") from exc
            out[key] = decode(v, _depth + 1)
        return out
    if keys == {"ndarray", "shape", "data"}:
        dtype = _dtype(obj["ndarray"])
        shape = obj["shape"]
        if (
            type(shape) is not list
            or len(shape) > 32
            or any(type(n) is not int or n < 0 for n in shape)
        ):
            raise WireError("bad shape")
        data = _bytes(obj["data"])
        if len(data) != dtype.itemsize * math.prod(shape):
            raise WireError("array data and shape disagree")
        return np.frombuffer(data, dtype=dtype).reshape(shape).copy()
    if keys == {"npscalar", "data"}:
        dtype = _dtype(obj["npscalar"])
        data = _bytes(obj["data"])
        if len(data) != dtype.itemsize:
            raise WireError("scalar data and dtype disagree")
        return np.frombuffer(data, dtype=dtype)[0].copy()
    raise WireError("unknown value tag")


def pack(message: dict) -> bytes:
    """One frame: the message as JSON, after its length."""
    data = json.dumps(message, allow_nan=False, separators=(",", ":")).encode("utf-8")
    if len(data) > MAX_FRAME:
        raise WireError("frame too large")
    return struct.pack(">I", len(data)) + data


def write_frame(fd: int, message: dict) -> None:
    """Write a whole frame to ``fd`` (a pipe)."""
    data = memoryview(pack(message))
    while data:
        n = os.write(fd, data)
        data = data[n:]


class FrameReader:
    """Frames from a pipe, read as they arrive (the caller waits with ``select``)."""

    def __init__(self, fd: int):
        self.fd = fd
        self.buffer = bytearray()
        self.closed = False

    def feed(self) -> None:
        """Read what the pipe has now; at end of file set ``closed``."""
        chunk = os.read(self.fd, 1 << 16)
        if not chunk:
            self.closed = True
        self.buffer += chunk
        if len(self.buffer) > MAX_FRAME + 4:
            raise WireError("frame too large")

    def next(self) -> dict | None:
        """The next whole frame as a dict, or None if none is complete yet."""
        if len(self.buffer) < 4:
            return None
        (size,) = struct.unpack(">I", self.buffer[:4])
        if size > MAX_FRAME:
            raise WireError("frame too large")
        if len(self.buffer) < 4 + size:
            return None
        data = bytes(self.buffer[4 : 4 + size])
        del self.buffer[: 4 + size]
        try:
            message = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise WireError("a frame that is not JSON") from exc
        if type(message) is not dict:
            raise WireError("a frame that is not a JSON object")
        return message
