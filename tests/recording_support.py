"""Recordings made in a test: a Store with the recording's writer attached, a clock the
test moves, and the same changes kept in memory as the reference ``ChangeListTimeline``
(what every reader of the file must agree with)."""

from __future__ import annotations

from pathlib import Path

from olmtui.sources.recording.redact import redacted
from olmtui.sources.recording.rotation import Rotation
from olmtui.sources.recording.timeline import ChangeListTimeline, TimedChange
from olmtui.sources.recording.writer import RecorderStatus, RecordingWriter, access_fields
from olmtui.store import ACCESS, CATALOG_CONTENT, Change, Store

START = 1_790_000_000.0


class Recorded:
    """``store`` recorded to ``path``; ``now`` is the writer's clock; ``reference`` holds
    every change written, as a ``TimedChange``."""

    def __init__(
        self,
        path: Path,
        rotation: Rotation | None = None,
        *,
        connected: bool = True,
        **writer: object,
    ) -> None:
        self.path = path
        self.now = START
        self.store = Store()
        self.changes: list[TimedChange] = []
        self.writer = RecordingWriter(
            str(path),
            rotation=rotation,
            clock=lambda: self.now,
            **writer,  # type: ignore[arg-type]
        )
        self.writer.attach(self.store)
        self.store.subscribe(self._keep)
        if connected:  # as a recorder whose every stream has listed (R-REC-2)
            self.writer.set_status(RecorderStatus((), True))

    def _keep(self, changes: list[Change]) -> None:
        for change in changes:
            if change.key.kind == CATALOG_CONTENT:
                continue
            if change.type == "MODIFIED" and change.old is change.new:
                continue
            obj = change.new
            if change.key.kind == ACCESS and change.type != "DELETED":
                obj = access_fields(self.store.unreadable[change.key.name])
            elif obj is not None:
                obj = redacted(obj)
            self.changes.append(TimedChange(self.now, change.type, change.key, obj))

    @property
    def reference(self) -> ChangeListTimeline:
        return ChangeListTimeline(self.changes, START)

    def close(self) -> None:
        self.writer.close()
