"""Subscriptions as OLM's catalog operator sees them (R-SUB-*): approval and its
namespace-wide contagion (R-SUB-4), the InstallPlan they point at, and the silent stall of a
namespace without exactly one OperatorGroup (R-SUB-9).

``subscription_state`` is the one place a Subscription record is built; the upgrade rules
plug their :class:`UpgradeInfo` in through its ``upgrade`` argument.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

from olmtui.model.records import findings
from olmtui.model.records.types import Finding, InstallPlanRef, SubscriptionState, UpgradeInfo
from olmtui.model.rules.installmodes.supported_modes import install_mode_set, install_mode_verdict
from olmtui.model.rules.operatorgroups.targets import build_target_namespaces
from olmtui.objects import Obj, meta, spec, status

Approval = Literal["Manual", "Automatic"]
#: Looks an InstallPlan up by (namespace, name).
InstallPlanLookup = Callable[[str, str], Obj | None]


def approval(sub: Obj) -> Approval:
    """``spec.installPlanApproval``: OLM reads anything but ``Manual`` as Automatic."""
    wanted = spec(sub).get("installPlanApproval")
    return "Manual" if wanted == "Manual" else "Automatic"


def effective_approval(subs: Iterable[Obj]) -> Approval:
    """R-SUB-4: new InstallPlans in a namespace are Manual if any Subscription there is."""
    return "Manual" if any(approval(s) == "Manual" for s in subs) else "Automatic"


def install_plan_name(sub: Obj) -> tuple[str, str] | None:
    """The ``(namespace, name)`` of the InstallPlan a Subscription references, from
    ``status.installPlanRef`` or the older ``status.installplan``."""
    sub_status = status(sub)
    namespace = meta(sub).get("namespace", "")
    for field in ("installPlanRef", "installplan"):
        ref = sub_status.get(field)
        if isinstance(ref, dict) and ref.get("name"):
            return ref.get("namespace") or namespace, str(ref["name"])
    return None


def install_plan_ref(sub: Obj, lookup: InstallPlanLookup) -> InstallPlanRef | None:
    """The referenced InstallPlan's name, phase and approval (phase and approval ``None``
    when the InstallPlan itself is not known)."""
    found = install_plan_name(sub)
    if found is None:
        return None
    plan = lookup(*found)
    if plan is None:
        return InstallPlanRef(found[1], None, None)
    approved = spec(plan).get("approved")
    return InstallPlanRef(
        found[1],
        status(plan).get("phase"),
        approved if isinstance(approved, bool) else None,
    )


def subscription_state(
    sub: Obj,
    namespace_approval: Approval,
    lookup: InstallPlanLookup,
    upgrade: UpgradeInfo | None = None,
) -> SubscriptionState:
    """The record the report and the screens show for one Subscription."""
    sub_meta = meta(sub)
    sub_spec = spec(sub)
    sub_status = status(sub)
    namespace = sub_meta.get("namespace", "")
    return SubscriptionState(
        namespace=namespace,
        name=sub_meta.get("name", ""),
        package=sub_spec.get("name") or "",
        channel=sub_spec.get("channel") or None,
        source=sub_spec.get("source") or "",
        source_namespace=sub_spec.get("sourceNamespace") or "",
        approval=approval(sub),
        effective_approval=namespace_approval,
        state=sub_status.get("state") or None,
        installed_csv=sub_status.get("installedCSV") or None,
        current_csv=sub_status.get("currentCSV") or None,
        install_plan=install_plan_ref(sub, lookup),
        upgrade=upgrade if upgrade is not None else UpgradeInfo(),
        starting_csv=sub_spec.get("startingCSV") or None,
    )


PackageKey = tuple[str, str, str]  # (catalog namespace, catalog name, package)


def subscription_package(sub: Obj) -> PackageKey:
    sub_spec = spec(sub)
    return (
        sub_spec.get("sourceNamespace") or "",
        sub_spec.get("source") or "",
        sub_spec.get("name") or "",
    )


def package_manifest_key(pm: Obj) -> PackageKey:
    """Which catalog and package a PackageManifest describes (R-UPG-9): from its status, else
    from its ``catalog``/``catalog-namespace`` labels and name."""
    manifest_meta = meta(pm)
    labels = manifest_meta.get("labels") or {}
    manifest_status = status(pm)
    return (
        manifest_status.get("catalogSourceNamespace") or labels.get("catalog-namespace") or "",
        manifest_status.get("catalogSource") or labels.get("catalog") or "",
        manifest_status.get("packageName") or manifest_meta.get("name") or "",
    )


def channel_head(pm: Obj, channel: str | None) -> tuple[str, Any] | None:
    """The head CSV of the Subscription's channel and its install modes (R-UPG-9: the default
    channel when none is named, or the only one); ``None`` when the manifest does not say."""
    manifest_status = status(pm)
    channels = [c for c in manifest_status.get("channels") or [] if isinstance(c, dict)]
    wanted = channel or manifest_status.get("defaultChannel")
    if not wanted and len(channels) == 1:
        wanted = channels[0].get("name")
    for entry in channels:
        if entry.get("name") == wanted and entry.get("currentCSV"):
            modes = (entry.get("currentCSVDesc") or {}).get("installModes")
            return (str(entry["currentCSV"]), modes) if modes else None
    return None


def subscription_findings(
    state: SubscriptionState, groups: Sequence[str], manual: Sequence[str]
) -> list[Finding]:
    """R-SUB-9 (no single OperatorGroup: nothing resolves, silently) and R-SUB-4 (an
    Automatic Subscription beside the ``manual`` ones works as Manual) for one Subscription
    of a namespace with OperatorGroups ``groups``."""
    found: list[Finding] = []
    if len(groups) != 1:
        found.append(findings.subscription_stalled(state.namespace, state.name, groups))
    if state.approval == "Automatic" and manual:
        found.append(findings.manual_contagion(state.namespace, state.name, manual))
    return found


def head_preflight(
    state: SubscriptionState,
    head: tuple[str, Any] | None,
    targets: Sequence[str],
    group_ref: str,
    platform: bool = False,
) -> list[Finding]:
    """R-IM-1 before the install: the channel head's install modes (``head``: its name and modes,
    from its PackageManifest) against the target string its CSV will carry in this namespace's
    group, whose targets are ``targets`` (R-OG-3, R-IM-1); a ``platform`` group (R-DOC-7) is not the
    admin's to change."""
    if head is None:
        return []
    supported = install_mode_set(head[1]).supported
    message = install_mode_verdict(
        supported,
        build_target_namespaces(targets).split(","),
        state.namespace,
    )
    if message is None:
        return []
    return [
        findings.head_unsupported(
            state.namespace,
            state.name,
            head[0],
            message,
            group_ref,
            state.installed_csv is not None,
            supported,
            platform,
        )
    ]
