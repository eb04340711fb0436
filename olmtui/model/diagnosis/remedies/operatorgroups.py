"""Plans for the OperatorGroups chapter of docs/rules.md (R-OG-*): the group's own spec is
what a person changes; which namespaces it should target is their choice, so the steps say
what to change and carry no change of their own, except deleting the extra groups of a
namespace where all but one must go (R-OG-6)."""

from __future__ import annotations

from olmtui.kinds import NAMESPACE, OPERATOR_GROUP
from olmtui.model.diagnosis.remedies.context import RemedyContext
from olmtui.model.diagnosis.remedies.planner import Plans, advise
from olmtui.model.diagnosis.remedies.steps import delete, plan
from olmtui.model.records.diagnosis import Remedy
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.rules.documented.platform import is_platform_owned
from olmtui.objects import meta


def _several_groups(finding: Finding, context: RemedyContext) -> Remedy | None:
    """R-OG-6: every group but one goes; which one stays is the admin's choice, so the plan
    keeps the oldest (the one the CSVs were installed under) and never a platform one's
    sibling that the release ships."""
    namespace = finding.name if finding.kind == NAMESPACE else finding.namespace
    groups = sorted(
        context.list(OPERATOR_GROUP, namespace),
        key=lambda g: (meta(g).get("creationTimestamp") or "", meta(g).get("name") or ""),
    )
    if len(groups) < 2:
        return None
    keep, *extra = groups
    kept = meta(keep).get("name") or ""
    steps = []
    for group in extra:
        if is_platform_owned(group):
            continue  # R-DOC-7: the release payload puts it back
        name = meta(group).get("name") or ""
        steps.append(
            delete(
                ObjectRef(OPERATOR_GROUP, namespace, name),
                f"Delete OperatorGroup {name}, keeping {kept} (the oldest; keep instead the "
                "one whose targets the operators here need): a namespace needs exactly one "
                "(R-OG-6).",
            )
        )
    return plan(*steps) if steps else None


PLANS: Plans = {
    "MultipleOperatorGroupsFound": _several_groups,
    "TargetNamespacesContainAll": advise(
        "other",
        'Remove the "" entry from spec.targetNamespaces; to target all namespaces, drop '
        "spec.targetNamespaces and spec.selector instead (R-OG-1).",
    ),
    "InvalidSelector": advise(
        "other",
        "Fix spec.selector: matchLabels values are strings; In/NotIn need values, "
        "Exists/DoesNotExist take none (R-OG-1).",
    ),
    "SelectorMatchesNothing": advise(
        "other", "Label the namespaces the group should target, or change spec.selector (R-OG-1)."
    ),
    "TargetNamespaceMissing": advise(
        "other",
        "Create the namespace spec.targetNamespaces names, or remove it from the list (R-OG-1).",
    ),
    "LabelSelectorTargets": advise(
        "other",
        "Prefer spec.targetNamespaces (one namespace, or all) to a label selector: relabelling "
        "a namespace changes what the operator watches (R-DOC-3).",
    ),
    "MultipleTargetNamespaces": advise(
        "other",
        "Prefer one target namespace, or all: MultiNamespace support is expected to go (R-DOC-3).",
    ),
    "TargetsNotSynced": None,
    "NamespaceLabelDrift": None,
}
