"""What a Subscription's status says is wrong, in words a person can act on (R-SUB-*).

OLM writes its verdicts on a Subscription as conditions (ResolutionFailed, InstallPlanPending,
InstallPlanFailed, InstallPlanMissing, CatalogSourcesUnhealthy, BundleUnpacking,
BundleUnpackFailed, the deprecation conditions) and as ``status.state``. Conditions lag: when
the referenced InstallPlan is at hand, the condition OLM is about to write (R-SUB-5, R-SUB-6)
is derived from it, so a failed plan shows even before OLM records it on the Subscription.
Approval, effective approval and the 0-or-2+ OperatorGroup stall (R-SUB-4, R-SUB-9) live in
``subscriptions.py``; the shared and pending InstallPlans live in ``installplans.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from olmtui.kinds import CATALOG_SOURCE, CSV, INSTALL_PLAN, SUBSCRIPTION
from olmtui.model.records.catalog import Catalog
from olmtui.model.records.types import Finding, ObjectRef, Severity
from olmtui.model.rules.catalog.suggestions import (
    channel_suggestion,
    package_suggestion,
    serving,
)
from olmtui.model.rules.installplans.forbidden import Denied, retrying_forbidden
from olmtui.model.rules.installplans.installplans import (
    ConditionState,
    InstallPlanSummary,
    expected_subscription_condition,
    failed_plan_remedy,
    namespace_installplan_findings,
    olm_defect,
    summarize_install_plan,
)
from olmtui.model.rules.resolution.catalog_view import Visibility, view_cause
from olmtui.model.rules.subscriptions.subscriptions import install_plan_name
from olmtui.model.rules.upgrades.upgrades import source_ref
from olmtui.objects import Obj, meta, spec, status

#: The kind of the scoped account a Forbidden InstallPlan names (R-OG-7); olmtui reads none.
SERVICE_ACCOUNT = "ServiceAccount"
_DEPRECATIONS = ("PackageDeprecated", "ChannelDeprecated", "BundleDeprecated")
_PLAN_CONDITIONS = ("InstallPlanPending", "InstallPlanFailed", "InstallPlanMissing")


def _true_conditions(sub: Obj) -> dict[str, ConditionState]:
    """Conditions with status True, by type (OLM keeps one per type)."""
    out = {}
    for c in status(sub).get("conditions") or ():
        if c.get("status") == "True" and c.get("type"):
            out[c["type"]] = ConditionState(
                c["type"], "True", c.get("reason") or None, c.get("message") or None
            )
    return out


def _plan_name(sub: Obj) -> str | None:
    found = install_plan_name(sub)
    return found[1] if found else None


def _what(sub: Obj) -> str:
    sub_spec = spec(sub)
    channel = f", channel {sub_spec['channel']}" if sub_spec.get("channel") else ""
    return f"package {sub_spec.get('name') or '?'}{channel}, catalog {source_ref(sub)}"


class _Builder:
    """Collects the findings of one Subscription with its identity filled in."""

    def __init__(
        self,
        sub: Obj,
        csvs: Mapping[str, Obj],
        manual: bool,
        catalogs: Sequence[Catalog] = (),
        visibility: Visibility | None = None,
    ) -> None:
        sub_meta = meta(sub)
        #: The catalog content given, for what exists where OLM found nothing (R-UPG-6).
        self.catalogs = catalogs
        #: Which catalog namespaces the namespace resolves from, when known (R-RES-3).
        self.visibility = visibility
        #: The namespace's non-copied CSVs by name, and whether any Subscription of it is
        #: Manual (R-SUB-4): the remedies depend on both.
        self.csvs = csvs
        self.manual = manual
        self.namespace = sub_meta.get("namespace") or ""
        self.name = sub_meta.get("name") or ""
        self.findings: list[Finding] = []

    def add(
        self,
        severity: Severity,
        code: str,
        message: str,
        rule: str,
        related: tuple[ObjectRef, ...] = (),
    ) -> None:
        self.findings.append(
            Finding(severity, code, SUBSCRIPTION, self.namespace, self.name, message, rule, related)
        )


_NO_PACKAGE = re.compile(
    r"no operators found in package (\S+) in the catalog referenced by subscription"
)
_NO_CHANNEL = re.compile(
    r"no operators found in channel (\S+) of package (\S+) in the catalog referenced by"
)


def _what_exists(b: _Builder, sub: Obj, message: str) -> str | None:
    """R-UPG-6: where OLM found no package P (no channel C of P) and the catalog content
    given for the Subscription's source lists what it has, name that, close matches first."""
    catalog = serving(b.catalogs, source_ref(sub)) if b.catalogs else None
    if catalog is None:
        return None
    if m := _NO_CHANNEL.search(message):
        return channel_suggestion(catalog, m[2], m[1])
    if m := _NO_PACKAGE.search(message):
        return package_suggestion(catalog, m[1])
    return None


