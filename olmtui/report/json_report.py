"""The ``olmtui check`` JSON report (format 1, ``schema.json``), built from model records.

Pure functions from the model's frozen records to plain dicts, so the check command, the
live mode and the screens can all produce the same report. Every list is put in the order
the format fixes here, not trusted to arrive sorted, because "two runs over the same
input print the same bytes" is a promise of the format.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from typing import IO, Any, Literal, Protocol, TypeVar

from olmtui.kinds import (
    CATALOG_SOURCE,
    CLUSTER_CATALOG,
    CLUSTER_EXTENSION,
    CSV,
    INSTALL_PLAN,
    REVISION_KINDS,
)
from olmtui.model.diagnosis.incidents import Diagnosis
from olmtui.model.diagnosis.remedies import IndexedContext, RemedyContext, remedy_for
from olmtui.model.incremental.health import merged_findings
from olmtui.model.records.catalog import Catalog
from olmtui.model.records.diagnosis import FindingKey, Remedy, finding_key
from olmtui.model.records.next_catalog import NextCatalogEntry
from olmtui.model.records.source_context import SourceContext
from olmtui.model.records.types import (
    SEVERITY_ORDER,
    ChannelState,
    CopiedCSVState,
    CSVState,
    Finding,
    OperatorGroupState,
    SubscriptionState,
    UpgradeInfo,
)
from olmtui.model.rules.input.partial import COMPLETE, PartialInput
from olmtui.model.rules.lifecycle.findings import LifecycleView
from olmtui.model.rules.resolution.result import NamespaceResolution
from olmtui.model.rules.v1.catalogs import decode_catalog
from olmtui.model.rules.v1.extensions import decode_extension
from olmtui.model.rules.v1.outcome import extension_resolution
from olmtui.model.rules.v1.resolve import V1Resolution, content_by_catalog
from olmtui.model.rules.v1.revisions import (
    Revision,
    extension_revisions,
    progress_deadline_minutes,
)
from olmtui.model.viewmodels.catalog_identity import catalog_identities
from olmtui.model.viewmodels.finding_evidence import finding_evidence
from olmtui.model.viewmodels.lifecycles import ObjectKey, installed_lifecycles
from olmtui.model.viewmodels.metrics import Metrics, head_counts, seed_metrics
from olmtui.model.viewmodels.migration import migration_rows
from olmtui.model.viewmodels.upgrade_readiness import store_readiness
from olmtui.objects import Obj, name_of
from olmtui.report.cluster_upgrade_json import cluster_upgrade_json
from olmtui.report.context_json import (
    catalog_source_json,
    context_fields,
    install_plans_json,
)
from olmtui.report.diagnosis_json import (
    Gather,
    diagnosis_fields,
    incident_json,
    object_json,
    recorded_evidence,
)
from olmtui.report.entries import Entries
from olmtui.report.indented_json import indented_json
from olmtui.report.migration_json import migration_json
from olmtui.report.next_catalog_json import next_catalog_json
from olmtui.report.remedy_json import remedy_json
from olmtui.safe_text import json_inert
from olmtui.store import Store

FORMAT = 1
SourceKind = Literal["snapshot", "live"]
Report = dict[str, Any]
_Record = TypeVar("_Record")


def _entries(
    records: Sequence[_Record], entry: Callable[[_Record], dict[str, Any]], streamed: bool
) -> Entries[_Record] | list[dict[str, Any]]:
    """``records`` as report entries: built as written when ``streamed``, else a list."""
    return Entries(records, entry) if streamed else [entry(r) for r in records]


class ReportModel(Protocol):
    """What the report reads from the reconciliation model
    (``olmtui.model.incremental.engine.Model``)."""

    def operator_groups(self) -> Sequence[OperatorGroupState]: ...
    def csvs(self) -> Sequence[CSVState]: ...
    def copied_csvs(self) -> CopiedCSVState: ...
    def subscriptions(self) -> Sequence[SubscriptionState]: ...
    def findings(self) -> Sequence[Finding]: ...
    def namespaces(self) -> Sequence[str]: ...


class LoadSummary(Protocol):
    """What the report reads from a snapshot load
    (``olmtui.sources.snapshots.snapshot.LoadResult``)."""

    @property
    def paths(self) -> Sequence[Any]: ...
    @property
    def objects(self) -> int: ...
    @property
    def skipped(self) -> int: ...
    @property
    def findings(self) -> Sequence[Finding]: ...


def _or_none(text: str | None) -> str | None:
    """Empty strings in records mean "not set"; the report writes them as null."""
    return text or None


#: Beyond this many related objects, a streamed finding's ``related`` is :class:`Entries`: a
#: finding may name every Namespace of the input (``NamespacesInferred``), 400,000 of them.
_LONG = 64


def finding_json(
    finding: Finding, streamed: bool = False, context: RemedyContext | None = None
) -> dict[str, Any]:
    """One ``findings[]`` entry; ``streamed``: a long ``related`` built as it is written.
    ``context``: the state a remedy is planned on (without it, ``remedy`` is ``null``)."""
    related = finding.related
    return {
        "severity": finding.severity,
        "code": finding.code,
        "kind": _or_none(finding.kind),
        "namespace": _or_none(finding.namespace),
        "name": _or_none(finding.name),
        "message": finding.message,
        "rule": finding.rule,
        "related": Entries(related, object_json)
        if streamed and len(related) > _LONG
        else [object_json(r) for r in related],
        "remedy": remedy_json(remedy_for(finding, context)) if context is not None else None,
    }


#: The proof of a remedy (``Simulator.verify`` in ``check``): the remedy with ``verified``,
#: ``outcome`` and ``missing`` set from a trial that must clear the given findings.
Verify = Callable[[Remedy, Collection[FindingKey]], Remedy]
#: The proof for a report of so many findings (what a trial costs grows with them).
Prover = Callable[[int], Verify]


def diagnosed_findings(
    diagnosis: Diagnosis,
    streamed: bool,
    context: RemedyContext | None,
    verify: Verify | None = None,
    gather: Gather = recorded_evidence,
) -> Entries[int] | list[dict[str, Any]]:
    """``findings[]``: each finding with its ``remedy`` (planned on ``context``; proven by
    ``verify`` when given, against the finding and those that follow from it), ``cause``,
    ``incident`` and ``evidence`` (``gather``: what each rests on beyond its rule's record,
    R-EVD-10)."""
    findings = diagnosis.findings

    def remedy(index: int) -> Remedy | None:
        if context is None:
            return None
        planned = remedy_for(findings[index], context)
        if planned is None or verify is None:
            return planned
        # R-DIAG-9: a remedy of a cause must clear what follows from it too
        clears = {finding_key(findings[i]) for i in (index, *diagnosis.caused(index))}
        return verify(planned, clears)

    def entry(index: int) -> dict[str, Any]:
        out = {
            **finding_json(findings[index], streamed),
            **diagnosis_fields(diagnosis, index, streamed, gather),
        }
        out["remedy"] = remedy_json(remedy(index))  # in its place, after ``related``
        return out

    return _entries(range(len(findings)), entry, streamed)


def incidents_json(diagnosis: Diagnosis, streamed: bool) -> Entries[int] | list[dict[str, Any]]:
    """``incidents[]``, by severity then id (R-DIAG-9)."""
    return _entries(
        diagnosis.roots(), lambda root: incident_json(diagnosis, root, streamed), streamed
    )


def operator_group_json(og: OperatorGroupState) -> dict[str, Any]:
    return {
        "namespace": og.namespace,
        "name": og.name,
        "mode": og.mode,
        "targetNamespaces": sorted(og.target_namespaces),
        "statusNamespaces": (
            None if og.status_namespaces is None else sorted(og.status_namespaces)
        ),
        "effectiveNamespaces": sorted(og.effective_namespaces),
        "static": og.static,
        "providedAPIs": sorted(og.provided_apis),
        "expectedProvidedAPIs": sorted(og.expected_provided_apis),
        "members": sorted(og.members),
        "intersecting": [
            {"operatorGroup": i.operator_group, "namespaces": sorted(i.namespaces)}
            for i in sorted(og.intersecting, key=lambda i: i.operator_group)
        ],
        "upgradeStrategy": og.upgrade_strategy,
        "serviceAccount": og.service_account,
        "selectionErrors": list(og.selection_errors),
    }


def csv_json(csv: CSVState) -> dict[str, Any]:
    verdict = csv.verdict
    return {
        "namespace": csv.namespace,
        "name": csv.name,
        "displayName": csv.display_name,
        "version": csv.version,
        "replaces": csv.replaces,
        "phase": csv.phase,
        "reason": csv.reason,
        "message": csv.message,
        "operatorGroup": csv.operator_group,
        "providedAPIs": sorted(csv.provided_apis),
        "requiredAPIs": sorted(csv.required_apis),
        "verdict": None
        if verdict is None
        else {
            "phase": verdict.phase,
            "reason": verdict.reason,
            "message": verdict.message,
            "rule": verdict.rule,
        },
        "apiReconciliation": csv.api_reconciliation,
        "conflicts": [
            {
                "operatorGroup": c.operator_group,
                "apis": sorted(c.apis),
                "namespaces": sorted(c.namespaces),
            }
            for c in sorted(csv.conflicts, key=lambda c: c.operator_group)
        ],
        "expectedCopies": sorted(csv.expected_copies),
    }


def lifecycle_json(view: LifecycleView | None) -> dict[str, object] | None:
    """``lifecycle`` of a CSV or ClusterExtension (R-LCY-2): ``null`` when the catalog content
    given holds no lifecycle document for its package (unknown, not unsupported)."""
    return None if view is None else view.json()


def copied_csvs_json(copies: CopiedCSVState) -> dict[str, Any]:
    missing = sorted(copies.missing, key=lambda m: (m.csv, m.namespace))
    stale = sorted(copies.stale, key=lambda s: (s.namespace, s.name, s.copied_from, s.reason))
    return {
        "present": copies.present,
        "missing": [{"csv": m.csv, "namespace": m.namespace} for m in missing],
        "stale": [
            {
                "namespace": s.namespace,
                "name": s.name,
                "copiedFrom": s.copied_from,
                "reason": s.reason,
            }
            for s in stale
        ],
    }


def upgrade_json(upgrade: UpgradeInfo) -> dict[str, Any]:
    return {
        "graph": upgrade.graph,
        "head": upgrade.head,
        "next": upgrade.next,
        # The path and its edges are hops in order, not sets: they keep the model's order.
        "path": list(upgrade.path),
        "edges": [{"from": e.source, "to": e.target, "via": e.via} for e in upgrade.edges],
        "decidedBy": upgrade.decided_by,
        "notHeadBecause": upgrade.not_head_because,
    }


def subscription_json(sub: SubscriptionState) -> dict[str, Any]:
    plan = sub.install_plan
    return {
        "namespace": sub.namespace,
        "name": sub.name,
        "package": sub.package,
        "channel": sub.channel,
        "source": sub.source,
        "sourceNamespace": sub.source_namespace,
        "startingCSV": sub.starting_csv,
        "approval": sub.approval,
        "effectiveApproval": sub.effective_approval,
        "state": sub.state,
        "installedCSV": sub.installed_csv,
        "currentCSV": sub.current_csv,
        "installPlan": None
        if plan is None
        else {
            "name": plan.name,
            "phase": plan.phase,
            "approved": plan.approved,
        },
        "upgrade": upgrade_json(sub.upgrade),
    }


def channel_json(channel: ChannelState) -> dict[str, Any]:
    return {
        "catalog": channel.catalog,
        "package": channel.package,
        "channel": channel.channel,
        "head": channel.head,
        # ``order`` is the replacement chain from the head: its order is the content.
        "order": list(channel.order),
        "errors": list(channel.errors),
    }


def resolution_json(resolution: NamespaceResolution) -> dict[str, Any]:
    """One ``resolution[]`` entry (R-RES-18, R-RES-20): operators sorted by name, changes
    sorted, the explanation kept in its causes-first order (the order is the content)."""
    return {
        "namespace": resolution.namespace,
        "status": resolution.status,
        "reason": resolution.reason,
        "operators": [
            {
                "name": o.name,
                "package": o.package,
                "channel": o.channel,
                "catalog": o.catalog,
                "replaces": o.replaces,
                "for": o.reason,
            }
            for o in sorted(resolution.operators, key=lambda o: (o.name, o.catalog, o.channel))
        ],
        "changes": sorted(resolution.changes),
        "explanation": [
            {"constraint": e.constraint, "objects": list(e.objects), "fix": e.fix}
            for e in resolution.explanation
        ],
    }


def revision_json(revision: Revision) -> dict[str, Any]:
    """One ``clusterExtensions[].revisions[]`` entry (R-V1-24): ``phase`` is the phase the
    conditions say the rollout stands in, null when they name none."""
    return {
        "name": revision.name,
        "revision": revision.number,
        "lifecycleState": revision.lifecycle_state or None,
        "phase": revision.current_phase,
        "conditions": {
            kind: {"status": c.status, "reason": c.reason, "message": c.message}
            for kind, c in sorted(revision.conditions.items())
        },
        "active": revision.active,
    }


def cluster_extension_json(
    extension_obj: Obj,
    resolution: V1Resolution | None,
    revision_objs: Sequence[Obj] = (),
) -> dict[str, Any]:
    """One ``clusterExtensions[]`` entry (R-V1-2, R-V1-3, R-V1-20, R-V1-24). ``resolved``/
    ``error`` are null when the resolution is not computed (no resolver, or a catalog
    without content)."""
    extension = decode_extension(extension_obj)
    installed = extension.installed
    revisions = extension_revisions(extension_obj, revision_objs).revisions
    return {
        "name": extension.name,
        "namespace": extension.namespace,
        "serviceAccount": extension.service_account,
        "package": extension.package,
        "versionRange": extension.version_range,
        "channels": list(extension.channels),
        "upgradeConstraintPolicy": extension.upgrade_constraint_policy,
        "installed": None
        if installed is None
        else {"bundle": installed.bundle, "version": installed.version},
        "conditions": {
            kind: {"status": c.status, "reason": c.reason, "message": c.message}
            for kind, c in sorted(extension.conditions.items())
        },
        "resolved": {
            "bundle": resolution.bundle,
            "version": resolution.version,
            "catalog": resolution.catalog,
        }
        if resolution is not None and resolution.bundle is not None
        else None,
        "error": resolution.error if resolution is not None else None,
        "progressDeadlineMinutes": progress_deadline_minutes(extension_obj),
        "revisions": [revision_json(r) for r in revisions],
    }


def cluster_catalog_json(catalog_obj: Obj) -> dict[str, Any]:
    """One ``clusterCatalogs[]`` entry (R-V1-6, R-V1-7)."""
    catalog = decode_catalog(catalog_obj)
    return {
        "name": catalog.name,
        "priority": catalog.priority,
        "serving": catalog.serving,
        "ref": catalog.ref,
        "resolvedRef": catalog.resolved_ref,
        "lastUnpacked": catalog.last_unpacked,
    }


def v1_json(
    store: Store,
    catalogs: Sequence[Catalog],
    lifecycles: dict[ObjectKey, LifecycleView] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """``clusterExtensions[]`` and ``clusterCatalogs[]``, sorted by name; empty on a cluster
    without OLM v1. Each extension is resolved against the content bound to its catalogs
    (R-V1-22); ``lifecycles`` are the installed operators' (R-LCY-2)."""
    found = lifecycles or {}
    cluster_catalogs = sorted(store.list(CLUSTER_CATALOG), key=name_of)
    content = content_by_catalog(catalogs, cluster_catalogs)
    revision_objs = [r for kind in sorted(REVISION_KINDS) for r in store.list(kind)]
    return {
        "clusterExtensions": [
            {
                **cluster_extension_json(
                    e, extension_resolution(e, cluster_catalogs, content), revision_objs
                ),
                "lifecycle": lifecycle_json(found.get((CLUSTER_EXTENSION, "", name_of(e)))),
            }
            for e in sorted(store.list(CLUSTER_EXTENSION), key=name_of)
        ],
        "clusterCatalogs": [cluster_catalog_json(c) for c in cluster_catalogs],
    }


