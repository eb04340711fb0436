"""InstallPlans as a person reads them, and the namespace-wide effects of colocation.

An InstallPlan says little in one place: the CSVs it installs are spread over
``spec.clusterServiceVersionNames``, the ``status.bundleLookups`` and the CSV steps of
``status.plan`` (R-IP-1, R-IP-4), and which Subscriptions it really moves is nowhere at all.
OLM resolves every Subscription of a namespace together, so one Manual Subscription makes every
new InstallPlan there Manual (R-SUB-4) and one InstallPlan may carry the CSVs of several
operators (R-DOC-6). This module rebuilds those
facts from plain dicts: a summary per InstallPlan, the plans waiting for approval, and the
shared-plan findings of one namespace. The contagion finding itself (R-SUB-4) is the engine's,
made per Subscription in ``findings.manual_contagion``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from olmtui.frozen import frozen
from olmtui.kinds import CSV, INSTALL_PLAN, SUBSCRIPTION
from olmtui.model.primitives import json_text
from olmtui.model.primitives.bundle_properties import PROPERTIES_ANNOTATION, package_property
from olmtui.model.records.types import Finding, ObjectRef, ref
from olmtui.model.rules.subscriptions.state import install_plan_name
from olmtui.objects import Obj, mapping_of, meta, spec, status, text_of

SEED_COLOCATION = "R-DOC-6"  # docs/rules.md: operators in one namespace share plans
#: Step statuses that mean the step is done (OLM's ``StepStatus`` values).
_DONE_STEPS = frozenset({"Created", "Present"})
#: Step statuses that are failures whatever the plan phase (OLM's ``StepStatus`` values).
_BAD_STEPS = frozenset({"NotCreated", "UnsupportedResource"})


@frozen
class ConditionState:
    """One status condition, as observed (or as OLM would write it)."""

    type: str
    status: str
    reason: str | None = None
    message: str | None = None


@frozen
class PlannedCSV:
    """One CSV an InstallPlan installs, with what the plan tells about it."""

    name: str
    package: str | None = None
    version: str | None = None
    #: The CSV it replaces on this cluster (R-UPG-4), ``None`` for a fresh install.
    replaces: str | None = None
    #: ``"namespace/name"`` of the CatalogSource it comes from.
    catalog: str | None = None


@frozen
class BundleLookupState:
    """One ``status.bundleLookups`` entry (R-IP-4)."""

    identifier: str
    path: str
    catalog: str | None
    replaces: str | None
    conditions: tuple[ConditionState, ...]


@frozen
class StepState:
    """One ``status.plan`` step (R-IP-1): the bundle it resolves, its resource and status."""

    resolving: str
    kind: str
    name: str
    status: str


def step_state(step: Obj) -> StepState:
    """A ``status.plan`` entry as read; ``Unknown`` for a step without a status."""
    resource = step.get("resource") or {}
    return StepState(
        step.get("resolving") or "",
        resource.get("kind") or "",
        resource.get("name") or "",
        step.get("status") or "Unknown",
    )


@frozen
class InstallPlanSummary:
    namespace: str
    name: str
    phase: str | None
    approval: str
    approved: bool
    csv_names: tuple[str, ...]
    csvs: tuple[PlannedCSV, ...]
    bundle_lookups: tuple[BundleLookupState, ...]
    failed_steps: tuple[StepState, ...]
    conditions: tuple[ConditionState, ...]
    message: str | None
    #: Subscriptions named in ``ownerReferences`` (OLM adds every Subscription it resolved).
    owners: tuple[str, ...]

    @property
    def ref(self) -> str:
        return ref(self.namespace, self.name)

    @property
    def waiting_for_approval(self) -> bool:
        return _waits(self.phase, self.approved)


@frozen
class PendingApproval:
    """An InstallPlan waiting for someone to approve it, and what approving it would move."""

    namespace: str
    name: str
    csvs: tuple[PlannedCSV, ...]
    #: Names of the Subscriptions of the namespace whose operators the plan moves.
    subscriptions: tuple[str, ...]

    @property
    def ref(self) -> str:
        return ref(self.namespace, self.name)


# -- reading one InstallPlan ------------------------------------------------------------------


def _waits(phase: str | None, approved: bool) -> bool:
    """R-IP-2: a plan leaves ``RequiresApproval`` only once ``spec.approved`` is true."""
    return phase == "RequiresApproval" and not approved


def _waits_raw(ip: Obj) -> bool:
    """:func:`_waits` on the raw object, to pass over history without summarizing it."""
    phase = status(ip).get("phase")
    return _waits(phase, bool(spec(ip).get("approved")))


def _conditions(raw: Iterable[Obj] | None) -> tuple[ConditionState, ...]:
    return tuple(
        ConditionState(
            str(c.get("type", "")),
            str(c.get("status", "")),
            c.get("reason") or None,
            c.get("message") or None,
        )
        for c in raw or ()
    )


def _csv_step_facts(step: Obj) -> PlannedCSV | None:
    """What a ClusterServiceVersion step tells (R-IP-1): older OLM inlines the whole CSV as
    JSON in ``resource.manifest``; newer OLM stores a reference to an unpacked-bundle
    ConfigMap that carries ``replaces`` (the CSV it replaces on this cluster, R-UPG-4) and
    ``properties``."""
    resource = step.get("resource") or {}
    if resource.get("kind") != CSV or not resource.get("name"):
        return None
    source = resource.get("sourceName")
    catalog = ref(resource.get("sourceNamespace") or "", source) if source else None
    package = version = replaces = None
    manifest = resource.get("manifest")
    doc: Any = None
    if isinstance(manifest, str) and manifest.lstrip().startswith("{"):
        try:
            doc = json_text.loads(manifest)
        except ValueError:
            doc = None
    # The document inside the JSON text was never checked where objects enter the cache
    # (R-SRC-4): its fields are read only when of the type OLM writes.
    if isinstance(doc, dict) and doc.get("kind") == CSV:
        doc_spec = mapping_of(doc.get("spec"))
        version = text_of(doc_spec.get("version"))
        replaces = text_of(doc_spec.get("replaces"))
        annotations = mapping_of(mapping_of(doc.get("metadata")).get("annotations"))
        package, _ = package_property(annotations.get(PROPERTIES_ANNOTATION))
    elif isinstance(doc, dict):
        replaces = text_of(doc.get("replaces"))
        package, version = package_property(doc.get("properties"))
    return PlannedCSV(resource["name"], package, version, replaces, catalog)


def _merge(a: PlannedCSV, b: PlannedCSV) -> PlannedCSV:
    """Fill the gaps of ``a`` with what ``b`` knows about the same CSV."""
    return PlannedCSV(
        a.name,
        a.package or b.package,
        a.version or b.version,
        a.replaces or b.replaces,
        a.catalog or b.catalog,
    )


def summarize_install_plan(ip: Obj) -> InstallPlanSummary:
    """The summary of one InstallPlan (R-IP-1..4)."""
    ip_meta = meta(ip)
    ip_spec = spec(ip)
    ip_status = status(ip)
    phase = ip_status.get("phase") or None
    planned: dict[str, PlannedCSV] = {}
    names = tuple(ip_spec.get("clusterServiceVersionNames") or ())
    for name in names:
        planned[name] = PlannedCSV(name)
    lookups = []
    for lookup in ip_status.get("bundleLookups") or ():
        catalog_ref = lookup.get("catalogSourceRef") or {}
        catalog = (
            ref(catalog_ref.get("namespace") or "", catalog_ref["name"])
            if catalog_ref.get("name")
            else None
        )
        identifier = lookup.get("identifier") or ""
        package, version = package_property(lookup.get("properties"))
        replaces = lookup.get("replaces") or None
        lookups.append(
            BundleLookupState(
                identifier,
                lookup.get("path") or "",
                catalog,
                replaces,
                _conditions(lookup.get("conditions")),
            )
        )
        if identifier:
            facts = PlannedCSV(identifier, package, version, replaces, catalog)
            planned[identifier] = _merge(planned.get(identifier, facts), facts)
    failed = []
    for step in ip_status.get("plan") or ():
        step_facts = _csv_step_facts(step)
        if step_facts is not None:
            planned[step_facts.name] = _merge(planned.get(step_facts.name, step_facts), step_facts)
        state = step_state(step)
        if state.status in _BAD_STEPS or (phase == "Failed" and state.status not in _DONE_STEPS):
            failed.append(state)
    owners = tuple(
        o["name"]
        for o in ip_meta.get("ownerReferences") or ()
        if o.get("kind") == SUBSCRIPTION and o.get("name")
    )
    return InstallPlanSummary(
        namespace=ip_meta.get("namespace") or "",
        name=ip_meta.get("name") or "",
        phase=phase,
        approval="Manual" if ip_spec.get("approval") == "Manual" else "Automatic",
        approved=bool(ip_spec.get("approved")),
        csv_names=names,
        csvs=tuple(planned.values()),
        bundle_lookups=tuple(lookups),
        failed_steps=tuple(failed),
        conditions=_conditions(ip_status.get("conditions")),
        message=ip_status.get("message") or None,
        owners=owners,
    )


def expected_subscription_condition(ip: Obj) -> ConditionState | None:
    """R-SUB-5: the InstallPlan condition OLM writes on a Subscription that references ``ip``
    (``InstallPlanPending`` / ``InstallPlanFailed``), or ``None`` for a Complete plan."""
    ip_status = status(ip)
    phase = ip_status.get("phase") or ""
    installed = next(
        (c for c in ip_status.get("conditions") or () if c.get("type") == "Installed"), None
    )
    if (
        installed is not None
        and installed.get("status") in ("True", "False")
        and installed.get("message")
    ):
        message = installed["message"]
    else:
        pending = [
            c.get("message") or ""
            for lookup in ip_status.get("bundleLookups") or ()
            for c in lookup.get("conditions") or ()
            if c.get("type") == "BundleLookupPending"
        ]
        message = " ".join(f"{m}." for m in pending)
    if phase == "":
        return ConditionState(
            "InstallPlanPending", "True", "InstallPlanNotYetReconciled", message or None
        )
    if phase in ("Planning", "Installing", "RequiresApproval"):
        return ConditionState("InstallPlanPending", "True", phase, message or None)
    if phase == "Failed":
        reason = "InstallPlanFailed"
        if installed is not None and installed.get("status") == "False" and installed.get("reason"):
            reason = installed["reason"]
        return ConditionState("InstallPlanFailed", "True", reason, message or None)
    return None


# -- which Subscriptions a plan moves -------------------------------------------------------


def _moves(planned: PlannedCSV, sub: Obj, csv_replaces: Mapping[str, str]) -> bool:
    """Whether installing ``planned`` moves the operator of ``sub``: the CSV is the one the
    Subscription is at or heading to, it replaces the installed one (R-UPG-4), or it is a
    bundle of the Subscription's package."""
    sub_spec = spec(sub)
    sub_status = status(sub)
    installed = sub_status.get("installedCSV")
    if planned.name in (sub_status.get("currentCSV"), installed):
        return True
    replaces = planned.replaces or csv_replaces.get(planned.name)
    if installed and replaces == installed:
        return True
    return bool(planned.package) and planned.package == sub_spec.get("name")


