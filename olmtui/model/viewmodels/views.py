"""Small derivations the screens show that no rule module computes: which groups watch a
namespace, the ClusterRoles an OperatorGroup generates (R-OG-8), a readable change log
from the Store's change feed, and a Subscription's state and catalog health as the findings
and OLM's own conditions qualify them (so a screen never shows green where ``check`` reports
a problem). Pure functions over the model's records and plain dicts.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

from olmtui.frozen import frozen
from olmtui.kinds import CATALOG_SOURCE, CSV, INSTALL_PLAN, OPERATOR_GROUP, SUBSCRIPTION
from olmtui.model.primitives import nsset
from olmtui.model.records.types import (
    SEVERITY_ORDER,
    CSVState,
    Finding,
    ObjectRef,
    OperatorGroupState,
    Severity,
)
from olmtui.model.rules.apis.reconcile import CONFLICT_REASON, STATIC_REASON
from olmtui.model.rules.catalog.health import CatalogHealth
from olmtui.objects import spec, status
from olmtui.store import ACCESS, CATALOG_CONTENT, Change, is_copied_csv

#: R-OG-8: the three ClusterRoles per OperatorGroup, and what a tenant bound to the
#: namespace role of the same name gets on the group's APIs.
ROLE_SUFFIXES: tuple[str, ...] = ("admin", "edit", "view")
ROLE_GRANTS: dict[str, str] = {
    "admin": "read and write (every verb) on the group's APIs",
    "edit": "read and write (create, update, patch, delete, get, list, watch)",
    "view": "read only (get, list, watch)",
}
AGGREGATE_PREFIX = "olm.opgroup.permissions/aggregate-to-"
_MAX_NAME = 253
_BASE62 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_FNV_OFFSET = 0xCBF29CE484222325
_FNV_PRIME = 0x100000001B3
_MASK64 = (1 << 64) - 1

#: CSV reasons that mean two groups (or a static group) fight over APIs (R-API-5).
CONFLICT_REASONS = frozenset({CONFLICT_REASON, STATIC_REASON})


# -- namespaces -------------------------------------------------------------------------------


def group_targets(og: OperatorGroupState) -> tuple[str, ...]:
    """What the group's operators watch: ``status.namespaces`` once OLM wrote it, else the
    targets derived from the spec (R-OG-1); ``("",)`` is every namespace."""
    return og.status_namespaces if og.status_namespaces is not None else og.target_namespaces


def watching_groups(
    groups: Iterable[OperatorGroupState], namespace: str
) -> list[OperatorGroupState]:
    """The groups whose targets include ``namespace`` (R-NS: ``""`` contains everything)."""
    return [og for og in groups if nsset.contains(frozenset(group_targets(og)), namespace)]


@frozen
class NamespaceSummary:
    """One namespace as the Namespaces view lists it."""

    name: str
    groups: tuple[str, ...]
    installed: tuple[str, ...]
    #: ``(csv ref, through which group)`` for operators of other namespaces that watch it.
    watched_by: tuple[tuple[str, str], ...]


def namespace_summaries(
    namespaces: Iterable[str], groups: Iterable[OperatorGroupState], csvs: Iterable[CSVState]
) -> list[NamespaceSummary]:
    """Every namespace with its own groups, its installed operators, and the operators that
    reach it through some other namespace's group targets (R-OG-1, R-OG-2)."""
    groups = list(groups)
    by_ns: dict[str, list[CSVState]] = {}
    for csv in csvs:
        by_ns.setdefault(csv.namespace, []).append(csv)
    global_groups = [og for og in groups if nsset.is_all(frozenset(group_targets(og)))]
    reaching: dict[str, list[OperatorGroupState]] = {}
    for og in groups:
        targets = group_targets(og)
        if not nsset.is_all(frozenset(targets)):
            for target in targets:
                reaching.setdefault(target, []).append(og)
    names = sorted({*namespaces, *by_ns, *(og.namespace for og in groups)})
    out = []
    for name in names:
        own = tuple(og.name for og in groups if og.namespace == name)
        watchers: list[tuple[str, str]] = []
        for og in [*global_groups, *reaching.get(name, ())]:
            if og.namespace == name:
                continue
            watchers.extend((c.ref, og.ref) for c in by_ns.get(og.namespace, ()))
        out.append(
            NamespaceSummary(
                name, own, tuple(c.name for c in by_ns.get(name, ())), tuple(sorted(set(watchers)))
            )
        )
    return out


