"""Plans for the Subscriptions chapter of docs/rules.md (R-SUB-*).

A missing InstallPlan heals by itself only while the Subscription is ``UpgradePending``
(R-SUB-6); otherwise the Subscription is created again, after the CSVs of its package go
(R-DOC-14). A failed plan (``InstallPlanFailed``, ``UpgradeFailed``) gets the plan of
``installplans``.
"""

from __future__ import annotations

import re
import shlex

from olmtui.kinds import CATALOG_SOURCE, INSTALL_PLAN, OPERATOR_GROUP, SUBSCRIPTION
from olmtui.model.diagnosis.relations import EXCLUDE_GLOBAL
from olmtui.model.diagnosis.remedies.context import RemedyContext
from olmtui.model.diagnosis.remedies.installplans import install_plan_failed
from olmtui.model.diagnosis.remedies.planner import Planner, Plans, advise
from olmtui.model.diagnosis.remedies.reinstall import reinstall
from olmtui.model.diagnosis.remedies.steps import approve, other, patch, plan, resource
from olmtui.model.records.diagnosis import Change, Remedy, Step
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.rules.installplans.summaries import summarize_install_plan
from olmtui.model.rules.resolution.catalog_namespaces import OPENSHIFT_GLOBAL, UPSTREAM_GLOBAL
from olmtui.model.rules.resolution.catalog_view import Visibility
from olmtui.model.rules.subscriptions.state import install_plan_name
from olmtui.objects import annotations_of, name_of, spec, status


def _missing(finding: Finding, context: RemedyContext) -> Remedy | None:
    """R-SUB-6: UpgradePending heals by itself; any other state needs the Subscription again."""
    sub = context.get(SUBSCRIPTION, finding.namespace, finding.name)
    if sub is None or status(sub).get("state") == "UpgradePending":
        return None
    return plan(*reinstall(context, sub))


def _upgrade_pending(finding: Finding, context: RemedyContext) -> Remedy | None:
    """An upgrade held by a plan waiting for approval (R-IP-2); otherwise OLM is at work."""
    sub = context.get(SUBSCRIPTION, finding.namespace, finding.name)
    found = install_plan_name(sub) if sub is not None else None
    if found is None:
        return None
    ip = context.get(INSTALL_PLAN, *found)
    if ip is None or not summarize_install_plan(ip).waiting_for_approval:
        return None
    ref = ObjectRef(INSTALL_PLAN, *found)
    return plan(approve(ref, f"Review and approve InstallPlan {ref.name} (R-IP-2, R-SUB-4)."))


def _no_catalog(finding: Finding, context: RemedyContext) -> Remedy | None:
    """R-SUB-8: the CatalogSource the Subscription names, created where it says."""
    sub = context.get(SUBSCRIPTION, finding.namespace, finding.name)
    if sub is None or not spec(sub).get("source"):
        return None
    source = str(spec(sub)["source"])
    where = str(spec(sub).get("sourceNamespace") or finding.namespace)
    return plan(
        other(
            f"Create CatalogSource {where}/{source}, which Subscription {finding.name} names, "
            "with the catalog image that holds its package (R-SUB-8).",
            ObjectRef(CATALOG_SOURCE, where, source),
            f"oc get catalogsources -n {shlex.quote(where)}",
        )
    )


_NOT_VISIBLE = (
    "Let the namespace resolve from the catalog: remove the OperatorGroup's "
    f"{EXCLUDE_GLOBAL} annotation, or point spec.source/spec.sourceNamespace at a catalog in "
    "this namespace or the global catalog namespace (R-RES-3)."
)


