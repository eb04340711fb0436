"""Plans for the Evidence chapter of docs/rules.md (R-EVD-*): a catalog's registry pod, a
bundle's unpack Job and an installing operator's pod are what a person looks at and fixes;
OLM retries by itself."""

from __future__ import annotations

from olmtui.model.diagnosis.remedies.context import RemedyContext
from olmtui.model.diagnosis.remedies.planner import Plans, advise, subject
from olmtui.model.diagnosis.remedies.steps import delete, plan
from olmtui.model.records.diagnosis import Remedy
from olmtui.model.records.types import Finding


def _delete_subscription(finding: Finding, _context: RemedyContext) -> Remedy | None:
    """R-EVD-7, R-EVD-8: the Subscription installs nothing; deleting it leaves the operator
    (the copy's original, the payload's) as it is. One that is itself part of the payload
    (an info finding, R-DOC-7) is not the admin's to delete."""
    ref = subject(finding)
    if ref is None or finding.severity == "info":  # platform-owned itself (R-DOC-7)
        return None
    return plan(
        delete(
            ref,
            "Delete the Subscription: it installs nothing, and the operator it seems to "
            f"stand for runs without it ({finding.rule}).",
        )
    )


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
    "InstallPodImagePull": advise(
        "other",
        "Make the operator's image pullable: the image reference in the CSV's Deployment (a "
        "newer bundle, or a catalog mirror), a pull secret of the namespace or its service "
        "account, or the cluster's mirror configuration (R-EVD-9).",
    ),
    "InstallPodConfigError": advise(
        "other",
        "Create the Secret or ConfigMap (or the key) the pod's waiting message names in the "
        "operator's namespace; the kubelet starts the container once it exists (R-EVD-9).",
    ),
    "InstallPodOOMKilled": advise(
        "other",
        "Give the operator more memory: Subscription spec.config.resources, which OLM writes "
        "into its Deployment (R-EVD-9).",
    ),
    "InstallPodCrashLoopBackOff": advise(
        "other",
        "Read the operator pod's logs (oc logs --previous): the operator exits; fix what it "
        "says (a missing permission, CRD or setting) or install a fixed bundle (R-EVD-9).",
    ),
    "InstallPodUnschedulable": advise(
        "other",
        "Free or add the capacity the scheduler's message names, or relax the operator's "
        "requests, node selector or tolerations (Subscription spec.config) (R-EVD-9).",
    ),
    "InstallPodProbeFailing": advise(
        "other",
        "Read the pod's Unhealthy events and its logs: the operator does not answer its "
        "readiness or liveness probe (R-EVD-9).",
    ),
    "BundleUnpackJobFailed": advise(
        "delete",
        "Fix what the Job's Failed condition says (the bundle image, the unpack timeout), "
        "then delete the failed Job so that OLM unpacks the bundle again (R-EVD-3).",
    ),
    "BundleUnpackJobGone": None,
    "CRDOwnerGone": advise(
        "other",
        "If the operator is gone for good, back up and delete the CRD's custom resources, "
        "then the CRD (deleting a CRD deletes all of its objects); if it will be installed "
        "again, leave it (R-EVD-4).",
    ),
    "CRDStoredVersionNotServed": advise(
        "other",
        "Migrate the stored objects to the storage version (read and write each back), then "
        "remove the old version from the CRD's status.storedVersions (R-EVD-5).",
    ),
    "NamespaceHeldByOLM": advise(
        "other",
        "Check that olm-operator runs and read its log for the CSVs it has not cleaned up; "
        "remove a finalizer by hand only if OLM is gone for good (R-EVD-6).",
    ),
    "OLMFinalizerHoldsNamespace": advise(
        "other",
        "Let OLM's controller remove its finalizer (check that it runs); remove it by hand "
        "only if OLM is gone for good (R-EVD-6).",
    ),
    "InstalledCSVIsCopy": _delete_subscription,
    "SubscriptionOrphanedByPlatform": _delete_subscription,
}
