"""What is not a change (R-REC-7): fields that move without OLM's state moving.

Decided field by field. A key of :data:`NOISE_KEYS` is skipped wherever it appears (at
any depth); a path of :data:`NOISE_PATHS` only in objects of its kind. Everything else that
differs is a change, said in the fields' own words.
"""

from __future__ import annotations

from typing import Final

from olmtui.kinds import CATALOG_SOURCE, CLUSTER_CATALOG, CSV

#: Keys that change on every write or every heartbeat, whatever the object (R-REC-7):
#: the API server's bookkeeping (``resourceVersion``, ``generation``, ``managedFields``,
#: ``observedGeneration``) and the times a controller stamps when it looks again
#: (``lastUpdateTime``, ``lastHeartbeatTime``, ``lastProbeTime``, ``lastTransitionTime``
#: -- a condition that moved shows in its ``status``/``reason`` --, a Subscription's and
#: its catalog health's ``lastUpdated``, ``lastSync``, a CatalogSource's ``lastConnect``
#: and ``latestImageRegistryPoll``).
NOISE_KEYS: Final = frozenset(
    {
        "resourceVersion",
        "generation",
        "managedFields",
        "observedGeneration",
        "lastUpdateTime",
        "lastHeartbeatTime",
        "lastProbeTime",
        "lastTransitionTime",
        "lastUpdated",
        "lastSync",
        "lastConnect",
        "latestImageRegistryPoll",
    }
)

#: Paths that are noise in one kind only (R-REC-7): a CSV's ``status.conditions`` is the
#: history of its phases (the phase itself is compared) and its certificates' rotation
#: times move on their own; a CatalogSource's registry Service records when it was made;
#: a ClusterCatalog's ``lastUnpacked`` moves on every unpack of the same digest (the
#: digest, ``status.resolvedSource``, is compared).
NOISE_PATHS: Final[dict[str, frozenset[str]]] = {
    CSV: frozenset({"status.conditions", "status.certsLastUpdated", "status.certsRotateAt"}),
    CATALOG_SOURCE: frozenset({"status.registryService.createdAt"}),
    CLUSTER_CATALOG: frozenset({"status.lastUnpacked"}),
}
