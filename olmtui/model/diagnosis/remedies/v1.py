"""Plans for the OLM v1 chapter of docs/rules.md (R-V1-*): a ClusterExtension's spec or a
ClusterCatalog's is what a person changes; operator-controller retries by itself."""

from __future__ import annotations

from olmtui.model.diagnosis.remedies.planner import Plans, advise

PLANS: Plans = {
    "ClusterCatalogNotServing": advise(
        "other",
        "Fix what the ClusterCatalog's Progressing condition reports, or set "
        "spec.availabilityMode: Unavailable to take it out of resolution (R-V1-7, R-V1-9).",
    ),
    "ClusterCatalogBlocked": advise(
        "other", "Fix what the ClusterCatalog's Progressing condition reports (R-V1-7)."
    ),
    "ClusterCatalogRetrying": None,
    "ClusterExtensionBlocked": advise(
        "other",
        "Fix what the ClusterExtension's Progressing condition reports: its spec, its "
        "ServiceAccount's permissions or its catalogs (R-V1-4).",
    ),
    "ClusterExtensionRetrying": None,
    "ClusterExtensionWouldNotResolve": advise(
        "other",
        "Change spec.source.catalog (package, channels, version range) to what the catalogs "
        "serve, or add the catalog that serves it (R-V1-18).",
    ),
    "ClusterExtensionDeprecatedPick": advise(
        "other", "Choose a channel or version the catalog does not deprecate (R-V1-20)."
    ),
    "ClusterExtensionDeprecated": advise(
        "other", "Move to a package, channel or version the catalog does not deprecate (R-V1-4)."
    ),
    "ClusterExtensionBundleDeprecated": advise(
        "other", "Upgrade past the deprecated bundle (spec.source.catalog.version, R-V1-4)."
    ),
    "ClusterExtensionServiceAccountIgnored": None,
    "ClusterExtensionInstallUnknown": None,
    "ClusterExtensionResolutionUnknown": None,
    "ClusterExtensionAtLatest": None,
    "ClusterExtensionUpgradeAvailable": None,
    "ClusterExtensionDeadlineExceeded": advise(
        "other",
        "Fix what the stuck revision's probe failures or Progressing message name (its "
        "Deployment, CRD or custom resource); the rollout completes once they pass (R-V1-25).",
    ),
    "ClusterObjectSetProbeFailure": None,
    "ClusterObjectSetCollision": advise(
        "other",
        "Remove the other owner of the colliding objects (or the objects, when nothing else "
        "needs them); the revision's collision protection cannot be changed (R-V1-27).",
    ),
}
