"""Finding texts: what is wrong, why (the rule and the other objects, by name) and what a
person can do. One builder per fact the group model derives; the engine
decides when each applies.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from olmtui.kinds import CSV, NAMESPACE, OLM_CONFIG, OPERATOR_GROUP, SUBSCRIPTION
from olmtui.model.records.types import Conflict, Finding, ObjectRef, Verdict, ref
from olmtui.model.rules.documented.platform import BY_DESIGN
from olmtui.model.rules.installmodes.install_advice import install_mode_advice
from olmtui.shape import LIVE, Malformed

#: Lists longer than this are cut in messages ("and N more").
SHOWN = 8


def names(items: Iterable[str]) -> str:
    """``a, b, c`` with ``""`` shown as ``(all namespaces)`` and long lists cut."""
    shown = [n if n else "(all namespaces)" for n in items]
    if len(shown) > SHOWN:
        return ", ".join(shown[:SHOWN]) + f" and {len(shown) - SHOWN} more"
    return ", ".join(shown) if shown else "(none)"


def og_ref(namespace: str, name: str) -> ObjectRef:
    return ObjectRef(OPERATOR_GROUP, namespace, name)


# -- OperatorGroups (R-OG-*, R-DOC-3, R-DOC-7) -----------------------------------------------------


def selection_error(code: str, namespace: str, name: str, text: str, has_members: bool) -> Finding:
    """R-OG-1 errors that never reach the group's status."""
    if code == "TargetNamespacesContainAll":
        return Finding(
            "error",
            code,
            OPERATOR_GROUP,
            namespace,
            name,
            f'{text} (R-OG-1). Its member CSVs keep the targets they had. Remove the "" entry; '
            "to watch all namespaces, drop spec.targetNamespaces and spec.selector instead.",
            "R-OG-1",
        )
    if code == "InvalidSelector":
        return Finding(
            "error",
            code,
            OPERATOR_GROUP,
            namespace,
            name,
            f"{text} (R-OG-1). Fix spec.selector (matchLabels values must be strings; In/NotIn "
            "need values, Exists/DoesNotExist take none).",
            "R-OG-1",
        )
    if code == "SelectorMatchesNothing":
        blocked = (
            "Its member CSVs fail with NoTargetNamespaces (R-MEM-3)"
            if has_members
            else "A CSV installed here would fail with NoTargetNamespaces (R-MEM-3)"
        )
        return Finding(
            "error" if has_members else "warning",
            code,
            OPERATOR_GROUP,
            namespace,
            name,
            f"{text}, which looks exactly like a group OLM has not synced yet: status.namespaces "
            f"stays absent (R-OG-2). {blocked}. Label the namespaces it should target or change "
            "the selector.",
            "R-OG-1",
        )
    return Finding(
        "warning",
        code,
        OPERATOR_GROUP,
        namespace,
        name,
        f"{text}. OLM does not check that listed namespaces exist (R-OG-1): nothing is copied "
        "or granted there until they are created (R-COPY-3). Create them or remove them from "
        "spec.targetNamespaces.",
        "R-OG-1",
    )


def _discouraged_shape(
    code: str, namespace: str, name: str, fact: str, advice: str, platform: bool
) -> Finding:
    """A group shape the seed documents discourage (R-DOC-3): a warning with ``advice``; on a
    platform-owned group (R-DOC-7) the same fact as info, by design, with no advice."""
    if platform:
        return Finding(
            "info", code, OPERATOR_GROUP, namespace, name, f"{fact} {BY_DESIGN}", "R-DOC-7"
        )
    return Finding("warning", code, OPERATOR_GROUP, namespace, name, f"{fact} {advice}", "R-DOC-3")


