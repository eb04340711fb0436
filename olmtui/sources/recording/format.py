"""The bytes of a recording file (``docs/recording-format.md`` is the specification).

A file is :data:`MAGIC` and then frames. Every frame is self-delimiting and checked: a type
byte, the payload's length and its CRC-32, then the payload, so a reader walks the file
without decoding it and stops at the first frame that is cut or damaged (a recorder killed
mid-write leaves at most a partial last frame). The first frame is the header (``H``: the
format version, the recording session, the context); a checkpoint (``C``) holds the whole
state and starts a segment, whose changes come in data frames (``D``): their times apart
(so opening a file reads times, not objects) and their records compressed with one zlib
stream per segment, flushed (``Z_SYNC_FLUSH``) at the end of every frame, so repeated
objects compress against each other yet every frame ends decodable. Status frames (``S``)
say what the recorder had not listed yet, or that it was disconnected (R-REC-2).

A modification is written as a delta against the previous version of the object
(:func:`delta`, :func:`patched`): a CSV status update repeats 20-50 KB of object and
changes a few fields.
"""

from __future__ import annotations

import json
import os
import stat
import struct
import zlib
from collections.abc import Collection, Iterator
from typing import Any, BinaryIO

import msgspec

from olmtui.frozen import frozen
from olmtui.objects import Obj
from olmtui.sources.fast_json import loads

#: The first bytes of every recording: not text, not gzip, not a tar header.
MAGIC = b"\x93OLMREC\n"
#: The version written; a reader reads every version up to its own and refuses newer ones.
FORMAT = 1
HEADER, CHECKPOINT, DATA, STATUS = b"H", b"C", b"D", b"S"
#: type, payload length, CRC-32 of the payload.
FRAME_HEAD = struct.Struct(">cII")
#: A data frame's payload starts: changes before it, changes in it, length of the times.
DATA_HEAD = struct.Struct(">QII")
#: A checkpoint's payload starts: changes before it, its time.
CHECKPOINT_HEAD = struct.Struct(">Qd")
#: A frame longer than this is damage, not data (a recorder never writes one).
MAX_FRAME = 1 << 30

#: Record operations: an object added, modified (in full or as a delta), deleted.
ADDED, MODIFIED, PATCHED, DELETED = "A", "M", "P", "D"
_ENCODER = msgspec.json.Encoder()