def _replaces_by_name(csvs: Iterable[Obj]) -> dict[str, str]:
    return {meta(c).get("name", ""): spec(c).get("replaces") or "" for c in csvs}


def subscriptions_moved(
    summary: InstallPlanSummary,
    subs: Iterable[Obj],
    csvs: Iterable[Obj] = (),
) -> dict[str, tuple[str, ...]]:
    """For each Subscription of the plan's namespace that the plan moves, the names of the
    plan's CSVs that move it (``csvs`` supply ``spec.replaces`` of CSVs already created)."""
    return _moved(summary, subs, _replaces_by_name(csvs))


def _moved(
    summary: InstallPlanSummary,
    subs: Iterable[Obj],
    csv_replaces: Mapping[str, str],
) -> dict[str, tuple[str, ...]]:
    moved: dict[str, tuple[str, ...]] = {}
    for sub in subs:
        sub_meta = meta(sub)
        if (sub_meta.get("namespace") or "") != summary.namespace:
            continue
        names = tuple(p.name for p in summary.csvs if _moves(p, sub, csv_replaces))
        if names:
            moved[sub_meta.get("name", "")] = names
    return dict(sorted(moved.items()))


def pending_approvals(
    install_plans: Iterable[Obj],
    subs: Iterable[Obj] = (),
    csvs: Iterable[Obj] = (),
) -> list[PendingApproval]:
    """Every InstallPlan waiting for approval (R-IP-2), with the operators it would move,
    sorted by namespace and name. ``csvs`` (non-copied) supply ``spec.replaces`` of CSVs
    already created, in the plan's namespace first (see :func:`replaces_for`)."""
    subs_by_ns: dict[str, list[Obj]] = {}
    for sub in subs:
        subs_by_ns.setdefault(meta(sub).get("namespace") or "", []).append(sub)
    replaces = replaces_by_namespace(csvs)
    pending = [
        approval
        for ip in install_plans
        if (approval := pending_approval(ip, subs_by_ns.get(_namespace(ip), ()), replaces))
    ]
    return sorted(pending, key=lambda p: (p.namespace, p.name))


