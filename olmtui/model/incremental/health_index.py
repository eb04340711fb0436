"""The health findings kept per subject from the Store's change feed, and the merged, sorted
list of every finding kept up to date from them.

:func:`olmtui.model.incremental.health.health_findings` computes them once from scratch; the
screens need the same list after every change (and ``check``, which tries its remedies on this
index, reports its findings). Both come from the one list of rule families
(``olmtui.model.rules.health_rules.FAMILIES``, the subjects are listed there): here each family's
findings are kept per subject, and a change of a kind a family reads marks only the subjects
its ``marks`` says the change can move. The index keeps the inputs the rules read by
namespace (``rule_family.HealthInputs``) except those the Model already indexes: the
Subscriptions and non-copied CSVs by namespace are the Model's own
(``Model.subscriptions_by_namespace``, ``Model.installed_csvs_by_namespace``). The Model is
made before the index and so subscribed to the Store first: when a batch of changes reaches
the index, the Model's indexes already hold all of it. What the rules read whole or by name
comes from the Store itself.

A copied CSV feeds no health rule (R-COPY-1), so the change of a copy asks only the family
that reads every change (R-SRC-4). The catalog content (``--catalog``, PackageManifests,
ClusterCatalog content fetched live: a ``CATALOG_CONTENT`` change) changes rarely: every
subject of the families that follow it is then recomputed. Reading
:meth:`HealthIndex.findings` settles the marked subjects and patches the merged list (loader
findings, the engine's, then the health findings the engine does not already report, as
:func:`olmtui.model.incremental.health.merged_findings` builds it) in place, so reading findings
after one change costs O(changed findings), not O(cluster). The engine's own findings are taken by
difference from ``model.findings()``: the engine keeps the findings of unchanged subjects as
the same objects.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, Protocol

from olmtui.kinds import (
    CATALOG_SOURCE,
    CRD,
    CSV,
    DEPLOYMENT,
    INSTALL_PLAN,
    OPERATOR_CONDITION,
    OPERATOR_GROUP,
    PACKAGE_MANIFEST,
    POD,
    SERVICE,
    SUBSCRIPTION,
)
from olmtui.model.incremental.approval_index import ApprovalIndex
from olmtui.model.incremental.cluster_index import ClusterRules
from olmtui.model.incremental.health import finding_order
from olmtui.model.records.catalog import Catalog
from olmtui.model.records.types import SEVERITY_ORDER, Finding, SubscriptionState
from olmtui.model.rules.health_rules import FAMILIES, catalog_target
from olmtui.model.rules.input.access import no_access_findings, readable_findings
from olmtui.model.rules.input.scope import out_of_scope, scope_findings, scoped_findings
from olmtui.model.rules.installplans.summaries import PendingApproval
from olmtui.model.rules.rule_family import (
    ANY_KIND,
    CATALOGS,
    CLOCK,
    CONTENT,
    HealthInputs,
    RuleFamily,
    Seen,
    Subject,
)
from olmtui.store import ACCESS, CATALOG_CONTENT, Change, Key, Obj, Store, is_copied_csv

NSKey = tuple[str, str]
#: How far a live session's clock moves before CSV ages are measured again.
_TICK_SECONDS = 60
#: What makes a model finding hide a health finding: one code on one object.
DuplicateKey = tuple[str, str, str, str]
#: The family of each subject tag.
_BY_TAG: dict[str, RuleFamily] = {tag: family for family in FAMILIES for tag in family.tags}
#: The families a change of any kind may move (R-SRC-4, malformed objects).
_EVERY_CHANGE: tuple[RuleFamily, ...] = tuple(f for f in FAMILIES if ANY_KIND in f.reads)
#: The kinds the families read, and for each, the families a change of it may move.
_READ_KINDS: tuple[str, ...] = tuple(
    sorted({kind for family in FAMILIES for kind in family.reads} - {ANY_KIND})
)
_READERS: dict[str, tuple[RuleFamily, ...]] = {
    kind: tuple(f for f in FAMILIES if kind in f.reads or ANY_KIND in f.reads)
    for kind in _READ_KINDS
}


class FindingsModel(Protocol):
    """What the index reads from the reconciliation model
    (``olmtui.model.incremental.engine.Model``)."""

    @property
    def version(self) -> int: ...

    def findings(self) -> list[Finding]: ...

    def subscriptions(self) -> list[SubscriptionState]: ...

    def subscriptions_by_namespace(self) -> Mapping[str, Mapping[str, Obj]]: ...

    def installed_csvs_by_namespace(self) -> Mapping[str, Mapping[str, Obj]]: ...


def _duplicate_key(finding: Finding) -> DuplicateKey:
    return (finding.code, finding.kind, finding.namespace, finding.name)


class _SortedFindings:
    """Findings in :func:`finding_order`, patched one at a time (bisect on kept keys), with
    a count per severity and a generation that moves with every change, so readers can
    keep what they derive from the list until it moves."""

    def __init__(self) -> None:
        self.items: list[Finding] = []
        self._keys: list[tuple[Any, ...]] = []
        self.counts: Counter[str] = Counter()
        self.generation = 0

    def reset(self, findings: Iterable[Finding]) -> None:
        self.generation += 1
        self.items = sorted(findings, key=finding_order)
        self._keys = [finding_order(f) for f in self.items]
        self.counts = Counter(f.severity for f in self.items)

    def add(self, finding: Finding) -> None:
        self.generation += 1
        key = finding_order(finding)
        at = bisect_right(self._keys, key)
        self._keys.insert(at, key)
        self.items.insert(at, finding)
        self.counts[finding.severity] += 1

    def remove(self, finding: Finding) -> None:
        key = finding_order(finding)
        at = bisect_left(self._keys, key)
        end = bisect_right(self._keys, key, lo=at)
        # The very object first; an equal one will do (equal findings are interchangeable).
        hit = next((i for i in range(at, end) if self.items[i] is finding), at)
        if hit >= end:
            raise KeyError(finding)
        self.generation += 1
        del self._keys[hit]
        del self.items[hit]
        self.counts[finding.severity] -= 1


class HealthIndex:
    """Health findings per subject plus the merged finding list, kept from the change feed.

    ``catalogs`` returns the catalog content known now (``--catalog``, then PackageManifests,
    then ClusterCatalog content fetched live); it is called again only after a PackageManifest
    or that content changed. ``load_findings`` are the loader's, fixed for the session.
    """

    def __init__(
        self,
        store: Store,
        model: FindingsModel,
        catalogs: Callable[[], Sequence[Catalog]],
        load_findings: Sequence[Finding] = (),
        *,
        clock: Callable[[], dt.datetime] | None = None,
    ) -> None:
        self._store = store
        #: A live session's wall clock: CSV ages are measured against it (R-CSV-*), so the
        #: CSV subjects are recomputed when it has moved on (see ``_tick``); snapshots have
        #: none and stay clock-free.
        self._clock = clock
        self._ticked: dt.datetime | None = None
        self._model = model
        self._catalog_source = catalogs
        self._load_findings = tuple(load_findings)
        self._cluster = ClusterRules()
        #: What the rules read, kept from the change feed, the Subscriptions and non-copied
        #: CSVs being the Model's indexes (the rest is read from the Store).
        self._inputs = HealthInputs(
            store,
            subs=model.subscriptions_by_namespace(),
            installed=model.installed_csvs_by_namespace(),
            subscription_states=model.subscriptions,
            partitions=self._cluster,
        )
        #: Whether any Subscription was known after the last batch (R-DOC-14 and
        #: InstallPlanMissing judge only when any is).
        self._subs_known = bool(self._inputs.subs)
        self._catalogs: list[Catalog] = []
        #: CatalogSource -> namespaces whose Subscriptions target it, with how many.
        self._source_users: dict[NSKey, Counter[str]] = {}
        self._approvals = ApprovalIndex()
        # -- per subject
        self._health: dict[Subject, tuple[Finding, ...]] = {}
        self._dirty: set[Subject] = set()
        self._catalogs_dirty = True
        #: Bumped when an input of the Subscription-level derivations (approvals, metrics,
        #: Subscriptions behind their head) changes: anything but a copy or a CatalogSource.
        self.operators_generation = 0
        #: Bumped when a CatalogSource changes.
        self.catalog_sources_generation = 0
        #: Bumped when a PackageManifest changes (the content may have changed).
        self.manifests_generation = 0
        #: Bumped when a Pod changes: a catalog's registry pods are part of what it is (R-EVD-1).
        self.pods_generation = 0
        # -- the merged list
        self._merged = _SortedFindings()
        self._model_findings: list[Finding] = []
        self._model_version: int | None = None
        self._model_keys: Counter[DuplicateKey] = Counter()
        self._health_by_key: dict[DuplicateKey, list[Finding]] = {}
        self._rebuild = True
        # The cached objects are taken in without asking the families what they move: every
        # subject is marked once they are all in.
        for kind in _READ_KINDS:
            for (namespace, name), obj in store.slots(kind):
                if kind == CSV and is_copied_csv(obj):
                    continue  # no health rule reads copies (R-COPY-1): nothing to keep of one
                self._take(Change("ADDED", Key(kind, namespace, name), None, obj), False)
        for family in FAMILIES:
            self._dirty.update(family.subjects(self._inputs))
        store.subscribe(self._on_changes)

    def close(self) -> None:
        """Stop following the Store."""
        self._store.unsubscribe(self._on_changes)

    # -- reading ----------------------------------------------------------------------------
    def findings(self) -> Sequence[Finding]:
        """Every finding once, in :func:`finding_order`: what ``merged_findings`` gives for
        the same objects. The list is patched in place by later reads: copy it to keep it."""
        self._settle()
        return self._merged.items

    def health_findings(self) -> list[Finding]:
        """The health rules' findings alone, as ``health.health_findings`` computes them
        from scratch (in another order): ``check`` reports these rather than computing them a
        second time, since its remedy proofs need the index anyway."""
        self._settle()
        return [f for found in self._health.values() for f in found]

    def clock_moved(self) -> None:
        """The clock jumped, either way (a replay's time cursor moved): CSV ages are
        measured again at the next read, as a session built at that moment measures them."""
        self._ticked = None

    def findings_generation(self) -> int:
        """A number that changes whenever :meth:`findings` does: a stamp for what screens
        derive from the findings (``pipeline/analysis.py``)."""
        self._settle()
        return self._merged.generation

    def severity_counts(self) -> dict[str, int]:
        """How many findings of each severity :meth:`findings` holds."""
        self._settle()
        return {s: self._merged.counts[s] for s in SEVERITY_ORDER}

    def catalogs(self) -> list[Catalog]:
        """The catalog content as last read (after the last PackageManifest or content
        change)."""
        self._settle_catalogs()
        return self._catalogs

    def approvals(self) -> list[PendingApproval]:
        """What ``pending_approvals`` gives over :meth:`install_plans`, :meth:`subscriptions`
        and :meth:`installed_csvs`, recomputed only for the namespaces a change reached."""
        return self._approvals.approvals(self._inputs.plans, self._inputs.subs)

    def installed_csvs(self) -> Iterable[Obj]:
        """The non-copied CSVs (R-COPY-1), without a pass over the copies."""
        return (csv for csvs in self._inputs.installed.values() for csv in csvs.values())

    def subscriptions(self) -> Iterable[Obj]:
        return (sub for subs in self._inputs.subs.values() for sub in subs.values())

    def install_plans(self) -> Iterable[Obj]:
        return (plan for plans in self._inputs.plans.values() for plan in plans.values())

    # -- the change feed --------------------------------------------------------------------
    def _on_changes(self, changes: list[Change]) -> None:
        """Take each change into the inputs, then mark the subjects of the families that
        read its kind, as each family's ``marks`` says. Whether any Subscription is known
        is compared across the whole batch (the Model's index holds all of it already), and
        told with the batch's first Subscription change."""
        subs_known, self._subs_known = self._subs_known, bool(self._inputs.subs)
        subs_moved = subs_known != self._subs_known
        for change in changes:
            seen, readers = self._take(change, subs_moved)
            subs_moved = subs_moved and change.key.kind != SUBSCRIPTION
            for family in readers:
                self._dirty.update(family.marks(seen))

    @staticmethod
    def _put(index: dict[str, dict[str, Obj]], change: Change) -> None:
        namespace, name = change.key.namespace, change.key.name
        if change.new is not None:
            index.setdefault(namespace, {})[name] = change.new
            return
        held = index.get(namespace)
        if held is not None and held.pop(name, None) is not None and not held:
            del index[namespace]

    def _take(self, change: Change, subs_moved: bool) -> tuple[Seen, Sequence[RuleFamily]]:
        """Keep the inputs the change moves; the change as the families see it, and which
        families to ask. ``subs_moved``: whether the batch moved any Subscription being
        known."""
        kind, namespace = change.key.kind, change.key.namespace
        inputs, old, new = self._inputs, change.old, change.new
        readers = _READERS.get(kind, _EVERY_CHANGE)
        users: Collection[str] = ()
        plans_moved = False
        if kind == CSV:
            old = old if old is not None and not is_copied_csv(old) else None
            new = new if new is not None and not is_copied_csv(new) else None
            if old is None and new is None:
                readers = _EVERY_CHANGE  # a copy: no health rule reads copies (R-COPY-1)
            else:
                self._cluster.csv_changed((namespace, change.key.name), new)
                self._approvals.csv_changed(namespace, change.key.name, new)
                self.operators_generation += 1
        elif kind == SUBSCRIPTION:
            self._target_users(change)
            self._cluster.subscriptions_changed(namespace)
            self._approvals.namespace_changed(namespace)
            self.operators_generation += 1
        elif kind == INSTALL_PLAN:
            known_before = bool(inputs.plans)
            self._put(inputs.plans, change)
            plans_moved = bool(inputs.plans) != known_before
            self._approvals.plan_changed(namespace, old, new)
            self.operators_generation += 1
        elif kind == OPERATOR_GROUP:
            inputs.groups[namespace] += (new is not None) - (old is not None)
            if inputs.groups[namespace] <= 0:
                del inputs.groups[namespace]
        elif kind in (DEPLOYMENT, OPERATOR_CONDITION):
            self._put(inputs.deployments if kind == DEPLOYMENT else inputs.conditions, change)
        elif kind == CATALOG_SOURCE:
            users = self._source_users.get((namespace, change.key.name), ())
            self.catalog_sources_generation += 1
        elif kind == POD:
            self.pods_generation += 1
        elif kind == CRD:
            self._cluster.crd_changed(old, new)
        elif kind == SERVICE:
            self._take_service(change)
        elif kind in (PACKAGE_MANIFEST, CATALOG_CONTENT):
            # ClusterCatalog content fetched live (R-V1-21) or a PackageManifest: the catalogs
            # are read again (``_settle_catalogs``).
            self._catalogs_dirty = True
            self.manifests_generation += 1
            self.operators_generation += kind == PACKAGE_MANIFEST
        elif kind == ACCESS:
            self._rebuild = True
            self.operators_generation += 1
            self.catalog_sources_generation += 1
        seen = Seen(
            change.key,
            old,
            new,
            inputs,
            self._health,
            users,
            subs_moved and kind == SUBSCRIPTION,
            plans_moved,
        )
        return seen, readers

    def _target_users(self, change: Change) -> None:
        """Count the namespaces whose Subscriptions target each CatalogSource (R-SUB-8)."""
        namespace = change.key.namespace
        for obj, step in ((change.old, -1), (change.new, 1)):
            if obj is None:
                continue
            target = catalog_target(obj)
            users = self._source_users.setdefault(target, Counter())
            users[namespace] += step
            if users[namespace] <= 0:
                del users[namespace]
            if not users:
                del self._source_users[target]

    def _take_service(self, change: Change) -> None:
        """R-DOC-17 reads only which Services exist."""
        if (change.old is None) == (change.new is None):
            return
        namespace, name = change.key.namespace, change.key.name
        services = self._inputs.services
        if change.new is not None:
            services.setdefault(namespace, set()).add(name)
            return
        names = services.get(namespace, set())
        names.discard(name)
        if not names:
            services.pop(namespace, None)

    # -- recomputation ----------------------------------------------------------------------
    def _follow(self, event: str) -> None:
        """Mark every subject of the families that follow ``event``."""
        for family in FAMILIES:
            if event in family.follows:
                self._dirty.update(family.subjects(self._inputs))

    def _settle_catalogs(self) -> None:
        if not self._catalogs_dirty:
            return
        self._catalogs_dirty = False
        self._catalogs = list(self._catalog_source())
        self._inputs.catalogs = self._catalogs
        content = [c for c in self._catalogs if c.graph == "catalog"]
        # Content is compared by identity: PackageManifests make new Catalog objects each
        # time, and a rare full recompute beats comparing whole package graphs.
        held = self._inputs.content
        if len(content) != len(held) or any(a is not b for a, b in zip(content, held, strict=True)):
            self._inputs.content = content
            self._follow(CONTENT)
        self._follow(CATALOGS)

    def _compute(self, subject: Subject) -> list[Finding]:
        """The findings of one subject, by the family its tag names."""
        return _BY_TAG[subject[0]].compute(self._inputs, subject)

    def _tick(self) -> None:
        """Live sessions: once the clock has moved a minute on, every CSV subject is
        recomputed against it (ages, and the severities they set, follow the wall clock)."""
        if self._clock is None:
            return
        now = self._clock()
        if self._ticked is None or (now - self._ticked).total_seconds() >= _TICK_SECONDS:
            self._ticked = self._inputs.now = now
            self._follow(CLOCK)

    def _settle(self) -> None:
        self._tick()
        self._settle_catalogs()
        unreadable = self._store.unreadable
        self._dirty |= self._cluster.settle(self._inputs.installed, self._inputs.subs)
        dirty, self._dirty = self._dirty, set()
        for subject in dirty:
            found = tuple(self._compute(subject))
            old = self._health.get(subject, ())
            if found == old:
                continue
            if found:
                self._health[subject] = found
            else:
                self._health.pop(subject, None)
            for finding in old:
                self._unkeep_health(finding, unreadable)
            for finding in found:
                self._keep_health(finding, unreadable)
        if self._model.version != self._model_version:
            self._model_version = self._model.version
            self._take_model_findings(self._model.findings(), unreadable)
        if self._rebuild:
            self._rebuild = False
            self._merged.reset(self._visible(unreadable))

    def _visible(self, unreadable: Any) -> list[Finding]:
        """The merged list from scratch (``merged_findings``), for a change of access."""
        health = [
            f
            for found in self._health.values()
            for f in found
            if not self._model_keys[_duplicate_key(f)]
        ]
        merged = [*self._load_findings, *self._model_findings, *health]
        if unreadable:
            merged = readable_findings(merged, unreadable) + no_access_findings(unreadable)
        read = self._store.read_namespaces
        if read is not None:
            merged = scoped_findings(merged, read) + scope_findings(read)
        return merged

    def _shown(self, finding: Finding, unreadable: Any) -> bool:
        """Whether the finding survives ``readable_findings`` and ``scoped_findings`` (a
        per-finding test; the read namespaces are fixed for the session)."""
        if out_of_scope(finding, self._store.read_namespaces):
            return False
        return not unreadable or bool(readable_findings([finding], unreadable))

    def _keep_health(self, finding: Finding, unreadable: Any) -> None:
        key = _duplicate_key(finding)
        self._health_by_key.setdefault(key, []).append(finding)
        if not self._model_keys[key] and not self._rebuild and self._shown(finding, unreadable):
            self._merged.add(finding)

    def _unkeep_health(self, finding: Finding, unreadable: Any) -> None:
        key = _duplicate_key(finding)
        held = self._health_by_key[key]
        held.remove(finding)
        if not held:
            del self._health_by_key[key]
        if not self._model_keys[key] and not self._rebuild and self._shown(finding, unreadable):
            self._merged.remove(finding)

    def _take_model_findings(self, findings: list[Finding], unreadable: Any) -> None:
        """Patch the merged list with the difference between the engine's last list and this
        one (its unchanged subjects keep the same Finding objects)."""
        before = {id(f): f for f in self._model_findings}
        now = {id(f): f for f in findings}
        self._model_findings = findings
        for gone in [f for i, f in before.items() if i not in now]:
            self._model_finding(gone, -1, unreadable)
        for new in [f for i, f in now.items() if i not in before]:
            self._model_finding(new, 1, unreadable)

    def _model_finding(self, finding: Finding, step: int, unreadable: Any) -> None:
        key = _duplicate_key(finding)
        was_hiding = bool(self._model_keys[key])
        self._model_keys[key] += step
        if self._model_keys[key] <= 0:
            del self._model_keys[key]
        if self._rebuild:
            return
        hiding = bool(self._model_keys[key])
        if hiding != was_hiding:
            for health in self._health_by_key.get(key, ()):
                if self._shown(health, unreadable):
                    (self._merged.remove if hiding else self._merged.add)(health)
        if self._shown(finding, unreadable):
            (self._merged.add if step > 0 else self._merged.remove)(finding)
