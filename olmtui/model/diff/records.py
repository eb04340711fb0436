"""The difference between two states as plain records (R-REC-6..8), which the ``diff``
outputs render and the dashboard's mark-and-compare can show."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any

from olmtui.frozen import frozen
from olmtui.model.records.types import ObjectRef


@frozen
class FieldChange:
    """One field of one object, as it was and as it is (``None``: absent). ``field`` is a
    dotted path (``status.phase``; list items by their ``name`` or ``type``:
    ``status.conditions[Installed].reason``) or a derived field in OLM's words
    (``members``, ``copies of NAME``)."""

    field: str
    before: Any
    after: Any


@frozen
class ObjectChange:
    """An object present on both sides whose fields that matter differ; ``more`` counts
    the fields left out beyond the listing limit."""

    ref: ObjectRef
    what: tuple[FieldChange, ...]
    more: int = 0


@frozen
class OperatorChange:
    """An operator's installed version, before and after (``None``: not installed). OLM v0:
    a package in a namespace (its Subscription's installed CSV); OLM v1: a ClusterExtension
    (``extension`` its name). ``before_bundle``/``after_bundle`` name the CSV or bundle."""

    package: str
    namespace: str
    before: str | None
    after: str | None
    before_bundle: str | None
    after_bundle: str | None
    extension: str | None = None


@frozen
class NotCompared:
    """A kind one side could not read (R-REC-8): its objects are not said added or
    removed. ``side`` is ``from`` or ``to``; ``scope`` as ``Unreadable.scope`` says it."""

    kind: str
    side: str
    scope: str


@frozen
class StateDiff:
    """Everything that changed from one side to the other. Findings and incidents are the
    ``check`` report's own entries (dicts), matched by identity, never by message.
    ``facts`` tells, for an object added or removed, what it was in OLM's words (a CSV's
    version, ``replaces`` and phase; an InstallPlan's phase...)."""

    added: tuple[ObjectRef, ...]
    removed: tuple[ObjectRef, ...]
    changed: tuple[ObjectChange, ...]
    operators: tuple[OperatorChange, ...]
    new_findings: tuple[Mapping[str, Any], ...]
    resolved_findings: tuple[Mapping[str, Any], ...]
    unchanged_findings: int
    new_incidents: tuple[Mapping[str, Any], ...]
    resolved_incidents: tuple[Mapping[str, Any], ...]
    not_compared: tuple[NotCompared, ...] = ()
    facts: Mapping[ObjectRef, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        """No OLM state changed: what ``diff`` exits 0 for."""
        parts: Sequence[Sequence[Any]] = (
            self.added,
            self.removed,
            self.changed,
            self.operators,
            self.new_findings,
            self.resolved_findings,
            self.new_incidents,
            self.resolved_incidents,
        )
        return not any(parts)
