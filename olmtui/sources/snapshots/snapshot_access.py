"""What a saved snapshot could not read, kept in the snapshot itself (R-SRC-3).

``olmtui snapshot`` of a cluster where a kind is forbidden saves no object of that kind, and
a later ``check`` of the file must not read that as "none": the refusal travels in the
snapshot as one more YAML document, of a kind of olmtui's own (kubectl-like tools read it
as any unknown kind)::

    apiVersion: olmtui.dev/v1
    kind: SnapshotAccess
    metadata: {name: olmtui-snapshot, creationTimestamp: "2026-11-27T23:05:00Z"}
    refused:
    - {kind: Subscription, resource: subscriptions, reason: "403 Forbidden: ..."}
    - {kind: InstallPlan, resource: installplans, namespaces: [team-a], reason: "..."}

The snapshot loader turns it into the same ``Store.unreadable`` entries the live source
makes, so the report and the views say "no access", exactly as they did live.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Mapping

from olmtui.store import KINDS, Obj, Unreadable

API_VERSION = "olmtui.dev/v1"
KIND = "SnapshotAccess"
#: The file that holds the document in a snapshot saved as a directory.
FILE_NAME = "snapshotaccess.yaml"


def access_document(unreadable: Mapping[str, Unreadable]) -> Obj:
    """The document that records ``unreadable`` (``Store.unreadable``) in a snapshot."""
    refused: list[Obj] = []
    for kind, why in sorted(unreadable.items()):
        entry: Obj = {"kind": kind, "resource": why.resource}
        if why.namespaces is not None:
            entry["namespaces"] = list(why.namespaces)
        entry["reason"] = why.reason
        refused.append(entry)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {
        "apiVersion": API_VERSION,
        "kind": KIND,
        "metadata": {"name": "olmtui-snapshot", "creationTimestamp": stamp},
        "refused": refused,
    }


def is_access_document(obj: Obj) -> bool:
    return obj.get("kind") == KIND and obj.get("apiVersion") == API_VERSION


def read_access(obj: Obj) -> tuple[dict[str, Unreadable], list[str]]:
    """The kinds a :func:`access_document` says were refused, and what in it was unusable
    (each entry that is not a kind olmtui reads with a resource name is skipped)."""
    since = _since(obj.get("metadata"))
    found: dict[str, Unreadable] = {}
    problems: list[str] = []
    refused = obj.get("refused")
    if not isinstance(refused, list):
        return found, ["its refused field is not a list"]
    for index, entry in enumerate(refused):
        kind = entry.get("kind") if isinstance(entry, dict) else None
        resource = entry.get("resource") if isinstance(entry, dict) else None
        if kind not in KINDS or not isinstance(resource, str) or not resource:
            problems.append(
                f"entry {index} of its refused list (it names no kind olmtui reads and its "
                "resource; the other entries are read)"
            )
            continue
        assert isinstance(entry, dict)
        namespaces = entry.get("namespaces")
        names = tuple(sorted(str(n) for n in namespaces)) if isinstance(namespaces, list) else None
        reason = entry.get("reason")
        found[str(kind)] = Unreadable(
            resource,
            str(reason) if reason else "refused when the snapshot was taken",
            since,
            None,
            names,
        )
    return found, problems


def _since(metadata: object) -> float:
    """When the snapshot was taken, as the refusal's ``since`` (now if it does not say)."""
    stamp = metadata.get("creationTimestamp") if isinstance(metadata, dict) else None
    if isinstance(stamp, str):
        try:
            return dt.datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
        except ValueError:
            pass
    return time.time()
