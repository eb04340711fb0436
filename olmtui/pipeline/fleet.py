"""One fleet target read as a single ``check`` reads it, and its outcome as data (R-FLT-1).

:func:`target_session` builds the target's Session through the same builders as ``check``
(``pipeline/build.py``): a later Fleet dashboard holds these sessions, one per target.
:func:`read_target` builds the session, asks its report as ``check`` does
(``report(verify_remedies=True)``), and keeps what the fleet's output and roll-up read
(:data:`KEPT`), in its JSON form (the bytes a single ``check --output json`` prints, parsed
back: a worker process hands it back pickled, and the fleet's findings equal ``check``'s).

A target that cannot be read is not an error of the run: it is a status with one line of
reason (``unreachable``, ``unauthorized``, ``timeout``, ``bad-input``); one read with kinds it
may not list is ``partial``, its report holding what was read.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from olmtui.errors import ClusterTimedOut, ClusterUnauthorized, ClusterUnreachable, UsageError
from olmtui.model.records.catalog import Catalog
from olmtui.pipeline.fleet_targets import Target
from olmtui.pipeline.session import Session

TargetStatus = Literal["ok", "unreachable", "unauthorized", "partial", "timeout", "bad-input"]
#: The report fields a fleet keeps of each target: its output's and the roll-up's.
KEPT: tuple[str, ...] = (
    "source",
    "summary",
    "incidents",
    "findings",
    "csvs",
    "subscriptions",
    "clusterExtensions",
    "catalogSources",
    "clusterCatalogs",
    "clusterUpgrade",
    "migration",
)


@dataclass(frozen=True)
class FleetSettings:
    """What every target is read with: the single ``check``'s flags, given once."""

    catalog_specs: tuple[str, ...] = ()
    global_namespace: str | None = None
    next_catalogs: tuple[Catalog, ...] = ()
    namespaces: tuple[str, ...] = ()
    connect_timeout: float = 10.0
    request_timeout: float | None = None
    #: Processes a snapshot target parses in (1 in a fleet's worker: the pool is the fleet's).
    parse_workers: int | None = 1


@dataclass(frozen=True)
class TargetResult:
    """One target's outcome: its status and reason, and (read) its report's :data:`KEPT`
    fields; ``seconds`` it took."""

    name: str
    shown: str
    kind: str
    status: TargetStatus
    reason: str | None
    report: dict[str, Any] | None = None
    seconds: float = 0.0


def target_session(target: Target, settings: FleetSettings) -> Session:
    """The target's Session, built as ``check`` builds it (UsageError and its kinds when
    the target cannot be read)."""
    from olmtui.pipeline.build import cluster_once_session, snapshot_session

    if target.problem is not None:
        raise UsageError(target.problem)
    if target.kind == "snapshot":
        session = snapshot_session(
            target.paths,
            settings.catalog_specs,
            label=target.name,
            global_namespace=settings.global_namespace,
            workers=settings.parse_workers,
            namespaces=settings.namespaces,
        )
    else:
        session = cluster_once_session(
            _live_options(target, settings),
            settings.catalog_specs,
            settings.global_namespace,
            connect_timeout=settings.connect_timeout,
        )
    session.next_catalogs = list(settings.next_catalogs)
    return session


def _live_options(target: Target, settings: FleetSettings) -> Any:
    from olmtui.sources.cluster.live_options import LiveOptions

    options = LiveOptions(
        kubeconfig=target.kubeconfig, context=target.context, namespaces=list(settings.namespaces)
    )
    if settings.request_timeout is not None:  # as ``options_from_args`` sets it
        options.request_timeout = settings.request_timeout
        options.exec_timeout = min(options.exec_timeout, settings.request_timeout)
    return options


def read_target(target: Target, settings: FleetSettings) -> TargetResult:
    """Read one target to its outcome; never raises for what the target holds or how its
    cluster answers (those are statuses), only for a bug."""
    began = time.monotonic()
    try:
        session = target_session(target, settings)
        report = session.analysis.report(verify_remedies=True)
    except UsageError as exc:
        status = failure_status(exc)
        return _result(target, status, _one_line(str(exc)), None, began)
    kept = kept_fields(report)
    unreadable = sorted(u.scope for u in session.store.unreadable.values())
    if unreadable:
        reason = f"may not read {', '.join(unreadable)} (403); the report holds the rest"
        return _result(target, "partial", reason, kept, began)
    return _result(target, "ok", None, kept, began)


def failure_status(error: UsageError) -> TargetStatus:
    """What kind of failure a target's UsageError is."""
    if isinstance(error, ClusterTimedOut):
        return "timeout"
    if isinstance(error, ClusterUnauthorized):
        return "unauthorized"
    if isinstance(error, ClusterUnreachable):
        return "unreachable"
    return "bad-input"


def kept_fields(report: dict[str, Any]) -> dict[str, Any]:
    """The report's :data:`KEPT` fields as ``check --output json`` writes them, the lists
    only the roll-up reads cut to what it reads (``model/fleet/inputs.py``)."""
    from olmtui.model.fleet.inputs import rollup_input
    from olmtui.report.json_report import dumps

    parsed: dict[str, Any] = json.loads(dumps({k: report[k] for k in KEPT if k in report}))
    return rollup_input(parsed)


def _result(
    target: Target,
    status: TargetStatus,
    reason: str | None,
    report: dict[str, Any] | None,
    began: float,
) -> TargetResult:
    return TargetResult(
        target.name,
        target.shown,
        target.kind,
        status,
        reason,
        report,
        time.monotonic() - began,
    )


def not_read(target: Target, status: TargetStatus, reason: str) -> TargetResult:
    """A target the run gave up on before it was read (the fleet's deadline)."""
    return TargetResult(target.name, target.shown, target.kind, status, reason)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def by_name(results: Sequence[TargetResult]) -> list[TargetResult]:
    """Results in name order: the output does not depend on which target finished first."""
    return sorted(results, key=lambda r: r.name)