def _namespace(obj: Obj) -> str:
    return meta(obj).get("namespace") or ""


def replaces_by_namespace(csvs: Iterable[Obj]) -> dict[str, dict[str, str]]:
    """CSV name -> namespace -> its ``spec.replaces`` (``""`` for none)."""
    out: dict[str, dict[str, str]] = {}
    for csv in csvs:
        out.setdefault(meta(csv).get("name", ""), {})[_namespace(csv)] = (
            spec(csv).get("replaces") or ""
        )
    return out


def replaces_for(
    namespace: str, names: Iterable[str], replaces: Mapping[str, Mapping[str, str]]
) -> dict[str, str]:
    """``spec.replaces`` of the CSVs ``names`` as a plan of ``namespace`` sees them: the
    CSV of that name in the plan's own namespace (the one the plan creates), else the one in
    the first namespace by name, so the answer never depends on the order CSVs were seen."""
    out = {}
    for name in names:
        held = replaces.get(name)
        if held:
            out[name] = held[namespace] if namespace in held else held[min(held)]
    return out


def pending_approval(
    ip: Obj, subs: Iterable[Obj], replaces: Mapping[str, Mapping[str, str]]
) -> PendingApproval | None:
    """The approval one InstallPlan waits for (R-IP-2), if it does, with the Subscriptions of
    its namespace (``subs``) it would move. It reads only these and the ``spec.replaces`` of
    the CSVs it plans, so it can be kept per namespace."""
    if not _waits_raw(ip):
        return None
    summary = summarize_install_plan(ip)
    csv_replaces = replaces_for(summary.namespace, (p.name for p in summary.csvs), replaces)
    moved = _moved(summary, subs, csv_replaces)
    return PendingApproval(summary.namespace, summary.name, summary.csvs, tuple(moved))