_NO_CATALOG = re.compile(
    r"no operators found from catalog (\S+) in namespace (\S+) referenced by subscription"
)


def _out_of_view(b: _Builder, sub: Obj, cond: ConditionState) -> bool:
    """R-RES-3: OLM found nothing in a catalog the namespace does not resolve from; the
    finding names the view (the annotation, or the catalog's namespace) as the cause."""
    found = _NO_CATALOG.search(cond.message or "")
    view = b.visibility
    if found is None or view is None or view.sees(b.namespace, found[2]):
        return False
    why, fix, related = view_cause(b.namespace, (found[2], found[1]), view)
    b.add(
        "error",
        cond.reason or "ResolutionFailed",
        f"OLM cannot resolve Subscription {b.name} ({_what(sub)}): "
        f"{(cond.message or 'no message').rstrip('.')}. The cause is the namespace's view, "
        f"not the catalog: {why}. {fix}; OLM resolves again on its own (R-RES-3).",
        "R-SUB-7",
        related,
    )
    return True


def _resolution(b: _Builder, sub: Obj, cond: ConditionState) -> None:
    # R-SUB-7: ConstraintsNotSatisfiable (the solver's constraint list, R-UPG-6 texts
    # included) or ErrorPreventedResolution (any other resolver error).
    if _out_of_view(b, sub, cond):
        return
    exists = _what_exists(b, sub, cond.message or "")
    if exists is not None:
        b.add(
            "error",
            cond.reason or "ResolutionFailed",
            f"OLM cannot resolve Subscription {b.name} ({_what(sub)}): "
            f"{(cond.message or 'no message').rstrip('.')}. {exists} (R-UPG-6); OLM resolves "
            "again when the Subscription changes.",
            "R-SUB-7",
        )
        return
    advice = {
        "ConstraintsNotSatisfiable": (
            "The resolver found no set of bundles that satisfies every constraint listed: "
            "check that the package, channel and startingCSV exist in the catalog, that the "
            "APIs and packages it requires are available, and that no installed operator "
            "stands in the way. OLM retries on every catalog or Subscription change."
        ),
        "ErrorPreventedResolution": (
            "An error stopped the resolver before it could decide, most often an unreachable "
            "or broken CatalogSource: fix the error above; OLM retries on its own."
        ),
    }.get(cond.reason or "", "OLM clears this condition after the next successful resolution.")
    b.add(
        "error",
        cond.reason or "ResolutionFailed",
        f"OLM cannot resolve Subscription {b.name} ({_what(sub)}): "
        f"{(cond.message or 'no message').rstrip('.')}. {advice}",
        "R-SUB-7",
    )


def _plan_condition(
    b: _Builder,
    sub: Obj,
    observed: dict[str, ConditionState],
    plan: InstallPlanSummary | None,
    expected: ConditionState | None,
) -> None:
    """R-SUB-5 / R-SUB-6, once: the observed condition, else the one OLM is about to write."""
    cond = next((observed[t] for t in _PLAN_CONDITIONS if t in observed), expected)
    if cond is None:
        return
    if cond.message is None and expected is not None and expected.type == cond.type:
        # Older OLM wrote these conditions without a message; the plan still has it.
        cond = ConditionState(cond.type, cond.status, cond.reason, expected.message)
    ip_name = plan.name if plan else _plan_name(sub) or "?"
    related = (ObjectRef(INSTALL_PLAN, b.namespace, ip_name),)
    lag = "" if cond.type in observed else " (OLM has not written this condition yet)"
    if cond.type == "InstallPlanFailed":
        _plan_failed(b, sub, cond, plan, ip_name, lag, related)
    elif cond.type == "InstallPlanMissing":
        b.add(
            "error",
            "InstallPlanMissing",
            f"Subscription {b.name} references InstallPlan {ip_name}, which does not "
            f"exist{lag} (reason {cond.reason or 'ReferencedInstallPlanNotFound'}). OLM only "
            "re-resolves by itself while the state is UpgradePending (R-SUB-6)"
            + _missing_remedy(b, sub),
            "R-SUB-6",
            related,
        )
    elif cond.reason == "RequiresApproval" and plan and plan.waiting_for_approval:
        _waiting_for_approval(b, sub, plan)
    elif (
        denied := retrying_forbidden(plan.message if plan and plan.message else cond.message)
    ) is not None:
        _forbidden(b, ip_name, denied, related)
    else:
        b.add(
            "info",
            "InstallPlanPending",
            f"InstallPlan {ip_name} of Subscription {b.name} is in progress{lag} "
            f"(reason {cond.reason or '?'}"
            f"{': ' + cond.message if cond.message else ''}). Nothing to do unless it "
            "stays there; bundle unpacking and install steps show on the InstallPlan.",
            "R-SUB-5",
            related,
        )


