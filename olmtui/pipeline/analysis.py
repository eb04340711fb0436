"""One session's analysis: everything the screens and the reports derive from the cache, in
typed slots, each kept current incrementally.

Every :class:`~olmtui.pipeline.session.Session` carries one (``session.analysis``), whichever
builder of ``pipeline/build.py`` made it: ``check``, ``explain`` and ``graph`` ask it for the
report or the resolutions once, the dashboard's screens read it as the store changes.

The findings come from the :class:`HealthIndex`, which follows the Store's change feed and
patches the merged list by subject, so one change costs the UI loop O(changed), however many
copies the cluster holds. The other derivations are stamped (:mod:`olmtui.pipeline.memo`)
with the index's generation counters of their inputs (a copied CSV moves none of them) rather
than the model's version, so they are rebuilt only when one of their inputs changed, at most
once per coalesced refresh. The resolver's findings (:mod:`olmtui.pipeline.predicted`) are
kept current off the UI thread.
"""

from __future__ import annotations

import datetime as dt
import heapq
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from olmtui.frozen import frozen
from olmtui.kinds import (
    CLUSTER_CATALOG,
    CLUSTER_EXTENSION,
    CLUSTER_OPERATOR,
    CLUSTER_VERSION,
    CSV,
    REVISION_KINDS,
    SUBSCRIPTION,
)
from olmtui.model.diagnosis.incidents import Diagnosis, diagnose
from olmtui.model.diagnosis.remedies import IndexedContext, remedy_for
from olmtui.model.incremental.engine import Model
from olmtui.model.incremental.health import finding_order, findings_read, health_findings
from olmtui.model.incremental.health_index import HealthIndex
from olmtui.model.records.catalog import Catalog
from olmtui.model.records.diagnosis import Change, Remedy
from olmtui.model.records.next_catalog import NextCatalogEntry
from olmtui.model.records.source_context import SourceContext
from olmtui.model.records.types import (
    SEVERITY_ORDER,
    CSVState,
    Finding,
    ObjectRef,
    SubscriptionState,
)
from olmtui.model.rules.catalog.health import CatalogHealth, catalog_health
from olmtui.model.rules.cluster_readiness.readiness import UpgradeReadiness
from olmtui.model.rules.dependencies.multitenancy import installed_instances, package_of
from olmtui.model.rules.documented.cluster_upgrade import openshift_version
from olmtui.model.rules.input.partial import PartialInput, complete_findings
from olmtui.model.rules.installplans.summaries import PendingApproval
from olmtui.model.rules.migration.states import Migration
from olmtui.model.rules.nextcatalog.findings import next_catalog_findings
from olmtui.model.rules.nextcatalog.operators import next_catalog_entries
from olmtui.model.rules.resolution.outcome_findings import resolution_outcome_findings
from olmtui.model.rules.resolution.resolve import CatalogContent
from olmtui.model.rules.resolution.result import NamespaceResolution
from olmtui.model.rules.upgrades.decided import decided_findings, decided_subscriptions
from olmtui.model.rules.upgrades.graph import channel_states
from olmtui.model.rules.v1.eligibility import Eligibility, eligibility
from olmtui.model.rules.v1.state import V1State, v1_state
from olmtui.model.viewmodels.catalog_identity import CatalogIdentity, catalog_identities
from olmtui.model.viewmodels.metrics import HeadCounts, Metrics, seed_metrics
from olmtui.model.viewmodels.metrics import head_counts as count_heads
from olmtui.model.viewmodels.migration import migration_rows
from olmtui.model.viewmodels.source_facts import (
    OLM_NAMESPACES,
    PACKAGESERVER_CSV,
    newest_time,
    olm_version,
)
from olmtui.model.viewmodels.upgrade_readiness import store_readiness
from olmtui.model.viewmodels.views import (
    NamespaceSummary,
    StateView,
    SubjectKey,
    namespace_summaries,
    subscription_state_view,
)
from olmtui.model.viewmodels.views import findings_by_subject as by_subject
from olmtui.pipeline import resolution_inputs as resolver_inputs
from olmtui.pipeline.input_state import scope_reasons
from olmtui.pipeline.memo import Memo, ObjectsMemo, same_objects
from olmtui.pipeline.pending_index import pending_index
from olmtui.pipeline.predicted import PredictedFindings, WorkerHost
from olmtui.pipeline.related import Reads, Relation, related
from olmtui.pipeline.remedy_proof import RemedyProof
from olmtui.pipeline.resolution_inputs import (
    ResolutionInputs,
    cluster_objects,
    default_global_namespace,
    subscription_namespaces,
)
from olmtui.pipeline.simulation import Simulator
from olmtui.pipeline.trial_diagnosis import (
    DiagnosedOutcome,
    RemedyPreview,
    diagnosed_trial,
    frozen_source,
    preview_remedy,
)
from olmtui.report import Report, report_json
from olmtui.report.context_json import rfc3339
from olmtui.report.json_report import LoadSummary
from olmtui.store import KINDS, Obj, Store, Unreadable, is_copied_csv

