"""What the screens show beyond the model's own records, kept current without a pass over
the cluster per model version.

The findings come from the session's :class:`olmtui.model.health_index.HealthIndex`, which
follows the Store's change feed and patches the merged list by subject, so one change costs
the UI loop O(changed), however many copies the cluster holds. The other derivations here
are stamped with the index's generation counters of their inputs (a copied CSV moves none
of them) rather than the model's version, so they are rebuilt only when one of their
inputs changed, at most once per coalesced refresh.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from textual.app import App

from olmtui.model.access import readable_findings
from olmtui.model.catalog import Catalog
from olmtui.model.catalog_health import CatalogHealth, catalog_health
from olmtui.model.health import finding_order
from olmtui.model.health_index import HealthIndex
from olmtui.model.installplans import PendingApproval
from olmtui.model.metrics import HeadCounts, Metrics, seed_metrics
from olmtui.model.metrics import head_counts as count_heads
from olmtui.model.scope import scoped_findings
from olmtui.model.types import SEVERITY_ORDER, CSVState, Finding, SubscriptionState
from olmtui.model.views import StateView, SubjectKey, subscription_state_view
from olmtui.model.views import findings_by_subject as by_subject
from olmtui.pipeline.session import Session
from olmtui.store import Unreadable, is_copied_csv
from olmtui.ui import predicted
from olmtui.ui.loading_bar import pending_index
from olmtui.ui.resolution import same_objects

T = TypeVar("T")

#: Where the session's HealthIndex is kept in ``derived_cache`` (never stale: it follows
#: the Store itself).
_INDEX = "health-index"


def cached(session: Session, name: str, build: Callable[[], T]) -> T:
    """``build()`` once per model version."""
    return cached_on(session, name, session.model.version, build)


def cached_on(session: Session, name: str, stamp: Hashable, build: Callable[[], T]) -> T:
    """``build()`` once per value of ``stamp`` (what its inputs' versions are)."""
    hit = session.derived_cache.get(name)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    value = build()
    session.derived_cache[name] = (stamp, value)  # type: ignore[assignment]
    return value


def cached_on_objects(
    session: Session, name: str, reads: tuple[object, ...], build: Callable[[], T]
) -> T:
    """``build()`` once per set of input objects ``reads``, compared by identity (see
    :func:`olmtui.ui.resolution.same_objects`): for a derivation whose inputs are few
    objects the model's version moves past (a copied CSV moves it, not them). The cache
    holds ``reads``, so no id is reused while it is compared."""
    hit = session.derived_cache.get(name)
    if hit is not None and same_objects(hit[1][0], reads):
        value: T = hit[1][1]
        return value
    value = build()
    session.derived_cache[name] = (0, (reads, value))
    return value


def health_index(session: Session) -> HealthIndex:
    """The session's HealthIndex, made on first use from the objects cached then; it reads
    catalog content from the session's catalog set (``--catalog``, then PackageManifests).
    While a snapshot still streams in, an index over nothing (no finding yet, see
    ``ui/loading_bar.py``)."""
    if session.loading_now:
        return pending_index(session)
    hit = session.derived_cache.get(_INDEX)
    if hit is not None:
        index: HealthIndex = hit[1]
        return index
    index = HealthIndex(
        session.store,
        session.model,
        session.catalogs,
        session.load_findings,
        clock=session.clock,
    )
    session.derived_cache[_INDEX] = (-1, index)
    return index


def catalogs(session: Session) -> list[Catalog]:
    """Catalog content for upgrade graphs, as the model's upgrade hook sees it now."""
    return session.catalogs()


def predicted_findings(session: Session) -> list[Finding]:
    """The resolver's findings of the last run (``ui/predicted.py``), worst first, without
    those ``check`` would drop for an unreadable kind or a namespace not read (as
    ``merged_findings`` drops them)."""
    found = predicted.findings(session)
    if not found:
        return []
    store = session.store
    kept = scoped_findings(found, store.read_namespaces)
    return sorted(readable_findings(kept, store.unreadable), key=finding_order)


def findings_stamp(session: Session) -> tuple[int, int]:
    """A stamp that changes whenever :func:`all_findings` does: the index's generation and
    that of the predicted findings."""
    return (health_index(session).findings_generation(), predicted.generation(session))


def shown_stamp(session: Session) -> tuple[int, int, bool]:
    """What a screen has shown: the model's version, the predicted findings' generation (a
    resolution run that lands moves only the latter) and whether a snapshot was still
    streaming in (its end brings the findings, and the tables' true empty texts, to every
    screen shown meanwhile, the model unmoved)."""
    return (session.model.version, predicted.generation(session), session.loading_now)


def follow_resolution(session: Session, host: App[Any]) -> None:
    """Resolve again in a worker when the model moved (``ui/predicted.py``); nothing is made
    or read without catalog content with edges, where no such finding can appear."""
    if session.catalog_content() and not session.loading_now:
        predicted.predicted(session).follow(host, health_index(session).findings)


def all_findings(session: Session) -> Sequence[Finding]:
    """Every finding, worst first, exactly as ``olmtui check`` reports them. Without
    predicted findings the sequence is the index's own, patched in place on later changes;
    with them, a merged copy made once per :func:`findings_stamp`."""
    index = health_index(session)
    extra = predicted_findings(session)
    if not extra:
        return index.findings()
    return cached_on(
        session,
        "all-findings",
        findings_stamp(session),
        lambda: list(heapq.merge(index.findings(), extra, key=finding_order)),
    )


def findings_by_subject(session: Session) -> dict[SubjectKey, list[Finding]]:
    """The findings by ``(kind, namespace, name)`` of their object, rebuilt only when the
    findings moved (not per screen refresh)."""
    return cached_on(
        session,
        "findings-by-subject",
        findings_stamp(session),
        lambda: by_subject(all_findings(session)),
    )


def severity_counts(session: Session) -> dict[str, int]:
    """How many findings of each severity (kept by the index, no pass over the findings),
    with the predicted ones."""
    counts = health_index(session).severity_counts()
    for finding in predicted_findings(session):
        counts[finding.severity] += 1
    return counts


def catalog_healths(session: Session) -> list[CatalogHealth]:
    index = health_index(session)
    return cached_on(
        session,
        "catalog_health",
        index.catalog_sources_generation,
        lambda: catalog_health(session.store.list("CatalogSource")),
    )


def approvals(session: Session) -> list[PendingApproval]:
    """InstallPlans waiting for someone to approve them (R-IP-2); the index recomputes only
    the namespaces an InstallPlan, Subscription or non-copied CSV change reached, never for
    a copy."""
    index = health_index(session)
    return cached_on(
        session,
        "approvals",
        index.operators_generation,
        index.approvals,
    )


def behind_head(session: Session) -> list[SubscriptionState]:
    """Subscriptions whose installed CSV is not their channel's head (R-UPG-1, R-UPG-5).
    A Subscription's record reads its own object, its InstallPlan, its installed CSV and the
    catalog content: the index's operators generation covers all of them."""
    return cached_on(
        session,
        "behind",
        health_index(session).operators_generation,
        lambda: [
            s
            for s in session.model.subscriptions()
            if s.upgrade.head and s.installed_csv and s.installed_csv != s.upgrade.head
        ],
    )


def subscription_states(
    session: Session, subs: Sequence[SubscriptionState]
) -> dict[tuple[str, str], StateView]:
    """``(namespace, name)`` -> the state each Subscription shows: OLM's state with the
    problems the findings (the same ``check`` lists) and its conditions name, and its
    installed CSV's phase with that CSV's findings (``model.views.subscription_state_view``)."""
    subjects = findings_by_subject(session)
    out = {}
    for sub in subs:
        obj = session.store.get("Subscription", sub.namespace, sub.name) or {}
        csv = session.model.csv(sub.namespace, sub.installed_csv) if sub.installed_csv else None
        out[(sub.namespace, sub.name)] = subscription_state_view(
            sub.state,
            (obj.get("status") or {}).get("conditions") or (),
            subjects.get(("Subscription", sub.namespace, sub.name), ()),
            None if csv is None else csv.phase or "",
            subjects.get(("ClusterServiceVersion", sub.namespace, sub.installed_csv or ""), ()),
        )
    return out


def head_counts(session: Session) -> HeadCounts:
    """Subscriptions behind their head and those whose head is unknown, for the overview;
    cached like :func:`behind_head`, over the same records."""
    return cached_on(
        session,
        "head_counts",
        health_index(session).operators_generation,
        lambda: count_heads(session.model.subscriptions()),
    )


def subscription_for_csv(session: Session, csv: CSVState) -> SubscriptionState | None:
    """The Subscription that installed a CSV (``status.installedCSV``/``currentCSV``)."""
    for sub in session.model.subscriptions():
        if sub.namespace == csv.namespace and csv.name in (sub.installed_csv, sub.current_csv):
            return sub
    return None


def metrics(session: Session) -> Metrics:
    """The seed's OLM metrics (``olmtui.model.metrics``), as ``check`` reports them."""
    count = session.upgrade_count() if session.upgrade_count is not None else None
    index = health_index(session)
    # The metrics read the non-copied CSVs' own status and the counts of CatalogSources,
    # InstallPlans and Subscriptions: copies move none of them (R-COPY-1).
    stamp = (index.operators_generation, index.catalog_sources_generation, count)
    return cached_on(
        session, "metrics", stamp, lambda: seed_metrics(session.store, session.model, count)
    )


class _NamespaceCounts:
    """The Store and the model narrowed to one namespace, as :func:`seed_metrics` reads them:
    the Overview under ``:ns`` counts that namespace's objects only."""

    def __init__(self, session: Session, namespace: str) -> None:
        self._session = session
        self._namespace = namespace

    @property
    def unreadable(self) -> Mapping[str, Unreadable]:
        return self._session.store.unreadable

    def count(self, kind: str) -> int:
        return sum(1 for _ in self._session.store.list(kind, self._namespace))

    def csvs(self) -> list[CSVState]:
        return [c for c in self._session.model.csvs() if c.namespace == self._namespace]


@dataclass(frozen=True, slots=True)
class OverviewCounts:
    """Every number the Overview's summary says, for the whole source or one namespace."""

    metrics: Metrics
    #: Copied CSVs (R-COPY-1); ``None`` when CSVs cannot be read.
    copies: int | None
    #: Subscriptions waiting for an InstallPlan's approval (R-IP-2).
    waiting: int
    healthy_catalogs: int
    severities: dict[str, int]
    heads: HeadCounts


def overview_counts(session: Session, namespace: str | None = None) -> OverviewCounts:
    """The Overview's numbers: the cached cluster-wide ones, or those of ``namespace``
    (``:ns``) counted afresh, which reads that namespace's objects once."""
    csvs_unread = "ClusterServiceVersion" in session.store.unreadable
    waiting = {
        (p.namespace, s)
        for p in approvals(session)
        if namespace is None or p.namespace == namespace
        for s in p.subscriptions
    }
    healthy = sum(
        1
        for h in catalog_healths(session)
        if h.healthy and (namespace is None or h.namespace == namespace)
    )
    if namespace is None:
        copies = None if csvs_unread else session.model.copied_csvs().present
        return OverviewCounts(
            metrics(session),
            copies,
            len(waiting),
            healthy,
            severity_counts(session),
            head_counts(session),
        )
    scoped = _NamespaceCounts(session, namespace)
    copies = None
    if not csvs_unread:
        copies = sum(
            1 for o in session.store.list("ClusterServiceVersion", namespace) if is_copied_csv(o)
        )
    severities = dict.fromkeys(SEVERITY_ORDER, 0)
    for finding in all_findings(session):
        if finding.namespace == namespace:
            severities[finding.severity] += 1
    subs = [s for s in session.model.subscriptions() if s.namespace == namespace]
    scoped_metrics = seed_metrics(scoped, scoped)
    if session.upgrade_count is not None:
        # a live watcher counts the upgrades it saw cluster-wide, not per namespace: the
        # namespace's replacements in progress would understate them ("0 seen" after one)
        scoped_metrics = replace(scoped_metrics, csv_upgrade_count=None)
    return OverviewCounts(
        scoped_metrics,
        copies,
        len(waiting),
        healthy,
        severities,
        count_heads(subs),
    )


def packages_of_catalog(session: Session, namespace: str, name: str) -> list[str]:
    """Packages the CatalogSource serves, from content loaded for it or for every source
    (``--catalog PATH`` without ``NS/NAME=``)."""
    wanted = f"{namespace}/{name}"
    found: set[str] = set()
    for catalog in catalogs(session):
        if catalog.ref in (wanted, None):
            found.update(catalog.packages)
    return sorted(found)


def channel_list(session: Session) -> list[tuple[Catalog, str, str]]:
    """``(catalog, package, channel)`` for every channel of the loaded content."""

    def build() -> list[tuple[Catalog, str, str]]:
        out = [
            (c, p.name, ch)
            for c in catalogs(session)
            for p in c.packages.values()
            for ch in p.channels
        ]
        return sorted(out, key=lambda t: (t[1], t[2], t[0].ref or ""))

    return cached_on(session, "channels", health_index(session).manifests_generation, build)