def multiple_targets(
    namespace: str, name: str, targets: Sequence[str], platform: bool = False
) -> Finding:
    return _discouraged_shape(
        "MultipleTargetNamespaces",
        namespace,
        name,
        f"The group lists {len(targets)} target namespaces ({names(targets)}).",
        "Listing several namespaces is discouraged: support for more than one target namespace "
        "in an OperatorGroup will likely be removed, and few operators support MultiNamespace. "
        "Prefer one group per target namespace, or an AllNamespaces install.",
        platform,
    )


def label_selector(
    namespace: str, name: str, targets: Sequence[str], platform: bool = False
) -> Finding:
    return _discouraged_shape(
        "LabelSelectorTargets",
        namespace,
        name,
        f"The group picks its targets with spec.selector (now {len(targets)} namespaces: "
        f"{names(targets)}).",
        "Selecting namespaces by label is discouraged: support for it will likely be removed, "
        "and relabelling a namespace silently changes what the operator watches. Prefer "
        "spec.targetNamespaces with one namespace.",
        platform,
    )


def stale_provided_apis(
    namespace: str, name: str, stale: Sequence[str], blockers: Sequence[str]
) -> Finding:
    """R-API-8: claims outside the APIs of every non-copied CSV of the namespace (any phase)."""
    why = (
        "OLM prunes them at its next OperatorGroup sync, but not while "
        + names(blockers)
        + " is Pending with an API the group does not claim yet (R-API-8)"
        if blockers
        else "OLM prunes them at its next OperatorGroup sync, unless a CSV of the namespace is "
        "Pending with a new API (R-API-8)"
    )
    return Finding(
        "warning",
        "StaleProvidedAPIs",
        OPERATOR_GROUP,
        namespace,
        name,
        f"olm.providedAPIs claims {names(stale)}, which no CSV of {namespace} provides. "
        f"{why}. Until then the claims block other groups reaching these namespaces from "
        "providing the same APIs (R-API-5).",
        "R-API-8",
    )


def unbacked_static_apis(
    namespace: str, name: str, apis: Sequence[str], platform: bool = False
) -> Finding:
    return Finding(
        "info",
        "StaticProvidedAPIs",
        OPERATOR_GROUP,
        namespace,
        name,
        f"The group is static (spec.staticProvidedAPIs) and reserves {names(apis)} without a "
        "CSV of its namespace providing them. OLM never changes a static group's "
        "olm.providedAPIs, so other groups reaching the same namespaces cannot install operators "
        "providing these APIs (R-API-6)." + (f" {BY_DESIGN}" if platform else ""),
        "R-API-6",
    )


def status_not_synced(
    namespace: str, name: str, status: Sequence[str] | None, targets: Sequence[str]
) -> Finding:
    shown = "absent" if status is None else f"[{names(status)}]"
    return Finding(
        "info",
        "TargetsNotSynced",
        OPERATOR_GROUP,
        namespace,
        name,
        f"status.namespaces is {shown} but the spec selects [{names(targets)}] now. OLM writes "
        "the new list at the group's next sync (R-OG-2); until then copies, RBAC and conflict "
        "checks follow the old list (R-OG-4).",
        "R-OG-2",
    )


# -- Namespaces -----------------------------------------------------------------------------


def multiple_groups(namespace: str, groups: Sequence[str]) -> Finding:
    return Finding(
        "error",
        "MultipleOperatorGroupsFound",
        NAMESPACE,
        "",
        namespace,
        f"Namespace {namespace} holds {len(groups)} OperatorGroups ({names(groups)}). OLM can't "
        "pick one: every CSV here fails with TooManyOperatorGroups (R-MEM-2) and its "
        "Subscriptions stall without a condition (R-SUB-9). Delete all but one.",
        "R-OG-6",
        tuple(og_ref(namespace, g) for g in groups),
    )


