"""Each incident's timeline (R-EVD-11) for the Markdown note, which the report dict does not
carry (the contract has no timeline): the objects its ``incidents[]`` entry names (its root,
the findings that follow, what it affects), read from the cache the report was made from."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from olmtui.model.records.types import ObjectRef
from olmtui.model.viewmodels.timeline import Timeline
from olmtui.model.viewmodels.timeline_objects import (
    events_by_subject,
    incident_refs,
    refs_timeline,
)
from olmtui.store import Store

#: Entries of one incident's timeline in the Markdown note (the newest).
MARKDOWN_ENTRIES = 10


def _subject(ref: Mapping[str, Any]) -> tuple[str, str, str]:
    return (ref.get("kind") or "", ref.get("namespace") or "", ref.get("name") or "")


def incident_timelines(
    store: Store, incidents: Iterable[Mapping[str, Any]], limit: int = MARKDOWN_ENTRIES
) -> dict[str, Timeline]:
    """The timeline of each of ``incidents`` (report entries), by incident id; the Events
    are indexed once for all of them."""
    events = events_by_subject(store)
    found: dict[str, Timeline] = {}
    for incident in incidents:
        subjects = [_subject(incident["root"]), *map(_subject, incident["consequences"])]
        affected = (ObjectRef(*_subject(a)) for a in incident["affected"])
        refs = incident_refs(subjects, affected)
        found[str(incident["id"])] = refs_timeline(store, refs, limit, events)
    return found
