"""The incremental reconciliation model: wires the rule modules to the Store's change feed.

Every change marks the subjects it can affect dirty (its namespace's groups and CSVs, the
groups whose effective sets meet a changed group, the copies of one CSV, ...) and only those
are recomputed, in dependency order: group targets -> group links (intersections, API
claims) -> CSVs (verdicts, copy sources) -> group records -> copies -> Subscriptions ->
namespaces. Results are kept per subject; the sorted lists the readers ask for are cached
per ``version``.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from olmtui.gc_pause import cyclic_gc_paused
from olmtui.model import findings as F
from olmtui.model import nsset
from olmtui.model.apis import (
    APISet,
    api_list,
    api_step,
    api_surface,
    crd_owner_conflicts,
    expected_group_apis,
    group_provided_apis,
    owned_crd_names,
    pruning_blockers,
    reconcile_api_intersection,
)
from olmtui.model.copies import (
    CopySource,
    copies_disabled,
    copy_source,
    expected_copy_namespaces,
    has_operator_namespace,
    observed_condition,
    olmconfig_condition,
    stale_reason,
)
from olmtui.model.installmodes import install_mode_set, install_mode_verdict
from olmtui.model.membership import (
    OWNER_CONFLICT,
    TARGETS_ANNOTATION,
    group_checks,
    is_copiable,
    recovery_verdict,
    status_of,
)
from olmtui.model.objects import Obj, annotations_of, labels, spec, status
from olmtui.model.operatorgroups import (
    BLOCKING_ERRORS,
    SELECTOR_MATCHES_NOTHING,
    TargetSelection,
    build_target_namespaces,
    effective_namespaces,
    group_mode,
    is_empty_selector,
    is_static,
    service_account,
    status_namespaces,
    target_namespaces,
    uid_label,
    upgrade_strategy,
)
from olmtui.model.replacements import replaced_by, replacement_cycle, replaces_existing
from olmtui.model.subscriptions import (
    PackageKey,
    channel_head,
    effective_approval,
    package_manifest_key,
    subscription_package,
    subscription_state,
)
from olmtui.model.types import (
    Conflict,
    CopiedCSVState,
    CSVState,
    Finding,
    Intersection,
    MissingCopy,
    ObjectRef,
    OperatorGroupState,
    StaleCopy,
    SubscriptionState,
    UpgradeInfo,
    Verdict,
    ref,
)
from olmtui.store import Change, Store, is_copied_csv

NSKey = tuple[str, str]  # (namespace, name)
Subject = tuple[str, ...]
#: Plugs the upgrade rules into Subscription records: (subscription, store) -> UpgradeInfo.
UpgradeHook = Callable[[Obj, Store], UpgradeInfo]

UID_LABEL_PREFIX = "olm.operatorgroup.uid/"
#: Set by the snapshot loader on Namespaces it synthesizes: their labels are unknown, so
#: label drift (R-OG-5) is not judged on them.
INFERRED_ANNOTATION = "olmtui.dev/inferred"


#: One intersecting group as another group sees it: where they meet, and what it claims.
_Entry = tuple[Intersection, APISet]
#: An intersecting group's claim on an API: the group, and where the two groups meet.
_Claim = tuple[str, tuple[str, ...]]


@dataclass(slots=True)
class _Links:
    """A group's view of the others (R-API-4): who intersects it, where, and which APIs the
    intersecting groups claim (API -> the claims on it, each (group ref, namespaces), sorted).

    Kept patchable: when one other group changes only its entry is replaced, so a change to
    one group costs O(groups it meets), not O(groups²). Every group meets a global group,
    so every group holds its claims: the APIs one group alone claims share one tuple.
    """

    entries: dict[NSKey, _Entry] = field(default_factory=dict)
    order: list[NSKey] = field(default_factory=list)
    claims: dict[str, tuple[_Claim, ...]] = field(default_factory=dict)
    _intersecting: tuple[Intersection, ...] | None = None

    @property
    def intersecting(self) -> tuple[Intersection, ...]:
        if self._intersecting is None:
            self._intersecting = tuple(self.entries[k][0] for k in self.order)
        return self._intersecting

    def put(self, other: NSKey, entry: _Entry | None) -> APISet:
        """Replace ``other``'s entry; returns the APIs whose claims changed."""
        old = self.entries.pop(other, None)
        if old == entry:
            if entry is not None:
                self.entries[other] = entry
            return frozenset()
        self._intersecting = None
        if old is not None:
            self.order.pop(bisect_left(self.order, other))
            gone = old[0].operator_group
            for api in old[1]:
                rest = tuple(c for c in self.claims[api] if c[0] != gone)
                if rest:
                    self.claims[api] = rest
                else:
                    del self.claims[api]
        if entry is not None:
            self.entries[other] = entry
            insort(self.order, other)
            claim = (entry[0].operator_group, entry[0].namespaces)
            alone = (claim,)
            for api in entry[1]:
                held = self.claims.get(api)
                self.claims[api] = alone if held is None else tuple(sorted((*held, claim)))
        return (old[1] if old else frozenset()) | (entry[1] if entry else frozenset())


@dataclass(frozen=True, slots=True)
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


_NO_SOURCE = CopySource()


def _replaces(csv: Obj) -> str | None:
    return spec(csv).get("replaces")


def _sorted_ns(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(names))