def label_drift(
    namespace: str, missing: Sequence[str], extra: Sequence[str], groups: Sequence[ObjectRef]
) -> Finding:
    parts = []
    if missing:
        parts.append(f"lacks {names(missing)}")
    if extra:
        parts.append(f"carries {names(extra)} that no group targeting it accounts for")
    return Finding(
        "warning",
        "NamespaceLabelDrift",
        NAMESPACE,
        "",
        namespace,
        f"Namespace {namespace} " + " and ".join(parts) + ". OLM labels every namespace a "
        "non-global OperatorGroup's status.namespaces contains with olm.operatorgroup.uid/<uid> "
        "and removes other such labels (R-OG-5); the labels fix themselves at OLM's next "
        "namespace sync. If they persist, check that the olm-operator is running.",
        "R-OG-5",
        tuple(groups),
    )


# -- CSVs -----------------------------------------------------------------------------------


_VERDICT_ADVICE = {
    "NoOperatorGroup": "Create one OperatorGroup in the namespace whose targets the CSV's "
    "install modes support.",
    "TooManyOperatorGroups": "Delete all but one OperatorGroup in the namespace.",
    "NoTargetNamespaces": "Make the OperatorGroup select at least one namespace.",
    "InvalidInstallModes": "The CSV lists an install mode type twice; the bundle must be "
    "fixed (install a corrected version).",
    "UnsupportedOperatorGroup": "Change the OperatorGroup's targets to a shape the CSV supports, "
    "or install the operator in a namespace whose group fits.",
    "CannotModifyStaticOperatorGroupProvidedAPIs": (
        "Add the CSV's APIs to the static group's olm.providedAPIs, or make the group non-static."
    ),
    "OwnerConflict": "Another CSV in the namespace owns the same CRD; remove one of them.",
}


#: Verdicts whose advice edits the CSV's OperatorGroup.
_GROUP_EDIT_ADVICE = frozenset(
    {
        "NoTargetNamespaces",
        "UnsupportedOperatorGroup",
        "CannotModifyStaticOperatorGroupProvidedAPIs",
    }
)


#: Verdicts about the group's shape, where the CSV's install modes say which shape fits.
_SHAPE_VERDICTS = frozenset({"NoOperatorGroup", "UnsupportedOperatorGroup"})


def _verdict_advice(
    verdict: Verdict, operator_group: str | None, platform: bool, supported: frozenset[str] | None
) -> str:
    """What to do about a Failed verdict: concrete where the CSV's install modes are known
    (R-IM-1), never an edit of a platform group (R-DOC-7)."""
    shapes = (
        install_mode_advice(supported)
        if supported is not None and verdict.reason in _SHAPE_VERDICTS
        else None
    )
    if platform and verdict.reason in _GROUP_EDIT_ADVICE:
        return (
            f"OperatorGroup {operator_group} is set by the OpenShift release payload by "
            "design and is not the admin's to change (R-DOC-7)"
            + (
                f". {shapes}"
                if shapes
                else ": install this operator in a namespace of its own, with its own "
                "OperatorGroup."
            )
        )
    if shapes is None:
        return _VERDICT_ADVICE.get(verdict.reason, "")
    if verdict.reason == "NoOperatorGroup":
        return f"Create one OperatorGroup in the namespace, of a shape the CSV supports. {shapes}"
    return f"{shapes} Or change OperatorGroup {operator_group} to that shape."


def verdict_finding(
    namespace: str,
    name: str,
    verdict: Verdict,
    operator_group: str | None,
    detail: str = "",
    related: Sequence[ObjectRef] = (),
    platform: bool = False,
    supported: frozenset[str] | None = None,
) -> Finding:
    """A CSV the group rules fail (error) or return to Pending (info). In a ``platform``
    group (R-DOC-7) the advice never asks to change the group; with the CSV's ``supported``
    install modes it names the group shapes that fit (R-IM-1)."""
    if verdict.phase == "Failed":
        advice = _verdict_advice(verdict, operator_group, platform, supported)
        where = f" in OperatorGroup {operator_group}" if operator_group else ""
        return Finding(
            "error",
            verdict.reason,
            CSV,
            namespace,
            name,
            f"OLM sets this CSV{where} to Failed/{verdict.reason}: {verdict.message} "
            f"({verdict.rule}).{detail} {advice}".rstrip(),
            verdict.rule,
            tuple(related),
        )
    return Finding(
        "info",
        "GroupFailureRecovers",
        CSV,
        namespace,
        name,
        f"The group rules pass again, so OLM's next sync moves this CSV to "
        f"{verdict.phase}/{verdict.reason}: {verdict.message} ({verdict.rule}).",
        verdict.rule,
        tuple(related),
    )


