"""ClusterObjectSets (and ClusterExtensionRevisions, their older name) as the cache keeps
them (R-V1-24): names, numbers, states and references, never the objects they apply.

A revision embeds every manifest of a bundle version (or references Secrets holding them):
CRDs of a megabyte, Deployments, RBAC. The dashboard shows which objects a phase holds,
not what they say, so each phase keeps its name, its collision protection and, per object,
only its identity (``apiVersion``, ``kind``, namespace and name) or its Secret reference.
Only values of the expected type are kept, so the model reads them without checks.
"""

from __future__ import annotations

from typing import Any

from olmtui.kinds import REVISION_KINDS as REVISION_KINDS  # re-exported for the cache
from olmtui.store_evidence import kept_conditions, picked

Obj = dict[str, Any]

#: The API's own bounds (api/v1/clusterobjectset_types.go): at most 20 phases of 50 objects.
MAX_PHASES = 20
MAX_OBJECTS = 50
#: A condition message longer than this is cut: a probe failure lists one line per object.
_MESSAGE_LIMIT = 4096
_METADATA = ("name", "uid", "resourceVersion", "creationTimestamp", "deletionTimestamp")


def _str(value: Any) -> bool:
    return isinstance(value, str)


def _metadata(obj: Obj) -> Obj:
    obj_meta = obj.get("metadata")
    kept = picked(obj_meta, _METADATA)
    if not isinstance(obj_meta, dict):
        return kept
    labels = obj_meta.get("labels")
    if isinstance(labels, dict):
        kept["labels"] = {k: v for k, v in labels.items() if _str(k) and _str(v)}
    owners = obj_meta.get("ownerReferences")
    if isinstance(owners, list):
        kept["ownerReferences"] = [
            o for o in (picked(o, ("apiVersion", "kind", "name", "uid")) for o in owners) if o
        ]
    return kept


def _phase_object(entry: Any) -> Obj:
    """One object of a phase: the identity of an inline manifest, or its Secret reference."""
    if not isinstance(entry, dict):
        return {}
    kept: Obj = {}
    inline = entry.get("object")
    if isinstance(inline, dict):
        identity = picked(inline, ("apiVersion", "kind"))
        identity["metadata"] = picked(inline.get("metadata"), ("name", "namespace"))
        kept["object"] = identity
    ref = picked(entry.get("ref"), ("name", "namespace", "key"))
    if ref:
        kept["ref"] = ref
    kept.update(picked(entry, ("collisionProtection",)))
    return kept


def _phase(entry: Any) -> Obj:
    kept = picked(entry, ("name", "collisionProtection"))
    objects = entry.get("objects") if isinstance(entry, dict) else None
    if isinstance(objects, list):
        kept["objects"] = [_phase_object(o) for o in objects[:MAX_OBJECTS]]
    return kept


def trim_revision(obj: Obj) -> Obj:
    """A ClusterObjectSet or ClusterExtensionRevision as the cache keeps it (R-V1-24)."""
    raw_spec = obj.get("spec")
    raw_spec = raw_spec if isinstance(raw_spec, dict) else {}
    kept_spec = picked(raw_spec, ("lifecycleState", "collisionProtection"))
    for field in ("revision", "progressDeadlineMinutes"):
        value = raw_spec.get(field)
        if isinstance(value, int) and not isinstance(value, bool):
            kept_spec[field] = value
    phases = raw_spec.get("phases")
    if isinstance(phases, list):
        kept_spec["phases"] = [_phase(p) for p in phases[:MAX_PHASES]]
    raw_status = obj.get("status")
    conditions = kept_conditions(
        raw_status.get("conditions") if isinstance(raw_status, dict) else None, limit=_MESSAGE_LIMIT
    )
    kept: Obj = {
        "apiVersion": obj.get("apiVersion") if _str(obj.get("apiVersion")) else "",
        "kind": obj["kind"],
        "metadata": _metadata(obj),
        "spec": kept_spec,
    }
    if conditions:
        kept["status"] = {"conditions": conditions}
    return kept
