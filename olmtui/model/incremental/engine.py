"""The incremental reconciliation model: wires the rule modules to the Store's change feed.

Every change marks the subjects it can affect dirty (its namespace's groups and CSVs, the
groups whose effective sets meet a changed group, the copies of one CSV, ...) and only those
are recomputed, stage by stage (``stages.Stage``): group targets -> group links -> CSVs ->
copy sources -> copies -> Subscriptions -> namespaces. A stage may only mark later ones
dirty, and ``stages.DirtySet`` refuses anything else. Group records and copy findings are
rebuilt when next read. Results are kept per subject; the sorted lists the readers ask for
are cached per ``version``.

The rules live in their modules (``operatorgroups``, ``membership``, ``apis``, ``copies``,
``subscriptions``, ...); the bookkeeping of copies is ``copy_tracking``'s and the groups'
view of each other ``group_links``'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from itertools import chain, islice
from typing import Any, TypeVar

from olmtui.frozen import frozen
from olmtui.gc_pause import cyclic_gc_paused
from olmtui.kinds import (
    CSV,
    INSTALL_PLAN,
    NAMESPACE,
    OLM_CONFIG,
    OPERATOR_GROUP,
    PACKAGE_MANIFEST,
    SUBSCRIPTION,
)
from olmtui.model.incremental.cached_namespaces import CachedNamespaces
from olmtui.model.incremental.copy_tracking import CopyTracker
from olmtui.model.incremental.group_index import GroupIndex, status_set
from olmtui.model.incremental.group_links import (
    NO_LINKS,
    GroupLinks,
    LinkEntry,
    conflicts,
    link_entry,
)
from olmtui.model.incremental.stages import DirtySet, NSKey, Stage
from olmtui.model.primitives import nsset
from olmtui.model.records.types import (
    Conflict,
    CopiedCSVState,
    CSVState,
    Finding,
    OperatorGroupState,
    SubscriptionState,
    UpgradeInfo,
    Verdict,
    ref,
)
from olmtui.model.rules.apis.reconcile import (
    APISet,
    CrdOwners,
    api_list,
    api_surface,
    csv_api_outcome,
    expected_group_apis,
    group_api_findings,
    group_provided_apis,
    owned_crd_names,
)
from olmtui.model.rules.copies.placement import (
    CopySource,
    copies_disabled,
    not_copied_reason,
    olmconfig_findings,
    orphaned_source,
    parent_gc_reason,
)
from olmtui.model.rules.csvs.operator_conditions import HELD_REASON
from olmtui.model.rules.csvs.replacements import ReplacementIndex, replacement_findings
from olmtui.model.rules.documented.platform import is_platform_owned
from olmtui.model.rules.installmodes.supported_modes import install_mode_set, unknown_mode_findings
from olmtui.model.rules.membership.checks import (
    TARGETS_ANNOTATION,
    blocked_findings,
    group_checks,
    member_findings,
    recovery,
    status_of,
)
from olmtui.model.rules.operatorgroups.targets import (
    TargetSelection,
    group_mode,
    is_static,
    namespace_findings,
    selection_findings,
    service_account,
    status_namespaces,
    target_namespaces,
    uid_label,
    upgrade_strategy,
)
from olmtui.model.rules.subscriptions.state import (
    PackageKey,
    channel_head,
    effective_approval,
    head_preflight,
    package_manifest_key,
    subscription_findings,
    subscription_package,
    subscription_state,
)
from olmtui.objects import Obj, annotations_of, labels, spec, status
from olmtui.store import Change, Store, is_copied_csv

#: What the model keeps findings under: ("og" | "csv", namespace, name), ("subs" | "ns",
#: namespace) or ("olmconfig",).
Subject = tuple[str, ...]
#: Plugs the upgrade rules into Subscription records: (subscription, store) -> UpgradeInfo.
UpgradeHook = Callable[[Obj, Store], UpgradeInfo]
_T = TypeVar("_T")

#: Set by the snapshot loader on Namespaces it synthesizes: their labels are unknown, so
#: label drift (R-OG-5) is not judged on them.
from olmtui.model.primitives.inferred import INFERRED_ANNOTATION  # noqa: E402 (engine split: move up)


@frozen
class _Chains:
    """What every CSV of a namespace reads from its siblings, indexed once per change of
    the namespace's CSVs (a chain of thousands costs linear time)."""

    replacements: ReplacementIndex
    owners: CrdOwners
    #: The CSVs OLM holds Pending/OperatorConditionNotUpgradeable (R-CSV-P 1).
    held: frozenset[str]


