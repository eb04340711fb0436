"""R-EVD-1: the namespaces whose pods the evidence rules read, decided the same way live and
from a snapshot.

A cluster holds thousands of pods and a hundred thousand events; the evidence rules read the
pods of catalogs (in the CatalogSource's namespace) and of the Deployments OLM made for CSVs,
and the Events about them. Live, the pod Event stream keeps a pod's Event only when its
namespace is one of these (``live_resources.in_olm_namespace``); a must-gather's
``core/pods.yaml`` and ``core/events.yaml`` of any other namespace are read no further than
that (``snapshots.snapshot``), so a replay and a live session hold the same pods' Events.
"""

from __future__ import annotations

from collections.abc import Callable

from olmtui.objects import is_copied_csv, labels, status
from olmtui.store import Store

#: R-CSV-I: OLM labels each Deployment it makes for a CSV ``olm.owner.kind`` (with
#: ``olm.owner`` and ``olm.owner.namespace``; ownerutil.AddOwnerLabelsForKind).
OWNER_KIND_LABEL = "olm.owner.kind"
CSV_KIND = "ClusterServiceVersion"
#: Whether the pods of a namespace, and their Events, are read from a snapshot.
SnapshotPodNamespaces = Callable[[str], bool]


def olm_pod_namespace(store: Store, namespace: str) -> bool:
    """R-EVD-1: whether ``namespace`` holds a CatalogSource or a Deployment OLM made for a
    CSV, the namespaces whose pods the evidence rules read."""
    return any(store.list("CatalogSource", namespace)) or any(
        labels(d).get(OWNER_KIND_LABEL) == CSV_KIND for d in store.list("Deployment", namespace)
    )


def snapshot_pod_namespaces(store: Store) -> SnapshotPodNamespaces:
    """R-EVD-1, R-EVD-9: whether a snapshot's pods of a namespace, and their Events, are
    read: :func:`olm_pod_namespace`, or it holds a CSV (not a copy) that is not
    ``Succeeded``, whose pods the install rules find by its Deployments' names even when
    the snapshot lacks the Deployments. The waiting CSVs' namespaces are found in one pass
    over the CSVs, not one per namespace asked (300 namespaces of a must-gather each
    passing over its 6,000 CSVs and copies cost 0.45 s)."""
    waiting = {
        namespace
        for (namespace, _), csv in store.slots(CSV_KIND)
        if not is_copied_csv(csv) and status(csv).get("phase") != "Succeeded"
    }
    return lambda namespace: namespace in waiting or olm_pod_namespace(store, namespace)