def describe_conflicts(conflicts: Sequence[Conflict]) -> str:
    return "; ".join(
        f"OperatorGroup {c.operator_group} also claims {names(c.apis)} in {names(c.namespaces)}"
        for c in conflicts
    )


def api_conflict(
    namespace: str,
    name: str,
    operator_group: str,
    conflicts: Sequence[Conflict],
    already: bool,
) -> Finding:
    state = "is Failed" if already else "fails"
    return Finding(
        "error",
        "InterOperatorGroupOwnerConflict",
        CSV,
        namespace,
        name,
        f"This CSV {state} with InterOperatorGroupOwnerConflict: {describe_conflicts(conflicts)}, "
        f"where its group {operator_group} also reaches (R-API-4, R-API-5). OLM says only "
        "'intersecting operatorgroups provide the same apis'. Uninstall one of the operators, or "
        "change the groups' targets so they no longer overlap; OLM then returns the CSV to "
        "Pending (R-API-9).",
        "R-API-5",
        tuple(_conflict_refs(conflicts)),
    )


def pending_api_conflict(
    namespace: str,
    name: str,
    operator_group: str,
    conflicts: Sequence[Conflict],
    already: bool,
) -> Finding:
    """R-API-6: RemoveAPIs is no verdict (the phase does not change in that sync), so this
    finding carries both steps."""
    then = (
        "and the sync after that finds it still Failed with InterOperatorGroupOwnerConflict"
        if already
        else "and the sync after that fails it with InterOperatorGroupOwnerConflict"
    )
    return Finding(
        "error",
        "PendingAPIConflict",
        CSV,
        namespace,
        name,
        f"Its APIs are in {operator_group}'s olm.providedAPIs, but "
        f"{describe_conflicts(conflicts)}. "
        "OLM's next sync strips all of this CSV's APIs from its group (RemoveAPIs) without "
        f"changing its phase, {then} (R-API-6, two steps). Remove the overlap before it "
        "happens.",
        "R-API-6",
        tuple(_conflict_refs(conflicts)),
    )


def _conflict_refs(conflicts: Sequence[Conflict]) -> list[ObjectRef]:
    out = []
    for c in conflicts:
        namespace, _, name = c.operator_group.partition("/")
        out.append(og_ref(namespace, name))
    return out


def pending_api_addition(namespace: str, name: str, operator_group: str, new: str) -> Finding:
    shown = new or '""'
    return Finding(
        "info",
        "ProvidedAPIsPendingAddition",
        CSV,
        namespace,
        name,
        f"OLM's next sync adds this CSV's APIs to {operator_group}'s olm.providedAPIs "
        f"(new value: {shown}) and only then lets the CSV proceed (R-API-6, AddAPIs).",
        "R-API-6",
        (og_ref(*operator_group.split("/", 1)),),
    )


