"""The two inputs of ``olmtui diff`` (and of the MCP server's ``diff`` tool), each read
into a Session through the composition root exactly as ``check`` reads it: a snapshot (file,
directory, must-gather, archive), a recording at a moment (``FILE@TIME``; a recording alone
stands for its end) or the live cluster read once.

Recordings are read through the two callables the caller passes in (``is_timeline``,
``open_timeline``; ``recording_readers`` gives the real ones), so the reading knows only the
:class:`Timeline` contract, never the file format. ``@`` is split from the right, and only
when what is left of it is a recording: a snapshot path holding ``@`` is still a path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from olmtui.errors import UsageError
from olmtui.sources.recording.moments import parse_moment, utc_text

if TYPE_CHECKING:  # the parser is built without the pipeline (``test_cli_imports``)
    from olmtui.pipeline.session import Session
    from olmtui.sources.recording.timeline import Timeline

IsTimeline = Callable[[str], bool]
OpenTimeline = Callable[[str], "Timeline"]


@dataclass(frozen=True)
class Side:
    """One input read: its session, the words naming it (what was typed) and, for a
    recording, the moment it stands for (``at``, UTC text) and the file (``path``)."""

    session: Session
    label: str
    at: str | None = None
    path: str | None = None


def read_side(
    text: str,
    catalogs: Sequence[str],
    global_namespace: str | None,
    is_timeline: IsTimeline,
    open_timeline: OpenTimeline,
) -> Side:
    """The input ``text`` names (``UsageError``, one line, when it cannot be used)."""
    from olmtui.pipeline.build import recording_session, snapshot_session

    path, at, moment = text, None, None
    left, sep, right = text.rpartition("@")
    if sep and left and is_timeline(left):
        path, moment = left, right
    if moment is not None or is_timeline(path):
        timeline = open_timeline(path)
        when = timeline.ended
        if moment is not None:
            try:
                when = parse_moment(moment, timeline.started, timeline.ended)
            except UsageError as exc:
                raise UsageError(f"diff: {text}: {exc}") from None
        at = utc_text(when)
        count = timeline.count_at(when)
        session = recording_session(
            timeline, count, catalogs, global_namespace, when=when, label=text
        )
        return Side(session, text, at, path)
    return Side(snapshot_session([text], catalogs, global_namespace=global_namespace), text)


def live_side(session: Session) -> Side:
    """The live cluster, read once, as one side."""
    return Side(session, f"live cluster {session.label}".strip())


def recording_readers() -> tuple[IsTimeline, OpenTimeline]:
    """How a recording is recognised and opened: ``(is_recording, open_recording)`` of
    ``olmtui.sources.recording`` (a test may give others)."""
    from olmtui.sources.recording.format import is_recording
    from olmtui.sources.recording.reader import open_recording

    return is_recording, open_recording


def source_of(side: Side, source: dict[str, Any]) -> dict[str, Any]:
    """A side's ``source`` as its ``check`` report says it; a recording's with
    ``kind: recording``, the file and its moment (``at``)."""
    if side.at is None:
        return source
    return {**source, "kind": "recording", "paths": [side.path], "at": side.at}