def _forbidden(b: _Builder, ip_name: str, denied: Denied, related: tuple[ObjectRef, ...]) -> None:
    """R-OG-7, R-IP-3: the plan retries for as long as its scoped account is Forbidden: an
    error with the account and the permission it lacks, never "in progress"."""
    account = f"{denied.account_namespace}/{denied.account}"
    b.add(
        "error",
        "InstallPlanForbidden",
        f"InstallPlan {ip_name} of Subscription {b.name} keeps retrying: ServiceAccount "
        f"{account}, which the OperatorGroup makes OLM install with, may not "
        f"{denied.permission}. OLM installs a scoped group's operators with that account's "
        "permissions only and retries while the error is Forbidden, so nothing moves until "
        f"the account is granted it, e.g. `{denied.grant}`; OLM then goes on by itself.",
        "R-OG-7",
        (*related, ObjectRef(SERVICE_ACCOUNT, denied.account_namespace, denied.account)),
    )


def _missing_remedy(b: _Builder, sub: Obj) -> str:
    """R-SUB-6 outside UpgradePending: recreate the Subscription; a CSV it left not
    Succeeded goes too, or the new Subscription finds it in the way."""
    installed = status(sub).get("installedCSV") or ""
    csv = b.csvs.get(installed)
    approval = (
        " The new InstallPlan will wait for approval (a Subscription of this namespace is "
        "Manual, R-SUB-4)."
        if b.manual
        else ""
    )
    if csv is not None and status(csv).get("phase") != "Succeeded":
        return (
            f": delete Subscription {b.name} and CSV {installed}, which is not Succeeded, and "
            "create the Subscription again with the same spec; the operator's custom "
            f"resources stay.{approval}"
        )
    return ": delete and recreate the Subscription (same spec) to get a new InstallPlan." + approval


def _left_behind(b: _Builder, plan: InstallPlanSummary | None) -> tuple[list[str], str]:
    """The plan's CSVs that exist (R-SUB-1), and a sentence on those it left not Succeeded."""
    if plan is None:
        return [], ""
    names = [p.name for p in plan.csvs] or list(plan.csv_names)
    left = [n for n in dict.fromkeys(names) if n in b.csvs]
    stuck = [
        f"{n} ({'/'.join(x for x in (st.get('phase'), st.get('reason')) if x) or 'no phase'})"
        for n in left
        if (st := status(b.csvs[n])).get("phase") != "Succeeded"
    ]
    if not stuck:
        return left, ""
    return left, (
        f" It left CSV {', '.join(stuck)} behind, which stays there: the objects it needs were "
        "to be created by this plan."
    )


def _plan_failed(
    b: _Builder,
    sub: Obj,
    cond: ConditionState,
    plan: InstallPlanSummary | None,
    ip_name: str,
    lag: str,
    related: tuple[ObjectRef, ...],
) -> None:
    """R-SUB-5 InstallPlanFailed: the error, the CSV it left stuck, whose fault it is and
    the remedy that works in the Subscription's state (R-IP-3, R-SUB-6)."""
    steps = ""
    if plan and plan.failed_steps:
        steps = (
            " Steps not completed: "
            + ", ".join(f"{s.kind} {s.name} ({s.status})" for s in plan.failed_steps)
            + "."
        )
    left, stuck = _left_behind(b, plan)
    message = cond.message or "no message"
    defect = olm_defect(message)
    state = status(sub).get("state") or ""
    remedy = failed_plan_remedy(
        b.namespace, ip_name, b.name, state, left, manual=b.manual, olm_fault=bool(defect)
    )
    b.add(
        "error",
        "InstallPlanFailed",
        f"InstallPlan {ip_name} of Subscription {b.name} failed{lag} "
        f"(reason {cond.reason or 'InstallPlanFailed'}): {message.rstrip('.')}."
        f"{steps}{stuck}{' ' + defect if defect else ''} {remedy}",
        "R-SUB-5",
        related + tuple(ObjectRef(CSV, b.namespace, n) for n in left),
    )


