"""Plans for the chapter "Cluster upgrade" (R-CUP-*): an extension whose installed bundle caps
the OpenShift version is upgraded or uninstalled before the cluster upgrade; its catalog is
what tells an unknown cap."""

from __future__ import annotations

from olmtui.model.diagnosis.remedies.planner import Plans, advise
from olmtui.model.rules.cluster_readiness.extension_caps import BLOCKS, CAPPED, INVALID, UNKNOWN

PLANS: Plans = {
    BLOCKS: advise(
        "other",
        "Before the next cluster upgrade, move the ClusterExtension to a version whose "
        "olm.maxOpenShiftVersion allows the next minor (spec.source.catalog.version or "
        "channels), or delete it (its custom resources stay) (R-CUP-3).",
    ),
    INVALID: advise(
        "contact-author",
        "Ask the bundle's author to give olm.maxOpenShiftVersion once, as <major>.<minor>, "
        "or move the ClusterExtension to a bundle that does (R-CUP-4).",
    ),
    UNKNOWN: advise(
        "other",
        "Give the catalog the extension installs from (--catalog) to read its cap (R-CUP-5).",
    ),
    CAPPED: None,
}
