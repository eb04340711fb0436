"""Plans for the chapters on CSV membership in a group and install modes (R-MEM-*, R-IM-*):
OLM's own verdict reasons on a CSV whose group does not fit it. The group or the bundle is
what changes; which of them is the admin's choice."""

from __future__ import annotations

from olmtui.model.diagnosis.remedies.planner import Plans, advise

PLANS: Plans = {
    "NoOperatorGroup": advise(
        "other", "Create one OperatorGroup in the CSV's namespace (R-MEM-1, R-OG-6)."
    ),
    "TooManyOperatorGroups": advise(
        "other", "Delete all but one OperatorGroup of the CSV's namespace (R-MEM-2, R-OG-6)."
    ),
    "NoTargetNamespaces": advise(
        "other",
        "Make the group target at least one namespace: label the namespaces its selector "
        "picks, or set spec.targetNamespaces (R-MEM-3).",
    ),
    "UnsupportedOperatorGroup": advise(
        "other",
        "Change the group's targets to an install mode the CSV supports (spec.installModes), "
        "or install the operator in a namespace whose group does (R-MEM-6, R-IM-1).",
    ),
    "InvalidInstallModes": advise(
        "contact-author",
        "Ask the bundle's author to list each install mode type once (R-MEM-4).",
    ),
    "UnknownInstallMode": advise(
        "contact-author",
        "Ask the bundle's author to use only the four install mode types OLM knows (R-IM-1).",
    ),
    "HeadInstallModeUnsupported": advise(
        "other",
        "Before upgrading, give the group targets the new version supports, or stay on a "
        "channel whose head supports these targets (R-IM-1).",
    ),
    "AnnotationDrift": None,
    "GroupFailureRecovers": None,
    "RequirementsUnknown": None,
    "InstallComponentFailedNoRetry": advise(
        "other",
        "Fix the cause, then delete the CSV and install it again: OLM skips it while its "
        "reason is InstallComponentFailedNoRetry (R-MEM-0).",
    ),
}