# -- findings for one namespace -------------------------------------------------------------


def _describe(planned: PlannedCSV) -> str:
    parts = [planned.name]
    if planned.package or planned.version:
        parts.append(f"({' '.join(x for x in (planned.package, planned.version) if x)})")
    parts.append(f"replacing {planned.replaces}" if planned.replaces else "as a new install")
    return " ".join(parts)


def _shared_plan_finding(
    summary: InstallPlanSummary,
    moved: dict[str, tuple[str, ...]],
) -> Finding:
    pending = summary.waiting_for_approval
    listing = "; ".join(f"{sub}: {', '.join(names)}" for sub, names in moved.items())
    consequence = (
        "approving it upgrades all of them at once"
        if pending
        else "all of them succeed or fail together"
    )
    return Finding(
        "warning" if pending else "info",
        "SharedInstallPlan",
        INSTALL_PLAN,
        summary.namespace,
        summary.name,
        f"InstallPlan {summary.name} carries the CSVs of {len(moved)} operators ({listing}). "
        "OLM resolves all Subscriptions of a namespace together and puts every CSV it "
        "changes into one InstallPlan (R-DOC-6), so "
        f"{consequence}. To upgrade operators independently, install them in separate "
        "namespaces, each with its own OperatorGroup.",
        rule=SEED_COLOCATION,
        related=tuple(ObjectRef(SUBSCRIPTION, summary.namespace, s) for s in moved),
    )


def _approval_finding(summary: InstallPlanSummary, moved: dict[str, tuple[str, ...]]) -> Finding:
    what = "; ".join(_describe(p) for p in summary.csvs) or "no CSV"
    return Finding(
        "info",
        "InstallPlanRequiresApproval",
        INSTALL_PLAN,
        summary.namespace,
        summary.name,
        f"InstallPlan {summary.name} waits for approval (phase RequiresApproval, "
        f"spec.approved false): it would install {what}. OLM starts it only once "
        "spec.approved is true (R-IP-2): review it, then approve it with "
        f"`oc patch installplan {summary.name} -n {summary.namespace} --type merge "
        '-p \'{"spec":{"approved":true}}\'`.',
        rule="R-IP-2",
        related=tuple(ObjectRef(SUBSCRIPTION, summary.namespace, s) for s in moved),
    )


