"""What the cause links read of the objects: which catalogs a namespace resolves against,
which Subscriptions reference an InstallPlan, which CSV a copy was made from.

The links claim only what the state shows (docs/rules.md, "Diagnosis"): each question here is
answered from the objects read, never from a finding's code alone. Answers per namespace are
kept, so asking for each of many findings costs one pass over the namespace.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from olmtui.kinds import (
    CATALOG_SOURCE,
    CLUSTER_EXTENSION_REVISION,
    CLUSTER_OBJECT_SET,
    CSV,
    DEPLOYMENT,
    INSTALL_PLAN,
    JOB,
    OPERATOR_GROUP,
    POD,
    SUBSCRIPTION,
)
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.copies.placement import copy_source
from olmtui.model.rules.evidence.bundle_unpack import failed_unpack_jobs
from olmtui.model.rules.evidence.install_pods import deployment_pods, install_deployments
from olmtui.model.rules.subscriptions.state import install_plan_name
from olmtui.model.rules.v1.revisions import owner_of
from olmtui.objects import Obj, annotations_of, is_copied_csv, name_of, namespace_of, spec

#: R-RES-3: the OperatorGroup annotation that keeps the global catalog namespace out of view.
EXCLUDE_GLOBAL = "olm.operatorframework.io/exclude-global-namespace-resolution"


class Objects(Protocol):
    """The objects read, as the cache (``olmtui.store.Store``) hands them out."""

    def get(self, kind: str, namespace: str, name: str) -> Obj | None: ...
    def list(self, kind: str, namespace: str | None = None) -> Iterator[Obj]: ...


def _refs(kind: str, objs: Iterable[Obj]) -> list[ObjectRef]:
    return sorted(
        (ObjectRef(kind, namespace_of(o), name_of(o)) for o in objs),
        key=lambda r: (r.namespace, r.name),
    )


class Relations:
    """The relations between objects that the cause links follow (R-DIAG-*)."""

    def __init__(self, objects: Objects, global_namespace: str) -> None:
        self._objects = objects
        self.global_namespace = global_namespace
        self._sees_global: dict[str, bool] = {}

    def sees_global(self, namespace: str) -> bool:
        """R-RES-3: a namespace resolves against the global catalog namespace unless its one
        OperatorGroup carries the exclusion annotation with value ``"true"``."""
        seen = self._sees_global.get(namespace)
        if seen is None:
            groups = list(self._objects.list(OPERATOR_GROUP, namespace))
            seen = not (
                len(groups) == 1 and annotations_of(groups[0]).get(EXCLUDE_GLOBAL) == "true"
            )
            self._sees_global[namespace] = seen
        return seen

    def visible_catalogs(self, namespace: str) -> list[ObjectRef]:
        """R-RES-3, R-RES-4: the CatalogSources a namespace resolves against, its own first."""
        found = _refs(CATALOG_SOURCE, self._objects.list(CATALOG_SOURCE, namespace))
        if namespace != self.global_namespace and self.sees_global(namespace):
            found += _refs(
                CATALOG_SOURCE, self._objects.list(CATALOG_SOURCE, self.global_namespace)
            )
        return found

    def own_catalog(self, namespace: str, name: str) -> ObjectRef | None:
        """The CatalogSource a Subscription names (``spec.source`` in ``spec.sourceNamespace``)."""
        sub = self._objects.get(SUBSCRIPTION, namespace, name)
        if sub is None:
            return None
        sub_spec = spec(sub)
        source = sub_spec.get("source")
        if not isinstance(source, str) or not source:
            return None
        return ObjectRef(CATALOG_SOURCE, sub_spec.get("sourceNamespace") or namespace, source)

    def blocked_subscriptions(self, catalog: ObjectRef) -> list[ObjectRef]:
        """R-RES-5: the Subscriptions whose namespace resolves against ``catalog``: every
        namespace that sees the global catalog namespace when it lives there, else its own."""
        if catalog.namespace != self.global_namespace:
            return _refs(SUBSCRIPTION, self._objects.list(SUBSCRIPTION, catalog.namespace))
        return _refs(
            SUBSCRIPTION,
            (
                s
                for s in self._objects.list(SUBSCRIPTION)
                if namespace_of(s) == catalog.namespace or self.sees_global(namespace_of(s))
            ),
        )

    def plans_installing(self, namespace: str, csv: str) -> list[str]:
        """The namespace's InstallPlans whose ``spec.clusterServiceVersionNames`` name ``csv``."""
        return sorted(
            name_of(p)
            for p in self._objects.list(INSTALL_PLAN, namespace)
            if csv in (spec(p).get("clusterServiceVersionNames") or ())
        )

    def subscriptions_referencing(self, namespace: str, plans: Iterable[str]) -> list[ObjectRef]:
        """The Subscriptions of the namespace whose status references one of ``plans``."""
        wanted = {(namespace, p) for p in plans}
        if not wanted:
            return []
        return _refs(
            SUBSCRIPTION,
            (
                s
                for s in self._objects.list(SUBSCRIPTION, namespace)
                if install_plan_name(s) in wanted
            ),
        )

    def plan_of(self, namespace: str, name: str) -> str | None:
        """The InstallPlan a Subscription references, when it references one."""
        sub = self._objects.get(SUBSCRIPTION, namespace, name)
        found = None if sub is None else install_plan_name(sub)
        return None if found is None else found[1]

    def original_of(self, namespace: str, name: str) -> ObjectRef | None:
        """R-COPY-1: the CSV a copied CSV was made from, ``None`` for an original."""
        csv = self._objects.get(CSV, namespace, name)
        if csv is None or not is_copied_csv(csv):
            return None
        source_namespace, source_name = copy_source(csv)
        if not source_namespace or source_namespace == namespace:
            return None
        return ObjectRef(CSV, source_namespace, source_name)

    def single_group(self, namespace: str) -> ObjectRef | None:
        """The namespace's OperatorGroup when it has exactly one (R-MEM-1, R-MEM-2)."""
        groups = _refs(OPERATOR_GROUP, self._objects.list(OPERATOR_GROUP, namespace))
        return groups[0] if len(groups) == 1 else None

    def catalog_pods(self, namespace: str, name: str) -> list[ObjectRef]:
        """R-DIAG-20: the pods of a CatalogSource (label ``olm.catalogSource=<name>`` in its
        namespace), by name."""
        pods = self._objects.list(POD, namespace)
        return _refs(POD, (p for p in pods if _labels(p).get("olm.catalogSource") == name))

    def install_pods(self, namespace: str, name: str) -> list[ObjectRef]:
        """R-DIAG-27: the pods of the Deployments a CSV's install strategy creates (their
        selector's labels, or a ReplicaSet of theirs as owner), by name."""
        csv = self._objects.get(CSV, namespace, name)
        names = [] if csv is None else install_deployments(csv)
        pods = list(self._objects.list(POD, namespace)) if names else []
        found: list[Obj] = []
        for deployment in names if pods else ():
            obj = self._objects.get(DEPLOYMENT, namespace, deployment)
            found += deployment_pods(deployment, obj, pods)
        return _refs(POD, found)

    def failed_unpack_job(self, namespace: str, name: str) -> list[ObjectRef]:
        """R-DIAG-22: the failed bundle unpack Job of a Subscription's catalog namespace,
        when it holds exactly one (the Job names no Subscription: with several, which is
        whose is not known)."""
        sub = self._objects.get(SUBSCRIPTION, namespace, name)
        if sub is None:
            return []
        source_namespace = spec(sub).get("sourceNamespace") or namespace
        failed = failed_unpack_jobs(self._objects.list(JOB, source_namespace))
        return _refs(JOB, failed) if len(failed) == 1 else []

    def extension_revisions(self, extension: str) -> list[ObjectRef]:
        """R-V1-24: the revisions (ClusterObjectSets, ClusterExtensionRevisions) a
        ClusterExtension owns, by their owner reference or labels."""
        found: list[ObjectRef] = []
        for kind in (CLUSTER_OBJECT_SET, CLUSTER_EXTENSION_REVISION):
            found += _refs(kind, (o for o in self._objects.list(kind) if owner_of(o) == extension))
        return found


def _labels(obj: Obj) -> dict[str, str]:
    labels = (obj.get("metadata") or {}).get("labels")
    return labels if isinstance(labels, dict) else {}
