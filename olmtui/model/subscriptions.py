"""Subscriptions as OLM's catalog operator sees them (§12 of olm-rules.md): approval and its
namespace-wide contagion (R-SUB-4), the InstallPlan they point at, and the silent stall of a
namespace without exactly one OperatorGroup (R-SUB-9).

``subscription_state`` is the one place a Subscription record is built; the upgrade rules
plug their :class:`UpgradeInfo` in through its ``upgrade`` argument.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Literal

from olmtui.model.types import InstallPlanRef, SubscriptionState, UpgradeInfo

Obj = dict[str, Any]
Approval = Literal["Manual", "Automatic"]
#: Looks an InstallPlan up by (namespace, name).
InstallPlanLookup = Callable[[str, str], Obj | None]


def approval(sub: Obj) -> Approval:
    """§1.8: anything but ``Manual`` counts as Automatic."""
    wanted = (sub.get("spec") or {}).get("installPlanApproval")
    return "Manual" if wanted == "Manual" else "Automatic"


def effective_approval(subs: Iterable[Obj]) -> Approval:
    """R-SUB-4: new InstallPlans in a namespace are Manual if any Subscription there is."""
    return "Manual" if any(approval(s) == "Manual" for s in subs) else "Automatic"


def install_plan_name(sub: Obj) -> tuple[str, str] | None:
    """The ``(namespace, name)`` of the InstallPlan a Subscription references, from
    ``status.installPlanRef`` or the older ``status.installplan``."""
    status = sub.get("status") or {}
    namespace = (sub.get("metadata") or {}).get("namespace", "")
    for field in ("installPlanRef", "installplan"):
        ref = status.get(field)
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
    approved = (plan.get("spec") or {}).get("approved")
    return InstallPlanRef(
        found[1],
        (plan.get("status") or {}).get("phase"),
        approved if isinstance(approved, bool) else None,
    )


def subscription_state(
    sub: Obj,
    namespace_approval: Approval,
    lookup: InstallPlanLookup,
    upgrade: UpgradeInfo | None = None,
) -> SubscriptionState:
    """The record the report and the screens show for one Subscription."""
    meta = sub.get("metadata") or {}
    spec = sub.get("spec") or {}
    status = sub.get("status") or {}
    namespace = meta.get("namespace", "")
    return SubscriptionState(
        namespace=namespace,
        name=meta.get("name", ""),
        package=spec.get("name") or "",
        channel=spec.get("channel") or None,
        source=spec.get("source") or "",
        source_namespace=spec.get("sourceNamespace") or "",
        approval=approval(sub),
        effective_approval=namespace_approval,
        state=status.get("state") or None,
        installed_csv=status.get("installedCSV") or None,
        current_csv=status.get("currentCSV") or None,
        install_plan=install_plan_ref(sub, lookup),
        upgrade=upgrade if upgrade is not None else UpgradeInfo(),
        starting_csv=spec.get("startingCSV") or None,
    )


PackageKey = tuple[str, str, str]  # (catalog namespace, catalog name, package)


def subscription_package(sub: Obj) -> PackageKey:
    spec = sub.get("spec") or {}
    return (spec.get("sourceNamespace") or "", spec.get("source") or "", spec.get("name") or "")


def package_manifest_key(pm: Obj) -> PackageKey:
    """Which catalog and package a PackageManifest describes (§11): from its status, else
    from its ``catalog``/``catalog-namespace`` labels and name."""
    meta = pm.get("metadata") or {}
    labels = meta.get("labels") or {}
    status = pm.get("status") or {}
    return (
        status.get("catalogSourceNamespace") or labels.get("catalog-namespace") or "",
        status.get("catalogSource") or labels.get("catalog") or "",
        status.get("packageName") or meta.get("name") or "",
    )


def channel_head(pm: Obj, channel: str | None) -> tuple[str, Any] | None:
    """The head CSV of the Subscription's channel and its install modes (§11: the default
    channel when none is named, or the only one); ``None`` when the manifest does not say."""
    status = pm.get("status") or {}
    channels = [c for c in status.get("channels") or [] if isinstance(c, dict)]
    wanted = channel or status.get("defaultChannel")
    if not wanted and len(channels) == 1:
        wanted = channels[0].get("name")
    for entry in channels:
        if entry.get("name") == wanted and entry.get("currentCSV"):
            modes = (entry.get("currentCSVDesc") or {}).get("installModes")
            return (str(entry["currentCSV"]), modes) if modes else None
    return None
