"""Writing a recording: the Store's change feed, each change with the time it was seen.

:class:`RecordingWriter` subscribes to a Store (a live session's, before or after it is
filled: it starts with a checkpoint of what the store holds) and appends the changes to the
file as ``docs/recording-format.md`` says. Changes wait in memory until :meth:`tick` (the
recorder calls it every :data:`FLUSH_INTERVAL` seconds), or until a frame is full, so a
recorder killed at any moment loses at most the last second (R-REC-3). Only what the cache
holds is written, and the cache holds no Secret, no kubeconfig and no request header; the
literal values of environment variables it could hold are blanked on the way in
(``redact.py``).
"""

from __future__ import annotations

import os
import struct
import time
import uuid
import zlib
from collections.abc import Callable, Collection
from typing import Any

from olmtui.errors import UsageError
from olmtui.frozen import frozen
from olmtui.kinds import INSTALL_PLAN
from olmtui.objects import Obj
from olmtui.sources.recording.format import (
    ADDED,
    CHECKPOINT,
    CHECKPOINT_HEAD,
    DATA,
    DATA_HEAD,
    DELETED,
    FORMAT,
    HEADER,
    MAGIC,
    MODIFIED,
    PATCHED,
    STATUS,
    delta,
    encode,
    frame,
    is_recording,
    record,
)
from olmtui.sources.recording.redact import redacted
from olmtui.sources.recording.rotation import Rotation, make_room
from olmtui.sources.recording.writing import hold
from olmtui.store import ACCESS, CATALOG_CONTENT, KINDS, Change, Key, Store, Unreadable

#: Seconds between flushes: what a crash may lose.
FLUSH_INTERVAL = 0.5
#: A frame is written once it holds this many changes or bytes, whatever the time.
FRAME_CHANGES = 2048
FRAME_BYTES = 1 << 20
#: A checkpoint (the whole state) follows after this many changes, or after as many as
#: the state holds objects when that is more (so writing checkpoints costs at most about
#: one object written per change), and after :data:`CHECKPOINT_SECONDS` of changes whatever
#: their number: jumping to a moment decodes one checkpoint and at most that many changes.
CHECKPOINT_CHANGES = 16384
CHECKPOINT_SECONDS = 600.0
#: zlib's level: its fastest. A delta of a few fields compresses as well at 1 as at 6, and
#: a checkpoint (megabytes of objects) at a fifth of the CPU for a quarter more bytes.
_LEVEL = 1


@frozen
class RecorderStatus:
    """What the recorder had read at a moment (R-REC-2): ``syncing`` the kinds not listed
    yet (``None``: no stream started yet, any kind may be missing); ``connected`` false while
    it could not reach the cluster (what changed meanwhile shows only after it relists)."""

    syncing: tuple[str, ...] | None
    connected: bool

    def as_json(self, count: int, when: float) -> Obj:
        syncing = None if self.syncing is None else list(self.syncing)
        return {"count": count, "time": when, "syncing": syncing, "connected": self.connected}


def access_fields(unreadable: Unreadable) -> Obj:
    """An ACCESS change's object (``TimedChange``): the ``Unreadable``'s fields."""
    return {
        "resource": unreadable.resource,
        "reason": unreadable.reason,
        "since": unreadable.since,
        "recheck": unreadable.recheck,
        "namespaces": None if unreadable.namespaces is None else list(unreadable.namespaces),
    }