def metrics_json(metrics: Metrics) -> dict[str, Any]:
    """OLM's metrics under their Prometheus names, with notes where the
    value is an equivalent rather than OLM's own number."""
    return {
        "catalog_source_count": metrics.catalog_source_count,
        "csv_count": metrics.csv_count,
        "csv_succeeded": metrics.csv_succeeded,
        "csv_abnormal": [
            {
                "name": a.name,
                "namespace": a.namespace,
                "phase": a.phase,
                "reason": a.reason,
                "version": a.version,
            }
            for a in metrics.csv_abnormal
        ],
        "csv_upgrade_count": metrics.csv_upgrade_count,
        "csv_upgrade_count_source": metrics.csv_upgrade_count_source,
        "install_plan_count": metrics.install_plan_count,
        "subscription_count": metrics.subscription_count,
        "subscription_sync_total": metrics.subscription_sync_total,
        "notes": {
            "csv_upgrade_count": metrics.csv_upgrade_count_note,
            "subscription_sync_total": metrics.subscription_sync_total_note,
            **metrics.unknown,
        },
    }


def report_json(
    source: SourceKind,
    model: ReportModel,
    store: Store,
    load_result: LoadSummary | None = None,
    channels: Iterable[ChannelState] = (),
    upgrade_count: int | None = None,
    health: Iterable[Finding] = (),
    resolutions: Iterable[NamespaceResolution] = (),
    catalog_content: bool = False,
    catalogs: Sequence[Catalog] = (),
    streamed: bool = False,
    subscriptions: Iterable[SubscriptionState] | None = None,
    diagnose: Callable[[Sequence[Finding]], Diagnosis] | None = None,
    prover: Prover | None = None,
    partial: PartialInput = COMPLETE,
    context: SourceContext | None = None,
    now: dt.datetime | None = None,
    next_catalog: Sequence[NextCatalogEntry] = (),
) -> Report:
    """The whole report as a JSON-ready dict.

    ``load_result`` describes a snapshot load (its paths, counts and the loader's own
    findings, such as unreadable documents); without it (live mode) the source has no paths
    and ``objects`` is the number of objects cached. ``upgrade_count`` is the live
    watcher's count of CSV upgrades, for the ``csv_upgrade_count`` metric. ``health`` holds
    the findings of the rules outside the model (``olmtui.model.incremental.health``); one the model
    already reports (same code on the same object) is left out. ``resolutions`` is what
    the resolver decided per namespace (``resolution[]``; empty when it did not run); the
    findings drawn from it come in ``health``. ``catalog_content`` says whether catalog
    content with edges and properties (``--catalog``) was given, which resolution needs.
    ``catalogs`` is that content, bound to ClusterCatalogs for ``clusterExtensions[]``.
    ``streamed``: the long lists (groups, CSVs, Subscriptions, findings) are
    :class:`Entries`, built as they are written (:func:`write_json`, ``write_text``), never
    held all at once. ``diagnose`` folds the findings into incidents (the session's
    ``Analysis.diagnose``); without it every finding is its own incident. ``prover``
    gives, for the number of findings, what proves each finding's remedy on the state
    (``Simulator.verify``) as its entry is built; without it every remedy says
    ``not-simulated``. ``partial``: what
    the input is known to lack (findings resting on its absence are withheld, R-SRC-1);
    ``context``: when and what the input is (the ``source`` block's context fields);
    ``now``: the input's clock (a live one, a must-gather's time), for the lifecycle phases.
    ``next_catalog``: the installed operators against ``--next-catalog`` (R-NXT-1..6).
    """
    planned_on = IndexedContext(store, catalogs)
    findings = merged_findings(
        load_result.findings if load_result is not None else (),
        model=model.findings(),
        health=health,
        unreadable=store.unreadable,
        read_namespaces=store.read_namespaces,
        partial=partial,
    )
    operator_groups = sorted(model.operator_groups(), key=lambda o: (o.namespace, o.name))
    csvs = sorted(model.csvs(), key=lambda c: (c.namespace, c.name))
    copies = model.copied_csvs()
    # R-RES-17: the caller's records carry the resolver's pick; the model's the channel's.
    subscriptions = sorted(
        model.subscriptions() if subscriptions is None else subscriptions,
        key=lambda s: (s.namespace, s.name),
    )
    ordered_channels = sorted(channels, key=lambda c: (c.catalog or "", c.package, c.channel))
    read = store.read_namespaces
    heads = head_counts(subscriptions)
    by_severity = dict.fromkeys(SEVERITY_ORDER, 0)
    for finding in findings:
        by_severity[finding.severity] += 1
    diagnosis = diagnose(findings) if diagnose is not None else Diagnosis(findings, {})
    lifecycles = installed_lifecycles(store, catalogs, now)  # R-LCY-2

    def csv_entry(csv: CSVState) -> dict[str, Any]:
        view = lifecycles.get((CSV, csv.namespace, csv.name))
        return {**csv_json(csv), "lifecycle": lifecycle_json(view)}

    return {
        "format": FORMAT,
        "source": {
            "kind": source,
            "paths": [str(p) for p in load_result.paths] if load_result is not None else [],
            "objects": load_result.objects if load_result is not None else len(store),
            "skipped": load_result.skipped if load_result is not None else 0,
            # where namespaced kinds were read (--namespace); null: cluster-wide
            "namespaces": None if read is None else sorted(read),
            # resolution needs catalog content (R-RES-22): PackageManifests alone are not it
            "catalogContent": catalog_content,
            **context_fields(context),
            "logs": logs_json(store),  # R-EVD-10
        },
        "summary": {
            "namespaces": len(model.namespaces()),
            "operatorGroups": len(operator_groups),
            "csvs": len(csvs),
            "copiedCSVs": copies.present,
            "subscriptions": len(subscriptions),
            "installPlans": store.count(INSTALL_PLAN),
            "catalogSources": store.count(CATALOG_SOURCE),
            "findings": by_severity,
            "incidents": diagnosis.counts(),
            "metrics": metrics_json(seed_metrics(store, model, upgrade_count)),
            # Additions to format 1: installed Subscriptions behind their channel head, and
            # those whose head is unknown (no catalog content, or a channel OLM cannot order).
            "subscriptionsBehindHead": heads.behind,
            "subscriptionsHeadUnknown": heads.unknown,
        },
        "operatorGroups": _entries(operator_groups, operator_group_json, streamed),
        "csvs": _entries(csvs, csv_entry, streamed),
        "copiedCSVs": copied_csvs_json(copies),
        "subscriptions": _entries(subscriptions, subscription_json, streamed),
        "channels": [channel_json(c) for c in ordered_channels],
        "findings": diagnosed_findings(
            diagnosis,
            streamed,
            planned_on,
            None if prover is None else prover(len(findings)),
            lambda finding: finding_evidence(finding, store),  # R-EVD-10
        ),
        "incidents": incidents_json(diagnosis, streamed),
        "resolution": [resolution_json(r) for r in sorted(resolutions, key=lambda r: r.namespace)],
        "catalogSources": catalog_sources_json(store),
        "installPlans": install_plans_json(store.list(INSTALL_PLAN)),
        **v1_json(store, catalogs, lifecycles),
        "migration": migration_json(migration_rows(store, catalogs)),  # R-MIG-12
        # R-CUP-6: what holds the next OpenShift minor, v0 and v1 together
        "clusterUpgrade": cluster_upgrade_json(store_readiness(store, catalogs)),
        "nextCatalog": [next_catalog_json(e) for e in next_catalog],
    }