def _not_visible(finding: Finding, context: RemedyContext) -> Remedy | None:
    """R-RES-3: when the namespace's one OperatorGroup excludes the global catalog namespace,
    the annotation removed (a change the simulation proves: the namespace then resolves from
    the catalog); otherwise which catalog to point at is a person's choice."""
    groups = list(context.list(OPERATOR_GROUP, finding.namespace))
    if len(groups) != 1 or annotations_of(groups[0]).get(EXCLUDE_GLOBAL) != "true":
        return plan(other(_NOT_VISIBLE, ObjectRef(SUBSCRIPTION, finding.namespace, finding.name)))
    ref = ObjectRef(OPERATOR_GROUP, finding.namespace, name_of(groups[0]))
    target = f"{resource(OPERATOR_GROUP)} {shlex.quote(ref.name)} -n {shlex.quote(ref.namespace)}"
    return plan(
        Step(
            "patch",
            f"Remove the annotation {EXCLUDE_GLOBAL} from OperatorGroup {ref.name}: with it, "
            f"{finding.namespace} resolves only from its own CatalogSources and OLM finds no "
            f"operators for Subscription {finding.name} (R-RES-3). Or, to keep the "
            "namespace apart, point the Subscription at a copy of the catalog in "
            f"{finding.namespace}.",
            object=ref,
            change=f"remove metadata.annotations.{EXCLUDE_GLOBAL}",
            command=f"oc annotate {target} {shlex.quote(EXCLUDE_GLOBAL + '-')}",
            changes=(
                Change("patch", ref, field=f"metadata.annotations.{EXCLUDE_GLOBAL}", value=""),
            ),
        )
    )


def _seen_copy(finding: Finding, context: RemedyContext) -> Remedy | None:
    """R-RES-3: a Subscription naming a catalog in a namespace it does not resolve from,
    pointed at the CatalogSource of the same name that it does see (its own namespace first,
    then either global one); ``None`` when it sees the catalog or no such copy exists."""
    sub = context.get(SUBSCRIPTION, finding.namespace, finding.name)
    if sub is None:
        return None
    source = str(spec(sub).get("source") or "")
    where = str(spec(sub).get("sourceNamespace") or finding.namespace)
    groups = list(context.list(OPERATOR_GROUP, finding.namespace))
    view = Visibility(groups[0] if len(groups) == 1 else None)
    if not source or view.sees(finding.namespace, where):
        return None
    for candidate in (finding.namespace, OPENSHIFT_GLOBAL, UPSTREAM_GLOBAL):
        if view.sees(finding.namespace, candidate) and context.get(
            CATALOG_SOURCE, candidate, source
        ):
            ref = ObjectRef(SUBSCRIPTION, finding.namespace, finding.name)
            return plan(
                patch(
                    ref,
                    "spec.sourceNamespace",
                    candidate,
                    f"Point Subscription {finding.name} at CatalogSource {candidate}/{source}: "
                    f"{finding.namespace} resolves only from its own namespace and the global "
                    f"catalog namespace, never from {where} (R-RES-3).",
                )
            )
    return None


#: R-UPG-6: the finding's sentence on a channel the catalog content given lacks, with the
#: package's default channel (``olmtui/model/rules/catalog/suggestions.py``).
_DEFAULT_CHANNEL = re.compile(r"has no channel (\S+); its channels are .*\(default ([^)\s]+)\)")


def _default_channel(finding: Finding) -> Remedy | None:
    """R-UPG-6: "no operators found in channel C" where the content given shows the package
    and its default channel: the Subscription moved to that channel (which the simulation
    resolves with the same content)."""
    found = _DEFAULT_CHANNEL.search(finding.message)
    if found is None:
        return None
    ref = ObjectRef(SUBSCRIPTION, finding.namespace, finding.name)
    return plan(
        patch(
            ref,
            "spec.channel",
            found[2],
            f"Set spec.channel of Subscription {finding.name} to {found[2]}, the package's "
            f"default channel: the catalog has no channel {found[1]} (R-UPG-6, R-SUB-7).",
        )
    )


def _resolution_failed(finding: Finding, context: RemedyContext) -> Remedy | None:
    """R-SUB-7: the resolver's own message names what to change; which change is a choice,
    except for a catalog out of the namespace's view with a copy in view (R-RES-3) and a
    channel the content given lacks while it names the default one (R-UPG-6)."""
    ref = ObjectRef(SUBSCRIPTION, finding.namespace, finding.name)
    known = _seen_copy(finding, context) or _default_channel(finding)
    if known is not None:
        return known
    if finding.code == "ErrorPreventedResolution":
        return plan(
            other(
                "Fix the error the condition names (most often an unreachable or broken "
                "CatalogSource); OLM resolves again on its own.",
                ref,
            )
        )
    return plan(
        other(
            "Change what the listed constraints rule out: the package, channel and "
            "startingCSV must exist in the catalog, the APIs and packages required must be "
            "available, and no installed CSV may stand in the way (R-SUB-7).",
            ref,
        )
    )