#: ``(namespace, csv)`` -> (its package, how many namespaces hold that package).
PackageSpread = dict[tuple[str, str], tuple[str, int]]


class AnalysisSource(Protocol):
    """What the Analysis reads of its session (``pipeline/session.py``): the cache and the
    model over it, the catalogs now, and what the source says of itself. Read on each use:
    a streamed snapshot sets ``load`` when it ends, a test may replace ``catalogs``."""

    @property
    def store(self) -> Store: ...
    @property
    def model(self) -> Model: ...
    @property
    def kind(self) -> str: ...
    @property
    def catalogs(self) -> Callable[[], list[Catalog]]: ...
    @property
    def load(self) -> LoadSummary | None: ...
    @property
    def load_findings(self) -> list[Finding]: ...
    @property
    def loading_now(self) -> bool: ...
    @property
    def clock(self) -> Callable[[], dt.datetime] | None: ...
    @property
    def upgrade_count(self) -> Callable[[], int] | None: ...
    @property
    def global_namespace(self) -> str | None: ...
    @property
    def gathered_at(self) -> dt.datetime | None: ...
    @property
    def recorded_at(self) -> dt.datetime | None: ...
    @property
    def next_catalogs(self) -> list[Catalog]: ...
    def input_partial(self) -> PartialInput: ...


@dataclass(slots=True)
class _Derived:
    """What was derived so far, each with what it was built from. Replaced whole when a
    streamed snapshot ends (what was derived from a partial one is dropped)."""

    index: HealthIndex | None = None
    #: The stand-in index while a snapshot streams in (no finding from a partial snapshot).
    pending: HealthIndex | None = None
    predicted: PredictedFindings | None = None
    #: The resolver's catalog content, one per catalog list the session hands out.
    content: ObjectsMemo[CatalogContent] = field(default_factory=ObjectsMemo)
    all_findings: Memo[list[Finding]] = field(default_factory=Memo)
    by_subject: Memo[dict[SubjectKey, list[Finding]]] = field(default_factory=Memo)
    catalog_healths: Memo[list[CatalogHealth]] = field(default_factory=Memo)
    identities: Memo[dict[tuple[str, str], CatalogIdentity]] = field(default_factory=Memo)
    approvals: Memo[list[PendingApproval]] = field(default_factory=Memo)
    behind: Memo[list[SubscriptionState]] = field(default_factory=Memo)
    decided: Memo[list[SubscriptionState]] = field(default_factory=Memo)
    overruled: Memo[bool] = field(default_factory=Memo)
    #: The Subscriptions of the last ``report()``, decided by its resolutions (R-RES-17).
    reported: list[SubscriptionState] | None = None
    heads: Memo[HeadCounts] = field(default_factory=Memo)
    metrics: Memo[Metrics] = field(default_factory=Memo)
    channels: Memo[list[tuple[Catalog, str, str]]] = field(default_factory=Memo)
    namespaces: Memo[list[NamespaceSummary]] = field(default_factory=Memo)
    v1: ObjectsMemo[V1State] = field(default_factory=ObjectsMemo)
    readiness: ObjectsMemo[UpgradeReadiness] = field(default_factory=ObjectsMemo)
    packages: Memo[PackageSpread] = field(default_factory=Memo)
    simulator: Simulator | None = None
    #: The last ``report()``'s resolutions, with the model's version and the catalogs they
    #: were made of: a remedy proof's state at rest resolves every namespace the same.
    reported_resolutions: tuple[int, list[Catalog], list[NamespaceResolution]] | None = None
    diagnosis: Memo[Diagnosis] = field(default_factory=Memo)
    newest: Memo[dt.datetime | None] = field(default_factory=Memo)
    migration: Memo[list[Migration]] = field(default_factory=Memo)
    next_catalog: Memo[list[NextCatalogEntry]] = field(default_factory=Memo)