class Model:
    """Everything the group rules derive from a Store, kept current from its change feed."""

    def __init__(self, store: Store, *, upgrades: UpgradeHook | None = None) -> None:
        self._store = store
        self._upgrades = upgrades
        self.version = 0
        # -- indices of the cached objects
        self._namespaces: dict[str, dict[str, str]] = {}
        self._inferred: set[str] = set()
        self._active: set[str] = set()
        self._ogs: dict[str, dict[str, Obj]] = {}
        self._csvs: dict[str, dict[str, Obj]] = {}
        #: The CRDs each non-copied CSV owns (R-CSV-O), made once per version of the CSV:
        #: its siblings' evaluations read them all.
        self._owned: dict[NSKey, frozenset[str]] = {}
        self._subs: dict[str, dict[str, Obj]] = {}
        self._copies: dict[NSKey, dict[str, Obj]] = {}
        self._copy_source: dict[NSKey, NSKey] = {}
        self._copies_in_ns: dict[str, set[str]] = {}
        self._olmconfig: Obj | None = None
        self._manifests: dict[PackageKey, dict[NSKey, Obj]] = {}
        #: Expected copy namespaces per (group namespace, status, copies disabled), shared by
        #: the CSVs of one group and dropped whenever a namespace comes or goes.
        self._expected_cache: dict[tuple[Any, ...], frozenset[str]] = {}
        self._expected_sorted: dict[frozenset[str], tuple[str, ...]] = {}
        self._subs_by_package: dict[PackageKey, set[NSKey]] = {}
        self._selector_ogs: set[NSKey] = set()
        self._listed_by: dict[str, set[NSKey]] = {}
        self._effective: dict[NSKey, nsset.NSSet] = {}
        self._og_apis: dict[NSKey, APISet] = {}
        self._eff_index: dict[str, set[NSKey]] = {}
        self._global_ogs: set[NSKey] = set()
        self._status_members: dict[str, set[NSKey]] = {}
        # -- derived, per subject
        self._selection: dict[NSKey, TargetSelection] = {}
        self._links: dict[NSKey, _Links] = {}
        self._og_states: dict[NSKey, OperatorGroupState] = {}
        self._csv_evals: dict[NSKey, _CSVEval] = {}
        self._sources: dict[NSKey, CopySource] = {}
        #: Expected copy namespaces without a copy, per source (kept up to date in place:
        #: a global operator expects a copy in every namespace).
        self._missing: dict[NSKey, set[str]] = {}
        self._stale: dict[NSKey, str] = {}
        self._stale_by_source: dict[NSKey, dict[str, str]] = {}
        self._sub_states: dict[NSKey, SubscriptionState] = {}
        self._findings: dict[Subject, tuple[Finding, ...]] = {}
        #: Sources whose copy findings are rebuilt when findings are next read: a relist of
        #: many copies then costs one rebuild per source, not one per batch.
        self._pending_copy_findings: set[NSKey] = set()
        #: Groups whose state is rebuilt when next read, for the same reason: while a cluster
        #: is listed, a group changes with each batch that brings one of its members.
        self._pending_og_states: set[NSKey] = set()
        self._cache: dict[str, tuple[int, Any]] = {}
        self._reset_dirty()
        changes = [
            Change("ADDED", key, None, obj)
            for kind in (
                "Namespace",
                "OperatorGroup",
                "ClusterServiceVersion",
                "Subscription",
                "InstallPlan",
                "OLMConfig",
                "PackageManifest",
            )
            for key, obj in store.items(kind)
        ]
        self._apply(changes)
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
        return self._cached("copied", self._build_copied)

    def copies_of(self, namespace: str, name: str) -> list[str]:
        return sorted(self._copies.get((namespace, name), ()))

    def subscriptions(self) -> list[SubscriptionState]:
        return self._cached("subs", lambda: [self._sub_states[k] for k in sorted(self._sub_states)])

    def findings(self) -> list[Finding]:
        return self._cached("findings", self._build_findings)

    def _build_findings(self) -> list[Finding]:
        self._settle_og_states()
        for source in self._pending_copy_findings:
            self._recompute_source_findings(source)
        self._pending_copy_findings.clear()
        return sorted(
            (f for group in self._findings.values() for f in group), key=lambda f: f.sort_key
        )

    def namespaces(self) -> list[str]:
        return self._cached("namespaces", lambda: sorted(self._namespaces))

    # -- caching ----------------------------------------------------------------------------
    def _cached(self, name: str, build: Callable[[], Any]) -> Any:
        hit = self._cache.get(name)
        if hit is not None and hit[0] == self.version:
            return hit[1]
        value = build()
        self._cache[name] = (self.version, value)
        return value

    def _build_copied(self) -> CopiedCSVState:
        missing = sorted(
            (MissingCopy(ref(*src), ns) for src, nss in self._missing.items() for ns in nss),
            key=lambda m: (m.csv, m.namespace),
        )
        stale = []
        for (namespace, name), reason in self._stale.items():
            stale.append(
                StaleCopy(namespace, name, self._copy_source[(namespace, name)][0], reason)
            )
        stale.sort(key=lambda s: (s.namespace, s.name))
        return CopiedCSVState(len(self._copy_source), tuple(missing), tuple(stale))

    # -- the change feed --------------------------------------------------------------------
    def _reset_dirty(self) -> None:
        self._d_selection: set[NSKey] = set()
        self._d_links: set[NSKey] = set()
        self._d_patches: set[tuple[NSKey, NSKey]] = set()
        self._d_csvs: set[NSKey] = set()
        self._d_sources: set[NSKey] = set()
        #: Per source, the namespaces where one of its copies came or went in this batch.
        self._d_held: dict[NSKey, set[str]] = {}
        self._d_copies: set[NSKey] = set()
        self._d_source_findings: set[NSKey] = set()
        self._d_sub_ns: set[str] = set()
        self._d_ns: set[str] = set()

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
        self._active.discard(name)
        if change.new is None:
            self._namespaces.pop(name, None)
            self._inferred.discard(name)
        else:
            self._namespaces[name] = dict(labels(change.new))
            if status(change.new).get("phase") == "Active":
                self._active.add(name)
            inferred = annotations_of(change.new).get(INFERRED_ANNOTATION)
            if inferred == "true":
                self._inferred.add(name)
            else:
                self._inferred.discard(name)
        old_labels = labels(change.old) if change.old else None
        new_labels = labels(change.new) if change.new else None
        if change.type != "MODIFIED" or old_labels != new_labels:
            self._d_selection |= self._selector_ogs
        if change.type != "MODIFIED":
            self._expected_cache.clear()
            self._expected_sorted.clear()
            self._d_selection |= self._listed_by.get(name, set())
            # Copies follow the existing namespaces (R-COPY-3).
            for og in self._global_ogs | self._status_members.get(name, set()):
                self._mark_csvs_of(og[0])
            self._d_copies |= {(name, c) for c in self._copies_in_ns.get(name, ())}
        self._d_ns.add(name)

    def _og_signature(self, key: NSKey) -> tuple[nsset.NSSet, APISet] | None:
        if key not in self._effective:
            return None
        return self._effective[key], self._og_apis[key]

    def _on_operator_group(self, change: Change) -> None:
        key = (change.key.namespace, change.key.name)
        namespace = key[0]
        before = self._og_signature(key)
        old_status = self._status_set(change.old)
        old_uid = uid_label(change.old) if change.old else None
        self._unindex_og(key, change.old)
        if change.new is not None:
            self._index_og(key, change.new)
            self._d_selection.add(key)
            self._d_links.add(key)
        else:
            self._selection.pop(key, None)
            self._links.pop(key, None)
            self._og_states.pop(key, None)
            self._findings.pop(("og", *key), None)
        after = self._og_signature(key)
        if before != after:
            candidates = self._intersecting_candidates(before)
            candidates |= self._intersecting_candidates(after)
            self._d_patches |= {(other, key) for other in candidates if other != key}
        new_status = self._status_set(change.new)
        new_uid = uid_label(change.new) if change.new else None
        if old_uid != new_uid:
            self._d_ns |= old_status | new_status
        else:
            self._d_ns |= old_status ^ new_status
        self._d_ns.add(namespace)
        self._pending_og_states |= {(namespace, n) for n in self._ogs.get(namespace, {})}
        self._mark_csvs_of(namespace)
        self._d_sub_ns.add(namespace)

    @staticmethod
    def _status_set(og: Obj | None) -> set[str]:
        """Namespaces a non-global group's status names (R-OG-5 labels, copy targets)."""
        if og is None:
            return set()
        status = frozenset(status_namespaces(og) or ())
        return set() if nsset.is_all(status) else {n for n in status if n}

    def _unindex_og(self, key: NSKey, old: Obj | None) -> None:
        self._ogs.get(key[0], {}).pop(key[1], None)
        if key[0] in self._ogs and not self._ogs[key[0]]:
            del self._ogs[key[0]]
        self._selector_ogs.discard(key)
        if old is not None:
            for name in spec(old).get("targetNamespaces") or []:
                self._listed_by.get(str(name), set()).discard(key)
            for name in self._status_set(old):
                self._status_members.get(name, set()).discard(key)
        effective = self._effective.pop(key, None)
        self._og_apis.pop(key, None)
        self._global_ogs.discard(key)
        if effective is not None and not nsset.is_all(effective):
            for name in effective:
                self._eff_index.get(name, set()).discard(key)

    def _index_og(self, key: NSKey, og: Obj) -> None:
        self._ogs.setdefault(key[0], {})[key[1]] = og
        og_spec = spec(og)
        listed = og_spec.get("targetNamespaces") or []
        if isinstance(listed, list) and listed:
            for name in listed:
                self._listed_by.setdefault(str(name), set()).add(key)
        elif not is_empty_selector(og_spec.get("selector")):
            self._selector_ogs.add(key)
        for name in self._status_set(og):
            self._status_members.setdefault(name, set()).add(key)
        effective = effective_namespaces(key[0], status_namespaces(og))
        self._effective[key] = effective
        self._og_apis[key] = group_provided_apis(og)[1]
        if nsset.is_all(effective):
            self._global_ogs.add(key)
        else:
            for name in effective:
                self._eff_index.setdefault(name, set()).add(key)

    def _intersecting_candidates(self, signature: tuple[nsset.NSSet, APISet] | None) -> set[NSKey]:
        """Groups whose effective set may meet ``signature``'s (R-API-4, R-NS-3)."""
        if signature is None or not signature[0]:
            return set()
        effective = signature[0]
        if nsset.is_all(effective):
            return {k for k, e in self._effective.items() if e}
        found = set(self._global_ogs)
        for name in effective:
            found |= self._eff_index.get(name, set())
        return found

    def _mark_csvs_of(self, namespace: str) -> None:
        self._d_csvs |= {(namespace, n) for n in self._csvs.get(namespace, {})}

    def _on_csv(self, change: Change) -> None:
        key = (change.key.namespace, change.key.name)
        old_copy = change.old is not None and is_copied_csv(change.old)
        new_copy = change.new is not None and is_copied_csv(change.new)
        if change.old is not None and change.new is not None:
            if not old_copy and not new_copy:
                self._add_csv(key, change.new, change.old)
                return
            if old_copy and new_copy and copy_source(change.new) == self._copy_source.get(key):
                # A copy's status or metadata changed: only its own stale reason can change.
                self._copies[self._copy_source[key]][key[0]] = change.new
                self._d_copies.add(key)
                return
        if change.old is not None:
            if old_copy:
                self._remove_copy(key)
            else:
                self._remove_csv(key, change.old)
        if change.new is not None:
            if new_copy:
                self._add_copy(key, change.new)
            else:
                self._add_csv(key, change.new, None)

    def _remove_csv(self, key: NSKey, old: Obj) -> None:
        self._csvs.get(key[0], {}).pop(key[1], None)
        self._owned.pop(key, None)
        self._csv_evals.pop(key, None)
        self._findings.pop(("csv", *key), None)
        self._d_sources.add(key)
        self._mark_namespace_csv_change(key)
        self._mark_csvs_of(key[0])

    def _add_csv(self, key: NSKey, new: Obj, old: Obj | None) -> None:
        self._csvs.setdefault(key[0], {})[key[1]] = new
        self._d_csvs.add(key)
        # A changed member reaches its groups through its evaluation (_recompute_csv).
        self._mark_namespace_csv_change(key, membership=old is None)
        # What the other CSVs of the namespace read from this one: the CRDs it owns (R-CSV-O)
        # and the CSV it replaces (R-CSV-F 1).
        owned = owned_crd_names(new)
        if old is None or self._owned.get(key) != owned or _replaces(old) != _replaces(new):
            self._mark_csvs_of(key[0])
        self._owned[key] = owned

    def _mark_namespace_csv_change(self, key: NSKey, *, membership: bool = True) -> None:
        if membership:
            self._pending_og_states |= {(key[0], n) for n in self._ogs.get(key[0], {})}
        # The upgrade hook reads the installed CSV (its spec.version) of each Subscription.
        if self._upgrades is not None and any(
            status(s).get("installedCSV") == key[1] for s in self._subs.get(key[0], {}).values()
        ):
            self._d_sub_ns.add(key[0])

    def _remove_copy(self, key: NSKey) -> None:
        source = self._copy_source.pop(key, None)
        if source is None:
            return
        held = self._copies.get(source, {})
        held.pop(key[0], None)
        if not held:
            self._copies.pop(source, None)
        self._copies_in_ns.get(key[0], set()).discard(key[1])
        if self._stale.pop(key, None) is not None:
            self._stale_by_source.get(source, {}).pop(key[0], None)
            self._d_source_findings.add(source)
        self._d_sources.add(source)
        self._d_held.setdefault(source, set()).add(key[0])

    def _add_copy(self, key: NSKey, copy: Obj) -> None:
        source = copy_source(copy)
        self._copy_source[key] = source
        self._copies.setdefault(source, {})[key[0]] = copy
        self._copies_in_ns.setdefault(key[0], set()).add(key[1])
        self._d_copies.add(key)
        self._d_sources.add(source)
        self._d_held.setdefault(source, set()).add(key[0])

    def _on_subscription(self, change: Change) -> None:
        key = (change.key.namespace, change.key.name)
        if change.old is not None:
            self._subs_by_package.get(subscription_package(change.old), set()).discard(key)
        if change.new is not None:
            self._subs_by_package.setdefault(subscription_package(change.new), set()).add(key)
        if change.new is None:
            self._subs.get(key[0], {}).pop(key[1], None)
            self._sub_states.pop(key, None)
        else:
            self._subs.setdefault(key[0], {})[key[1]] = change.new
        self._d_sub_ns.add(key[0])

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
            self._d_sub_ns |= {ns for ns, _ in self._subs_by_package.get(package, ())}

    def _on_install_plan(self, change: Change) -> None:
        self._d_sub_ns.add(change.key.namespace)

    def _on_olmconfig(self, change: Change) -> None:
        if change.key.name != "cluster":
            return
        before = copies_disabled(self._olmconfig)
        self._olmconfig = change.new
        if copies_disabled(self._olmconfig) != before:
            for og in self._global_ogs:
                self._mark_csvs_of(og[0])

    _handlers: dict[str, Callable[[Model, Change], None]] = {
        "Namespace": _on_namespace,
        "OperatorGroup": _on_operator_group,
        "ClusterServiceVersion": _on_csv,
        "Subscription": _on_subscription,
        "InstallPlan": _on_install_plan,
        "OLMConfig": _on_olmconfig,
        "PackageManifest": _on_package_manifest,
    }

    # -- recomputation ----------------------------------------------------------------------
    def _recompute(self) -> None:
        for key in self._d_selection:
            self._recompute_selection(key)
        for key in self._d_links:
            self._recompute_links(key)
        for key, other in self._d_patches:
            if key not in self._d_links:
                self._patch_links(key, other)
        for key in self._d_csvs:
            self._recompute_csv(key)
        touched_sources = self._d_source_findings
        for source in self._d_sources:
            if self._recompute_source(source):
                touched_sources.add(source)
        for key in self._d_copies:
            self._recompute_copy(key, touched_sources)
        self._pending_copy_findings |= touched_sources
        for namespace in self._d_sub_ns:
            self._recompute_subscriptions(namespace)
        for namespace in self._d_ns:
            self._recompute_namespace(namespace)
        self._recompute_olmconfig()
        self._reset_dirty()

    def _recompute_selection(self, key: NSKey) -> None:
        og = self._ogs.get(key[0], {}).get(key[1])
        if og is None:
            return
        selection = target_namespaces(og, self._namespaces)
        old = self._selection.get(key)
        self._selection[key] = selection
        if old is None or old.namespaces != selection.namespaces:
            self._mark_csvs_of(key[0])
            self._d_sub_ns.add(key[0])
        self._pending_og_states.add(key)

    def _link_entry(self, key: NSKey, other: NSKey) -> _Entry | None:
        """R-API-4 / R-OG-4: where ``other`` meets ``key`` and what it claims, if they meet."""
        effective = self._effective.get(key)
        theirs = self._effective.get(other)
        if not effective or not theirs:
            return None
        where = nsset.intersection(effective, theirs)
        if not where:
            return None
        return Intersection(ref(*other), _sorted_ns(where)), self._og_apis[other]

    def _recompute_links(self, key: NSKey) -> None:
        """A group's whole view of the others, rebuilt."""
        effective = self._effective.get(key)
        if effective is None:
            return
        links = _Links()
        for other in self._intersecting_candidates((effective, frozenset())):
            if other != key:
                links.put(other, self._link_entry(key, other))
        old = self._links.get(key)
        self._links[key] = links
        if old is None or old.claims != links.claims:
            self._mark_csvs_of(key[0])
        self._pending_og_states.add(key)

    def _patch_links(self, key: NSKey, other: NSKey) -> None:
        """One other group changed: replace its entry in this group's view."""
        links = self._links.get(key)
        if links is None:
            return
        changed = links.put(other, self._link_entry(key, other))
        if changed:
            # Only CSVs providing one of those APIs see a different reconciliation (R-API-5).
            for name in self._csvs.get(key[0], {}):
                evaluation = self._csv_evals.get((key[0], name))
                if evaluation is None or not evaluation.provided.isdisjoint(changed):
                    self._d_csvs.add((key[0], name))
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
            self._d_sources.add(key)
        if old is None or old.group_facts != evaluation.group_facts:
            self._pending_og_states |= {(key[0], n) for n in self._ogs.get(key[0], {})}

    def _evaluate_csv(self, key: NSKey, csv: Obj) -> _CSVEval:
        """§4 and §6 for one CSV, then where it is copied (§8)."""
        namespace, name = key
        csv_spec = spec(csv)
        phase, reason, message = status_of(csv)
        surface = api_surface(csv)
        groups = sorted(self._ogs.get(namespace, {}).items())
        og_key = (namespace, groups[0][0]) if len(groups) == 1 else None
        og = groups[0][1] if og_key else None
        group_ref = ref(*og_key) if og_key else None
        selection = self._selection.get(og_key) if og_key else None
        check = group_checks(
            csv,
            [g for _, g in groups],
            selection.namespaces if selection else None,
            surface.malformed,
        )
        found: list[Finding] = []
        verdict: Verdict | None = check.verdict
        reconciliation = None
        conflicts: tuple[Conflict, ...] = ()
        static = og is not None and is_static(og)
        siblings = self._csvs.get(namespace, {})
        replaces = {n: _replaces(c) for n, c in siblings.items()}
        if check.proceed and og is not None and og_key is not None:
            links = self._links.get(og_key) or _Links()
            raw, group_apis = group_provided_apis(og)
            # R-API-5 only asks whether the CSV's APIs meet the other groups' claims: the
            # claimed APIs among the CSV's own (a global group meets thousands of claims).
            claimed = frozenset(api for api in surface.provided if api in links.claims)
            reconciliation = reconcile_api_intersection(surface.provided, group_apis, claimed)
            conflicts = self._conflicts(surface.provided, links)
            step = api_step(
                reconciliation, static, reason, message, surface.provided, group_apis, raw
            )
            verdict = step.verdict
            if reconciliation == "RemoveAPIs" and not static:
                found.append(
                    F.pending_api_conflict(
                        namespace,
                        name,
                        group_ref or "",
                        conflicts,
                        reason == "InterOperatorGroupOwnerConflict",
                    )
                )
            elif (
                verdict is not None
                and verdict.reason == "InterOperatorGroupOwnerConflict"
                and conflicts
            ):
                found.append(
                    F.api_conflict(
                        namespace, name, group_ref or "", conflicts, reason == verdict.reason
                    )
                )
            elif verdict is not None:
                found.append(F.verdict_finding(namespace, name, verdict, group_ref))
            if step.new_annotation is not None and verdict is None and step.proceeds:
                found.append(
                    F.pending_api_addition(namespace, name, group_ref or "", step.new_annotation)
                )
            if verdict is None and step.proceeds:
                verdict = recovery_verdict(csv, og, replaced_by(name, replaces))
                owners = crd_owner_conflicts(
                    name, {n: self._owned[(namespace, n)] for n in siblings}, replaces
                )
                if verdict is None and owners and phase == "Pending":
                    verdict = OWNER_CONFLICT
                    found.append(F.owner_conflict(namespace, name, owners, False))
                elif owners and phase == "Failed" and reason == "OwnerConflict":
                    found.append(F.owner_conflict(namespace, name, owners, True))
                if verdict is not None and verdict is not OWNER_CONFLICT:
                    found.append(F.verdict_finding(namespace, name, verdict, group_ref))
        elif verdict is not None:
            detail = ""
            if check.annotation_drift and verdict.reason == "NoTargetNamespaces":
                # R-MEM-3: the group selects nothing, so its status.namespaces stays absent
                # and OLM never writes the targets annotation that would let the CSV in.
                detail = (
                    " OLM writes no olm.targetNamespaces on it while the group's "
                    "status.namespaces is absent, so this lasts until the group selects "
                    "a namespace."
                )
            found.append(F.verdict_finding(namespace, name, verdict, group_ref, detail))
        if check.skipped == "R-MEM-0":
            found.append(F.no_retry(namespace, name))
        elif check.skipped == "R-API-1":
            found.append(F.malformed_crds(namespace, name, surface.malformed))
        if check.annotation_drift and group_ref and og is not None and check.verdict is None:
            found.append(
                F.annotation_drift(
                    namespace,
                    name,
                    group_ref,
                    check.annotation_drift,
                    status_namespaces(og),
                    selection.namespaces if selection else (),
                )
            )
        successor = replaced_by(name, replaces)
        if successor:
            found.append(
                F.being_replaced(namespace, name, successor, replaces_existing(name, replaces))
            )
        cycle = replacement_cycle(name, replaces)
        if cycle:
            found.append(F.replacement_cycle(namespace, name, cycle))
        unknown = install_mode_set(csv_spec.get("installModes")).unknown
        if unknown:
            found.append(F.unknown_install_modes(namespace, name, unknown))
        source = self._copy_source_for(key, csv, og_key, og, check.annotation_drift, verdict)
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
            conflicts=conflicts,
            expected_copies=self._expected_tuple(source.expected),
            replaces=csv_spec.get("replaces") or None,
            display_name=csv_spec.get("displayName") or None,
        )
        return _CSVEval(state, surface.provided, tuple(found), source)

    def _expected_tuple(self, expected: frozenset[str]) -> tuple[str, ...]:
        """Sorted expected copies, one sort per expected set: the CSVs of a group share it
        (R-COPY-3), and it is dropped with the sets whenever a namespace comes or goes."""
        found = self._expected_sorted.get(expected)
        if found is None:
            found = self._expected_sorted[expected] = _sorted_ns(expected)
        return found

    @staticmethod
    def _conflicts(provided: APISet, links: _Links) -> tuple[Conflict, ...]:
        """§15.1: per intersecting group, the CSV's APIs it claims and where both reach."""
        by_group: dict[str, tuple[list[str], tuple[str, ...]]] = {}
        for api in provided:
            for group, namespaces in links.claims.get(api, ()):
                by_group.setdefault(group, ([], namespaces))[0].append(api)
        return tuple(
            Conflict(group, api_list(apis), namespaces)
            for group, (apis, namespaces) in sorted(by_group.items())
        )

    def _copy_source_for(
        self,
        key: NSKey,
        csv: Obj,
        og_key: NSKey | None,
        og: Obj | None,
        drift: tuple[Any, ...],
        verdict: Verdict | None,
    ) -> CopySource:
        """R-COPY-2/3/6/7: where this CSV's copies belong, and why not elsewhere."""
        phase, reason, _ = status_of(csv)
        parent = ref(*key)
        gc_reason = None
        if phase == "Failed" and reason == "InterOperatorGroupOwnerConflict":
            gc_reason = (
                f"its parent {parent} is Failed/InterOperatorGroupOwnerConflict, so OLM "
                "deletes it (R-COPY-6)"
            )
        parent_targets = nsset.parse(annotations_of(csv).get(TARGETS_ANNOTATION, ""))
        count = len(self._ogs.get(key[0], {}))
        if og is None or og_key is None:
            return CopySource(
                gc_reason=gc_reason,
                parent_targets=parent_targets,
                parent=parent,
                not_copied=f"{key[0]} has {count} OperatorGroups, so {parent} is not copied "
                "(R-COPY-2); OLM leaves this copy as it is",
            )
        group = ref(*og_key)
        after_phase, after_reason = (verdict.phase, verdict.reason) if verdict else (phase, reason)
        status = status_namespaces(og)
        not_copied = None
        if drift:
            not_copied = (
                f"{parent} is not an active member of {group} (R-MEM-8), so OLM "
                "neither copies nor refreshes it"
            )
        elif not is_copiable(after_phase, after_reason):
            not_copied = (
                f"its parent {parent} is {after_phase or '(no phase)'}/"
                f"{after_reason or ''} and not copiable (R-COPY-2); OLM no longer "
                "refreshes it but does not delete it"
            )
        elif status is not None and tuple(status) == (key[0],):
            not_copied = (
                f"{group} targets only its own namespace, so OLM neither copies nor "
                "prunes (R-COPY-2)"
            )
        elif nsset.is_all(frozenset(status or ())) and copies_disabled(self._olmconfig):
            not_copied = (
                "copied CSVs are disabled by OLMConfig cluster, so OLM deletes copies "
                "of AllNamespaces operators (R-COPY-7)"
            )
        expected = frozenset() if not_copied else self._expected_copies(key[0], status)
        return CopySource(expected, gc_reason, parent_targets, not_copied, group, parent)

    def _expected_copies(self, og_namespace: str, status: tuple[str, ...] | None) -> frozenset[str]:
        disabled = copies_disabled(self._olmconfig)
        slot = (og_namespace, status, disabled)
        found = self._expected_cache.get(slot)
        if found is None:
            found = expected_copy_namespaces(og_namespace, status, self._namespaces, disabled)
            self._expected_cache[slot] = found
        return found

    def _settle_og_states(self) -> None:
        for key in self._pending_og_states:
            self._recompute_og_state(key)
        self._pending_og_states.clear()

    def _recompute_og_state(self, key: NSKey) -> None:
        og = self._ogs.get(key[0], {}).get(key[1])
        if og is None:
            return
        namespace, name = key
        selection = self._selection[key]
        links = self._links.get(key) or _Links()
        group_apis = group_provided_apis(og)[1]
        static = is_static(og)
        members = sorted(self._csvs.get(namespace, {}))
        evals = [e for m in members if (e := self._csv_evals.get((namespace, m)))]
        sibling_apis = frozenset().union(*(e.provided for e in evals))
        single = len(self._ogs.get(namespace, {})) == 1
        added = frozenset().union(
            *(e.provided for e in evals if single and e.state.api_reconciliation == "AddAPIs")
        )
        removed = frozenset().union(
            *(e.provided for e in evals if single and e.state.api_reconciliation == "RemoveAPIs")
        )
        expected = expected_group_apis(static, group_apis, sibling_apis, added, removed)
        status = status_namespaces(og)
        state = OperatorGroupState(
            namespace=namespace,
            name=name,
            mode=group_mode(namespace, selection.namespaces),
            target_namespaces=selection.namespaces,
            status_namespaces=None if status is None else _sorted_ns(set(status)),
            effective_namespaces=_sorted_ns(self._effective[key]),
            static=static,
            provided_apis=api_list(group_apis),
            expected_provided_apis=api_list(expected),
            members=tuple(members),
            intersecting=links.intersecting,
            upgrade_strategy=upgrade_strategy(og),
            service_account=service_account(og),
            selection_errors=tuple(text for _, text in selection.errors),
        )
        found: list[Finding] = []
        codes = {code for code, _ in selection.errors}
        for code, text in selection.errors:
            found.append(F.selection_error(code, namespace, name, text, bool(members)))
        if selection.source == "list" and len(selection.namespaces) > 1:
            found.append(F.multiple_targets(namespace, name, selection.namespaces))
        if selection.source == "selector" and not codes & (
            BLOCKING_ERRORS | {SELECTOR_MATCHES_NOTHING}
        ):
            found.append(F.label_selector(namespace, name, selection.namespaces))
        # R-API-8 prunes only the claims no non-copied CSV of the namespace provides; claims
        # a member's RemoveAPIs strips are the PendingAPIConflict finding's story.
        stale = group_apis - sibling_apis
        if stale and not static:
            blockers = pruning_blockers(
                group_apis, ((e.state.name, e.state.phase, e.provided) for e in evals)
            )
            found.append(F.stale_provided_apis(namespace, name, api_list(stale), blockers))
        unbacked = group_apis - sibling_apis
        if static and unbacked:
            found.append(F.unbacked_static_apis(namespace, name, api_list(unbacked)))
        if not codes & BLOCKING_ERRORS and set(status or ()) != set(selection.namespaces):
            found.append(
                F.status_not_synced(namespace, name, state.status_namespaces, selection.namespaces)
            )
        self._findings[("og", *key)] = tuple(found)
        if self._og_states.get(key) != state:
            self._og_states[key] = state

    def _recompute_source(self, source: NSKey) -> bool:
        """A source CSV's copy context changed or its copies came and went; says whether what
        its findings show (missing copies, group) changed."""
        evaluation = self._csv_evals.get(source)
        if evaluation is None or self._csvs.get(source[0], {}).get(source[1]) is None:
            context = CopySource(
                gc_reason=f"its parent {ref(*source)} no longer exists, so OLM deletes it "
                "(R-COPY-6)",
                parent=ref(*source),
            )
        else:
            context = evaluation.source
        held = self._copies.get(source, {})
        old = self._sources.get(source)
        changed = old != context
        if changed:
            if held or evaluation is not None:
                self._sources[source] = context
            else:
                self._sources.pop(source, None)
            if (
                old is not None
                and old.group == context.group
                and (old.gc_reason, old.parent_targets, old.not_copied)
                == (context.gc_reason, context.parent_targets, context.not_copied)
            ):
                # Only the expected namespaces moved (a namespace came or went): recheck the
                # copies there, not all of them.
                shifted = old.expected ^ context.expected
                self._d_copies |= {(ns, source[1]) for ns in shifted if ns in held}
            else:
                self._d_copies |= {(ns, source[1]) for ns in held}
            self._set_missing(source, context.expected.difference(held))
            return True
        moved = self._d_held.get(source)
        return moved is not None and self._move_missing(source, context.expected, held, moved)

    def _set_missing(self, source: NSKey, missing: frozenset[str]) -> None:
        """R-COPY-3: the expected namespaces holding no copy, computed in full."""
        if missing:
            self._missing[source] = set(missing)
        else:
            self._missing.pop(source, None)

    def _move_missing(
        self, source: NSKey, expected: frozenset[str], held: dict[str, Obj], moved: set[str]
    ) -> bool:
        """R-COPY-3 again, when only copies came or went (in ``moved``): a global operator
        expects a copy in every namespace, so a relist of its copies must not rescan them."""
        missing = self._missing.get(source)
        changed = False
        for namespace in moved:
            wanted = namespace in expected and namespace not in held
            if wanted == (missing is not None and namespace in missing):
                continue
            changed = True
            if wanted:
                missing = self._missing.setdefault(source, set())
                missing.add(namespace)
            elif missing is not None:
                missing.discard(namespace)
        if missing is not None and not missing:
            del self._missing[source]
        return changed

    def _recompute_copy(self, key: NSKey, touched: set[NSKey]) -> None:
        source = self._copy_source.get(key)
        if source is None:
            return
        copy = self._copies[source][key[0]]
        context = self._sources.get(source) or _NO_SOURCE
        reason = stale_reason(key[0], has_operator_namespace(copy), context)
        before = self._stale.get(key)
        if reason == before:
            return
        by_source = self._stale_by_source.setdefault(source, {})
        if reason is None:
            self._stale.pop(key, None)
            by_source.pop(key[0], None)
        else:
            self._stale[key] = reason
            by_source[key[0]] = reason
        if not by_source:
            self._stale_by_source.pop(source, None)
        touched.add(source)

    def _recompute_source_findings(self, source: NSKey) -> None:
        found: list[Finding] = []
        missing = self._missing.get(source)
        context = self._sources.get(source)
        if missing and context is not None and context.group:
            found.append(F.missing_copies(source[0], source[1], _sorted_ns(missing), context.group))
        stale = self._stale_by_source.get(source)
        if stale:
            by_reason: dict[str, list[str]] = {}
            for namespace, reason in stale.items():
                by_reason.setdefault(reason, []).append(namespace)
            exists = self._csvs.get(source[0], {}).get(source[1]) is not None
            found.append(F.stale_copies(ref(*source), by_reason, exists))
        if found:
            self._findings[("copies", *source)] = tuple(found)
        else:
            self._findings.pop(("copies", *source), None)

    def _recompute_subscriptions(self, namespace: str) -> None:
        subs = self._subs.get(namespace, {})
        if not subs:
            self._subs.pop(namespace, None)
            self._findings.pop(("subs", namespace), None)
            return
        approval = effective_approval(subs.values())
        groups = sorted(self._ogs.get(namespace, {}))
        manual = sorted(
            n for n, s in subs.items() if spec(s).get("installPlanApproval") == "Manual"
        )
        found: list[Finding] = []
        for name, sub in sorted(subs.items()):
            upgrade = self._upgrades(sub, self._store) if self._upgrades else None
            state = subscription_state(sub, approval, self._plan, upgrade)
            if self._sub_states.get((namespace, name)) != state:
                self._sub_states[(namespace, name)] = state
            if len(groups) != 1:
                found.append(F.subscription_stalled(namespace, name, groups))
            if state.approval == "Automatic" and manual:
                found.append(F.manual_contagion(namespace, name, manual))
            if len(groups) == 1:
                found.extend(self._head_preflight(sub, state, (namespace, groups[0])))
        self._findings[("subs", namespace)] = tuple(found)

    def _head_preflight(self, sub: Obj, state: SubscriptionState, og_key: NSKey) -> list[Finding]:
        """§15.5: the channel head's install modes (from its PackageManifest) against the
        target string its CSV will carry in this namespace's group (R-OG-3, R-IM-1)."""
        held = self._manifests.get(subscription_package(sub))
        if not held:
            return []
        head = channel_head(held[min(held)], state.channel)
        if head is None:
            return []
        og = self._ogs[og_key[0]][og_key[1]]
        status = status_namespaces(og)
        selection = self._selection.get(og_key)
        targets = status if status is not None else (selection.namespaces if selection else ())
        message = install_mode_verdict(
            install_mode_set(head[1]).supported,
            build_target_namespaces(targets).split(","),
            state.namespace,
        )
        if message is None:
            return []
        return [
            F.head_unsupported(
                state.namespace,
                state.name,
                head[0],
                message,
                ref(*og_key),
                state.installed_csv is not None,
            )
        ]

    def _plan(self, namespace: str, name: str) -> Obj | None:
        return self._store.get("InstallPlan", namespace, name)

    def _recompute_namespace(self, namespace: str) -> None:
        found: list[Finding] = []
        groups = sorted(self._ogs.get(namespace, {}))
        if len(groups) > 1:
            found.append(F.multiple_groups(namespace, groups))
        if namespace in self._namespaces and namespace not in self._inferred:
            found.extend(self._label_drift(namespace))
        if found:
            self._findings[("ns", namespace)] = tuple(found)
        else:
            self._findings.pop(("ns", namespace), None)

    def _label_drift(self, namespace: str) -> list[Finding]:
        """R-OG-5: the uid labels OLM keeps on a namespace vs the ones it carries."""
        expected: set[str] = set()
        owners: list[ObjectRef] = []
        for key in sorted(self._status_members.get(namespace, ())):
            label = uid_label(self._ogs[key[0]][key[1]])
            if label:
                expected.add(label)
                owners.append(F.og_ref(*key))
        actual = {k for k in self._namespaces[namespace] if k.startswith(UID_LABEL_PREFIX)}
        if expected == actual:
            return []
        return [
            F.label_drift(namespace, sorted(expected - actual), sorted(actual - expected), owners)
        ]

    def _recompute_olmconfig(self) -> None:
        """R-COPY-7 and R-COPY-8 findings; cheap (one look per CSV of a global group), so
        done on every batch."""
        disabled = copies_disabled(self._olmconfig)
        sources = [(og[0], name) for og in self._global_ogs for name in self._csvs.get(og[0], {})]
        found = []
        if disabled:
            found.append(F.copies_disabled(len(sources)))
        observed = observed_condition(self._olmconfig)
        if observed is not None:
            # R-COPY-8 counts, for every CSV of a global group, its copies against the
            # Active namespaces minus one, whatever the CSV's own state.
            wanted = len(self._active) - 1
            expected = olmconfig_condition(
                disabled,
                any(len(self._copies.get(s, ())) != wanted for s in sources),
                any(s in self._copies for s in sources),
            )
            if observed != expected:
                found.append(F.olmconfig_condition_stale(observed, expected))
        if found:
            self._findings[("olmconfig",)] = tuple(found)
        else:
            self._findings.pop(("olmconfig",), None)