def namespace_installplan_findings(
    namespace: str,
    subs: Iterable[Obj],
    ips: Iterable[Obj],
    csvs: Iterable[Obj] = (),
) -> list[Finding]:
    """Shared InstallPlans and plans waiting for approval in one namespace (R-IP-2, seed
    004). Only the InstallPlans that some Subscription
    references now, or that wait for approval, are looked at: older plans are history."""
    subs = [s for s in subs if (meta(s).get("namespace") or "") == namespace]
    csv_replaces = _replaces_by_name(csvs)
    findings: list[Finding] = []
    referenced = {found[1] for s in subs if (found := install_plan_name(s))}
    for ip in ips:
        ip_meta = meta(ip)
        if (ip_meta.get("namespace") or "") != namespace:
            continue
        if (ip_meta.get("name") or "") not in referenced and not _waits_raw(ip):
            continue
        summary = summarize_install_plan(ip)
        moved = _moved(summary, subs, csv_replaces)
        if len(moved) > 1:
            findings.append(_shared_plan_finding(summary, moved))
        if summary.waiting_for_approval:
            findings.append(_approval_finding(summary, moved))
    return sorted(findings, key=lambda f: f.sort_key)


# -- a failed InstallPlan: its error and whose fault it is -----------------------------------

#: The text of an error OLM itself can cause: an ownerReference OLM writes from a CSV read
#: without its TypeMeta has an empty apiVersion, and the API server refuses the Role or
#: RoleBinding it creates (seen on OCP 4.8 must-gathers).
OWNER_REF_DEFECT = "ownerReferences.apiVersion"
_RBAC_KINDS = frozenset({"Role", "RoleBinding"})


def rbac_created_elsewhere(plans: Iterable[Obj], but: str) -> list[str]:
    """The InstallPlans other than ``but`` (of the same namespace) whose Role or RoleBinding
    steps OLM created: the same OLM then wrote those ownerReferences right."""
    return sorted(
        meta(p).get("name") or ""
        for p in plans
        if (meta(p).get("name") or "") != but
        and any(
            (step.get("resource") or {}).get("kind") in _RBAC_KINDS
            and step.get("status") in ("Created", "Present")
            for step in status(p).get("plan") or ()
            if isinstance(step, dict)
        )
    )


def is_olm_defect(message: str, rbac_elsewhere: Sequence[str] = ()) -> bool:
    """The error is OLM's own, as far as the state shows: its text is one OLM causes, and no
    other plan of the namespace shows the same OLM doing that step right."""
    return OWNER_REF_DEFECT in message and not rbac_elsewhere


def olm_defect(message: str, rbac_elsewhere: Sequence[str] = ()) -> str:
    """The sentence on whose fault the error is, or ``""`` for an ordinary error. "An OLM
    defect" is said only when the state supports it: not when ``rbac_elsewhere`` (other
    plans of the namespace) shows the same OLM creating Roles fine."""
    if OWNER_REF_DEFECT not in message:
        return ""
    if rbac_elsewhere:
        return (
            "An ownerReference without an apiVersion is what a known OLM defect writes, but "
            f"the same OLM created the Roles of InstallPlan {', '.join(rbac_elsewhere)} in "
            "this namespace, so the state does not show OLM to be the cause: retry, and if "
            "the same error returns, compare this bundle with that one."
        )
    return (
        "This error comes from OLM itself, not from the bundle or your input: OLM wrote an "
        "ownerReference without an apiVersion on an object it creates (an OLM defect), so "
        "nothing in the bundle or the Subscription needs changing. If the same error returns "
        "after a retry, the fix is an OLM (cluster) update."
    )


def plan_error(ip: Obj) -> str:
    """What a Failed InstallPlan says went wrong: its ``Installed`` condition's message
    (what OLM copies onto the Subscription, R-SUB-5), else ``status.message``."""
    ip_status = status(ip)
    for cond in ip_status.get("conditions") or ():
        if cond.get("type") == "Installed" and cond.get("message"):
            return str(cond["message"])
    return str(ip_status.get("message") or "")
