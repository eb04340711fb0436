"""Plans for the Evidence chapter of docs/rules.md (R-EVD-*): a catalog's registry pod and a
bundle's unpack Job are what a person looks at and fixes; OLM retries by itself."""

from __future__ import annotations

from olmtui.model.diagnosis.remedies.planner import Plans, advise

PLANS: Plans = {
    "CatalogPodCrashLoopBackOff": advise(
        "other",
        "Read the registry pod's logs (oc logs --previous): the catalog image's content or "
        "its serve command fails; fix or roll back spec.image of the CatalogSource (R-EVD-2).",
    ),
    "CatalogPodImagePull": advise(
        "other",
        "Make the CatalogSource's spec.image pullable: its reference, a pull secret "
        "(spec.secrets) or the cluster's mirror configuration (R-EVD-2).",
    ),
    "CatalogPodOOMKilled": advise(
        "other",
        "Give the registry pod more memory (spec.grpcPodConfig.memoryTarget), or use a "
        "smaller catalog image (R-EVD-2).",
    ),
    "CatalogPodNotReady": advise(
        "other",
        "Read the registry pod's events and logs: its gRPC readiness probe fails (R-EVD-2).",
    ),
    "BundleUnpackJobFailed": advise(
        "delete",
        "Fix what the Job's Failed condition says (the bundle image, the unpack timeout), "
        "then delete the failed Job so that OLM unpacks the bundle again (R-EVD-3).",
    ),
    "BundleUnpackJobGone": None,
}