def _waiting_for_approval(b: _Builder, sub: Obj, plan: InstallPlanSummary) -> None:
    what = (
        ", ".join(p.name + (f" ({p.version})" if p.version else "") for p in plan.csvs) or "no CSV"
    )
    state = status(sub).get("state") or ""
    b.add(
        "warning",
        "UpgradePending",
        f"Subscription {b.name} (state {state or 'none'}) waits for InstallPlan "
        f"{plan.name} to be approved; it would install {what}. The plan is Manual because "
        "this or another Subscription of the namespace asks for Manual approval (R-SUB-4). "
        f"Approve it with `oc patch installplan {plan.name} -n {b.namespace} --type merge "
        '-p \'{"spec":{"approved":true}}\'`.',
        "R-IP-2",
        (ObjectRef(INSTALL_PLAN, b.namespace, plan.name),),
    )


def _catalog_health(b: _Builder, sub: Obj, cond: ConditionState) -> None:
    unhealthy = tuple(
        ObjectRef(CATALOG_SOURCE, r.get("namespace") or "", r.get("name") or "")
        for h in status(sub).get("catalogHealth") or ()
        if not h.get("healthy") and (r := h.get("catalogSourceRef") or {}).get("name")
    )
    names = ", ".join(f"{r.namespace}/{r.name}" for r in unhealthy)
    if cond.reason == "NoCatalogSourcesFound":
        b.add(
            "error",
            "NoCatalogSourcesFound",
            f"Subscription {b.name} has no CatalogSource to resolve from, neither in its "
            "namespace nor in the global catalog namespace (R-SUB-8): "
            f"{cond.message or ''}. Create the CatalogSource it names.",
            "R-SUB-8",
        )
        return
    b.add(
        "warning",
        "CatalogSourcesUnhealthy",
        f"Catalogs that Subscription {b.name} resolves against are unhealthy: "
        f"{cond.message or cond.reason or ''}"
        f"{' (unhealthy: ' + names + ')' if names else ''}. OLM resolves against every "
        "CatalogSource of the namespace plus the global catalog namespace (R-SUB-8), so a "
        "broken catalog can block installs and upgrades; see the CatalogSource status.",
        "R-SUB-8",
        unhealthy,
    )


