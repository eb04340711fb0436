"""The moments a user names in a recording: ``check --at``, ``diff FILE@TIME``, ``:at``.

Three forms, all in UTC (the header and the reports print UTC too, so what one reads is
what one types): an RFC 3339 time (``2026-11-28T10:05:00Z``, any offset), a duration back
from the recording's end (``-15m``, ``-1h30m``, ``-90s``, ``-2d``), or a time of day
(``10:05``, ``10:05:30``), the latest such moment at or before the end. A moment outside the
recording is refused with its range, never moved silently to an edge.
"""

from __future__ import annotations

import datetime as dt
import re

from olmtui.errors import UsageError

_DURATION = re.compile(r"-(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?")
_TIME_OF_DAY = re.compile(r"(\d{1,2}):(\d{2})(?::(\d{2}))?")
FORMS = "an RFC 3339 time (2026-11-28T10:05:00Z), -DURATION back from the end (-15m), or HH:MM"


def utc_text(when: float) -> str:
    """A moment as the header and the reports print it: ``2026-11-28T10:05:00Z``."""
    return dt.datetime.fromtimestamp(when, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_moment(text: str, started: float, ended: float) -> float:
    """The epoch seconds ``text`` names in a recording spanning ``started``..``ended``."""
    text = text.strip()
    when = _back_from_end(text, ended)
    if when is None:
        when = _time_of_day(text, ended)
    if when is None:
        when = _rfc3339(text)
    if when is None:
        raise UsageError(f"{text!r} is not a moment: use {FORMS}")
    if not started <= when <= ended:
        raise UsageError(
            f"{text} ({utc_text(when)}) is outside the recording, "
            f"which runs from {utc_text(started)} to {utc_text(ended)}"
        )
    return when


def _back_from_end(text: str, ended: float) -> float | None:
    match = _DURATION.fullmatch(text)
    if match is None or text == "-":
        return None
    days, hours, minutes, seconds = (float(part) if part else 0.0 for part in match.groups())
    return ended - (((days * 24 + hours) * 60 + minutes) * 60 + seconds)


def _time_of_day(text: str, ended: float) -> float | None:
    match = _TIME_OF_DAY.fullmatch(text)
    if match is None:
        return None
    hour, minute, second = int(match[1]), int(match[2]), int(match[3] or 0)
    if hour > 23 or minute > 59 or second > 59:
        return None
    end = dt.datetime.fromtimestamp(ended, dt.UTC)
    moment = end.replace(hour=hour, minute=minute, second=second, microsecond=0)
    if moment > end:
        moment -= dt.timedelta(days=1)
    return moment.timestamp()


def _rfc3339(text: str) -> float | None:
    try:
        moment = dt.datetime.fromisoformat(text.replace("z", "Z"))
    except ValueError:
        return None
    if moment.tzinfo is None:  # RFC 3339 requires an offset: a bare time would guess one
        return None
    return moment.timestamp()