# -- R-OG-8 cluster roles -------------------------------------------------------------------


def api_hash(api: str) -> str:
    """64-bit FNV-1a of ``Kind.version.group``, lower-case hex without padding: the hash in
    the ``olm.api.<hash>`` labels OLM puts on objects."""
    value = _FNV_OFFSET
    for byte in api.encode():
        value = ((value ^ byte) * _FNV_PRIME) & _MASK64
    return format(value, "x")


def _base62(number: int) -> str:
    digits = ""
    while number:
        number, rest = divmod(number, 62)
        digits = _BASE62[rest] + digits
    return digits or "0"


def cluster_role_name(og_namespace: str, og_name: str, suffix: str) -> str:
    """R-OG-8: ``olm.og.<og>.<suffix>-<base62(sha224("ns/name/suffix"))>``, the group name
    truncated so the whole name fits 253 characters."""
    digest = hashlib.sha224(f"{og_namespace}/{og_name}/{suffix}".encode()).digest()
    tail = f".{suffix}-{_base62(int.from_bytes(digest, 'big'))}"
    room = _MAX_NAME - len("olm.og.") - len(tail)
    return f"olm.og.{og_name[:room]}{tail}"


@frozen
class GroupClusterRole:
    """One of the group's ClusterRoles and the per-API roles it aggregates."""

    name: str
    suffix: str
    grants: str
    #: ``(api, aggregation label key)``, sorted by label as OLM sorts its selectors.
    aggregates: tuple[tuple[str, str], ...]


def group_cluster_roles(og: OperatorGroupState, csvs: Iterable[CSVState]) -> list[GroupClusterRole]:
    """R-OG-8: the admin/edit/view ClusterRoles OLM keeps for ``og``. They aggregate one
    selector per API of the providedAPIs annotation plus the APIs of the (non-copied) CSVs
    in the group's namespace; with no API there is no aggregation rule."""
    apis = set(og.provided_apis)
    apis.update(a for c in csvs if c.namespace == og.namespace for a in c.provided_apis)
    roles = []
    for suffix in ROLE_SUFFIXES:
        labels = sorted((f"{AGGREGATE_PREFIX}{api_hash(a)}-{suffix}", a) for a in apis)
        roles.append(
            GroupClusterRole(
                cluster_role_name(og.namespace, og.name, suffix),
                suffix,
                ROLE_GRANTS[suffix],
                tuple((api, label) for label, api in labels),
            )
        )
    return roles


# -- change log -------------------------------------------------------------------------------


@frozen
class ChangeEntry:
    """One line of the Changes view: what happened to which object."""

    what: str
    ref: ObjectRef
    message: str
    severity: str = "info"


def _csv_entries(change: Change, target: ObjectRef) -> list[ChangeEntry]:
    old, new = change.old, change.new
    if (new is not None and is_copied_csv(new)) or (old is not None and is_copied_csv(old)):
        return []  # copies follow their source (R-COPY-1); their churn is not news
    if change.type == "ADDED":
        phase = status(new or {}).get("phase") or "no phase yet"
        replaces = spec(new or {}).get("replaces")
        extra = f", replaces {replaces}" if replaces else ""
        return [ChangeEntry("CSV added", target, f"{phase}{extra}")]
    if change.type == "DELETED":
        return [ChangeEntry("CSV deleted", target, str(status(old or {}).get("phase") or ""))]
    entries = []
    before, after = status(old or {}), status(new or {})
    if before.get("phase") != after.get("phase"):
        severity = "error" if after.get("phase") == "Failed" else "info"
        entries.append(
            ChangeEntry(
                "phase",
                target,
                f"{before.get('phase') or '-'} -> {after.get('phase') or '-'}"
                f" ({after.get('reason') or 'no reason'})",
                severity,
            )
        )
    was = before.get("reason") in CONFLICT_REASONS
    now = after.get("reason") in CONFLICT_REASONS
    if now and not was:
        entries.append(
            ChangeEntry(
                "conflict", target, f"{after.get('reason')}: {after.get('message') or ''}", "error"
            )
        )
    elif was and not now:
        entries.append(
            ChangeEntry(
                "conflict resolved",
                target,
                f"{before.get('reason')} is gone; now {after.get('reason') or 'no reason'}",
            )
        )
    return entries