@frozen
class _CSVEval:
    state: CSVState
    provided: APISet
    findings: tuple[Finding, ...]
    source: CopySource

    @property
    def group_facts(self) -> tuple[APISet, str | None, str | None]:
        """What its OperatorGroup's state reads from a member (R-API-7/8 expectations,
        pruning blockers): a status message or annotation change leaves the group alone."""
        return self.provided, self.state.phase, self.state.api_reconciliation


#: The kinds the model reads, in the order the initial build hands it the cached objects.
_INITIAL_KINDS = (
    NAMESPACE,
    OPERATOR_GROUP,
    CSV,
    SUBSCRIPTION,
    INSTALL_PLAN,
    OLM_CONFIG,
    PACKAGE_MANIFEST,
)
#: Objects per batch of the model's first build: few enough that what one batch holds
#: (its change records, what they mark to recompute) is small beside the cache.
INITIAL_BATCH = 50_000


def _replaces(csv: Obj) -> str | None:
    found: str | None = spec(csv).get("replaces")
    return found


def _is_held(csv: Obj) -> bool:
    """R-CSV-P 1: OLM holds this CSV for its predecessor's OperatorCondition."""
    return status(csv).get("reason") == HELD_REASON


def _is_active(namespace: Obj | None) -> int:
    """1 for a Namespace whose phase is Active, else 0 (none at all included)."""
    return int(namespace is not None and status(namespace).get("phase") == "Active")


def _drop(index: dict[str, dict[str, Obj]], key: NSKey) -> None:
    """Forget one object of a by-namespace index, and its namespace once it holds none."""
    held = index.get(key[0])
    if held is not None and held.pop(key[1], None) is not None and not held:
        del index[key[0]]


def _sorted_ns(names: frozenset[str] | set[str]) -> tuple[str, ...]:
    return tuple(sorted(names))


