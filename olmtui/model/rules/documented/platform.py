"""Objects the OpenShift release payload owns (R-DOC-7).

The cluster-version operator creates and keeps them as the release says; an admin cannot
change them for long, and should not try. Findings about such an object tell what it does
(info at most) and never ask the admin to edit it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from olmtui.kinds import CLUSTER_VERSION
from olmtui.objects import annotations_of, meta

#: Annotations the release payload puts on every manifest it ships (one per cluster profile).
RELEASE_ANNOTATION_PREFIX = "include.release.openshift.io/"
CLUSTER_VERSION_GROUP = "config.openshift.io"

#: The sentence findings add about a platform-owned subject (R-DOC-7).
BY_DESIGN = (
    "This is by design: the object is set by the OpenShift release payload (R-DOC-7); the "
    "cluster-version operator keeps it as the release ships it, so it is not the admin's to "
    "change."
)


def _owned_by_cluster_version(ref: Any) -> bool:
    if not isinstance(ref, Mapping) or ref.get("kind") != CLUSTER_VERSION:
        return False
    api_version = str(ref.get("apiVersion") or "")
    return api_version.partition("/")[0] == CLUSTER_VERSION_GROUP


def is_platform_owned(obj: Mapping[str, Any]) -> bool:
    """R-DOC-7: an ownerReference to the ClusterVersion (config.openshift.io), or any
    ``include.release.openshift.io/*`` annotation."""
    owners = meta(obj).get("ownerReferences") or ()
    if isinstance(owners, list) and any(_owned_by_cluster_version(o) for o in owners):
        return True
    return any(key.startswith(RELEASE_ANNOTATION_PREFIX) for key in annotations_of(obj))