def annotation_drift(
    namespace: str,
    name: str,
    operator_group: str,
    drift: Sequence[tuple[str, str, str | None]],
    status_targets: Sequence[str] | None,
    spec_targets: Sequence[str],
) -> Finding:
    """R-MEM-3 disagreement that OLM repairs by itself: the group selects namespaces from its
    spec (a group selecting nothing fails the CSV instead, which its verdict tells).
    ``status_targets`` is the group's ``status.namespaces`` (``None``: absent)."""
    parts = []
    for key, expected, actual in drift:
        shown = "absent" if actual is None else repr(actual)
        if key == "olm.targetNamespaces" and status_targets is None:
            parts.append(
                f"{key} is {shown}; OLM writes it only once the group's status.namespaces "
                f"exists, which the group's next sync sets to [{names(spec_targets)}] (R-OG-2)"
            )
        else:
            parts.append(f"{key} is {shown}, expected {expected!r}")
    return Finding(
        "warning",
        "AnnotationDrift",
        CSV,
        namespace,
        name,
        f"Its group annotations disagree with {operator_group}: {'; '.join(parts)} (R-MEM-3). "
        "OLM rewrites them and stops this sync without a phase change; until they agree the "
        "CSV is not an active member (no copies, no target RBAC, R-MEM-8). This settles by "
        "itself at OLM's next syncs of the group and the CSV; if it persists, check that the "
        "olm-operator is running.",
        "R-MEM-3",
        (og_ref(*operator_group.split("/", 1)),),
    )


def unknown_install_modes(namespace: str, name: str, unknown: Sequence[str]) -> Finding:
    return Finding(
        "warning",
        "UnknownInstallMode",
        CSV,
        namespace,
        name,
        f"spec.installModes has types OLM does not know: {names(repr(u) for u in unknown)}. "
        "OLM treats them as unsupported (there is no inference between types, R-IM-1), so the CSV "
        "supports fewer target shapes than its author may think. The bundle needs fixing.",
        "R-IM-1",
    )


def owner_conflict(
    namespace: str, name: str, others: Sequence[tuple[str, Sequence[str]]], already: bool
) -> Finding:
    shown = "; ".join(f"{other} owns {names(crds)}" for other, crds in others)
    state = "is Failed" if already else "will fail"
    return Finding(
        "error",
        "OwnerConflict",
        CSV,
        namespace,
        name,
        f"This CSV {state} with OwnerConflict ('conflicting CRD owner in namespace'): {shown}, "
        "and they are not in one replacement chain (R-CSV-O). Remove one of the operators from "
        f"{namespace}.",
        "R-CSV-O",
        tuple(ObjectRef(CSV, namespace, other) for other, _ in others),
    )


def malformed_crds(namespace: str, name: str, crds: Sequence[str]) -> Finding:
    return Finding(
        "error",
        "MalformedCRDName",
        CSV,
        namespace,
        name,
        f"CRD names without a '.' ({names(repr(c) for c in crds)}): OLM cannot derive their API "
        "group and aborts every sync of this CSV silently, so its status never changes "
        "(R-MEM-0, R-API-1). The bundle needs fixing.",
        "R-API-1",
    )


def no_retry(namespace: str, name: str) -> Finding:
    return Finding(
        "warning",
        "InstallComponentFailedNoRetry",
        CSV,
        namespace,
        name,
        "OLM skips this CSV entirely while its reason is InstallComponentFailedNoRetry (R-MEM-0): "
        "nothing moves it until its reason changes. Delete the CSV (and re-install) once the "
        "cause is fixed.",
        "R-MEM-0",
    )


# -- Copied CSVs ----------------------------------------------------------------------------


def missing_copies(namespace: str, name: str, missing: Sequence[str], group: str) -> Finding:
    return Finding(
        "warning",
        "MissingCopiedCSV",
        CSV,
        namespace,
        name,
        f"{len(missing)} copied CSV(s) expected but absent in {names(missing)}. OLM copies an "
        f"active member of {group} into every existing namespace the group targets "
        "(R-COPY-2, R-COPY-3); users there cannot see the operator. OLM creates them at its "
        "next sync of this CSV; if they stay missing, check the olm-operator.",
        "R-COPY-3",
        (og_ref(*group.split("/", 1)),),
    )