def _installplan_entries(change: Change, target: ObjectRef) -> list[ChangeEntry]:
    old, new = change.old, change.new
    spec_new = spec(new or {})
    csvs = ", ".join(spec_new.get("clusterServiceVersionNames") or [])
    if change.type == "ADDED":
        approval = spec_new.get("approval") or "?"
        waiting = "" if spec_new.get("approved") else ", waiting for approval"
        return [
            ChangeEntry("new InstallPlan", target, f"{csvs or 'no CSVs'} ({approval}{waiting})")
        ]
    if change.type == "DELETED":
        return [ChangeEntry("InstallPlan deleted", target, "")]
    entries = []
    spec_old = spec(old or {})
    if spec_new.get("approved") and not spec_old.get("approved"):
        entries.append(ChangeEntry("approved", target, csvs))  # R-IP-2
    before, after = status(old or {}).get("phase"), status(new or {}).get("phase")
    if before != after:
        severity = "error" if after == "Failed" else "info"
        entries.append(
            ChangeEntry("plan phase", target, f"{before or '-'} -> {after or '-'}", severity)
        )
    return entries


def _subscription_entries(change: Change, target: ObjectRef) -> list[ChangeEntry]:
    if change.type != "MODIFIED":
        package = spec(change.new or change.old or {}).get("name") or ""
        what = "Subscription added" if change.type == "ADDED" else "Subscription deleted"
        return [ChangeEntry(what, target, package)]
    before, after = status(change.old or {}), status(change.new or {})
    entries = []
    if before.get("state") != after.get("state"):
        entries.append(
            ChangeEntry(
                "state", target, f"{before.get('state') or '-'} -> {after.get('state') or '-'}"
            )
        )
    if before.get("installedCSV") != after.get("installedCSV"):
        entries.append(
            ChangeEntry(
                "installed",
                target,
                f"{before.get('installedCSV') or '-'} -> {after.get('installedCSV') or '-'}",
            )
        )
    return entries


def _generic_entries(change: Change, target: ObjectRef) -> list[ChangeEntry]:
    if change.type == "MODIFIED":
        return []
    return [ChangeEntry(f"{change.key.kind} {change.type.lower()}", target, "")]


def _access_entries(change: Change, _target: ObjectRef) -> list[ChangeEntry]:
    """The source lost or regained the right to read a kind (``Store.unreadable``)."""
    kind = ObjectRef(change.key.name, "", "")
    if change.new is None:
        resource = status(change.old or {}).get("resource") or change.key.name
        return [ChangeEntry("access back", kind, f"{resource} readable again")]
    new_status = status(change.new)
    return [
        ChangeEntry(
            "no access",
            kind,
            f"no access to {new_status.get('resource')} (RBAC): "
            f"{new_status.get('reason')}; the rows shown are the last seen",
            "warning",
        )
    ]


def _content_entries(change: Change, _target: ObjectRef) -> list[ChangeEntry]:
    """Catalog content fetched live arrived, went, or could not be fetched (R-V1-21)."""
    return [
        ChangeEntry(
            "catalog content",
            ObjectRef(change.key.name, "", str(news.get("catalog") or "")),
            str(news.get("message") or ""),
            "warning" if news.get("severity") == "warning" else "info",
        )
        for news in status(change.new or {}).get("news") or ()
    ]


_DERIVERS = {
    ACCESS: _access_entries,
    CATALOG_CONTENT: _content_entries,
    CSV: _csv_entries,
    INSTALL_PLAN: _installplan_entries,
    SUBSCRIPTION: _subscription_entries,
    OPERATOR_GROUP: _generic_entries,
    CATALOG_SOURCE: _generic_entries,
}


#: A batch with more additions than this is a (re)list, not news: its additions are counted
#: per kind in one entry each.
BULK_ADDITIONS = 25


