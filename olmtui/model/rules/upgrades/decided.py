"""One answer to "what installs next" (R-RES-17, R-UPG-2): the resolver's pick when the
resolution of the Subscription's namespace ran, else the channel's.

The model computes each Subscription's next bundle from its channel's edges alone (R-UPG-2):
the candidate nearest the head that admits the installed CSV. OLM's resolver starts from the
same candidates but takes the first that keeps the whole namespace satisfiable, so where a
newer bundle needs a package no catalog provides, it installs an older one. Every view that
predicts OLM's next step reads the records this module returns, so ``:sub``, ``check``, the
graph marks, the Overview and ``explain`` never disagree, and each says why the pick is not
the channel head.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from olmtui.kinds import SUBSCRIPTION
from olmtui.model.records.types import Finding, SubscriptionState, UpgradeInfo
from olmtui.model.rules.resolution.result import NamespaceResolution


def _channel_reason(upgrade: UpgradeInfo, installed: str | None, starting: str | None) -> str:
    """Why the channel's own answer is not the head (R-UPG-2, R-UPG-5, R-UPG-9)."""
    nxt = upgrade.next
    if nxt is not None and installed is None:
        if starting == nxt:
            return f"spec.startingCSV names {nxt}; OLM installs it first, then upgrades hop by hop"
        return f"{nxt} is the newest bundle of the channel OLM may install (R-UPG-2)"
    if nxt is not None:
        hops = len(upgrade.path)
        if upgrade.path and upgrade.path[-1] != upgrade.head:
            return (
                f"{nxt} is the newest bundle whose replaces, skips or skipRange admits "
                f"{installed} (R-UPG-2); the path stops at {upgrade.path[-1]}, short of the head"
            )
        return (
            f"OLM upgrades one hop at a time: {nxt} is the newest bundle whose replaces, skips "
            f"or skipRange admits {installed} (R-UPG-2); {hops} hop(s) to the head"
        )
    if upgrade.graph == "packagemanifest":
        return (
            f"unknown: the head does not admit {installed}, and a PackageManifest shows no other "
            "entry's edges (R-UPG-9); load the catalog (--catalog) to know"
        )
    return (
        f"no bundle of the channel that OLM may install replaces, skips or has a skipRange "
        f"admitting {installed} (R-UPG-2)"
    )


def _with_channel_reason(sub: SubscriptionState) -> SubscriptionState:
    upgrade = sub.upgrade
    target = upgrade.next or sub.installed_csv
    if upgrade.head is None or target is None or target == upgrade.head:
        return sub
    reason = _channel_reason(upgrade, sub.installed_csv, sub.starting_csv)
    return replace(sub, upgrade=replace(upgrade, not_head_because=reason))


def _resolved_upgrade(sub: SubscriptionState, resolution: NamespaceResolution) -> UpgradeInfo:
    """The upgrade record of ``sub`` with ``next`` set to what the resolution installs for it
    (R-RES-20): its operator from a catalog (the next InstallPlan's, or the one already
    waiting as its current CSV), else nothing (it stays on what is installed)."""
    upgrade = sub.upgrade
    wanted = f"Subscription {sub.namespace}/{sub.name}"
    picked = next(
        (o.name for o in resolution.operators if o.reason == wanted and o.catalog != "@existing"),
        None,
    )
    if picked == sub.installed_csv:
        picked = None
    held = next((h for h in resolution.held_back if h.subscription == sub.name), None)
    if picked == upgrade.next:
        path, edges = upgrade.path, upgrade.edges
    else:
        # The channel's path runs through the bundles the resolver rules out: only the first
        # hop is known, and its edge only when the channel has the same one.
        path = () if picked is None else (picked,)
        edges = tuple(
            e for e in upgrade.edges if e.target == picked and e.source == sub.installed_csv
        )
    decided = replace(upgrade, next=picked, path=path, edges=edges, decided_by="resolver")
    target = picked or sub.installed_csv
    if upgrade.head is None or target is None or target == upgrade.head:
        return decided
    stays = f"stays on {sub.installed_csv}" if picked is None else f"picks {picked}"
    if held is not None:
        reason = f"OLM's resolver {stays}, not {held.preferred}: {held.because}"
    elif picked != upgrade.next:
        # the resolver's candidates (R-RES-10.5) are not the channel's hops: say so, and
        # claim no channel edge for a pick the channel does not make
        reason = (
            f"OLM's resolver {stays}: it is the first of the Subscription's candidates that "
            "the namespace's resolution can install (R-RES-17)"
        )
    else:
        reason = _channel_reason(decided, sub.installed_csv, sub.starting_csv)
    return replace(decided, not_head_because=reason)


def decided_subscriptions(
    subs: Iterable[SubscriptionState], resolutions: Sequence[NamespaceResolution] | None
) -> list[SubscriptionState]:
    """``subs`` with their upgrade decided once: by the resolution of their namespace when it
    resolved (R-RES-17), by the channel otherwise (R-UPG-2); ``resolutions`` None or empty
    means the resolver did not run. An unsatisfiable or stopped resolution installs nothing,
    which the findings say; its namespace keeps the channel's answer, marked as such."""
    by_namespace = {r.namespace: r for r in resolutions or ()}
    out: list[SubscriptionState] = []
    for sub in subs:
        resolution = by_namespace.get(sub.namespace)
        if resolution is None or resolution.status != "resolved":
            out.append(_with_channel_reason(sub))
            continue
        out.append(replace(sub, upgrade=_resolved_upgrade(sub, resolution)))
    return out


def decided_findings(
    findings: Iterable[Finding],
    channel: Iterable[SubscriptionState],
    decided: Iterable[SubscriptionState],
) -> list[Finding]:
    """``findings`` with each ``UpgradeAvailable`` (R-UPG-5, told from the channel's edges,
    as ``channel`` holds them) of a Subscription whose next bundle the resolver decided
    otherwise (``decided``, R-RES-17) told again from the resolver's pick, so that no
    finding names a bundle OLM will not install next. The others are returned as they are,
    in their order."""
    channel_next = {(s.namespace, s.name): s.upgrade.next for s in channel}
    overruled = {
        (s.namespace, s.name): s
        for s in decided
        if s.upgrade.decided_by == "resolver"
        and s.upgrade.not_head_because is not None
        and channel_next.get((s.namespace, s.name)) != s.upgrade.next
    }
    if not overruled:
        return list(findings)
    out: list[Finding] = []
    for finding in findings:
        sub = overruled.get((finding.namespace, finding.name))
        if finding.code != "UpgradeAvailable" or finding.kind != SUBSCRIPTION or sub is None:
            out.append(finding)
            continue
        upgrade = sub.upgrade
        if upgrade.next is None:
            told = f"{sub.installed_csv} is behind the head {upgrade.head}, and stays: "
        else:
            told = f"{sub.installed_csv} is behind: {upgrade.next} installs next, not the head: "
        message = f"{told}{upgrade.not_head_because}."
        out.append(replace(finding, message=message, rule="R-RES-17"))
    return out
