"""The cluster-wide health rules kept per partition from the change feed.

The multitenancy limits (R-DOC-1, R-DOC-2) and the missing requirements (R-API-1) read every
non-copied CSV, but each finding reads one group of them: the instances of one package (version and
CRD skew, multi-instance limits), the owners of one CRD (shared CRD owners) or one CSV and
who provides or serves its required APIs (missing requirements). Here those groups are kept
as the subjects of the ``partitions`` family (``olmtui.model.rules.health_rules``), which
:class:`olmtui.model.incremental.health_index.HealthIndex` keeps:

* ``("pkg", package)``: :func:`olmtui.model.rules.dependencies.multitenancy.package_findings`.
* ``("crd", name)``: :func:`olmtui.model.rules.dependencies.multitenancy.shared_crd_finding`.
* ``("req", namespace, name)``:
:func:`olmtui.model.rules.dependencies.required_apis.missing_requirement_finding`.

A namespace's instances read only its own CSVs and Subscriptions, so a change there rebuilds
that namespace's instances and marks the packages and CRDs of the instances that moved; a
CSV's API surface marks the CSVs requiring an API it stopped or started providing; a CRD
marks its owners' CRD subject and the CSVs requiring an API it serves. Copies never feed any
of these (R-COPY-1): the index is never told about them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from functools import partial

from olmtui.model.records.types import Finding
from olmtui.model.rules.apis.reconcile import APISurface, api_surface
from olmtui.model.rules.dependencies.multitenancy import (
    Instance,
    crd_names,
    installed_instances,
    package_findings,
    shared_crd_finding,
)
from olmtui.model.rules.dependencies.required_apis import (
    crd_served_apis,
    missing_requirement_finding,
)
from olmtui.objects import Obj

Subject = tuple[str, ...]
CSVKey = tuple[str, str]


class ClusterRules:
    """Instances, API surfaces and CRDs by the keys the cluster-wide rules group on.

    The owner (the HealthIndex) reports each non-copied CSV and CRD change, and which
    namespaces' CSVs or Subscriptions changed; :meth:`settle` then returns the subjects to
    recompute with :meth:`compute`.
    """

    def __init__(self) -> None:
        self._instances: dict[str, list[Instance]] = {}
        self._by_package: dict[str, dict[str, Instance]] = {}
        self._crd_owners: dict[str, dict[tuple[str, str], Instance]] = {}
        self._crds: dict[str, Obj] = {}
        self._served: Counter[str] = Counter()
        self._surfaces: dict[CSVKey, APISurface] = {}
        self._csvs: dict[CSVKey, Obj] = {}
        self._providers: dict[str, set[CSVKey]] = {}
        self._required_by: dict[str, set[CSVKey]] = {}
        self._stale: set[str] = set()
        self._dirty: set[Subject] = set()

    # -- changes ---------------------------------------------------------------------------
    def csv_changed(self, key: CSVKey, new: Obj | None) -> None:
        """The non-copied CSV ``key`` (namespace, name) is now ``new`` (``None``: removed,
        or it became a copy)."""
        before = self._surfaces.pop(key, None)
        self._csvs.pop(key, None)
        after = api_surface(dict(new)) if new is not None else None
        if new is not None and after is not None:
            self._surfaces[key] = after
            self._csvs[key] = new
        old_provided = before.provided if before else frozenset()
        new_provided = after.provided if after else frozenset()
        self._index(self._providers, key, old_provided, new_provided)
        self._index(
            self._required_by,
            key,
            before.required if before else frozenset(),
            after.required if after else frozenset(),
        )
        self._dirty.add(("req", *key))
        self._mark_requiring(old_provided ^ new_provided)
        self._stale.add(key[0])

    def subscriptions_changed(self, namespace: str) -> None:
        """A Subscription of the namespace changed: its instances' packages may have."""
        self._stale.add(namespace)

    def crd_changed(self, old: Obj | None, new: Obj | None) -> None:
        obj = new if new is not None else old
        name = ((obj or {}).get("metadata") or {}).get("name") or ""
        had_crds = bool(self._crds)
        before = crd_served_apis(old) if old is not None else set()
        after = crd_served_apis(new) if new is not None else set()
        if new is None:
            self._crds.pop(name, None)
        else:
            self._crds[name] = new
        for api in before - after:
            self._served[api] -= 1
            if self._served[api] <= 0:
                del self._served[api]
        self._served.update(after - before)
        if had_crds != bool(self._crds):
            # Whether any CRD is known sets every missing requirement's severity.
            self._mark_requiring(self._required_by.keys())
        else:
            self._mark_requiring(before ^ after)
        self._dirty.add(("crd", name))

    @staticmethod
    def _index(
        index: dict[str, set[CSVKey]], key: CSVKey, old: frozenset[str], new: frozenset[str]
    ) -> None:
        for api in old - new:
            held = index[api]
            held.discard(key)
            if not held:
                del index[api]
        for api in new - old:
            index.setdefault(api, set()).add(key)

    def _mark_requiring(self, apis: Iterable[str]) -> None:
        for api in apis:
            self._dirty |= {("req", *key) for key in self._required_by.get(api, ())}

    # -- settling --------------------------------------------------------------------------
    def settle(
        self, installed: Mapping[str, Mapping[str, Obj]], subs: Mapping[str, Mapping[str, Obj]]
    ) -> set[Subject]:
        """Rebuild the stale namespaces' instances; the subjects to recompute."""
        for namespace in self._stale:
            self._rebuild_instances(
                namespace,
                installed.get(namespace, {}).values(),
                subs.get(namespace, {}).values(),
            )
        self._stale.clear()
        dirty, self._dirty = self._dirty, set()
        return dirty

    def _rebuild_instances(self, namespace: str, csvs: Iterable[Obj], subs: Iterable[Obj]) -> None:
        old = self._instances.pop(namespace, [])
        new = installed_instances(csvs, subs)
        if new:
            self._instances[namespace] = new
        if old == new:
            return
        for inst in old:
            self._by_package[inst.package].pop(namespace, None)
            if not self._by_package[inst.package]:
                del self._by_package[inst.package]
            for crd in crd_names(inst):
                del self._crd_owners[crd][(inst.package, namespace)]
                if not self._crd_owners[crd]:
                    del self._crd_owners[crd]
        for inst in new:
            self._by_package.setdefault(inst.package, {})[namespace] = inst
            for crd in crd_names(inst):
                self._crd_owners.setdefault(crd, {})[(inst.package, namespace)] = inst
        for inst in set(old) ^ set(new):
            self._dirty.add(("pkg", inst.package))
            self._dirty |= {("crd", crd) for crd in crd_names(inst)}

    # -- computing -------------------------------------------------------------------------
    def compute(self, subject: Subject) -> list[Finding]:
        """The findings of one ``pkg``, ``crd`` or ``req`` subject, as the from-scratch
        ``cluster_health_findings`` gives them for that group."""
        kind = subject[0]
        if kind == "pkg":
            held = self._by_package.get(subject[1], {})
            return package_findings(subject[1], [held[ns] for ns in sorted(held)])
        if kind == "crd":
            owners = self._crd_owners.get(subject[1], {})
            group = [owners[k] for k in sorted(owners)]
            found = shared_crd_finding(subject[1], group, self._crds.get(subject[1]))
            return [] if found is None else [found]
        key = (subject[1], subject[2])
        csv = self._csvs.get(key)
        if csv is None:
            return []
        required = self._surfaces[key].required
        available = partial(self._available, key=key)
        finding = missing_requirement_finding(csv, required, available, bool(self._crds))
        return [] if finding is None else [finding]

    def _available(self, api: str, key: CSVKey) -> bool:
        """Served by a CRD, or provided by another non-copied CSV (R-API-1)."""
        return bool(self._served[api]) or bool(self._providers.get(api, set()) - {key})