class Model:
    """Everything the group rules derive from a Store, kept current from its change feed."""

    def __init__(self, store: Store, *, upgrades: UpgradeHook | None = None) -> None:
        self._store = store
        self._upgrades = upgrades
        self.version = 0
        # -- indices of the cached objects
        self._namespaces = CachedNamespaces(store)
        #: How many cached Namespaces are Active (R-COPY-7). Which are inferred is read from
        #: the cache: a set of each was ~40 MB per 400,000 Namespaces.
        self._active = 0
        self._groups = GroupIndex(partial(store.get, OPERATOR_GROUP))
        self._csvs: dict[str, dict[str, Obj]] = {}
        #: The CRDs each non-copied CSV owns (R-CSV-O), made once per version of the CSV:
        #: its siblings' evaluations read them all.
        self._owned: dict[NSKey, frozenset[str]] = {}
        #: Per namespace, its CSVs' chains; dropped when one of its CSVs changes.
        self._chains: dict[str, _Chains] = {}
        #: The namespaces whose CSVs are all marked dirty in the batch being applied.
        self._csvs_marked: set[str] = set()
        self._subs: dict[str, dict[str, Obj]] = {}
        self._copies = CopyTracker(store.read_namespaces)
        self._olmconfig: Obj | None = None
        self._manifests: dict[PackageKey, dict[NSKey, Obj]] = {}
        self._subs_by_package: dict[PackageKey, set[NSKey]] = {}
        # -- derived, per subject
        self._selection: dict[NSKey, TargetSelection] = {}
        self._links: dict[NSKey, GroupLinks] = {}
        self._og_states: dict[NSKey, OperatorGroupState] = {}
        self._csv_evals: dict[NSKey, _CSVEval] = {}
        self._sub_states: dict[NSKey, SubscriptionState] = {}
        self._findings: dict[Subject, tuple[Finding, ...]] = {}
        #: Each group's findings, when it has some, under the key its state is kept by (not
        #: a ``("og", namespace, name)`` of its own: 400,000 groups each with a finding).
        self._og_findings: dict[NSKey, tuple[Finding, ...]] = {}
        #: Groups whose state is rebuilt when next read: while a cluster is listed, a group
        #: changes with each batch that brings one of its members.
        self._pending_og_states: set[NSKey] = set()
        self._cache: dict[str, tuple[int, Any]] = {}
        self._dirty = DirtySet()
        # The cached objects in batches, as a live list feeds them: one batch of 1,600,000
        # Namespaces held a change record for each (~300 MB) and a set of them all to
        # recompute (~100 MB) beside the cache. A snapshot of fewer objects than
        # a batch is one batch, as it always was.
        changes = (
            Change("ADDED", key, None, obj)
            for kind in _INITIAL_KINDS
            for key, obj in store.items(kind)
        )
        while batch := list(islice(changes, INITIAL_BATCH)):
            self._apply(batch)
        if self.version == 0:  # an empty store: derived once all the same
            self._apply([])
        store.subscribe(self._apply)

    # -- public API -----------------------------------------------------------------------
    def operator_groups(self) -> list[OperatorGroupState]:
        return self._cached("ogs", self._build_operator_groups)

    def _build_operator_groups(self) -> list[OperatorGroupState]:
        self._settle_og_states()
        return [self._og_states[k] for k in sorted(self._og_states)]

    def operator_group(self, namespace: str, name: str) -> OperatorGroupState | None:
        self._settle_og_states()
        return self._og_states.get((namespace, name))

    def csvs(self) -> list[CSVState]:
        return self._cached(
            "csvs", lambda: [self._csv_evals[k].state for k in sorted(self._csv_evals)]
        )

    def csv(self, namespace: str, name: str) -> CSVState | None:
        found = self._csv_evals.get((namespace, name))
        return None if found is None else found.state

    def copied_csvs(self) -> CopiedCSVState:
        return self._cached("copied", self._copies.copied)

    def copies_of(self, namespace: str, name: str) -> list[str]:
        return sorted(self._copies.held((namespace, name)))

    def subscriptions(self) -> list[SubscriptionState]:
        return self._cached("subs", lambda: [self._sub_states[k] for k in sorted(self._sub_states)])

    def findings(self) -> list[Finding]:
        return self._cached("findings", self._build_findings)

    def _build_findings(self) -> list[Finding]:
        self._settle_og_states()
        self._copies.settle_findings(self._csv_exists)
        found = list(chain.from_iterable(self._findings.values()))
        found += chain.from_iterable(self._og_findings.values())
        found += chain.from_iterable(self._copies.findings.values())
        found.sort(key=lambda f: f.sort_key)
        return found

    def namespaces(self) -> list[str]:
        return self._cached("namespaces", lambda: sorted(self._namespaces))

    def subscriptions_by_namespace(self) -> Mapping[str, Mapping[str, Obj]]:
        """Every cached Subscription by namespace and name; a namespace with none left is
        dropped, so its truth says whether any Subscription is known. The index itself,
        current after each batch of changes: read it, never change it."""
        return self._subs

    def installed_csvs_by_namespace(self) -> Mapping[str, Mapping[str, Obj]]:
        """The non-copied CSVs (R-COPY-1) by namespace and name, as
        :meth:`subscriptions_by_namespace` holds the Subscriptions."""
        return self._csvs

    def operator_groups_in(self, namespace: str) -> Mapping[str, Obj]:
        """The cached OperatorGroups of one namespace by name, read anew from the cache."""
        return self._groups.in_namespace(namespace)

    # -- caching ----------------------------------------------------------------------------
    def _cached(self, name: str, build: Callable[[], _T]) -> _T:
        hit = self._cache.get(name)
        if hit is not None and hit[0] == self.version:
            value: _T = hit[1]
            return value
        built = build()
        self._cache[name] = (self.version, built)
        return built

    def _csv_exists(self, key: NSKey) -> bool:
        return self._csvs.get(key[0], {}).get(key[1]) is not None

    # -- the change feed --------------------------------------------------------------------
    def _apply(self, changes: list[Change]) -> None:
        with cyclic_gc_paused(keep=True):
            for change in changes:
                handler = self._handlers.get(change.key.kind)
                if handler is not None:
                    handler(self, change)
            self._recompute()
            self.version += 1

    # -- indexing: one handler per kind --------------------------------------------------------
    def _on_namespace(self, change: Change) -> None:
        name = change.key.name
        dirty = self._dirty
        self._active += _is_active(change.new) - _is_active(change.old)
        old_labels = labels(change.old) if change.old else None
        new_labels = labels(change.new) if change.new else None
        if change.type != "MODIFIED" or old_labels != new_labels:
            dirty.targets |= self._groups.selecting
        if change.type != "MODIFIED":
            self._copies.namespaces_changed()
            dirty.targets |= self._groups.listing(name)
            # Copies follow the existing namespaces (R-COPY-3).
            for og in self._groups.global_groups | self._groups.naming_in_status(name):
                self._mark_csvs_of(og[0])
            dirty.copies |= {(name, c) for c in self._copies.in_namespace(name)}
        dirty.namespaces.add(name)

    def _on_operator_group(self, change: Change) -> None:
        key = (change.key.namespace, change.key.name)
        namespace = key[0]
        dirty = self._dirty
        groups = self._groups
        before = groups.signature(key)
        old_status = status_set(change.old)
        old_uid = uid_label(change.old) if change.old else None
        groups.remove(key, change.old)
        if change.new is not None:
            groups.add(key, change.new)
            dirty.targets.add(key)
            dirty.links.add(key)
        else:
            self._selection.pop(key, None)
            self._links.pop(key, None)
            self._og_states.pop(key, None)
            self._og_findings.pop(key, None)
        after = groups.signature(key)
        if before != after:
            candidates = groups.candidates(before) | groups.candidates(after)
            dirty.link_patches |= {(other, key) for other in candidates if other != key}
        new_status = status_set(change.new)
        new_uid = uid_label(change.new) if change.new else None
        if old_uid != new_uid:
            dirty.namespaces |= old_status | new_status
        else:
            dirty.namespaces |= old_status ^ new_status
        dirty.namespaces.add(namespace)
        # the group's own key, not an equal tuple: its state and findings are kept under it
        pending = self._pending_og_states
        if change.new is not None:
            pending.add(key)
        pending.update((namespace, n) for n in self._groups.names(namespace) if n != key[1])
        self._mark_csvs_of(namespace)
        dirty.subscriptions.add(namespace)

    def _mark_csvs_of(self, namespace: str) -> None:
        # Once per batch: a CSV added later in the batch marks itself (_add_csv), so loading
        # a namespace of thousands of CSVs costs linear time.
        if namespace not in self._csvs_marked:
            self._csvs_marked.add(namespace)
            self._dirty.csvs |= {(namespace, n) for n in self._csvs.get(namespace, {})}

    def _on_csv(self, change: Change) -> None:
        key = (change.key.namespace, change.key.name)
        old_copy = change.old is not None and is_copied_csv(change.old)
        new_copy = change.new is not None and is_copied_csv(change.new)
        if change.old is not None and change.new is not None:
            if not old_copy and not new_copy:
                self._add_csv(key, change.new, change.old)
                return
            if old_copy and new_copy and self._copies.refresh(key, change.new):
                # A copy's status or metadata changed: only its own stale reason can change.
                self._dirty.copies.add(key)
                return
        # Copies come by the hundred thousand: they are indexed here, without a further call.
        if change.old is not None:
            if not old_copy:
                self._remove_csv(key)
            elif (source := self._copies.remove(key)) is not None:
                self._dirty.sources.setdefault(source, set()).add(key[0])
        if change.new is not None:
            if not new_copy:
                self._add_csv(key, change.new, None)
            else:
                source = self._copies.add(key, change.new)
                self._dirty.copies.add(key)
                self._dirty.sources.setdefault(source, set()).add(key[0])

    def _remove_csv(self, key: NSKey) -> None:
        _drop(self._csvs, key)
        self._owned.pop(key, None)
        self._csv_evals.pop(key, None)
        self._findings.pop(("csv", *key), None)
        self._dirty.sources.setdefault(key, set())
        self._mark_namespace_csv_change(key)
        self._mark_csvs_of(key[0])

    def _add_csv(self, key: NSKey, new: Obj, old: Obj | None) -> None:
        self._csvs.setdefault(key[0], {})[key[1]] = new
        self._dirty.csvs.add(key)
        # A changed member reaches its groups through its evaluation (_recompute_csv).
        self._mark_namespace_csv_change(key, membership=old is None)
        # What the other CSVs of the namespace read from this one: the CRDs it owns (R-CSV-O)
        # and the CSV it replaces (R-CSV-F 1).
        owned = owned_crd_names(new)
        if (
            old is None
            or self._owned.get(key) != owned
            or _replaces(old) != _replaces(new)
            or _is_held(old) != _is_held(new)
        ):
            self._mark_csvs_of(key[0])
        self._owned[key] = owned

    def _chains_of(self, namespace: str) -> _Chains:
        found = self._chains.get(namespace)
        if found is None:
            csvs = self._csvs.get(namespace, {})
            index = ReplacementIndex({n: _replaces(c) for n, c in csvs.items()})
            owned = {n: self._owned[(namespace, n)] for n in csvs}
            held = frozenset(n for n, c in csvs.items() if _is_held(c))
            found = self._chains[namespace] = _Chains(index, CrdOwners(owned, index), held)
        return found

    def _mark_namespace_csv_change(self, key: NSKey, *, membership: bool = True) -> None:
        self._chains.pop(key[0], None)
        if membership:
            self._pending_og_states |= {(key[0], n) for n in self._groups.names(key[0])}
        # The upgrade hook reads the installed CSV (its spec.version) of each Subscription.
        if self._upgrades is not None and any(
            status(s).get("installedCSV") == key[1] for s in self._subs.get(key[0], {}).values()
        ):
            self._dirty.subscriptions.add(key[0])

    def _on_subscription(self, change: Change) -> None:
        key = (change.key.namespace, change.key.name)
        if change.old is not None:
            self._subs_by_package.get(subscription_package(change.old), set()).discard(key)
        if change.new is not None:
            self._subs_by_package.setdefault(subscription_package(change.new), set()).add(key)
        if change.new is None:
            _drop(self._subs, key)
            self._sub_states.pop(key, None)
        else:
            self._subs.setdefault(key[0], {})[key[1]] = change.new
        self._dirty.subscriptions.add(key[0])

    def _on_package_manifest(self, change: Change) -> None:
        slot = (change.key.namespace, change.key.name)
        for obj in (change.old, change.new):
            if obj is None:
                continue
            package = package_manifest_key(obj)
            held = self._manifests.setdefault(package, {})
            if obj is change.new:
                held[slot] = obj
            else:
                held.pop(slot, None)
            if not held:
                del self._manifests[package]
            self._dirty.subscriptions |= {ns for ns, _ in self._subs_by_package.get(package, ())}

    def _on_install_plan(self, change: Change) -> None:
        self._dirty.subscriptions.add(change.key.namespace)

    def _on_olmconfig(self, change: Change) -> None:
        if change.key.name != "cluster":
            return
        before = copies_disabled(self._olmconfig)
        self._olmconfig = change.new
        if copies_disabled(self._olmconfig) != before:
            for og in self._groups.global_groups:
                self._mark_csvs_of(og[0])

    _handlers: dict[str, Callable[[Model, Change], None]] = {
        NAMESPACE: _on_namespace,
        OPERATOR_GROUP: _on_operator_group,
        CSV: _on_csv,
        SUBSCRIPTION: _on_subscription,
        INSTALL_PLAN: _on_install_plan,
        OLM_CONFIG: _on_olmconfig,
        PACKAGE_MANIFEST: _on_package_manifest,
    }

    # -- recomputation, stage by stage --------------------------------------------------------
    def _recompute(self) -> None:
        try:
            self._run_stages(self._dirty)
        except BaseException:
            self._dirty.reset(keep_marks=True)
            raise
        finally:
            self._csvs_marked.clear()
        self._dirty.reset()

    def _run_stages(self, dirty: DirtySet) -> None:
        for key in dirty.take(Stage.TARGETS):
            self._recompute_selection(key)
        rebuilt: set[NSKey] = dirty.take(Stage.LINKS)
        for key in rebuilt:
            self._recompute_links(key)
        for key, other in dirty.take(Stage.LINK_PATCHES):
            if key not in rebuilt:
                self._patch_links(key, other)
        for key in dirty.take(Stage.CSVS):
            self._recompute_csv(key)
        sources: dict[NSKey, set[str]] = dirty.take(Stage.SOURCES)
        for source, moved in sources.items():
            self._recompute_source(source, moved)
        for key in dirty.take(Stage.COPIES):
            self._copies.recompute_copy(key)
        for namespace in dirty.take(Stage.SUBSCRIPTIONS):
            self._recompute_subscriptions(namespace)
        for namespace in dirty.take(Stage.NAMESPACES):
            self._recompute_namespace(namespace)
        self._recompute_olmconfig()

    def _recompute_selection(self, key: NSKey) -> None:
        og = self._groups.get(key)
        if og is None:
            return
        selection = target_namespaces(og, self._namespaces)
        old = self._selection.get(key)
        self._selection[key] = selection
        if old is None or old.namespaces != selection.namespaces:
            self._mark_csvs_of(key[0])
            self._dirty.subscriptions.add(key[0])
        self._pending_og_states.add(key)

    def _link_entry(self, key: NSKey, other: NSKey) -> LinkEntry | None:
        effective = self._groups.effective
        apis = self._groups.apis.get(other, frozenset())
        return link_entry(effective.get(key), other, effective.get(other), apis)

    def _recompute_links(self, key: NSKey) -> None:
        """A group's whole view of the others, rebuilt."""
        effective = self._groups.effective.get(key)
        if effective is None:
            return
        links = GroupLinks()
        for other in self._groups.candidates((effective, frozenset())):
            if other != key:
                links.put(other, self._link_entry(key, other))
        old = self._links.get(key)
        # a group meeting no other shares the one empty view (~250 bytes a group)
        self._links[key] = links if links.entries else NO_LINKS
        if old is None or old.claims != links.claims:
            self._mark_csvs_of(key[0])
        self._pending_og_states.add(key)

    def _patch_links(self, key: NSKey, other: NSKey) -> None:
        """One other group changed: replace its entry in this group's view."""
        links = self._links.get(key)
        if links is None:
            return
        entry = self._link_entry(key, other)
        if links is NO_LINKS and entry is not None:  # the shared empty view is never patched
            links = self._links[key] = GroupLinks()
        changed = links.put(other, entry)
        if changed:
            # Only CSVs providing one of those APIs see a different reconciliation (R-API-5).
            for name in self._csvs.get(key[0], {}):
                evaluation = self._csv_evals.get((key[0], name))
                if evaluation is None or not evaluation.provided.isdisjoint(changed):
                    self._dirty.csvs.add((key[0], name))
        self._pending_og_states.add(key)

    def _recompute_csv(self, key: NSKey) -> None:
        csv = self._csvs.get(key[0], {}).get(key[1])
        if csv is None:
            return
        evaluation = self._evaluate_csv(key, csv)
        old = self._csv_evals.get(key)
        self._csv_evals[key] = evaluation
        self._findings[("csv", *key)] = evaluation.findings
        if old is None or old.source != evaluation.source:
            self._dirty.sources.setdefault(key, set())
        if old is None or old.group_facts != evaluation.group_facts:
            self._pending_og_states |= {(key[0], n) for n in self._groups.names(key[0])}

    def _evaluate_csv(self, key: NSKey, csv: Obj) -> _CSVEval:
        """Membership (R-MEM-*) and APIs (R-API-*) for one CSV, then where it is copied
        (R-COPY-*)."""
        namespace, name = key
        csv_spec = spec(csv)
        phase, reason, message = status_of(csv)
        surface = api_surface(csv)
        groups = sorted(self._groups.in_namespace(namespace).items())
        og_key = (namespace, groups[0][0]) if len(groups) == 1 else None
        og = groups[0][1] if og_key else None
        group_ref = ref(*og_key) if og_key else None
        selection = self._selection.get(og_key) if og_key else None
        spec_targets = selection.namespaces if selection else None
        check = group_checks(csv, [g for _, g in groups], spec_targets, surface.malformed)
        verdict: Verdict | None = check.verdict
        reconciliation = None
        found_conflicts: tuple[Conflict, ...] = ()
        chains = self._chains_of(namespace)
        if check.proceed and og is not None and og_key is not None and group_ref is not None:
            links = self._links.get(og_key) or NO_LINKS
            # R-API-5 only asks whether the CSV's APIs meet the other groups' claims: the
            # claimed APIs among the CSV's own (a global group meets thousands of claims).
            claimed = frozenset(api for api in surface.provided if api in links.claims)
            found_conflicts = conflicts(surface.provided, links)
            outcome = csv_api_outcome(
                namespace,
                name,
                og,
                group_ref,
                surface.provided,
                claimed,
                found_conflicts,
                (reason, message),
                is_static(og),
            )
            reconciliation, verdict = outcome.reconciliation, outcome.verdict
            found = list(outcome.findings)
            if outcome.proceeds:
                owners = chains.owners.conflicts(name)
                successor = chains.replacements.replaced_by(name)
                verdict, recovered = recovery(
                    namespace, name, csv, og, group_ref, successor, owners
                )
                found += recovered
        else:
            platform = og is not None and is_platform_owned(og)
            supported = install_mode_set(csv_spec.get("installModes")).supported
            found = blocked_findings(namespace, name, check, group_ref, platform, supported)
        found += member_findings(
            namespace, name, check, surface.malformed, group_ref, og, spec_targets or ()
        )
        found += replacement_findings(namespace, name, chains.replacements, held=chains.held)
        found += unknown_mode_findings(namespace, name, csv_spec.get("installModes"))
        drift = bool(check.annotation_drift)
        source = self._copy_source_for(key, csv, len(groups), og_key, og, drift, verdict)
        state = CSVState(
            namespace=namespace,
            name=name,
            version=str(csv_spec["version"]) if csv_spec.get("version") is not None else None,
            phase=phase,
            reason=reason,
            message=message,
            operator_group=group_ref,
            provided_apis=api_list(surface.provided),
            required_apis=api_list(surface.required),
            verdict=verdict,
            api_reconciliation=reconciliation,
            conflicts=found_conflicts,
            expected_copies=self._copies.expected_sorted(source.expected),
            replaces=csv_spec.get("replaces") or None,
            display_name=csv_spec.get("displayName") or None,
        )
        return _CSVEval(state, surface.provided, tuple(found), source)

    def _copy_source_for(
        self,
        key: NSKey,
        csv: Obj,
        group_count: int,
        og_key: NSKey | None,
        og: Obj | None,
        drift: bool,
        verdict: Verdict | None,
    ) -> CopySource:
        """R-COPY-2/3/6/7: where this CSV's copies belong, and why not elsewhere."""
        phase, reason, _ = status_of(csv)
        parent = ref(*key)
        group = ref(*og_key) if og_key is not None else None
        og_status = status_namespaces(og) if og is not None else None
        disabled = copies_disabled(self._olmconfig)
        not_copied = not_copied_reason(
            parent,
            group,
            key[0],
            group_count,
            drift,
            (verdict.phase, verdict.reason) if verdict else (phase, reason),
            og_status,
            disabled,
        )
        expected: frozenset[str] = frozenset()
        if not_copied is None:
            expected = self._copies.expected(key[0], og_status, self._namespaces, disabled)
        return CopySource(
            expected,
            parent_gc_reason(parent, phase, reason),
            nsset.parse(annotations_of(csv).get(TARGETS_ANNOTATION, "")),
            not_copied,
            group,
            parent,
        )

    def _settle_og_states(self) -> None:
        for key in self._pending_og_states:
            self._recompute_og_state(key)
        self._pending_og_states.clear()

    def _recompute_og_state(self, key: NSKey) -> None:
        og = self._groups.get(key)
        if og is None:
            return
        namespace, name = key
        selection = self._selection[key]
        links = self._links.get(key) or NO_LINKS
        group_apis = group_provided_apis(og)[1]
        static = is_static(og)
        members = sorted(self._csvs.get(namespace, {}))
        evals = [e for m in members if (e := self._csv_evals.get((namespace, m)))]
        sibling_apis: APISet = frozenset().union(*(e.provided for e in evals))
        single = len(self._groups.names(namespace)) == 1
        added: APISet = frozenset().union(
            *(e.provided for e in evals if single and e.state.api_reconciliation == "AddAPIs")
        )
        removed: APISet = frozenset().union(
            *(e.provided for e in evals if single and e.state.api_reconciliation == "RemoveAPIs")
        )
        expected = expected_group_apis(static, group_apis, sibling_apis, added, removed)
        og_status = status_namespaces(og)
        state = OperatorGroupState(
            namespace=namespace,
            name=name,
            mode=group_mode(namespace, selection.namespaces),
            target_namespaces=selection.namespaces,
            status_namespaces=None if og_status is None else _sorted_ns(set(og_status)),
            effective_namespaces=_sorted_ns(self._groups.effective[key]),
            static=static,
            provided_apis=api_list(group_apis),
            expected_provided_apis=api_list(expected),
            members=tuple(members),
            intersecting=links.intersecting,
            upgrade_strategy=upgrade_strategy(og),
            service_account=service_account(og),
            selection_errors=tuple(text for _, text in selection.errors),
        )
        platform = is_platform_owned(og)
        found = selection_findings(namespace, name, selection, og_status, bool(members), platform)
        found += group_api_findings(
            namespace,
            name,
            group_apis,
            static,
            ((e.state.name, e.state.phase, e.provided) for e in evals),
            platform,
        )
        if found:
            self._og_findings[key] = tuple(found)
        else:
            self._og_findings.pop(key, None)
        if self._og_states.get(key) != state:
            self._og_states[key] = state

    def _recompute_source(self, source: NSKey, moved: set[str]) -> None:
        """A source CSV's copy context changed or its copies came and went (in ``moved``)."""
        evaluation = self._csv_evals.get(source)
        exists = evaluation is not None and self._csv_exists(source)
        context = evaluation.source if evaluation is not None and exists else None
        self._dirty.copies |= self._copies.recompute_source(
            source, context or orphaned_source(source), evaluation is not None, moved
        )

    def _recompute_subscriptions(self, namespace: str) -> None:
        subs = self._subs.get(namespace, {})
        if not subs:
            self._subs.pop(namespace, None)
            self._findings.pop(("subs", namespace), None)
            return
        approval = effective_approval(subs.values())
        groups = sorted(self._groups.names(namespace))
        manual = sorted(
            n for n, s in subs.items() if spec(s).get("installPlanApproval") == "Manual"
        )
        found: list[Finding] = []
        for name, sub in sorted(subs.items()):
            upgrade = self._upgrades(sub, self._store) if self._upgrades else None
            state = subscription_state(sub, approval, self._plan, upgrade)
            if self._sub_states.get((namespace, name)) != state:
                self._sub_states[(namespace, name)] = state
            found += subscription_findings(state, groups, manual)
            if len(groups) == 1:
                found += self._head_preflight(sub, state, (namespace, groups[0]))
        self._findings[("subs", namespace)] = tuple(found)

    def _head_preflight(self, sub: Obj, state: SubscriptionState, og_key: NSKey) -> list[Finding]:
        """R-IM-1 before the install for one Subscription, with its channel head from the
        PackageManifests and the targets its group's CSVs carry."""
        held = self._manifests.get(subscription_package(sub))
        if not held:
            return []
        og = self._groups.in_namespace(og_key[0])[og_key[1]]
        og_status = status_namespaces(og)
        selection = self._selection.get(og_key)
        targets = (
            og_status if og_status is not None else (selection.namespaces if selection else ())
        )
        head = channel_head(held[min(held)], state.channel)
        return head_preflight(state, head, targets, ref(*og_key), is_platform_owned(og))

    def _plan(self, namespace: str, name: str) -> Obj | None:
        return self._store.get(INSTALL_PLAN, namespace, name)

    def _recompute_namespace(self, namespace: str) -> None:
        # an inferred Namespace's labels are unknown (R-OG-5), not empty
        cached = self._store.get(NAMESPACE, "", namespace)
        if cached is not None and annotations_of(cached).get(INFERRED_ANNOTATION) == "true":
            cached = None
        groups = self._groups
        members = [
            (key, groups.in_namespace(key[0])[key[1]])
            for key in sorted(groups.naming_in_status(namespace))
        ]
        found = namespace_findings(
            namespace,
            sorted(self._groups.names(namespace)),
            None if cached is None else labels(cached),
            members,
            all_groups_read=self._store.read_namespaces is None,
        )
        if found:
            self._findings[("ns", namespace)] = tuple(found)
        else:
            self._findings.pop(("ns", namespace), None)

    def _recompute_olmconfig(self) -> None:
        """R-COPY-7 and R-COPY-8 findings; cheap (one look per CSV of a global group), so
        done on every batch."""
        if self._olmconfig is None:  # R-COPY-7/8 need the cluster OLMConfig
            self._findings.pop(("olmconfig",), None)
            return
        sources = [
            (og[0], name) for og in self._groups.global_groups for name in self._csvs.get(og[0], {})
        ]
        counts = (self._copies.count(source) for source in sources)
        found = olmconfig_findings(self._olmconfig, self._active, len(sources), counts)
        if found:
            self._findings[("olmconfig",)] = found
        else:
            self._findings.pop(("olmconfig",), None)