def change_entries(changes: Iterable[Change]) -> list[ChangeEntry]:
    """What a person wants to know from a batch of changes: CSV phase transitions, new
    InstallPlans and approvals (R-IP-2), conflicts appearing and resolving (R-API-5),
    Subscription state moves, and groups or catalogs coming and going."""
    changes = list(changes)
    out: list[ChangeEntry] = []
    added = [c for c in changes if c.type == "ADDED"]
    if len(added) > BULK_ADDITIONS:
        counts: dict[str, int] = {}
        for change in added:
            counts[change.key.kind] = counts.get(change.key.kind, 0) + 1
        for kind, count in sorted(counts.items()):
            out.append(ChangeEntry("listed", ObjectRef(kind, "", ""), f"{count} {kind} objects"))
        changes = [c for c in changes if c.type != "ADDED"]
    for change in changes:
        derive = _DERIVERS.get(change.key.kind)
        if derive is not None:
            target = ObjectRef(change.key.kind, change.key.namespace, change.key.name)
            out.extend(derive(change, target))
    return out


# -- a Subscription's state, qualified ------------------------------------------------------

#: True Subscription conditions that say OLM is stuck, with the severity the health findings
#: give them: a failed plan (R-SUB-5), a missing one (R-SUB-6), a failed resolution (R-SUB-7),
#: unhealthy catalogs (R-SUB-8), a failed unpack (R-SUB-11).
PROBLEM_CONDITIONS: dict[str, Severity] = {
    "InstallPlanFailed": "error",  # R-SUB-5
    "InstallPlanMissing": "error",  # R-SUB-6
    "ResolutionFailed": "error",  # R-SUB-7
    "CatalogSourcesUnhealthy": "warning",  # R-SUB-8
    "BundleUnpackFailed": "error",  # R-SUB-11
}
#: How many problems the state cell names before it counts the rest.
STATE_PROBLEMS_SHOWN = 2

SubjectKey = tuple[str, str, str]


def findings_by_subject(findings: Iterable[Finding]) -> dict[SubjectKey, list[Finding]]:
    """``(kind, namespace, name)`` -> the findings about that object, in the given order."""
    out: dict[SubjectKey, list[Finding]] = {}
    for f in findings:
        out.setdefault((f.kind, f.namespace, f.name), []).append(f)
    return out


@frozen
class StateView:
    """A Subscription's ``status.state`` with what contradicts it: OLM writes
    ``AtLatestKnown`` on a Subscription whose plan failed, whose namespace resolves nothing
    (R-SUB-9: no condition is written) or whose CSV never succeeded. ``severity`` is the
    worst problem's, ``None`` when nothing qualifies the state."""

    state: str | None
    problems: tuple[str, ...]
    severity: Severity | None

    @property
    def text(self) -> str:
        """For a table cell: the first problems and a count of the rest."""
        return self.label(STATE_PROBLEMS_SHOWN)

    def label(self, limit: int | None = None) -> str:
        """``AtLatestKnown · InstallPlanFailed · CSV Pending``: the state, then up to
        ``limit`` problems (all with ``None``)."""
        shown = list(self.problems[:limit])
        rest = len(self.problems) - len(shown)
        if rest > 0:
            shown.append(f"+{rest} more")
        return " · ".join([self.state or "no state", *shown]) if shown else self.state or "-"


def worst(severities: Iterable[Severity | None]) -> Severity | None:
    """The worst of the severities given; ``None`` (healthy) when none is."""
    return min(
        (s for s in severities if s is not None), key=SEVERITY_ORDER.__getitem__, default=None
    )