def stale_copies(source: str, by_reason: dict[str, list[str]], parent_exists: bool) -> Finding:
    """Copies of one source CSV that OLM does not expect. The subject is the source, or,
    when the source no longer exists, its first copy (a finding must point at an object that
    is there); the missing parent is then named in the message and ``related``."""
    namespace, _, name = source.partition("/")
    total = sum(len(v) for v in by_reason.values())
    parts = [f"in {names(sorted(ns))}: {reason}" for reason, ns in sorted(by_reason.items())]
    copies = sorted(ns for held in by_reason.values() for ns in held)
    if parent_exists:
        subject = namespace
        related: tuple[ObjectRef, ...] = (ObjectRef(CSV, namespace, name),)
        whose = f"of {source}"
    else:
        subject = copies[0]
        related = (
            ObjectRef(CSV, namespace, name),
            *(ObjectRef(CSV, ns, name) for ns in copies[1:]),
        )
        whose = f"of {source}, which no longer exists,"
    return Finding(
        "warning",
        "StaleCopiedCSV",
        CSV,
        subject,
        name,
        f"{total} copied CSV(s) {whose} are present but not expected — " + "; ".join(parts) + ".",
        "R-COPY-6",
        related,
    )


def copies_disabled(global_sources: int) -> Finding:
    return Finding(
        "info",
        "CopiedCSVsDisabled",
        OLM_CONFIG,
        "",
        "cluster",
        "spec.features.disableCopiedCSVs is true: OLM does not copy the "
        f"{global_sources} CSV(s) of AllNamespaces groups and deletes their copies (R-COPY-7); "
        "users of other namespaces cannot discover those operators with `oc get csv`.",
        "R-COPY-7",
    )


# -- Subscriptions --------------------------------------------------------------------------


def subscription_stalled(namespace: str, name: str, groups: Sequence[str]) -> Finding:
    if groups:
        why = f"{len(groups)} OperatorGroups ({names(groups)})"
        fix = "Delete all but one."
    else:
        why = "no OperatorGroup"
        fix = "Create one OperatorGroup whose targets the operator's install modes support."
    return Finding(
        "error",
        "SubscriptionStalled",
        SUBSCRIPTION,
        namespace,
        name,
        f"Namespace {namespace} has {why}, so OLM's catalog operator resolves nothing there and "
        "writes no condition on this Subscription (R-SUB-9): it looks idle, not broken. " + fix,
        "R-SUB-9",
        tuple(og_ref(namespace, g) for g in groups),
    )


def manual_contagion(namespace: str, name: str, manual: Sequence[str]) -> Finding:
    one = len(manual) == 1
    return Finding(
        "warning",
        "ManualApprovalContagion",
        SUBSCRIPTION,
        namespace,
        name,
        f"Subscription {name} asks for Automatic approval but works as Manual: "
        f"{'Subscription' if one else 'Subscriptions'} {names(manual)} in namespace {namespace} "
        f"{'asks' if one else 'ask'} for Manual approval, and OLM makes every new InstallPlan of "
        "a namespace Manual when any Subscription there is Manual (R-SUB-4). Its upgrades wait "
        "for someone to approve them. To upgrade it automatically, install it in its own "
        "namespace with its own OperatorGroup, or give every Subscription of this namespace "
        "the same approval.",
        "R-SUB-4",
        tuple(ObjectRef(SUBSCRIPTION, namespace, m) for m in manual),
    )


def head_unsupported(
    namespace: str,
    name: str,
    head: str,
    message: str,
    operator_group: str,
    installed: bool,
    supported: frozenset[str],
    platform: bool = False,
) -> Finding:
    """R-IM-1 before the install: the head's install modes against the group's targets. The
    advice names the shapes that fit; a platform group (R-DOC-7) is never to be changed."""
    when = "an upgrade to it would fail" if installed else "the install will fail"
    change = (
        f" OperatorGroup {operator_group} is set by the OpenShift release payload by design "
        "and is not the admin's to change (R-DOC-7): install the operator in another "
        "namespace, or pick a channel whose head fits."
        if platform
        else f" Or pick a channel whose head fits, or change OperatorGroup {operator_group} "
        "to that shape."
    )
    return Finding(
        "warning" if installed else "error",
        "HeadInstallModeUnsupported",
        SUBSCRIPTION,
        namespace,
        name,
        f"The channel head {head} does not support the targets of OperatorGroup "
        f"{operator_group}: '{message}' (R-IM-1), so {when} with UnsupportedOperatorGroup "
        f"(R-MEM-6). {install_mode_advice(supported)}{change}",
        "R-IM-1",
        (og_ref(*operator_group.split("/", 1)),),
    )