class RecordingWriter:
    """Appends a store's changes to ``path`` (rotated per ``rotation``)."""

    def __init__(
        self,
        path: str,
        *,
        context: str | None = None,
        namespaces: list[str] | None = None,
        rotation: Rotation | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = path
        self._context = context
        self._namespaces = namespaces or None
        self._rotation = rotation or Rotation()
        self._clock = clock
        self._session = uuid.uuid4().hex
        self._part = 0
        self._store: Store | None = None
        self._fd = -1
        self._size = 0
        self._opened_at = 0.0
        #: Changes written so far (all files of the session): the position of the next one.
        self.count = 0
        self._pending: list[bytes] = []
        self._pending_bytes = 0
        self._times: list[float] = []
        self._compressor: Any = None
        self._since_checkpoint = 0
        self._checkpoint_at = 0.0
        self._status = RecorderStatus(None, False)
        #: The blanked version of every object written blanked (``redact.py``), by key,
        #: with the object it was made from: the next change's previous version. An object
        #: not here was written as the store holds it.
        self._blanked: dict[Key, tuple[Obj, Obj]] = {}
        self.closed = False
        _refuse_other_files(path)

    @property
    def position(self) -> int:
        """Changes taken so far, written or waiting: the position of the state the store
        holds now, once they are written."""
        return self.count + len(self._pending)

    # -- the store's feed ----------------------------------------------------------------
    def attach(self, store: Store) -> None:
        """Start the file with what ``store`` holds and follow its changes."""
        self._store = store
        if os.path.exists(self.path):  # an earlier recording: kept as the newest older part
            make_room(self.path, self._rotation, self._clock(), shift=True)
        self._open()
        store.subscribe(self.on_changes)

    def on_changes(self, changes: list[Change]) -> None:
        """The store's listener: one record per change of an object or of access."""
        if self.closed:
            return
        now = self._clock()
        for change in changes:
            line = self._record(change)
            if line is None:
                continue
            self._pending.append(line)
            self._pending_bytes += len(line)
            self._times.append(now)
        if len(self._pending) >= FRAME_CHANGES or self._pending_bytes >= FRAME_BYTES:
            self.flush()
        if self._checkpoint_due(now):
            self.flush()
            self._checkpoint(now)

    def _record(self, change: Change) -> bytes | None:
        key = change.key
        if key.kind == CATALOG_CONTENT:  # catalog content fetched live: not an object
            return None
        if change.type == "DELETED":
            self._blanked.pop(key, None)
            return record(DELETED, key.kind, key.namespace, key.name, None)
        if key.kind == ACCESS:
            assert self._store is not None
            unreadable = self._store.unreadable.get(key.name)
            if unreadable is None:
                return None
            op = ADDED if change.type == "ADDED" else MODIFIED
            return record(op, ACCESS, "", key.name, access_fields(unreadable))
        new = change.new
        if new is None:
            return None
        old = change.old
        if change.type == "ADDED" or old is None:
            return record(ADDED, key.kind, key.namespace, key.name, self._blank(key, new))
        if old is new:  # only its record of wrong-typed fields moved: the object did not
            return None
        settled = _settled(old, new)
        before = self._blanked.get(key)
        if before is None and "spec" in settled and key.kind != INSTALL_PLAN:
            pass  # blanking reads a CSV's or Subscription's spec: unchanged, nothing in it
        else:
            old = old if before is None else before[1] if before[0] is old else redacted(old)
            new = self._blank(key, new)
        patch = delta(old, new, settled)
        if patch is None:
            return record(MODIFIED, key.kind, key.namespace, key.name, new)
        if not patch:
            return None
        return record(PATCHED, key.kind, key.namespace, key.name, patch)

    def _blank(self, key: Key, obj: Obj) -> Obj:
        """``obj`` as the file holds it (``redact.py``), kept by key when it differs: the
        next change of the object starts from it, and needs no second walk."""
        blanked = redacted(obj)
        if blanked is obj:
            self._blanked.pop(key, None)
        else:
            self._blanked[key] = (obj, blanked)
        return blanked

    def set_status(self, status: RecorderStatus) -> None:
        """Say what the recorder has read (R-REC-2), when that changed."""
        if status == self._status or self.closed:
            return
        self.flush()
        self._status = status
        self._write(STATUS, encode(status.as_json(self.count, self._clock())))

    # -- writing -------------------------------------------------------------------------
    def tick(self) -> None:
        """Write what waits, and rotate when the file is due (every ``FLUSH_INTERVAL``)."""
        if self.closed:
            return
        self.flush()
        if self._rotation.due(self._size, self._clock() - self._opened_at):
            self._close_file()
            make_room(self.path, self._rotation, self._clock(), shift=True)
            self._part += 1
            self._open()

    def flush(self) -> None:
        """Write the changes that wait as one data frame."""
        if not self._pending or self.closed:
            return
        count = len(self._pending)
        data = b"".join(self._pending)
        chunk = self._compressor.compress(data) + self._compressor.flush(zlib.Z_SYNC_FLUSH)
        times = zlib.compress(struct.pack(f"<{count}d", *self._times), 1)
        head = DATA_HEAD.pack(self.count, count, len(times))
        self._write(DATA, head + times + chunk)
        self.count += count
        self._since_checkpoint += count
        self._pending, self._pending_bytes, self._times = [], 0, []

    def close(self) -> None:
        """Write what waits and close the file; later changes are ignored."""
        if self.closed:
            return
        self.flush()
        self._close_file()
        if self._store is not None:
            self._store.unsubscribe(self.on_changes)
        self.closed = True

    def _open(self) -> None:
        now = self._clock()
        self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
        hold(self._fd)  # a reader follows the file while this writer has it (R-REC-3)
        self._size = 0
        self._opened_at = now
        header = {
            "format": FORMAT,
            "writer": "olmtui",
            "session": self._session,
            "part": self._part,
            "started": now,
            "context": self._context,
            "namespaces": self._namespaces,
        }
        self._write_raw(MAGIC + frame(HEADER, encode(header)))
        self._checkpoint(now)
        self._write(STATUS, encode(self._status.as_json(self.count, now)))

    def _checkpoint_due(self, now: float) -> bool:
        if not self._since_checkpoint:
            return False
        if now - self._checkpoint_at >= CHECKPOINT_SECONDS:
            return True
        if self._since_checkpoint < CHECKPOINT_CHANGES:
            return False
        held = len(self._store) if self._store is not None else 0
        return self._since_checkpoint >= held

    def _checkpoint(self, now: float) -> None:
        """The whole state, and a new segment (a new compression stream) after it."""
        compressor = zlib.compressobj(_LEVEL)
        parts = [CHECKPOINT_HEAD.pack(self.count, now)]
        store = self._store
        if store is not None:
            for kind in KINDS:
                for key, obj in store.items(kind):
                    line = encode([kind, key.namespace, key.name, self._blank(key, obj)])
                    parts.append(compressor.compress(line + b"\n"))
            for kind, unreadable in sorted(store.unreadable.items()):
                line = encode([ACCESS, "", kind, access_fields(unreadable)])
                parts.append(compressor.compress(line + b"\n"))
        parts.append(compressor.flush())
        self._write(CHECKPOINT, b"".join(parts))
        self._compressor = zlib.compressobj(_LEVEL)
        self._since_checkpoint = 0
        self._checkpoint_at = now

    def _write(self, kind: bytes, payload: bytes) -> None:
        self._write_raw(frame(kind, payload))

    def _write_raw(self, data: bytes) -> None:
        """One frame in as few writes as the system allows: a kill leaves it whole or cut."""
        view = memoryview(data)
        while view:
            written = os.write(self._fd, view)
            view = view[written:]
        self._size += len(data)

    def _close_file(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


#: The top-level fields a change of ``metadata.generation`` stands for.
_STATUS_AND_METADATA = ("metadata", "status")


def _settled(old: Obj, new: Obj) -> Collection[str]:
    """The top-level fields of a modified object that cannot have changed: the API server
    moves ``metadata.generation`` on every change outside ``metadata`` and ``status`` (on
    every change outside ``metadata`` for a kind without a status subresource), so the
    same generation settles everything else without comparing a 50 KB ``spec``. Objects
    without a generation (or that changed it) are compared in full."""
    old_generation = old["metadata"].get("generation")
    if type(old_generation) is not int or new["metadata"].get("generation") != old_generation:
        return ()
    return [k for k in new if k not in _STATUS_AND_METADATA]


def _refuse_other_files(path: str) -> None:
    """A file that is not a recording is never overwritten; a directory is no file."""
    if os.path.isdir(path):
        raise UsageError(f"{path} is a directory: give a file to record to")
    if os.path.exists(path) and not is_recording(path):
        raise UsageError(f"{path} exists and is not an olmtui recording: not overwriting it")
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise UsageError(f"cannot record to {path}: {directory} is not a directory")