def subscription_state_view(
    state: str | None,
    conditions: Iterable[Mapping[str, Any]],
    findings: Iterable[Finding],
    csv_phase: str | None = None,
    csv_findings: Iterable[Finding] = (),
) -> StateView:
    """The state of a Subscription with every problem on it, worst first: its warning and
    error ``findings`` (their codes, as ``check`` reports them), the True problem conditions
    OLM wrote that no finding already names (by type or reason), and its installed CSV's
    phase when that is not Succeeded (``csv_phase``; ``None`` when there is no installed CSV
    record), as severe as the worst of ``csv_findings`` or, with none, an error when Failed
    and a warning otherwise (R-CSV-S: only Succeeded is a working operator)."""
    problems: dict[str, Severity] = {}
    for f in findings:
        if f.severity != "info" and f.code != state:
            problems.setdefault(f.code, f.severity)
    named = set(problems)
    for c in conditions:
        kind = c.get("type") or ""
        if (
            c.get("status") == "True"
            and kind in PROBLEM_CONDITIONS
            and not {kind, c.get("reason") or ""} & named
        ):
            problems.setdefault(kind, PROBLEM_CONDITIONS[kind])
    if csv_phase is not None and csv_phase != "Succeeded":
        fallback: Severity = "error" if csv_phase == "Failed" else "warning"
        found = worst(f.severity for f in csv_findings)
        problems[f"CSV {csv_phase or 'without phase'}"] = found or fallback
    ordered = sorted(problems.items(), key=lambda p: SEVERITY_ORDER[p[1]])
    return StateView(state, tuple(p for p, _ in ordered), worst(problems.values()))


# -- a Subscription's catalog, both ways ----------------------------------------------------


@frozen
class CatalogView:
    """A Subscription's catalog as two facts that may disagree (R-SUB-8): the
    CatalogSource's own state (``source``), and what OLM wrote on the Subscription
    (``olm``, from its CatalogSourcesUnhealthy condition). ``*_severity`` is ``None`` when
    the fact is healthy; ``note`` explains a disagreement."""

    source: str
    source_severity: Severity | None
    olm: str
    olm_severity: Severity | None
    note: str = ""


def _olm_catalog_words(conditions: Iterable[Mapping[str, Any]]) -> tuple[str, Severity | None]:
    cond = next((c for c in conditions if c.get("type") == "CatalogSourcesUnhealthy"), None)
    if cond is None:
        return "no CatalogSourcesUnhealthy condition written", None
    said = f"CatalogSourcesUnhealthy={cond.get('status')} {cond.get('reason') or ''}".rstrip()
    if cond.get("message"):
        said += f": {cond['message']}"
    return said, ("warning" if cond.get("status") == "True" else None)


def _unhealthy_in_status(sub_status: Mapping[str, Any]) -> list[str]:
    """The catalogs ``status.catalogHealth`` marks unhealthy, as ``namespace/name``."""
    out = []
    for h in sub_status.get("catalogHealth") or ():
        source = h.get("catalogSourceRef") or {}
        if not h.get("healthy") and source.get("name"):
            out.append(f"{source.get('namespace') or ''}/{source['name']}")
    return out


def subscription_catalog_view(
    target: str,
    health: CatalogHealth | None,
    sub_status: Mapping[str, Any],
    readable: bool = True,
) -> CatalogView:
    """The Subscription's own CatalogSource ``target`` (``namespace/name``) and OLM's word on
    the catalogs it resolves against (R-SUB-8). ``health`` is ``None`` when the CatalogSource
    is not among the objects read: missing when CatalogSources were ``readable`` there,
    unknown otherwise (absence from what could not be read proves nothing)."""
    olm, olm_severity = _olm_catalog_words(sub_status.get("conditions") or ())
    if health is None and readable:
        return CatalogView(
            f"{target} missing: no such CatalogSource among those read", "error", olm, olm_severity
        )
    if health is None:
        return CatalogView(
            f"{target} unknown: CatalogSources there could not be read",
            "warning",
            olm,
            olm_severity,
        )
    source = f"{target} {health.state or 'no connection state'}" + (
        f" ({health.reason})" if health.reason else ""
    )
    own: Severity | None = None if health.healthy else "error"
    note = ""
    if own is None and olm_severity is not None:
        others = [r for r in _unhealthy_in_status(sub_status) if r != target]
        note = (
            f"OLM also resolves against {', '.join(others)}, which it found unhealthy "
            "(R-SUB-8: every CatalogSource of the namespace and the global catalog namespace)"
            if others
            else "the CatalogSource serves now, but OLM's condition says otherwise: OLM wrote "
            "it at its last resolution of this namespace and rewrites it at the next (R-SUB-8)"
        )
    return CatalogView(source, own, olm, olm_severity, note)