def logs_json(store: Store) -> dict[str, Any] | None:
    """``source.logs``: the OLM log files read, their lines kept and what of them was cut
    (R-EVD-10); ``null`` when the input held none."""
    logs = store.logs
    if not logs.files:
        return None
    return {"files": len(logs.files), "lines": len(logs), "cut": logs.cut()}


def catalog_sources_json(store: Store) -> list[dict[str, Any]]:
    """``catalogSources[]``: what each CatalogSource is, sorted by namespace and name, with
    its registry pods once pods are read (none are kept yet: ``pods`` is ``[]``)."""
    return [catalog_source_json(c) for c in catalog_identities(store)]


def dumps(report: Report) -> str:
    """The report as ``olmtui check --output json`` prints it (one trailing newline)."""
    return json_inert("".join(_report_chunks(report))) + "\n"


#: How much JSON text :func:`write_json` gathers before each write.
_WRITE_CHUNK = 1 << 16


def _holds_entries(value: dict[str, Any]) -> bool:
    return any(isinstance(item, Entries) for item in value.values())


def write_json(report: Report, stream: IO[str]) -> None:
    """Write the report to ``stream`` as :func:`dumps` prints it, the same bytes, in pieces
    of about 64 KiB: the whole text of a report on 400,000 objects is hundreds of MB, and
    ``json.dumps`` (indented: the pure-Python encoder before Python 3.13) holds it as
    millions of small strings before joining them. ``json_inert`` escapes single characters,
    so escaping piece by piece gives what escaping the whole text gives."""
    pending: list[str] = []
    size = 0
    for chunk in _report_chunks(report):
        pending.append(chunk)
        size += len(chunk)
        if size >= _WRITE_CHUNK:
            stream.write(json_inert("".join(pending)))
            pending, size = [], 0
    stream.write(json_inert("".join(pending)) + "\n")