class Analysis:
    """The findings, the predicted resolution, the OLM v1 state, the relations and the
    counts of one session, derived from its store, model and catalogs."""

    def __init__(self, source: AnalysisSource) -> None:
        self._source = source
        self._derived = _Derived()

    @property
    def store(self) -> Store:
        return self._source.store

    @property
    def model(self) -> Model:
        return self._source.model

    def catalogs(self) -> list[Catalog]:
        """Catalog content for upgrade graphs, as the model's upgrade hook sees it now."""
        return self._source.catalogs()

    def reset(self) -> None:
        """A streamed snapshot ended: what was derived while it loaded (no findings, see
        ``pipeline/pending_index.py``) is dropped and built again from the whole of it."""
        self._derived = _Derived()

    # -- the health findings ---------------------------------------------------------------

    def health_index(self) -> HealthIndex:
        """The session's HealthIndex, made on first use from the objects cached then; it
        reads catalog content from the session's catalog set (``--catalog``, then
        PackageManifests). While a snapshot still streams in, an index over nothing."""
        derived, source = self._derived, self._source
        if source.loading_now:
            if derived.pending is None:
                derived.pending = pending_index()
            return derived.pending
        if derived.index is None:
            derived.index = HealthIndex(
                source.store,
                source.model,
                source.catalogs,
                source.load_findings,
                clock=source.clock,
            )
        return derived.index

    def predicted_findings(self) -> list[Finding]:
        """The resolver's findings of the last run, worst first, without those ``check``
        would drop for an unreadable kind or a namespace not read (as ``merged_findings``
        drops them)."""
        follower = self._derived.predicted
        if follower is None or not follower.findings:
            return []
        store = self.store
        kept = findings_read(follower.findings, store.unreadable, store.read_namespaces)
        return sorted(kept, key=finding_order)

    @property
    def predicted(self) -> PredictedFindings | None:
        """The resolution follower, once :meth:`follow_resolution` made it."""
        return self._derived.predicted

    def predicted_generation(self) -> int:
        """The generation of the predicted findings (0 before any run)."""
        follower = self._derived.predicted
        return 0 if follower is None else follower.generation

    def findings_stamp(self) -> tuple[int, int]:
        """A stamp that changes whenever :meth:`all_findings` does: the index's generation
        and that of the predicted findings."""
        return (self.health_index().findings_generation(), self.predicted_generation())

    def shown_stamp(self) -> tuple[int, int, bool, PartialInput]:
        """What a screen has shown: the model's version, the predicted findings' generation
        (a resolution run that lands moves only the latter), whether a snapshot was
        still streaming in (its end brings the findings, and the tables' true empty texts,
        to every screen shown meanwhile, the model unmoved) and what of the input is
        missing (a live sync that ends brings back what was withheld, R-SRC-1)."""
        source = self._source
        return (
            self.model.version,
            self.predicted_generation(),
            source.loading_now,
            source.input_partial(),
        )

    def follow_resolution(self, host: WorkerHost) -> None:
        """Resolve again in a worker when the inputs moved (``pipeline/predicted.py``);
        nothing is made or read without catalog content with edges, where no such finding
        can appear."""
        if not self.has_catalog_content() or self._source.loading_now:
            return
        if self._derived.predicted is None:
            self._derived.predicted = PredictedFindings(self._resolution_stamp, self._gather)
        self._derived.predicted.follow(host, self.health_index().findings)

    def _resolution_stamp(self) -> object:
        """What a resolution run depends on: the objects (the model's version) and the
        catalog list (the session replaces it when the content changes)."""
        return (self.model.version, id(self.catalogs()))

    def _gather(self) -> tuple[ResolutionInputs, ...]:
        """The inputs of every namespace holding a Subscription, from the cache now."""
        store = self.store
        content = self.resolution_content()
        global_ns = self.global_namespace()
        return tuple(
            ResolutionInputs(objects, content, global_ns, True)
            for objects in cluster_objects(store, subscription_namespaces(store))
        )

    def all_findings(self) -> Sequence[Finding]:
        """Every finding, worst first, exactly as ``olmtui check`` reports them. Without
        predicted findings the sequence is the index's own, patched in place on later
        changes; with them, a merged copy made once per :meth:`findings_stamp`."""
        index = self.health_index()
        extra = self.predicted_findings()
        upcoming = self.next_catalog_findings()
        if upcoming:
            extra = sorted([*extra, *upcoming], key=finding_order)
        partial = self._source.input_partial()
        if not extra and not self._overruled() and not partial.partial:
            return index.findings()

        def merged() -> list[Finding]:
            # R-RES-17: an UpgradeAvailable told from the channel where the resolver picks
            # another bundle is told again from the resolver's pick (same subject, same order)
            own = decided_findings(
                index.findings(), self.model.subscriptions(), self.subscriptions()
            )
            found = list(heapq.merge(own, extra, key=finding_order))
            if not partial.partial:
                return found
            # R-SRC-1: nothing is said missing of a kind read only in part
            return sorted(complete_findings(found, partial), key=finding_order)

        stamp = (self.findings_stamp(), partial, self._next_stamp())
        return self._derived.all_findings.get(stamp, merged)

    # -- the next release's catalog --------------------------------------------------------

    def _next_stamp(self) -> Hashable:
        """What the next-catalog verdicts rest on: nothing without ``--next-catalog``, else
        the objects (the model's version) and the catalog list now."""
        if not self._source.next_catalogs:
            return None
        return (self.model.version, id(self.catalogs()))

    def next_catalog(self) -> list[NextCatalogEntry]:
        """Every installed operator against ``--next-catalog`` (R-NXT-1 .. R-NXT-6), made
        once per :meth:`_next_stamp`; empty without it."""
        next_catalogs = self._source.next_catalogs
        if not next_catalogs or self._source.loading_now:
            return []
        store = self.store

        def build() -> list[NextCatalogEntry]:
            return next_catalog_entries(
                next_catalogs,
                self.catalogs(),
                store.list(SUBSCRIPTION),
                (c for c in store.list(CSV) if not is_copied_csv(c)),
                store.list(CLUSTER_EXTENSION),
                store.list(CLUSTER_CATALOG),
            )

        return self._derived.next_catalog.get(self._next_stamp(), build)

    def next_catalog_for(self, target: ObjectRef) -> NextCatalogEntry | None:
        """The :meth:`next_catalog` entry of one Subscription or ClusterExtension, if any."""
        return next((e for e in self.next_catalog() if e.object == target), None)

    def next_catalog_findings(self) -> list[Finding]:
        """The findings of :meth:`next_catalog`, worst first."""
        return sorted(next_catalog_findings(self.next_catalog()), key=finding_order)

    def remedy(self, finding: Finding) -> Remedy | None:
        """The plan for ``finding`` on the state now (``model/diagnosis/remedies``), as
        ``check`` reports it; read for the one finding a screen details."""
        return remedy_for(finding, IndexedContext(self.store, self.catalogs()))

    def findings_by_subject(self) -> dict[SubjectKey, list[Finding]]:
        """The findings by ``(kind, namespace, name)`` of their object, rebuilt only when
        the findings moved (not per screen refresh)."""
        return self._derived.by_subject.get(
            (self.findings_stamp(), self._next_stamp()), lambda: by_subject(self.all_findings())
        )

    # -- the diagnosis ---------------------------------------------------------------------

    def global_namespace(self) -> str:
        """OLM's global catalog namespace: the session's when given, else OLM's default for
        the objects cached (R-RES-3)."""
        return self._source.global_namespace or default_global_namespace(self.store)

    def diagnose(self, findings: Sequence[Finding]) -> Diagnosis:
        """The incidents of ``findings`` (sorted as reported) over the objects cached now: the
        one place a diagnosis is made (the screens' :meth:`diagnosis`, ``check``'s report)."""
        return diagnose(findings, self.store, self.global_namespace())

    def diagnosis(self) -> Diagnosis:
        """The incidents of :meth:`all_findings`, made once per :meth:`findings_stamp` and
        model version (a new Subscription moves no finding, but a broken catalog's blast
        radius, R-RES-5)."""
        return self._derived.diagnosis.get(
            (self.findings_stamp(), self.model.version),
            lambda: self.diagnose(self.all_findings()),
        )

    def incident_counts(self) -> dict[str, int]:
        """How many incidents of each severity (the counts the Overview says)."""
        return self.diagnosis().counts()

    def severity_counts(self) -> dict[str, int]:
        """How many findings of each severity (kept by the index, no pass over the
        findings), with the predicted ones."""
        if self._source.input_partial().partial:  # some findings withheld (R-SRC-1)
            counts = dict.fromkeys(SEVERITY_ORDER, 0)
            for finding in self.all_findings():
                counts[finding.severity] += 1
            return counts
        counts = self.health_index().severity_counts()
        for finding in self.predicted_findings():
            counts[finding.severity] += 1
        return counts

    # -- what the screens count and list ---------------------------------------------------

    def catalog_healths(self) -> list[CatalogHealth]:
        return self._derived.catalog_healths.get(
            self.health_index().catalog_sources_generation,
            lambda: catalog_health(self.store.list("CatalogSource")),
        )

    def catalog_identities(self) -> dict[tuple[str, str], CatalogIdentity]:
        """What each CatalogSource is (``:catsrc``), by ``(namespace, name)``: built again when
        a CatalogSource or a Pod changed (its registry pods' health is part of it, R-EVD-1)."""
        index = self.health_index()
        return self._derived.identities.get(
            (index.catalog_sources_generation, index.pods_generation),
            lambda: {(c.namespace, c.name): c for c in catalog_identities(self.store)},
        )

    def approvals(self) -> list[PendingApproval]:
        """InstallPlans waiting for someone to approve them (R-IP-2); the index recomputes
        only the namespaces an InstallPlan, Subscription or non-copied CSV change reached,
        never for a copy."""
        index = self.health_index()
        return self._derived.approvals.get(index.operators_generation, index.approvals)

    def subscriptions(self) -> list[SubscriptionState]:
        """Every Subscription, its next bundle decided once for every view (R-RES-17): the
        resolver's pick from its last run in the worker (the dashboard) where its namespace
        resolved, the channel's (R-UPG-2) elsewhere and before any run. Rebuilt when the
        records or the resolutions moved."""
        follower = self._derived.predicted
        resolutions = None if follower is None else follower.resolutions
        return self._derived.decided.get(
            (self.health_index().operators_generation, self.predicted_generation()),
            lambda: decided_subscriptions(self.model.subscriptions(), resolutions),
        )

    def _overruled(self) -> bool:
        """Whether the resolver's last run picks, for any Subscription, another next bundle
        than its channel (then :meth:`all_findings` tells its UpgradeAvailable again)."""
        if self._derived.predicted is None:
            return False

        def build() -> bool:
            model = self.model.subscriptions()
            channel = {(s.namespace, s.name): s.upgrade.next for s in model}
            return any(
                s.upgrade.next != channel.get((s.namespace, s.name)) for s in self.subscriptions()
            )

        stamp = (self.health_index().operators_generation, self.predicted_generation())
        return self._derived.overruled.get(stamp, build)

    def decided_subscriptions(
        self, resolutions: Sequence[NamespaceResolution]
    ) -> list[SubscriptionState]:
        """Every Subscription with its next bundle decided by ``resolutions`` (run now by
        the caller, as ``check``, ``explain`` and ``graph`` do) where they resolved."""
        return decided_subscriptions(self.model.subscriptions(), resolutions)

    def reported_subscriptions(self) -> list[SubscriptionState]:
        """The Subscriptions as the last :meth:`report` decided them (its Markdown drawings
        must show the same next bundle), else :meth:`subscriptions`."""
        reported = self._derived.reported
        return self.subscriptions() if reported is None else reported

    def behind_head(self) -> list[SubscriptionState]:
        """Subscriptions whose installed CSV is not their channel's head (R-UPG-1,
        R-UPG-5). A Subscription's record reads its own object, its InstallPlan, its
        installed CSV and the catalog content: the index's operators generation covers all
        of them."""
        return self._derived.behind.get(
            (self.health_index().operators_generation, self.predicted_generation()),
            lambda: [
                s
                for s in self.subscriptions()
                if s.upgrade.head and s.installed_csv and s.installed_csv != s.upgrade.head
            ],
        )

    def head_counts(self) -> HeadCounts:
        """Subscriptions behind their head and those whose head is unknown, for the
        overview, over the records :meth:`subscriptions` decides (one answer, R-RES-17: the
        resolver's hold-backs counted); rebuilt when those move."""
        return self._derived.heads.get(
            (self.health_index().operators_generation, self.predicted_generation()),
            lambda: count_heads(self.subscriptions()),
        )

    def subscription_states(
        self, subs: Sequence[SubscriptionState]
    ) -> dict[tuple[str, str], StateView]:
        """``(namespace, name)`` -> the state each Subscription shows: OLM's state with the
        problems the findings (the same ``check`` lists) and its conditions name, and its
        installed CSV's phase with that CSV's findings
        (``model.views.subscription_state_view``)."""
        subjects = self.findings_by_subject()
        out = {}
        for sub in subs:
            obj = self.store.get("Subscription", sub.namespace, sub.name) or {}
            csv = self.model.csv(sub.namespace, sub.installed_csv) if sub.installed_csv else None
            out[(sub.namespace, sub.name)] = subscription_state_view(
                sub.state,
                (obj.get("status") or {}).get("conditions") or (),
                subjects.get(("Subscription", sub.namespace, sub.name), ()),
                None if csv is None else csv.phase or "",
                subjects.get(("ClusterServiceVersion", sub.namespace, sub.installed_csv or ""), ()),
            )
        return out

    def subscription_for_csv(self, csv: CSVState) -> SubscriptionState | None:
        """The Subscription that installed a CSV (``status.installedCSV``/``currentCSV``)."""
        for sub in self.subscriptions():
            if sub.namespace == csv.namespace and csv.name in (sub.installed_csv, sub.current_csv):
                return sub
        return None

    def metrics(self) -> Metrics:
        """The seed's OLM metrics (``olmtui.model.viewmodels.metrics``), as ``check`` reports
        them."""
        counter = self._source.upgrade_count
        count = counter() if counter is not None else None
        index = self.health_index()
        # The metrics read the non-copied CSVs' own status and the counts of CatalogSources,
        # InstallPlans and Subscriptions: copies move none of them (R-COPY-1).
        stamp = (index.operators_generation, index.catalog_sources_generation, count)
        return self._derived.metrics.get(stamp, lambda: seed_metrics(self.store, self.model, count))

    def overview_counts(self, namespace: str | None = None) -> OverviewCounts:
        """The Overview's numbers: the cached cluster-wide ones, or those of ``namespace``
        (``:ns``) counted afresh, which reads that namespace's objects once."""
        store, model = self.store, self.model
        csvs_unread = "ClusterServiceVersion" in store.unreadable
        waiting = {
            (p.namespace, s)
            for p in self.approvals()
            if namespace is None or p.namespace == namespace
            for s in p.subscriptions
        }
        healthy = sum(
            1
            for h in self.catalog_healths()
            if h.healthy and (namespace is None or h.namespace == namespace)
        )
        if namespace is None:
            copies = None if csvs_unread else model.copied_csvs().present
            return OverviewCounts(
                self.metrics(),
                copies,
                len(waiting),
                healthy,
                self.severity_counts(),
                self.head_counts(),
                self.incident_counts(),
            )
        scoped = _NamespaceCounts(store, model, namespace)
        copies = None
        if not csvs_unread:
            copies = sum(
                1 for o in store.list("ClusterServiceVersion", namespace) if is_copied_csv(o)
            )
        severities = dict.fromkeys(SEVERITY_ORDER, 0)
        for finding in self.all_findings():
            if finding.namespace == namespace:
                severities[finding.severity] += 1
        diagnosis = self.diagnosis()
        incidents = dict.fromkeys(SEVERITY_ORDER, 0)
        for root in diagnosis.roots():
            if diagnosis.findings[root].namespace == namespace:
                incidents[diagnosis.severity(root)] += 1
        subs = [s for s in self.subscriptions() if s.namespace == namespace]
        scoped_metrics = seed_metrics(scoped, scoped)
        if self._source.upgrade_count is not None:
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
            incidents,
        )

    def namespace_summaries(self) -> list[NamespaceSummary]:
        """Each namespace's OperatorGroups and operators, once per model version."""
        model = self.model
        return self._derived.namespaces.get(
            model.version,
            lambda: namespace_summaries(model.namespaces(), model.operator_groups(), model.csvs()),
        )

    def packages_of_catalog(self, namespace: str, name: str) -> list[str]:
        """Packages the CatalogSource serves, from content loaded for it or for every source
        (``--catalog PATH`` without ``NS/NAME=``)."""
        wanted = f"{namespace}/{name}"
        found: set[str] = set()
        for catalog in self.catalogs():
            if catalog.ref in (wanted, None):
                found.update(catalog.packages)
        return sorted(found)

    def channel_list(self) -> list[tuple[Catalog, str, str]]:
        """``(catalog, package, channel)`` for every channel of the loaded content."""

        def build() -> list[tuple[Catalog, str, str]]:
            out = [
                (c, p.name, ch)
                for c in self.catalogs()
                for p in c.packages.values()
                for ch in p.channels
            ]
            return sorted(out, key=lambda t: (t[1], t[2], t[0].ref or ""))

        return self._derived.channels.get(self.health_index().manifests_generation, build)

    def package_spread(self) -> Mapping[tuple[str, str], tuple[str, int]]:
        """``(namespace, csv)`` -> (its package, how many namespaces hold that package),
        for the OLM v1 readiness of a CSV (R-V1-23): one pass over the non-copied CSVs and
        the Subscriptions the HealthIndex keeps, rebuilt when one of them moved (its
        operators generation, which a copied CSV does not move)."""
        index = self.health_index()

        def build() -> PackageSpread:
            instances = installed_instances(index.installed_csvs(), index.subscriptions())
            spread: dict[str, set[str]] = {}
            for i in instances:
                spread.setdefault(i.package, set()).add(i.namespace)
            return {(i.namespace, i.csv): (i.package, len(spread[i.package])) for i in instances}

        return self._derived.packages.get(index.operators_generation, build)

    def v1_readiness(self, csv: Obj | None) -> Eligibility | None:
        """The OLM v1 readiness checklist of a CSV object (R-V1-23), fed with its
        OperatorCondition and how many namespaces hold an operator of its package; None for
        a copy or a missing object."""
        if csv is None or is_copied_csv(csv):
            return None
        meta = csv.get("metadata") or {}
        namespace, name = str(meta.get("namespace") or ""), str(meta.get("name") or "")
        package, spread = self.package_spread().get((namespace, name), (package_of(csv, {}), 1))
        # OLM names a CSV's OperatorCondition after it
        condition = self.store.get("OperatorCondition", namespace, name)
        return eligibility(csv, [] if condition is None else [condition], package, spread)

    def migration(self) -> list[Migration]:
        """Every operator's migration to OLM v1 (R-MIG-12), rebuilt when the model's version
        moved: it moves with every batch of changes the cache takes, catalog content
        included."""
        return self._derived.migration.get(
            self.model.version, lambda: migration_rows(self.store, self.catalogs())
        )

    def migration_of_csv(self, csv: Obj | None) -> Migration | None:
        """The migration row of the Subscription that installed ``csv`` (R-MIG-12); None
        for a copy, a missing object or a CSV no Subscription names installed."""
        if csv is None or is_copied_csv(csv):
            return None
        meta = csv.get("metadata") or {}
        namespace, name = str(meta.get("namespace") or ""), str(meta.get("name") or "")
        subs = [
            s
            for s in self.store.list(SUBSCRIPTION, namespace)
            if (s.get("status") or {}).get("installedCSV") == name
        ]
        if not subs:
            return None
        refs = {
            ObjectRef(SUBSCRIPTION, namespace, str((s.get("metadata") or {}).get("name") or ""))
            for s in subs
        }
        # only its Subscription's row: a CSV's detail must not rebuild every operator's
        rows = migration_rows(self.store, self.catalogs(), subs)
        return next((m for m in rows if m.object in refs), None)

    # -- OLM v1 and relations --------------------------------------------------------------

    def has_v1(self) -> bool:
        """Whether the source holds any OLM v1 object (a cluster without v1 shows nothing
        new)."""
        store = self.store
        return any(True for _ in store.list(CLUSTER_EXTENSION)) or any(
            True for _ in store.list(CLUSTER_CATALOG)
        )

    def v1_state(self) -> V1State:
        """The v1 records, rebuilt when what they are built from moved: the
        ClusterExtension and ClusterCatalog objects and the session's catalog content, by
        identity."""
        extension_objs = list(self.store.list(CLUSTER_EXTENSION))
        catalog_objs = list(self.store.list(CLUSTER_CATALOG))
        # R-V1-24: their revisions, under either name of the kind.
        revision_objs = [r for kind in sorted(REVISION_KINDS) for r in self.store.list(kind)]
        catalogs = self.catalogs()
        return self._derived.v1.get(
            (*extension_objs, *catalog_objs, *revision_objs, *catalogs),
            lambda: v1_state(extension_objs, catalog_objs, catalogs, revision_objs),
        )

    def upgrade_readiness(self) -> UpgradeReadiness:
        """What holds the cluster's next OpenShift minor (R-CUP-6), rebuilt when an object it
        reads or the catalog content moved (by identity)."""
        store = self.store
        kinds = (CLUSTER_EXTENSION, CLUSTER_CATALOG, CLUSTER_VERSION, CLUSTER_OPERATOR, CSV)
        reads: tuple[object, ...] = (
            *(o for kind in (*kinds, SUBSCRIPTION) for o in store.list(kind)),
            *self.catalogs(),
        )
        return self._derived.readiness.get(reads, lambda: store_readiness(store, self.catalogs()))

    def related(self, target: ObjectRef) -> list[Relation]:
        """``(how it relates, object)`` pairs for the object detail, in a stable order."""
        return related(Reads(self.store, self.model, self.v1_state), target)

    # -- resolution ------------------------------------------------------------------------

    def has_catalog_content(self) -> bool:
        """Whether catalog content with edges and properties was given (``--catalog``, the
        demo's catalog), not only PackageManifests: what resolution needs (R-RES-22)."""
        return any(catalog.graph == "catalog" for catalog in self.catalogs())

    def resolution_content(self) -> CatalogContent:
        """The resolver's content for the session's catalogs now, made once per catalog
        list (the session replaces the list when its catalogs change, e.g. PackageManifests
        moved)."""
        catalogs = self.catalogs()
        return self._derived.content.get((catalogs,), lambda: CatalogContent(catalogs))

    def resolution_inputs(self, namespace: str) -> ResolutionInputs:
        """The inputs of ``namespace``'s resolution now (on the UI thread: it reads the
        cache). The global catalog namespace is the session's when given, else OLM's
        default (R-RES-3)."""
        store = self.store
        return ResolutionInputs(
            cluster_objects(store, [namespace])[0],
            self.resolution_content(),
            self.global_namespace(),
            self.has_catalog_content(),
        )

    def resolutions(self, only: Collection[str] | None = None) -> list[NamespaceResolution]:
        """What OLM's next sync would decide in each namespace holding a Subscription (of
        ``only`` those when given). The resolver runs on every call: ``check`` and
        ``explain`` ask once, nothing asks as objects change."""
        return resolver_inputs.resolve_cluster(
            self.store, self.catalogs(), self._source.global_namespace, only
        )

    # -- what if ---------------------------------------------------------------------------

    def simulator(self, *, in_place: bool = False) -> Simulator:
        """Trials of changes on a copy of the session's state (``pipeline/simulation.py``):
        ``whatif`` and the proof of ``check``'s remedies (:meth:`report`); what a screen shows
        is never changed. ``in_place`` only for a session
        read once and shown nowhere (``whatif``): trials then change its own cache and put
        it back after each."""
        found = self._derived.simulator
        if found is None or found.in_place != in_place:
            if found is not None:
                found.close()
            self._derived.simulator = found = Simulator(
                self._source,
                in_place=in_place,
                index=self.health_index,
                at_rest=self._reported_resolutions,
            )
        return found

    def whatif(self, changes: Sequence[Change], *, in_place: bool = False) -> DiagnosedOutcome:
        """The outcome of ``changes`` with the incidents before and after (``olmtui
        whatif``; ``in_place`` as :meth:`simulator`). ``ChangeError`` when a change cannot
        be applied."""
        simulator = self.simulator(in_place=in_place)
        return diagnosed_trial(simulator, changes, self.store, self._source.global_namespace)

    def preview_remedy(self, diagnosis: Diagnosis, root: int) -> Callable[[], RemedyPreview]:
        """On the UI thread: the incident rooted at finding ``root``, its root's remedy and a
        copy of the state now; the call returned tries the remedy on that copy (in a worker:
        half a second on a big cluster). The session's own cache is never tried on: the
        screens show it."""
        incident = diagnosis.incident(root)
        remedy = self.remedy(diagnosis.findings[root])
        source = self._source
        frozen = frozen_source(
            self.store,
            self.model,
            self.catalogs(),
            source.load_findings,
            source.clock,
            source.global_namespace,
        )
        return lambda: preview_remedy(
            incident, remedy, Simulator(frozen), frozen.store, frozen.global_namespace
        )

    # -- the report ------------------------------------------------------------------------

    def header_context(self) -> SourceContext:
        """The versions the header shows, read on each redraw from the few objects that
        say them (the ClusterVersion, OLM's ClusterOperators, its packageserver CSV)."""
        store = self.store
        return SourceContext(
            openshift_version=openshift_version(store.list(CLUSTER_VERSION)),
            olm_version=olm_version(
                store.list(CLUSTER_OPERATOR),
                [
                    csv
                    for namespace in OLM_NAMESPACES
                    if (csv := store.get(CSV, namespace, PACKAGESERVER_CSV)) is not None
                ],
            ),
        )

    def context(self) -> SourceContext:
        """When and what the input is (the report's ``source``, line one of ``check``, the
        header): the gather time, the newest time the objects record (one pass over them,
        made once per model version), the versions shown and why it is incomplete."""
        source, store = self._source, self.store
        newest = self._derived.newest.get(
            (self.model.version, len(store)),
            lambda: newest_time(obj for kind in KINDS for obj in store.list(kind)),
        )
        reasons = [
            *source.input_partial().reasons,
            *scope_reasons(store.read_namespaces, dict(store.unreadable)),
        ]
        return replace(
            self.header_context(),
            gathered_at=source.gathered_at,
            newest_object_time=newest,
            incomplete_because=tuple(reasons),
        )

    def health_findings(self) -> list[Finding]:
        """The findings of the rules outside the model (``olmtui.model.incremental.health``):
        the HealthIndex's (which ``check``'s remedy proofs and the screens use), from
        scratch only while a snapshot still streams in (the index then holds nothing)."""
        if not self._source.loading_now:
            return self.health_index().health_findings()
        clock = self._source.clock
        now = clock() if clock is not None else None
        return health_findings(self.store, self.catalogs(), self.model.subscriptions(), now=now)

    def report(self, streamed: bool = False, *, verify_remedies: bool = False) -> Report:
        """The ``olmtui check`` report of what the session holds now (a demo reports as
        the live cluster it is), with the resolver's ``resolution[]`` and the findings
        drawn from it; ``streamed``: its long lists built only as they are written
        (``report_json``: for ``write_json`` and ``write_text``). ``verify_remedies``: each
        remedy is tried on the state (``pipeline/remedy_proof.py``) as its entry is built,
        in place (:meth:`simulator`): only for a session read once and shown nowhere
        (``check``); otherwise every remedy says ``not-simulated``."""
        source = self._source
        health = self.health_findings()
        version, catalogs = self.model.version, self.catalogs()
        resolutions = self.resolutions()
        self._derived.reported_resolutions = (version, catalogs, resolutions)
        subscriptions = self.decided_subscriptions(resolutions)
        self._derived.reported = subscriptions
        catalog_content = self.has_catalog_content()
        predicted = resolution_outcome_findings(
            resolutions,
            catalog_content=catalog_content,
            known=[*health, *self.model.findings()],
        )
        health = decided_findings(health, self.model.subscriptions(), subscriptions)
        counter = source.upgrade_count
        report = report_json(
            "recording"
            if source.recorded_at is not None
            else "snapshot"
            if source.kind == "snapshot"
            else "live",
            self.model,
            self.store,
            source.load,
            channels=channel_states(self.catalogs()),
            upgrade_count=counter() if counter is not None else None,
            health=[*health, *predicted, *self.next_catalog_findings()],
            resolutions=resolutions,
            catalog_content=catalog_content,
            catalogs=self.catalogs(),
            streamed=streamed,
            subscriptions=subscriptions,
            diagnose=self.diagnose,
            prover=self._prover if verify_remedies else None,
            partial=source.input_partial(),
            context=self.context(),
            now=source.clock() if source.clock is not None else None,
            next_catalog=self.next_catalog(),
        )
        if source.recorded_at is not None:  # a recording's moment (R-REC-1)
            report["source"]["at"] = rfc3339(source.recorded_at)
        return report

    def _reported_resolutions(self) -> list[NamespaceResolution] | None:
        """The last report's resolutions while nothing they read moved since: the model at
        the same version (every change to the cache moves it) and the very same catalogs."""
        held = self._derived.reported_resolutions
        if held is None:
            return None
        version, catalogs, resolutions = held
        if version != self.model.version or not same_objects(self.catalogs(), catalogs):
            return None
        return resolutions

    def _prover(self, findings: int) -> RemedyProof:
        return RemedyProof(lambda: self.simulator(in_place=True), findings)


class _NamespaceCounts:
    """The Store and the model narrowed to one namespace, as :func:`seed_metrics` reads them:
    the Overview under ``:ns`` counts that namespace's objects only."""

    def __init__(self, store: Store, model: Model, namespace: str) -> None:
        self._store = store
        self._model = model
        self._namespace = namespace

    @property
    def unreadable(self) -> Mapping[str, Unreadable]:
        return self._store.unreadable

    def count(self, kind: str) -> int:
        return sum(1 for _ in self._store.list(kind, self._namespace))

    def csvs(self) -> list[CSVState]:
        return [c for c in self._model.csvs() if c.namespace == self._namespace]


@frozen
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
    #: Incidents by their worst severity (R-DIAG-9): what the Overview counts.
    incidents: dict[str, int]
