"""Reading a recording back: :func:`open_recording` gives the :class:`Timeline` of a file (or
of its rotated set) without decoding its objects.

Opening walks the frames (``format.py``) and keeps an index: where each checkpoint and each
data frame is, the time of every change, and what the recorder had read when (status
frames). ``state(count)`` decodes the last checkpoint at or before ``count`` and the changes
after it, and keeps where it stopped, so stepping forward decodes only what is new. A file cut
short (a recorder killed mid-write) ends at its last complete change and says so in
:attr:`RecordingTimeline.incomplete_because` (R-REC-3).
"""

from __future__ import annotations

import bisect
import contextlib
import os
import re
import struct
import sys
import zlib
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from olmtui.errors import UsageError
from olmtui.frozen import frozen
from olmtui.objects import Obj
from olmtui.sources.fast_json import loads
from olmtui.sources.recording.format import (
    ADDED,
    CHECKPOINT,
    CHECKPOINT_HEAD,
    CUT_TAIL,
    DATA,
    DATA_HEAD,
    DELETED,
    FORMAT,
    HEADER,
    MAGIC,
    PATCHED,
    STATUS,
    Damaged,
    Frame,
    frames,
    patched,
    records,
)
from olmtui.sources.recording.moments import utc_text
from olmtui.sources.recording.rotation import older_parts, part_path
from olmtui.sources.recording.timeline import TimedChange
from olmtui.sources.recording.writer import RecorderStatus
from olmtui.sources.recording.writing import being_written
from olmtui.store import ChangeType, Key

_TYPES: dict[str, ChangeType] = {ADDED: "ADDED", DELETED: "DELETED"}


@frozen
class _DataFrame:
    path: str
    offset: int  # of the compressed records
    length: int
    count: int  # changes before it
    changes: int  # changes in it


@dataclass(slots=True)
class _Segment:
    """A checkpoint and the data frames after it (one compression stream)."""

    path: str
    offset: int  # of the checkpoint's compressed state
    length: int
    count: int
    frames: list[_DataFrame] = field(default_factory=list)


@dataclass(slots=True)
class _Place:
    """Where the index of a file stopped: the byte of its next frame, the changes before
    the file (``base``), the writer's count at its first checkpoint (``first``) and the
    changes of the file so far (``local``); ``cut``: it ended in damage."""

    path: str
    offset: int
    base: int
    inode: int | None
    first: int = -1
    local: int = 0
    cut: bool = False


@dataclass(slots=True)
class _Cursor:
    """A state being folded forward through one segment."""

    segment: int
    state: dict[Key, Obj]
    count: int
    frame: int = 0
    decompressor: Any = None
    pending: list[list[Any]] = field(default_factory=list)