def subscription_condition_findings(
    sub: Obj,
    install_plan: Obj | None = None,
    *,
    install_plans_known: bool = True,
    csvs: Mapping[str, Obj] | None = None,
    manual: bool = False,
    catalogs: Sequence[Catalog] = (),
    visibility: Visibility | None = None,
) -> list[Finding]:
    """Findings from one Subscription's conditions and state (R-SUB-*), given the InstallPlan it
    references (``None`` when it references none or it is not in the cache). Pass
    ``install_plans_known=False`` when InstallPlans were not collected at all, so that a
    missing one is not reported. ``csvs`` are the namespace's non-copied CSVs by name and
    ``manual`` whether a Subscription of the namespace asks for Manual approval (R-SUB-4):
    the remedies depend on them."""
    b = _Builder(sub, csvs or {}, manual, catalogs, visibility)
    sub_status = status(sub)
    observed = _true_conditions(sub)
    plan = summarize_install_plan(install_plan) if install_plan is not None else None
    expected = expected_subscription_condition(install_plan) if install_plan else None
    ip_name = _plan_name(sub)
    if (
        install_plan is None
        and ip_name
        and install_plans_known
        and "InstallPlanMissing" not in observed
    ):
        if sub_status.get("state") == "UpgradePending":
            b.add(
                "info",
                "InstallPlanMissing",
                f"Subscription {b.name} references InstallPlan {ip_name}, which does not "
                "exist; as the state is UpgradePending, OLM clears the reference and "
                "resolves again (R-SUB-6). Nothing to do unless it persists.",
                "R-SUB-6",
                (ObjectRef(INSTALL_PLAN, b.namespace, ip_name),),
            )
        else:
            expected = ConditionState(
                "InstallPlanMissing", "True", "ReferencedInstallPlanNotFound", None
            )

    if "ResolutionFailed" in observed:
        _resolution(b, sub, observed["ResolutionFailed"])
    _plan_condition(b, sub, observed, plan, expected)
    if (
        sub_status.get("state") == "UpgradePending"
        and plan
        and plan.waiting_for_approval
        and not any(f.code == "UpgradePending" for f in b.findings)
    ):
        _waiting_for_approval(b, sub, plan)
    if sub_status.get("state") == "UpgradeFailed":
        b.add(
            "error",
            "UpgradeFailed",
            f"Subscription {b.name} is UpgradeFailed: its InstallPlan failed while the "
            "OperatorGroup's upgradeStrategy is TechPreviewUnsafeFailForward (R-SUB-2, "
            "R-UPG-8). A newer bundle in the channel can replace the failed CSV: publish or "
            "pick one. Otherwise fix the cause, then delete the Subscription (and any CSV the "
            "plan created) and create it again: in this state deleting only the InstallPlan "
            "gives InstallPlanMissing (R-SUB-6).",
            "R-UPG-8",
        )
    if "CatalogSourcesUnhealthy" in observed:
        _catalog_health(b, sub, observed["CatalogSourcesUnhealthy"])
    if "BundleUnpackFailed" in observed:
        cond = observed["BundleUnpackFailed"]
        b.add(
            "error",
            "BundleUnpackFailed",
            f"OLM could not unpack the bundle for Subscription {b.name}: "
            f"{cond.message or cond.reason or ''}. The unpack Job failed or timed out "
            "(R-SUB-11): check that the bundle image can be pulled, and the "
            "operatorframework.io/bundle-unpack-timeout annotation of the OperatorGroup.",
            "R-SUB-11",
        )
    elif "BundleUnpacking" in observed:
        cond = observed["BundleUnpacking"]
        b.add(
            "info",
            "BundleUnpacking",
            f"OLM is unpacking the bundle for Subscription {b.name} "
            f"({cond.message or cond.reason or 'in progress'}), R-SUB-11.",
            "R-SUB-11",
        )
    deprecations = [observed[t] for t in _DEPRECATIONS if t in observed]
    if not deprecations and "Deprecated" in observed:
        deprecations = [observed["Deprecated"]]
    for cond in deprecations:
        b.add(
            "warning",
            cond.type,
            f"The catalog marks what Subscription {b.name} installed as deprecated "
            f"({cond.type}): {cond.message or 'no message'}. Plan a move to a supported "
            "package, channel or version (R-SUB-10).",
            "R-SUB-10",
        )
    return b.findings


def namespace_subscription_findings(
    namespace: str,
    subs: Iterable[Obj],
    ips: Iterable[Obj],
    csvs: Iterable[Obj] = (),
    *,
    install_plans_known: bool = True,
    catalogs: Sequence[Catalog] = (),
    visibility: Visibility | None = None,
) -> list[Finding]:
    """Every Subscription and InstallPlan finding of one namespace, sorted: the conditions of
    each Subscription (with the InstallPlan it references) plus the namespace-wide InstallPlan
    effects (R-IP-2, R-DOC-6); the engine reports the approval contagion (R-SUB-4). Recompute
    it when a Subscription, InstallPlan or CSV of the namespace changes."""
    subs = [s for s in subs if (meta(s).get("namespace") or "") == namespace]
    ips = [i for i in ips if (meta(i).get("namespace") or "") == namespace]
    by_name = {meta(i).get("name") or "": i for i in ips}
    csvs = list(csvs)
    csv_names = {meta(c).get("name") or "": c for c in csvs}
    manual = any(spec(s).get("installPlanApproval") == "Manual" for s in subs)
    findings = []
    for sub in subs:
        name = _plan_name(sub)
        findings += subscription_condition_findings(
            sub,
            by_name.get(name) if name else None,
            install_plans_known=install_plans_known,
            csvs=csv_names,
            manual=manual,
            catalogs=catalogs,
            visibility=visibility,
        )
    findings += namespace_installplan_findings(namespace, subs, ips, csvs)
    return sorted(findings, key=lambda f: f.sort_key)
