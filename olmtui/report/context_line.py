"""Line one of ``check``'s text and Markdown: when the input was taken, which OpenShift and
OLM it shows, and whether it is complete, in words, from the report's ``source`` block
(``context_json``). A time the input does not give is said unknown, never made up."""

from __future__ import annotations

import datetime as dt
from typing import Any

from olmtui.objects import parse_time


def _minute(stamp: str | None) -> str | None:
    moment = parse_time(stamp) if stamp else None
    return None if moment is None else moment.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def when_words(source: dict[str, Any]) -> str | None:
    """When a snapshot was taken: its must-gather's timestamp, else the newest time its
    objects record, said as such; ``None`` for a live read (it is now)."""
    if source.get("kind") == "live":
        return None
    if source.get("kind") == "recording":  # R-REC-1: the moment asked, not the gather time
        return f"as of {_minute(source.get('at'))} (recorded)"
    gathered = _minute(source.get("gatheredAt"))
    if gathered is not None:
        return f"gathered {gathered} (must-gather timestamp)"
    newest = _minute(source.get("newestObjectTime"))
    if newest is not None:
        return f"newest object {newest}; gather time unknown"
    return "no time in its objects; gather time unknown"


def version_words(source: dict[str, Any]) -> list[str]:
    """The OpenShift and OLM versions the input shows, each said unknown when it does not."""
    openshift, olm = source.get("openshiftVersion"), source.get("olmVersion")
    return [
        f"OpenShift {openshift}" if openshift else "OpenShift version unknown",
        f"OLM {olm}" if olm else "OLM version unknown",
    ]


def incomplete_words(source: dict[str, Any]) -> str | None:
    """``input incomplete: <reasons>`` when the input is, else ``None``."""
    reasons = source.get("incompleteBecause") or []
    if source.get("complete", True) or not reasons:
        return None
    return f"input incomplete: {'; '.join(reasons)}"


def context_words(source: dict[str, Any]) -> list[str]:
    """Everything line one says after the source's name, in order."""
    when = when_words(source)
    incomplete = incomplete_words(source)
    return [
        *([when] if when else []),
        *version_words(source),
        *([incomplete] if incomplete else []),
    ]
