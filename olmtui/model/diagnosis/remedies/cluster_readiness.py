"""Plans for the chapter "Cluster upgrade" (R-CUP-*): an extension whose installed bundle caps
the OpenShift version is upgraded or uninstalled before the cluster upgrade; its catalog is
what tells an unknown cap.

The upgrade of a capped ClusterExtension is a change of its own spec that operator-controller
follows (R-CUP-7): the plan patches ``spec.source.catalog.version`` only when the resolver,
reconcile after reconcile, then ends at a bundle whose cap allows the next minor; otherwise it
says what stands in the way (``missing``), never a bundle the spec would not reach.
"""

from __future__ import annotations

from dataclasses import replace

from olmtui.kinds import CLUSTER_CATALOG, CLUSTER_EXTENSION, CLUSTER_VERSION
from olmtui.model.diagnosis.remedies.context import RemedyContext, catalog_content
from olmtui.model.diagnosis.remedies.planner import Plans, advise, subject
from olmtui.model.diagnosis.remedies.steps import other, patch, plan, wait
from olmtui.model.records.diagnosis import Remedy
from olmtui.model.records.types import Finding
from olmtui.model.rules.cluster_readiness.extension_caps import (
    BLOCKS,
    CAPPED,
    INVALID,
    UNKNOWN,
    extension_caps,
)
from olmtui.model.rules.cluster_readiness.extension_way_out import VERSION_FIELD
from olmtui.model.rules.documented.cluster_upgrade import cluster_version, next_minor, shown_minor

_MOVE = (
    "Before the next cluster upgrade, move the ClusterExtension to a version whose "
    "olm.maxOpenShiftVersion allows the next minor (spec.source.catalog.version or "
    "channels), or delete it (its custom resources stay) (R-CUP-3)."
)


def _blocks(finding: Finding, context: RemedyContext) -> Remedy:
    """R-CUP-7: the spec change operator-controller follows to a bundle whose cap allows the
    next minor, or the plain way out with what is missing to name one."""
    ref = subject(finding)
    extension = context.get(CLUSTER_EXTENSION, "", finding.name)
    current = cluster_version(context.list(CLUSTER_VERSION))
    catalogs = catalog_content(context)
    if ref is None or extension is None or current is None:
        return plan(other(_MOVE, ref))
    if catalogs is None:
        return replace(
            plan(other(_MOVE, ref)),
            missing="the catalog content, to name the version to move to and try it (R-CUP-7)",
        )
    caps = extension_caps([extension], list(context.list(CLUSTER_CATALOG)), catalogs, current)
    way = caps[0].way if caps else None
    target = shown_minor(next_minor(current))
    if way is None:
        return replace(
            plan(other(_MOVE, ref)),
            missing="the extension's catalog content (--catalog): its installed bundle is in "
            "none given, so no version to move to can be named or tried (R-CUP-5)",
        )
    bundle = way.target
    if bundle is not None and way.patched is not None:
        said = f'"{way.constraint}"' if way.constraint else "unset"
        return plan(
            patch(
                ref,
                VERSION_FIELD,
                way.patched,
                f"Change {VERSION_FIELD} of ClusterExtension {finding.name} from {said} to "
                f'"{way.patched}": operator-controller then upgrades it to {bundle.name} '
                f"(version {bundle.version}), whose olm.maxOpenShiftVersion allows {target} "
                "(R-CUP-7). Or delete the ClusterExtension (its custom resources stay).",
            )
        )
    if bundle is not None:
        return replace(
            plan(
                wait(
                    f"Let operator-controller upgrade ClusterExtension {finding.name} to "
                    f"{bundle.name} (version {bundle.version}), which its spec admits and "
                    f"whose olm.maxOpenShiftVersion allows {target} (R-CUP-7).",
                    ref,
                )
            ),
            missing="when operator-controller reconciles the extension: its spec needs no "
            "change, so there is nothing to try",
        )
    return replace(
        plan(
            other(
                f"Delete ClusterExtension {finding.name} before the cluster upgrade (its custom "
                f"resources stay), or publish a bundle that allows {target} and that its spec "
                "can reach (R-CUP-7).",
                ref,
            )
        ),
        missing=f"an upgrade that allows {target}: {way.missing}",
    )


PLANS: Plans = {
    BLOCKS: _blocks,
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
