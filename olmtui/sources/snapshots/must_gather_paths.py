"""Which kind a must-gather file holds, told by its path, and so which files are not read.

``oc adm must-gather`` (through ``oc adm inspect``) writes a namespace's core objects below
``namespaces/NS/`` one List per kind (``core/pods.yaml``, ``core/events.yaml``,
``batch/jobs.yaml``...) and each pod again in ``pods/POD/POD.yaml`` (read only when the
namespace has no ``core/pods.yaml``: ``repeated_pods``). A file of a kind the
loader does not keep (not in ``snapshot_objects.KIND_GROUPS``) holds nothing a load uses, so it
is not read at all: a must-gather's Pods and Events are often as many bytes as all of OLM's
objects, and parsing them only to drop them cost more than the rest of ``check``.

This table is the one place that says which must-gather path holds which kind: a reader that
starts keeping a kind (adds it to ``KIND_GROUPS``) has its files read again, nothing else to
change. Only these exact paths below a must-gather's ``namespaces/`` tree are decided by path;
every other file is read and its objects sorted by their own ``kind`` as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from olmtui.sources.snapshots.snapshot_objects import KIND_GROUPS

#: The tree of a must-gather holding namespaced objects, ``namespaces/NS/...``.
NAMESPACES_TREE = "namespaces"
#: The files ``oc adm inspect`` writes below ``namespaces/NS/``, one List of one kind each.
NAMESPACED_FILES: dict[str, str] = {
    "core/pods.yaml": "Pod",
    "core/events.yaml": "Event",
    "core/configmaps.yaml": "ConfigMap",
    "core/endpoints.yaml": "Endpoints",
    "core/persistentvolumeclaims.yaml": "PersistentVolumeClaim",
    "core/replicationcontrollers.yaml": "ReplicationController",
    "core/secrets.yaml": "Secret",
    "core/services.yaml": "Service",
    "apps/deployments.yaml": "Deployment",
    "apps/daemonsets.yaml": "DaemonSet",
    "apps/replicasets.yaml": "ReplicaSet",
    "apps/statefulsets.yaml": "StatefulSet",
    "batch/jobs.yaml": "Job",
    "batch/cronjobs.yaml": "CronJob",
}
#: ``namespaces/NS/pods/POD/POD.yaml``: one Pod (its logs beside it are not YAML).
_POD_FOLDER = "pods"
POD = "Pod"


def kind_by_path(in_tree: Sequence[str]) -> str | None:
    """The kind a must-gather file holds by its path from its tree down (``namespaces``,
    ``NS``, ..., the file's name), or ``None`` when its path does not say (the file is
    read to know)."""
    if not in_tree or in_tree[0] != NAMESPACES_TREE:
        return None
    below = in_tree[2:]  # after namespaces/NS/
    if len(below) == 3 and below[0] == _POD_FOLDER and below[2] == f"{below[1]}.yaml":
        return POD
    return NAMESPACED_FILES.get("/".join(below))


#: A namespace's List of its Pods (``namespaces/NS/core/pods.yaml``).
_PODS_LIST = ("core", "pods.yaml")


def repeated_pods(in_trees: Iterable[Sequence[str]]) -> set[tuple[str, ...]]:
    """Of the must-gather files given by their paths from their tree down, the
    ``namespaces/NS/pods/POD/POD.yaml`` whose namespace has its ``core/pods.yaml``: each
    holds a Pod that List holds again, so one of the two is read, the List (R-EVD-1)."""
    paths = [tuple(p) for p in in_trees]
    listed = {p[:2] for p in paths if p[0] == NAMESPACES_TREE and p[2:] == _PODS_LIST}
    return {
        p
        for p in paths
        if len(p) > 2 and p[2] == _POD_FOLDER and p[:2] in listed and kind_by_path(p) == POD
    }


#: The kinds of the files read once every other file is (``deferred_evidence``).
_DEFERRED_KINDS = frozenset({POD, "Event"})


def deferred_evidence(name: str) -> tuple[str, str] | None:
    """``(kind, namespace)`` of a must-gather's ``namespaces/NS/core/pods.yaml``,
    ``core/events.yaml`` or ``pods/POD/POD.yaml`` (the file's ``name`` as the loader shows
    it), else ``None``. Whether they are read, and which of their Pod Events, depends on
    what the namespace holds (R-EVD-1, ``evidence_scope``), so they are read last."""
    if "pods" not in name and "events" not in name:  # in every path these files have
        return None
    in_tree = _in_namespaces_tree(name.replace("\\", "/").split("/"))
    kind = None if in_tree is None else kind_by_path(in_tree)
    return None if in_tree is None or kind not in _DEFERRED_KINDS else (kind, in_tree[1])


def _in_namespaces_tree(parts: list[str]) -> list[str] | None:
    """A file's path from the last ``namespaces`` folder down, or ``None`` without one."""
    if NAMESPACES_TREE not in parts:
        return None
    return parts[len(parts) - 1 - parts[::-1].index(NAMESPACES_TREE) :]


def unread_kind(in_tree: Sequence[str]) -> str | None:
    """The kind of a must-gather file that is not read (its path from its tree down says a
    kind the loader does not keep), else ``None``: the file is read."""
    kind = kind_by_path(in_tree)
    return None if kind is None or kind in KIND_GROUPS else kind


@cache
def _kinds_by_plural() -> dict[str, str]:
    """Kinds by the plural a must-gather folder or file names them by: the API's plurals of
    the kinds streamed live, and the one-kind Lists ``oc adm inspect`` writes. Built when
    first asked (after a skipped document): the live table brings the HTTP client's imports,
    which the parse workers that import this module never need."""
    from olmtui.sources.cluster.live_resources import STREAMS

    return {
        **{spec.resource.plural: spec.resource.kind for spec in STREAMS},
        **{
            path.rsplit("/", 1)[-1].removesuffix(".yaml"): k for path, k in NAMESPACED_FILES.items()
        },
    }


def kind_of_file(name: str) -> str | None:
    """The kind the snapshot file ``name`` holds, told by its path, or ``None`` when its path
    does not say: what an unreadable document of it lost is of that kind only (R-SRC-1)."""
    parts = name.replace("\\", "/").split("/")
    in_tree = _in_namespaces_tree(parts)
    found = None if in_tree is None else kind_by_path(in_tree)
    if found is not None:
        return found
    # the file's own name, then its folder (``.../operatorgroups/NAME.yaml``)
    plurals = _kinds_by_plural()
    named = plurals.get(parts[-1].rsplit(".", 1)[0])
    if named is not None or len(parts) < 2:
        return named
    return plurals.get(parts[-2])