def is_recording(path: str) -> bool:
    """Whether ``path`` is a recording file: its first bytes are :data:`MAGIC`. Only a
    regular file is opened: a FIFO or a device would block the read (and is no recording)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as file:
            return file.read(len(MAGIC)) == MAGIC
    except OSError:  # a directory, a missing or unreadable file: not a recording
        return False


def encode(value: Any) -> bytes:
    """One JSON text, without a newline inside (strings escape theirs)."""
    try:
        return _ENCODER.encode(value)
    except (TypeError, ValueError, OverflowError):  # lone surrogates, huge ints, NaN
        return json.dumps(value, separators=(",", ":")).encode()


def frame(kind: bytes, payload: bytes) -> bytes:
    """One frame, ready to append."""
    return FRAME_HEAD.pack(kind, len(payload), zlib.crc32(payload)) + payload


@frozen
class Frame:
    """A frame as read: its type, where its payload starts, and the payload."""

    kind: bytes
    offset: int
    payload: bytes


class Damaged(Exception):
    """The file stops being a recording at ``offset``: a cut or damaged frame."""

    def __init__(self, offset: int, why: str) -> None:
        super().__init__(why)
        self.offset = offset
        self.why = why


#: Why a file ends in the middle of a frame: cut by a crash, or being written.
CUT_TAIL = "the last frame is cut"


def frames(file: BinaryIO) -> Iterator[Frame]:
    """The frames after :data:`MAGIC`, checked; :class:`Damaged` at the first bad one (the
    frames before it were yielded). ``file`` is positioned after the magic."""
    offset = file.tell()
    while True:
        head = file.read(FRAME_HEAD.size)
        if not head:
            return
        if len(head) < FRAME_HEAD.size:
            raise Damaged(offset, CUT_TAIL)
        kind, length, crc = FRAME_HEAD.unpack(head)
        if length > MAX_FRAME:
            raise Damaged(offset, "a frame's length is damaged")
        payload = file.read(length)
        if len(payload) < length:
            raise Damaged(offset, CUT_TAIL)
        if zlib.crc32(payload) != crc:
            raise Damaged(offset, "a frame fails its checksum")
        yield Frame(kind, offset + FRAME_HEAD.size, payload)
        offset += FRAME_HEAD.size + length


def record(op: str, kind: str, namespace: str, name: str, body: Any) -> bytes:
    """One change as a data frame holds it: a JSON array and a newline."""
    return encode([op, kind, namespace, name, body]) + b"\n"


def records(text: bytes) -> Iterator[list[Any]]:
    """The records of a decompressed data frame."""
    for line in text.split(b"\n"):
        if line:
            yield loads(line)


# -- deltas --------------------------------------------------------------------------------
# A delta is a dict of the keys that changed; each value is ``[]`` (the key is gone),
# ``[v]`` (it is now ``v``), ``[n, tail]`` (a list: its first ``n`` items kept, ``tail``
# after them), ``[k, n, tail]`` (a list: ``n`` items kept from index ``k``, ``tail`` after
# them) or a dict (a delta of the dict under that key). Keys stay in their order: a
# change that moves them is written in full.


def delta(old: Obj, new: Obj, settled: Collection[str] = ()) -> Obj | None:
    """What turns ``old`` into ``new`` (:func:`patched`), or ``None`` when the keys' order
    moved (then the value is written whole). The top-level keys in ``settled`` are known
    equal in both, when present in both, and are not compared."""
    out: Obj = {}
    moved = False  # a key added or removed: the order must still come out right
    for key in old:
        if key not in new:
            out[key] = []
            moved = True
    for key, value in new.items():
        if key not in old:
            out[key] = [value]
            moved = True
            continue
        if key in settled:
            continue
        before = old[key]
        if before is value or (type(before) is type(value) and before == value):
            continue
        if type(before) is dict and type(value) is dict:
            inner = delta(before, value)
            out[key] = [value] if inner is None else inner
        elif type(before) is list and type(value) is list:
            out[key] = _list_delta(before, value)
        else:
            out[key] = [value]
    kept = [k for k in old if k in new] + [k for k in new if k not in old] if moved else list(old)
    return out if kept == list(new) else None


def _list_delta(before: list[Any], after: list[Any]) -> list[Any]:
    """``[n, tail]`` when ``after`` keeps ``before``'s first ``n`` items, ``[k, n, tail]``
    when it keeps ``n`` items from ``k`` on (a capped history: the oldest fall off the
    front), else ``[after]``."""
    same = _common_prefix(before, after, 0)
    if same or not before or not after:
        return [same, after[same:]] if same else [after]
    first = after[0]
    for skip in range(1, len(before)):
        if before[skip] == first and type(before[skip]) is type(first):
            kept = _common_prefix(before, after, skip)
            if kept == len(before) - skip:
                return [skip, kept, after[kept:]]
    return [after]


def _common_prefix(before: list[Any], after: list[Any], skip: int) -> int:
    """How many items of ``after`` equal ``before``'s from ``skip`` on."""
    same = 0
    for a, b in zip(before[skip:], after, strict=False):
        if a != b or type(a) is not type(b):
            break
        same += 1
    return same


def patched(old: Obj, change: Obj) -> Obj:
    """``old`` with a :func:`delta` applied: a new dict (``old`` is not touched; what did
    not change is shared)."""
    out: Obj = {}
    for key, value in old.items():
        op = change.get(key)
        if op is None:
            out[key] = value
        elif type(op) is dict:
            out[key] = patched(value, op)
        elif len(op) == 1:
            out[key] = op[0]
        elif len(op) == 2:
            out[key] = [*value[: op[0]], *op[1]]
        elif len(op) == 3:
            out[key] = [*value[op[0] : op[0] + op[1]], *op[2]]
        # ``[]``: the key is gone
    for key, op in change.items():
        if key not in old:
            out[key] = op[0]
    return out