class RecordingTimeline:
    """The :class:`~olmtui.sources.recording.timeline.Timeline` of a recording file."""

    def __init__(self, path: str) -> None:
        self.path = path
        #: Why the recording is not whole (a part cut short), one line each; empty when whole.
        self.incomplete_because: list[str] = []
        #: The files read, oldest first.
        self.paths: list[str] = []
        self._times = array("d")
        self._segments: list[_Segment] = []
        self._starts: list[int] = []
        self._statuses: list[tuple[float, int, RecorderStatus]] = []
        self._header: dict[str, Any] = {}
        self._started = 0.0
        self._cursor: _Cursor | None = None
        #: Whether a recorder held the file for writing when it was last read.
        self.writing = being_written(path)
        self._place = _Place(path, 0, 0, None)
        self._read_set(path)

    # -- the Timeline protocol -----------------------------------------------------------
    @property
    def started(self) -> float:
        return self._started

    @property
    def ended(self) -> float:
        return self._times[-1] if self._times else self._started

    @property
    def context(self) -> str | None:
        context = self._header.get("context")
        return context if isinstance(context, str) else None

    @property
    def namespaces(self) -> list[str] | None:
        """The namespaces the recorder read namespaced kinds in (``--namespace``), or
        ``None``: cluster-wide."""
        namespaces = self._header.get("namespaces")
        return [str(n) for n in namespaces] if isinstance(namespaces, list) else None

    def __len__(self) -> int:
        return len(self._times)

    def time_of(self, count: int) -> float:
        return self._times[count - 1] if count > 0 else self._started

    def count_at(self, when: float) -> int:
        return bisect.bisect_right(self._times, when)

    def state(self, count: int) -> dict[Key, Obj]:
        self._check(count)
        if not self._segments:
            return {}
        cursor = self._cursor
        segment = self._segment_of(count)
        with self._decoding():
            if cursor is None or cursor.segment != segment or cursor.count > count:
                cursor = self._start(segment)
            for _ in self._advance(cursor, count):
                pass
        self._cursor = cursor
        return dict(cursor.state)

    def changes(self, start: int, stop: int) -> Iterator[TimedChange]:
        self._check(start)
        self._check(stop)
        if not self._segments or start >= stop:
            return
        with self._decoding():
            cursor = self._start(self._segment_of(start))
            for _ in self._advance(cursor, start):
                pass
            while cursor.count < stop:
                before = cursor.count
                yield from self._advance(cursor, stop)
                if cursor.count == before:  # the segment ended: the next one goes on from here
                    cursor = self._start(cursor.segment + 1)

    def status_at(self, when: float) -> RecorderStatus:
        """What the recorder had read at ``when`` (R-REC-2)."""
        index = bisect.bisect_right(self._statuses, when, key=lambda s: s[0]) - 1
        return self._statuses[index][2] if index >= 0 else RecorderStatus(None, False)

    # -- folding -------------------------------------------------------------------------
    @contextlib.contextmanager
    def _decoding(self) -> Iterator[None]:
        """A frame whose checksum holds but whose content does not decode (a file made by
        hand, or damaged and checksummed again) is bad input: one line, never a crash."""
        try:
            yield
        except (zlib.error, ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            raise UsageError(
                f"{self.path}: the recording is damaged inside a frame "
                f"({type(exc).__name__}); it cannot be read past that point"
            ) from None

    def _check(self, count: int) -> None:
        if not 0 <= count <= len(self._times):
            raise IndexError(f"position {count} is outside 0..{len(self._times)}")

    def _segment_of(self, count: int) -> int:
        return max(bisect.bisect_right(self._starts, count) - 1, 0)

    def _start(self, index: int) -> _Cursor:
        segment = self._segments[index]
        state: dict[Key, Obj] = {}
        text = zlib.decompress(_read(segment.path, segment.offset, segment.length))
        for kind, namespace, name, obj in records(text):
            state[Key(kind, namespace, name)] = obj
        return _Cursor(index, state, segment.count, decompressor=zlib.decompressobj())

    def _advance(self, cursor: _Cursor, stop: int) -> Iterator[TimedChange]:
        """Fold the cursor's changes up to position ``stop`` (or the end of its segment),
        yielding each."""
        segment = self._segments[cursor.segment]
        while cursor.count < stop:
            if not cursor.pending:
                if cursor.frame >= len(segment.frames):
                    return
                data = segment.frames[cursor.frame]
                cursor.frame += 1
                text = cursor.decompressor.decompress(_read(data.path, data.offset, data.length))
                cursor.pending = list(records(text))
                if len(cursor.pending) != data.changes:
                    raise ValueError("a frame holds another number of changes than it says")
                cursor.pending.reverse()
                continue
            op, kind, namespace, name, body = cursor.pending.pop()
            key = Key(kind, namespace, name)
            if op == DELETED:
                cursor.state.pop(key, None)
                obj = None
            elif op == PATCHED:
                obj = patched(cursor.state[key], body)
                cursor.state[key] = obj
            else:
                obj = body
                cursor.state[key] = obj
            time = self._times[cursor.count]
            cursor.count += 1
            yield TimedChange(time, _TYPES.get(op, "MODIFIED"), key, obj)

    # -- the index -----------------------------------------------------------------------
    def _read_set(self, path: str) -> None:
        """The file and the older parts of the same recording session, oldest first."""
        base, number = _base_of(path)
        newest = _Part(path)
        parts = [newest]
        for older in older_parts(base)[number:]:
            try:
                part = _Part(older)
            except UsageError:
                break
            if part.session != newest.session:
                break
            parts.append(part)
        parts.reverse()
        self._header = newest.header
        self._started = float(parts[0].header.get("started") or 0.0)
        for part in parts:
            self._index(part)
            self.paths.append(part.path)

    def _index(self, part: _Part) -> None:
        place = _Place(part.path, part.first_frame, len(self._times), _inode(part.path))
        self._place = place
        self._index_from(place)

    def _index_from(self, place: _Place) -> None:
        """Index the frames of ``place``'s file from where it stopped. A tail cut while a
        recorder still writes the file is the frame it is writing, no damage."""
        try:
            with open(place.path, "rb") as file:
                file.seek(place.offset)
                for found in frames(file):
                    self._index_frame(found, place)
                    place.offset = found.offset + len(found.payload)
        except struct.error:  # a frame too short for its own head
            self._cut(place, "a frame is damaged")
        except Damaged as damage:
            if not (damage.why == CUT_TAIL and self.writing and place.path == self.path):
                self._cut(place, f"{damage.why} at byte {damage.offset}")
        except OSError as exc:
            raise UsageError(f"cannot read {place.path}: {exc.strerror or exc}") from None

    def _index_frame(self, found: Frame, place: _Place) -> None:
        if found.kind == CHECKPOINT:
            count, _ = CHECKPOINT_HEAD.unpack_from(found.payload)
            place.first = count if place.first < 0 else place.first
            if count - place.first != place.local:
                raise Damaged(found.offset, "a checkpoint is out of place")
            offset = found.offset + CHECKPOINT_HEAD.size
            length = len(found.payload) - CHECKPOINT_HEAD.size
            at = place.base + place.local
            self._segments.append(_Segment(place.path, offset, length, at))
            self._starts.append(at)
        elif found.kind == DATA and place.first >= 0:
            before = DATA_HEAD.unpack_from(found.payload)[0]
            if before - place.first != place.local:
                raise Damaged(found.offset, "a frame is out of place")
            place.local += self._index_data(found.payload, found.offset, place.path)
        elif found.kind == STATUS:
            self._index_status(found.payload, place.base + place.local)

    def _cut(self, place: _Place, why: str) -> None:
        place.cut = True
        self.incomplete_because.append(
            f"{place.path}: {why}; the recording ends at its last complete change "
            f"({utc_text(self.ended)})"
        )

    # -- a recording still being written --------------------------------------------------
    def read_on(self) -> bool:
        """Index what the recorder appended since (the file ``path``: a recorder rotating
        it leaves this reader at what it had read); whether a recorder still writes it."""
        place = self._place
        writing = being_written(self.path)
        if place.cut or _inode(self.path) != place.inode:
            self.writing = False
            return False
        self.writing = writing
        self._index_from(place)
        return writing

    def _index_data(self, payload: bytes, offset: int, path: str) -> int:
        """Index one data frame (its times read, its records left compressed)."""
        changes: int
        times_length: int
        _, changes, times_length = DATA_HEAD.unpack_from(payload)
        start = DATA_HEAD.size
        try:
            times = zlib.decompress(payload[start : start + times_length])
        except zlib.error:
            raise Damaged(offset, "a frame's times are damaged") from None
        if len(times) != 8 * changes:
            raise Damaged(offset, "a frame's times are damaged")
        stamps = array("d", times)
        if sys.byteorder != "little":
            stamps.byteswap()
        chunk = offset + start + times_length
        count = len(self._times)
        self._segments[-1].frames.append(
            _DataFrame(path, chunk, len(payload) - start - times_length, count, changes)
        )
        self._times.extend(stamps)
        return changes

    def _index_status(self, payload: bytes, count: int) -> None:
        try:
            fields = loads(payload)
            syncing = fields.get("syncing")
            status = RecorderStatus(
                None if syncing is None else tuple(str(s) for s in syncing),
                bool(fields.get("connected")),
            )
            self._statuses.append((float(fields["time"]), count, status))
        except (ValueError, KeyError, TypeError, AttributeError):
            return  # a status it cannot read says nothing; the changes are still true


class _Part:
    """One file of a recording: its header, read and checked."""

    def __init__(self, path: str) -> None:
        self.path = path
        try:
            if os.path.exists(path) and not os.path.isdir(path) and not os.path.isfile(path):
                raise UsageError(f"{path} is not a regular file, not an olmtui recording")
            with open(path, "rb") as file:
                if file.read(len(MAGIC)) != MAGIC:
                    raise UsageError(f"{path} is not an olmtui recording")
                try:
                    first = next(frames(file), None)
                except Damaged:
                    first = None
                if first is None or first.kind != HEADER:
                    raise UsageError(f"{path} is an olmtui recording cut before its header")
                self.first_frame = first.offset + len(first.payload)
        except IsADirectoryError:
            raise UsageError(f"{path} is a directory, not an olmtui recording") from None
        except OSError as exc:
            raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
        try:
            header = loads(first.payload)
        except ValueError:
            header = None
        if not isinstance(header, dict) or not isinstance(header.get("format"), int):
            raise UsageError(f"{path}: the recording's header is damaged")
        if header["format"] > FORMAT:
            raise UsageError(
                f"{path} is a recording of format {header['format']}; this olmtui reads "
                f"formats up to {FORMAT}: read it with a newer olmtui"
            )
        self.header: dict[str, Any] = header
        self.session = header.get("session")


def _inode(path: str) -> int | None:
    try:
        return os.stat(path).st_ino
    except OSError:
        return None


def _read(path: str, offset: int, length: int) -> bytes:
    with open(path, "rb") as file:
        file.seek(offset)
        return file.read(length)


def _base_of(path: str) -> tuple[str, int]:
    """``FILE`` and 0 for ``FILE``; ``FILE`` and N for a rotated part ``FILE.N``."""
    match = re.fullmatch(r"(.+)\.(\d+)", path)
    if match is not None:
        base, number = match[1], int(match[2])
        if os.path.exists(base) or os.path.exists(part_path(base, number + 1)) or number > 1:
            return base, number
    return path, 0


def open_recording(path: str) -> RecordingTimeline:
    """The recording at ``path`` (with its older rotated parts); ``UsageError`` (one line)
    when it is not one or cannot be read. A cut tail is no error: see
    :attr:`RecordingTimeline.incomplete_because`."""
    return RecordingTimeline(path)