#: R-SUB-7 reasons are OLM's, whatever they are: the resolution plan for every one.
RESOLUTION_FAILED: Planner = _resolution_failed

PLANS: Plans = {
    "InstallPlanFailed": install_plan_failed,
    "UpgradeFailed": install_plan_failed,
    "InstallPlanMissing": _missing,
    "InstallPlanPending": None,
    "UpgradePending": _upgrade_pending,
    "ConstraintsNotSatisfiable": _resolution_failed,
    "ErrorPreventedResolution": _resolution_failed,
    "ResolutionFailed": _resolution_failed,
    "NoCatalogSourcesFound": _no_catalog,
    "CatalogSourcesUnhealthy": advise(
        "other",
        "Fix the unhealthy CatalogSource the condition names (its status and its registry "
        "pod), or delete it if nothing needs it: OLM resolves against every catalog of the "
        "namespace and of the global catalog namespace (R-SUB-8).",
    ),
    "CatalogNotVisible": _not_visible,
    "InstallPlanForbidden": advise(
        "other",
        "Grant the OperatorGroup's ServiceAccount the permission the finding names (the "
        "message shows a command); OLM retries the InstallPlan by itself (R-OG-7).",
    ),
    "CatalogSourceMissing": advise(
        "other",
        "Create the CatalogSource the Subscription names, or point its spec.source and "
        "spec.sourceNamespace at one that exists (R-SUB-8, R-UPG-2).",
    ),
    "CatalogSourceNotReady": advise(
        "other", "Get the catalog serving: check its registry pod and service (R-SUB-8)."
    ),
    "TargetedCatalogSourceUnhealthy": advise(
        "other",
        "Get the Subscription's own catalog serving again (its registry pod, image and "
        "spec); nothing installs or upgrades from it until then (R-SUB-8, R-UPG-2).",
    ),
    "SpecInvalidError": advise(
        "other", "Fix the CatalogSource's spec that OLM refuses (its status.message, R-SUB-8)."
    ),
    "ConfigMapError": advise(
        "other", "Fix the ConfigMap the CatalogSource reads (its status.message, R-SUB-8)."
    ),
    "RegistryServerError": advise(
        "other",
        "Get the catalog's registry server running: its pod, image pull and service (R-SUB-8).",
    ),
    "InvalidIntervalError": advise(
        "other",
        "Fix spec.updateStrategy.registryPoll.interval (a Go duration such as 10m) so that "
        "OLM polls the catalog for updates again (R-SUB-8).",
    ),
    "BundleUnpackFailed": advise(
        "other",
        "Make the bundle image pullable (its reference, a pull secret), or raise the "
        "OperatorGroup's operatorframework.io/bundle-unpack-timeout annotation; then delete "
        "the failed unpack Job so OLM tries again (R-SUB-11).",
    ),
    "BundleUnpacking": None,
    "ManualApprovalContagion": advise(
        "other",
        "Set spec.installPlanApproval: Automatic on the Manual Subscriptions of this "
        "namespace, or move the operators that must upgrade on their own to another "
        "namespace: one Manual Subscription makes every plan here Manual (R-SUB-4).",
    ),
    "SubscriptionStalled": advise(
        "other",
        "Give the namespace exactly one OperatorGroup: OLM resolves nothing in it until then "
        "(R-SUB-9).",
    ),
    "Deprecated": advise(
        "other",
        "Move to a channel or bundle the catalog does not deprecate (spec.channel), or plan "
        "the operator's replacement (R-SUB-10).",
    ),
    "PackageDeprecated": advise(
        "other", "Plan the replacement of this operator: its package is deprecated (R-SUB-10)."
    ),
    "ChannelDeprecated": advise(
        "other",
        "Move the Subscription to a channel that is not deprecated (spec.channel, R-SUB-10).",
    ),
    "BundleDeprecated": advise(
        "other", "Upgrade past the deprecated bundle (approve or pick a newer one, R-SUB-10)."
    ),
}