def _report_chunks(value: Any, level: int = 0) -> Iterator[str]:
    """The text of ``json.dumps(value, indent=2, ensure_ascii=False)`` in pieces: the report,
    its top-level lists and objects, every :class:`Entries` (which builds each entry only
    now) and the objects holding one are walked here; anything else is one
    :func:`indented_json` (that text, made faster) indented to its depth (JSON text holds a
    newline only between tokens, never inside a string)."""
    members: Iterable[tuple[str | None, Any]]
    if isinstance(value, dict) and value and (level < 2 or _holds_entries(value)):
        opening, closing, members = "{", "}", value.items()
    elif isinstance(value, Entries) or (isinstance(value, list) and level < 2):
        if not value:
            yield "[]"
            return
        opening, closing, members = "[", "]", ((None, item) for item in value)
    else:
        text = indented_json(value)
        yield text.replace("\n", "\n" + "  " * level) if level else text
        return
    inner = "\n" + "  " * (level + 1)
    separator = opening + inner
    for key, item in members:
        yield separator if key is None else f"{separator}{indented_json(key)}: "
        yield from _report_chunks(item, level + 1)
        separator = "," + inner
    yield "\n" + "  " * level + closing


#: A UTF-16 surrogate: legal in JSON input as an escape (``"\ud800"``), not encodable alone.
_SURROGATE = re.compile("[\ud800-\udfff]")


def without_surrogates(text: str) -> str:
    """``text`` with every lone surrogate as its escape ``\\udXXX``: a JSON input may hold one
    in any string, and printing it raises ``UnicodeEncodeError`` (it has no UTF-8). In JSON
    output the escape stands for the same string; in text it shows what the input held."""
    if _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def dump_json(value: Any) -> str:
    """JSON as olmtui prints it: indented, UTF-8 as it is, but what a terminal could obey or
    that reorders text (C1 controls, bidi controls, lone surrogates: ``safe_text``) escaped
    as ``\\uXXXX``, the same string for a parser."""
    return json_inert(indented_json(value)) + "\n"


def has_errors(report: Report) -> bool:
    """Exit status 1 of ``olmtui check``: some finding has severity ``error``."""
    errors: int = report["summary"]["findings"]["error"]
    return errors > 0