# -- Replacement chains -----------------------------------------------------------------------


def being_replaced(namespace: str, name: str, successor: str, waits_for: str | None) -> Finding:
    wait = (
        f" It also still replaces {waits_for}, so it waits until that one is gone: OLM "
        "garbage-collects only the oldest link of a chain."
        if waits_for
        else ""
    )
    return Finding(
        "info",
        "BeingReplaced",
        CSV,
        namespace,
        name,
        f"{successor} replaces this CSV (spec.replaces). Once this CSV is Succeeded OLM moves it "
        f"to Replacing, and deletes it when {successor} is Succeeded (R-CSV-S, R-CSV-R).{wait}",
        "R-CSV-R",
        (ObjectRef(CSV, namespace, successor),),
    )


#: How many CSVs of a ``spec.replaces`` loop a ReplacementCycle finding names.
LOOP_SHOWN = 12


def replacement_cycle(namespace: str, name: str, shown: Sequence[str], size: int) -> Finding:
    """R-CSV-R: ``shown`` is the loop from ``name`` on, whole or its first ``LOOP_SHOWN`` of
    ``size`` CSVs."""
    path = " -> ".join([*shown, *(["..."] if size > len(shown) else []), shown[0]])
    whole = f" ({size} CSVs)" if size > len(shown) else ""
    return Finding(
        "warning",
        "ReplacementCycle",
        CSV,
        namespace,
        name,
        f"spec.replaces forms a loop{whole}: {path}. Every CSV on it still replaces an "
        "existing one, so OLM never deletes any of them (R-CSV-R). Delete the CSV that should "
        "no longer be installed.",
        "R-CSV-R",
        tuple(ObjectRef(CSV, namespace, c) for c in shown if c != name),
    )


def olmconfig_condition_stale(observed: Sequence[str], expected: Sequence[str]) -> Finding:
    return Finding(
        "info",
        "CopiedCSVsConditionStale",
        OLM_CONFIG,
        "",
        "cluster",
        f"The OLMConfig's DisabledCopiedCSVs condition says {observed[1]}: '{observed[2]}', but "
        f"the copies present now call for {expected[1]}: '{expected[2]}' (R-COPY-8). OLM "
        "rewrites it at its next OLMConfig sync; until then do not trust it.",
        "R-COPY-8",
    )


# -- input (R-SRC-4) ----------------------------------------------------------------------------

#: A malformed object's message names this many of its wrong fields, then says how many more.
SHOWN_FIELDS = 4


def malformed_object(kind: str, namespace: str, name: str, record: Malformed) -> Finding:
    """R-SRC-4: an object whose fields have types olmtui cannot read; they were read as absent."""
    problems = record.problems
    fields = "; ".join(
        f"{p.path} is {p.found}, expected {p.expected}" for p in problems[:SHOWN_FIELDS]
    )
    if len(problems) > SHOWN_FIELDS:
        fields += f"; and {len(problems) - SHOWN_FIELDS} more"
    where = (
        f"served live as {kind} {ref(namespace, name)}"
        if record.origin == LIVE
        else f"read from {record.origin}"
    )
    return Finding(
        "warning",
        "MalformedObject",
        kind,
        namespace,
        name,
        f"This object ({where}) has fields of the wrong type: {fields}. Each was read as "
        "absent, so findings about this object may be missing or incomplete (R-SRC-4). Neither "
        "the API server's schema nor OLM writes such values: fix the object or the file.",
        "R-SRC-4",
    )
