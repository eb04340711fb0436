"""Plans for the Evidence chapter of docs/rules.md (R-EVD-*): a catalog's registry pod, a
bundle's unpack Job and an installing operator's pod are what a person looks at and fixes;
OLM retries by itself."""

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
}
