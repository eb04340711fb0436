"""Everything a finding rests on, for the report, the Markdown and the detail screen: what its
rule recorded, the fields of its object that say the object's state, the Events about it and
OLM's log lines that name it (R-EVD-10).

Rules record the fields they read where they read them (R-EVD-2, R-EVD-3); most rules record
none, so the fields a finding of each common family rests on (a CSV's phase and reason, a
Subscription's state and true conditions, an InstallPlan's phase and approval, an
OperatorGroup's targets, a CatalogSource's connection state) are read here from the cached
object, as it is now. Only fields the object holds are named: an absent field is not
evidence. Events come newest first and log lines in time order, each capped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from olmtui.kinds import (
    CATALOG_SOURCE,
    CLUSTER_CATALOG,
    CLUSTER_EXTENSION,
    CSV,
    INSTALL_PLAN,
    OPERATOR_GROUP,
    SUBSCRIPTION,
)
from olmtui.model.records.types import (
    EventEvidence,
    Evidence,
    FieldEvidence,
    Finding,
    LogEvidence,
)
from olmtui.model.rules.evidence.catalog_pods import event_evidence
from olmtui.store import KINDS, LogLine, Obj, Store

#: The Events shown per finding (newest first) and the log lines (the newest, in time order).
EVENTS_SHOWN = 10
LOG_LINES_SHOWN = 20
#: A field's value longer than this is cut: the evidence names the field, the object has it.
_VALUE_LIMIT = 300


def _text(value: Any) -> str | None:
    """A field's value as evidence text; ``None`` when absent or empty."""
    if value is None or value == "" or value == [] or value == {}:
        return None
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    return text if len(text) <= _VALUE_LIMIT else text[: _VALUE_LIMIT - 1] + "…"


def _at(obj: Obj, path: str) -> Any:
    value: Any = obj
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def _paths(*paths: str) -> Callable[[Obj], Iterator[tuple[str, Any]]]:
    def fields(obj: Obj) -> Iterator[tuple[str, Any]]:
        for path in paths:
            yield path, _at(obj, path)

    return fields


def _conditions(obj: Obj, wanted: Callable[[dict[str, Any]], bool]) -> Iterator[tuple[str, Any]]:
    """``status.conditions[TYPE]`` as ``STATUS: REASON: MESSAGE`` for the conditions wanted."""
    conditions = _at(obj, "status.conditions")
    for condition in conditions if isinstance(conditions, list) else ():
        if not isinstance(condition, dict) or not isinstance(condition.get("type"), str):
            continue
        if wanted(condition):
            said = [condition.get(k) for k in ("status", "reason", "message")]
            yield (
                f"status.conditions[{condition['type']}]",
                ": ".join(str(s) for s in said if isinstance(s, str) and s),
            )


def _true(condition: dict[str, Any]) -> bool:
    return condition.get("status") == "True"


def _any(condition: dict[str, Any]) -> bool:
    return True


def _subscription(obj: Obj) -> Iterator[tuple[str, Any]]:
    yield from _paths(
        "spec.source", "spec.sourceNamespace", "spec.channel", "status.state",
        "status.installedCSV", "status.currentCSV",
    )(obj)  # fmt: skip
    yield from _conditions(obj, _true)  # a Subscription's conditions say trouble when True


def _install_plan(obj: Obj) -> Iterator[tuple[str, Any]]:
    yield from _paths("spec.approval", "spec.approved", "status.phase")(obj)
    yield from _conditions(obj, _any)


def _v1(obj: Obj) -> Iterator[tuple[str, Any]]:
    yield from _conditions(obj, _any)


#: The fields that say an object's state, per kind: what a finding about it rests on.
STATE_FIELDS: dict[str, Callable[[Obj], Iterator[tuple[str, Any]]]] = {
    CSV: _paths("status.phase", "status.reason", "status.message"),
    SUBSCRIPTION: _subscription,
    INSTALL_PLAN: _install_plan,
    OPERATOR_GROUP: _paths(
        "spec.targetNamespaces", "spec.selector", "spec.serviceAccountName", "status.namespaces"
    ),
    CATALOG_SOURCE: _paths(
        "spec.sourceType",
        "spec.image",
        "spec.address",
        "status.connectionState.lastObservedState",
        "status.reason",
        "status.message",
    ),
    CLUSTER_EXTENSION: _v1,
    CLUSTER_CATALOG: _v1,
}


def state_fields(kind: str, namespace: str, name: str, obj: Obj) -> list[FieldEvidence]:
    """The fields of an object that say its state, as evidence (only those it holds)."""
    fields = STATE_FIELDS.get(kind)
    if fields is None:
        return []
    found = []
    for path, value in fields(obj):
        text = _text(value)
        if text is not None:
            found.append(FieldEvidence(kind, namespace, name, path, text))
    return found


def log_evidence(line: LogLine) -> LogEvidence:
    return LogEvidence(line.pod, line.container, line.time, line.level, line.text)


def finding_evidence(finding: Finding, store: Store) -> tuple[Evidence, ...]:
    """What the finding rests on (R-EVD-10): its rule's record first, then its object's state
    fields the rule did not record, the newest Events about the object the rule did not
    record, then the log lines that name it, oldest first."""
    recorded = finding.evidence
    if not finding.name or not finding.kind:
        return recorded
    kind, namespace, name = finding.kind, finding.namespace, finding.name
    fields_named = {
        (e.kind, e.namespace, e.name, e.field) for e in recorded if isinstance(e, FieldEvidence)
    }
    events_named = {e for e in recorded if isinstance(e, EventEvidence)}
    found: list[Evidence] = list(recorded)
    obj = store.get(kind, namespace, name) if kind in KINDS else None
    if obj is not None:
        found += [
            f
            for f in state_fields(kind, namespace, name, obj)
            if (f.kind, f.namespace, f.name, f.field) not in fields_named
        ]
    events = (event_evidence(e) for e in store.events_about(kind, namespace, name))
    found += [e for e in events if e not in events_named][:EVENTS_SHOWN]
    found += map(log_evidence, store.logs.naming(namespace, name, LOG_LINES_SHOWN))
    return tuple(found)
