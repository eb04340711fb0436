"""The ``:xray`` tree of one operator: Subscription -> InstallPlan -> CSV -> its Deployments,
CRDs (owned and required) and copies, each node with the findings about its object; for OLM
v1, ClusterExtension -> its revisions (R-V1-24) -> their phases and objects.

It follows the links OLM itself writes: the Subscription's ``status.installPlanRef`` (R-SUB-3)
and ``installedCSV``/``currentCSV`` (R-SUB-1), the CSV's ``spec.install`` deployments
(R-CSV-I) and their pods (R-EVD-9), its ``spec.customresourcedefinitions`` (R-CSV-P), and its
copies (R-COPY-1). An object the cache does not hold is shown as "not in the cache", never as
missing: a snapshot may not carry Deployments, pods or CRDs at all; when the user may not read
its kind live, "no access" (R-SRC-3). Copies come by the
thousand, so they are one count node whose children (:func:`copy_nodes`) are built only when
it is opened, and capped.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from olmtui.frozen import frozen
from olmtui.kinds import CLUSTER_EXTENSION, CRD, CSV, DEPLOYMENT, INSTALL_PLAN, POD, SUBSCRIPTION
from olmtui.model.records.types import CSVState, Finding, ObjectRef, StaleCopy, SubscriptionState
from olmtui.model.rules.evidence.install_pods import deployment_pods
from olmtui.model.rules.v1.extensions import ClusterExtension
from olmtui.model.rules.v1.revisions import ExtensionRevisions, Revision
from olmtui.model.viewmodels.views import worst
from olmtui.objects import Obj, name_of, namespace_of, spec, status

#: Looks an object up by (kind, namespace, name); ``None`` when the cache does not hold it.
Lookup = Callable[[str, str, str], Obj | None]
#: Findings by subject key ``(kind, namespace, name)``.
FindingsBySubject = Mapping[tuple[str, str, str], Sequence[Finding]]
#: The cached Pods by namespace (:func:`pods_by_namespace`).
PodsByNamespace = Mapping[str, Sequence[Obj]]
#: How many pods a Deployment node lists.
PODS_SHOWN = 20
#: How many copies a copies node lists when opened.
COPIES_SHOWN = 200
#: Phases and states that read as healthy when no finding says otherwise.
HEALTHY = frozenset({"Succeeded", "Complete", "AtLatestKnown", "Installed"})


@frozen
class XrayNode:
    """One node: ``ref`` is the object Enter opens (``None`` for a grouping node);
    ``severity`` the worst finding about it; ``state`` its phase, when it has one."""

    label: str
    ref: ObjectRef | None = None
    severity: str | None = None
    state: str | None = None
    codes: tuple[str, ...] = ()
    children: tuple[XrayNode, ...] = ()
    #: For the copies node: the source CSV whose copies :func:`copy_nodes` lists on demand.
    copies_of: ObjectRef | None = None

    @property
    def healthy(self) -> bool:
        """No finding, and a phase that says it works (green)."""
        return self.severity is None and self.state in HEALTHY


@frozen
class CopyFacts:
    """The copies of one CSV (R-COPY-1): the namespaces holding one, the target namespaces
    lacking one (R-COPY-3) and the stale ones (R-COPY-4)."""

    present: Sequence[str] = ()
    missing: Sequence[str] = ()
    stale: Sequence[StaleCopy] = ()


def _about(
    findings: FindingsBySubject, kind: str, namespace: str, name: str
) -> tuple[str | None, tuple[str, ...]]:
    found = findings.get((kind, namespace, name), ())
    codes = tuple(dict.fromkeys(f.code for f in found))
    return worst(f.severity for f in found), codes


def _node(
    findings: FindingsBySubject,
    ref: ObjectRef,
    label: str,
    state: str | None,
    children: Sequence[XrayNode] = (),
) -> XrayNode:
    severity, codes = _about(findings, ref.kind, ref.namespace, ref.name)
    return XrayNode(label, ref, severity, state, codes, tuple(children))


def pods_by_namespace(pods: Iterable[Obj]) -> dict[str, list[Obj]]:
    """The cached Pods grouped by namespace, once per tree rather than once per Deployment."""
    found: dict[str, list[Obj]] = {}
    for pod in pods:
        found.setdefault(namespace_of(pod), []).append(pod)
    return found


def pod_text(pod: Obj) -> tuple[str, str | None]:
    """A pod's state in a few words and the phase it reads as: its phase, readiness,
    restarts, and why a container waits or the scheduler cannot place it (R-EVD-9)."""
    pod_status = status(pod)
    phase = pod_status.get("phase") or "-"
    conditions = {c.get("type"): c for c in pod_status.get("conditions") or ()}
    words = [phase]
    ready = (conditions.get("Ready") or {}).get("status")
    if ready is not None:
        words.append("ready" if ready == "True" else "not ready")
    containers = [
        *pod_status.get("initContainerStatuses", ()),
        *pod_status.get("containerStatuses", ()),
    ]
    restarts = sum(c.get("restartCount", 0) for c in containers)
    if restarts:
        words.append(f"{restarts} restarts")
    waiting = [((c.get("state") or {}).get("waiting") or {}).get("reason") for c in containers]
    words += [w for w in dict.fromkeys(waiting) if w]
    scheduled = conditions.get("PodScheduled") or {}
    if scheduled.get("status") == "False":
        words.append(scheduled.get("reason") or "not scheduled")
    healthy = phase == "Running" and ready == "True"
    return ", ".join(words), "Succeeded" if healthy else "Pending"


def _absent(kind: str, unreadable: Collection[str]) -> str:
    """What an object the cache does not hold is: unknown either way, and said why (R-SRC-3:
    the user may not read the kind, or the input did not carry it)."""
    return "no access" if kind in unreadable else "not in the cache"


def _pod_nodes(
    namespace: str,
    name: str,
    deployment: Obj | None,
    pods: PodsByNamespace | None,
    findings: FindingsBySubject,
) -> list[XrayNode]:
    """The Deployment's pods (R-EVD-9), at most :data:`PODS_SHOWN`."""
    if pods is None:
        return []
    own = deployment_pods(name, deployment, pods.get(namespace, ()))
    nodes = []
    for pod in own[:PODS_SHOWN]:
        text, state = pod_text(pod)
        ref = ObjectRef(POD, namespace, name_of(pod))
        nodes.append(_node(findings, ref, f"Pod {name_of(pod)}: {text}", state))
    if len(own) > PODS_SHOWN:
        nodes.append(XrayNode(f"… and {len(own) - PODS_SHOWN} more pods"))
    return nodes


def _deployments(
    csv: Obj,
    namespace: str,
    get: Lookup,
    findings: FindingsBySubject,
    pods: PodsByNamespace | None = None,
    unreadable: Collection[str] = (),
) -> XrayNode:
    """The Deployments the CSV's install strategy names (R-CSV-I), with their replicas and,
    given ``pods``, their pods."""
    install = (spec(csv).get("install") or {}).get("spec") or {}
    nodes = []
    for deployment in install.get("deployments") or ():
        name = deployment.get("name") or ""
        obj = get(DEPLOYMENT, namespace, name)
        if obj is None:
            text, state = _absent(DEPLOYMENT, unreadable), None
        else:
            want = (obj.get("spec") or {}).get("replicas", 1)
            ready = status(obj).get("readyReplicas") or 0
            text = f"{ready}/{want} ready"
            state = "Succeeded" if ready >= want else "Pending"
        children = _pod_nodes(namespace, name, obj, pods, findings)
        if pods is not None and not children and state == "Pending":
            # a Deployment not ready whose pods were not read: unknown is not absent
            children = [
                XrayNode("pods: no access" if POD in unreadable else "pods not in the input")
            ]
        ref = ObjectRef(DEPLOYMENT, namespace, name)
        nodes.append(_node(findings, ref, f"Deployment {name}: {text}", state, children))
    return XrayNode(f"Deployments ({len(nodes)})", children=tuple(nodes))


def _crds(
    csv: Obj, role: str, get: Lookup, findings: FindingsBySubject, unreadable: Collection[str] = ()
) -> XrayNode:
    """The CRDs the CSV owns or requires (R-CSV-P); CRDs are cluster-scoped (R-DOC-1)."""
    listed = (spec(csv).get("customresourcedefinitions") or {}).get(role) or ()
    nodes = []
    for item in listed:
        name = item.get("name") or ""
        present = get(CRD, "", name) is not None
        text = "present" if present else _absent(CRD, unreadable)
        ref = ObjectRef(CRD, "", name)
        nodes.append(_node(findings, ref, f"CRD {name}: {text}", "Succeeded" if present else None))
    return XrayNode(f"CRDs {role} ({len(nodes)})", children=tuple(nodes))


def _copies_node(ref: ObjectRef, copies: CopyFacts) -> XrayNode:
    """One count node for every copy (R-COPY-1); a problem count makes it a warning only
    through the findings on the CSV, so the node itself claims no severity."""
    parts = [f"{len(copies.present)} copies"]
    if copies.missing:
        parts.append(f"{len(copies.missing)} missing")
    if copies.stale:
        parts.append(f"{len(copies.stale)} stale")
    return XrayNode(", ".join(parts), copies_of=ref)


def copy_nodes(
    source: ObjectRef, copies: CopyFacts, get: Lookup, cap: int = COPIES_SHOWN
) -> list[XrayNode]:
    """The children of a copies node, problems first: the missing (R-COPY-3), the stale
    (R-COPY-4), then at most ``cap`` present copies, each with the phase it carries
    (R-COPY-4), and a count of the rest."""
    out = [
        XrayNode(f"missing in {ns}", severity="warning", state="Missing")
        for ns in copies.missing[:cap]
    ]
    out += [
        XrayNode(
            f"stale in {s.namespace}: {s.reason}",
            ObjectRef(CSV, s.namespace, s.name),
            severity="warning",
        )
        for s in copies.stale[:cap]
    ]
    shown = copies.present[:cap]
    for ns in shown:
        phase = status(get(CSV, ns, source.name) or {}).get("phase") or None
        label = f"copy in {ns}: {phase or '-'}"
        out.append(XrayNode(label, ObjectRef(CSV, ns, source.name), state=phase))
    if len(copies.present) > len(shown):
        out.append(XrayNode(f"… and {len(copies.present) - len(shown)} more copies"))
    return out


def csv_node(
    csv: CSVState,
    get: Lookup,
    findings: FindingsBySubject,
    copies: CopyFacts,
    pods: PodsByNamespace | None = None,
    unreadable: Collection[str] = (),
) -> XrayNode:
    """A CSV with its phase, Deployments (and their pods, given ``pods``), CRDs and copies."""
    ref = ObjectRef(CSV, csv.namespace, csv.name)
    obj = get(CSV, csv.namespace, csv.name) or {}
    reason = f" ({csv.reason})" if csv.reason else ""
    children = [
        _deployments(obj, csv.namespace, get, findings, pods, unreadable),
        _crds(obj, "owned", get, findings, unreadable),
        _crds(obj, "required", get, findings, unreadable),
        _copies_node(ref, copies),
    ]
    label = f"CSV {csv.name}: {csv.phase or '-'}{reason}"
    return _node(findings, ref, label, csv.phase, children)


def _missing_csv(namespace: str, name: str) -> XrayNode:
    return XrayNode(f"CSV {name}: not in the cache", ObjectRef(CSV, namespace, name))


def subscription_tree(
    sub: SubscriptionState,
    csv: CSVState | None,
    get: Lookup,
    findings: FindingsBySubject,
    copies: CopyFacts,
    pods: PodsByNamespace | None = None,
    unreadable: Collection[str] = (),
) -> XrayNode:
    """Subscription -> its InstallPlan (R-SUB-3) -> its CSV (``installedCSV``, else
    ``currentCSV``, R-SUB-1) -> the CSV's parts. ``csv`` is that CSV's record, if cached."""
    csv_name = sub.installed_csv or sub.current_csv
    leaf: list[XrayNode] = []
    if csv is not None:
        leaf.append(csv_node(csv, get, findings, copies, pods, unreadable))
    elif csv_name:
        leaf.append(_missing_csv(sub.namespace, csv_name))
    below = leaf
    if sub.install_plan is not None:
        plan_name = sub.install_plan.name
        plan = get(INSTALL_PLAN, sub.namespace, plan_name)
        plan_ref = ObjectRef(INSTALL_PLAN, sub.namespace, plan_name)
        if plan is None:
            below = [XrayNode(f"InstallPlan {plan_name}: not in the cache", plan_ref), *leaf]
        else:
            phase = status(plan).get("phase") or None
            others = [
                XrayNode(f"also installs {n}", ObjectRef(CSV, sub.namespace, n))
                for n in spec(plan).get("clusterServiceVersionNames") or ()
                if n != csv_name
            ]
            label = f"InstallPlan {plan_name}: {phase or '-'}"
            below = [_node(findings, plan_ref, label, phase, [*leaf, *others])]
    ref = ObjectRef(SUBSCRIPTION, sub.namespace, sub.name)
    # the package only when the name does not already say it, so the codes after it fit
    package = "" if sub.package in sub.name else f" ({sub.package})"
    label = f"Subscription {sub.namespace}/{sub.name}{package}: {sub.state or '-'}"
    return _node(findings, ref, label, sub.state, below)


def operator_root(
    csv: CSVState,
    get: Lookup,
    findings: FindingsBySubject,
    copies: CopyFacts,
    pods: PodsByNamespace | None = None,
    unreadable: Collection[str] = (),
) -> XrayNode:
    """A CSV no Subscription installed (installed by hand, or its Subscription deleted):
    its own root, labelled with its namespace."""
    node = csv_node(csv, get, findings, copies, pods, unreadable)
    label = f"CSV {csv.namespace}/{csv.name}: {csv.phase or '-'} (no Subscription)"
    return XrayNode(label, node.ref, node.severity, node.state, node.codes, node.children)


def unsubscribed(subs: Sequence[SubscriptionState], csvs: Sequence[CSVState]) -> list[CSVState]:
    """The original CSVs no Subscription names as installed or current (R-SUB-1): each is
    an operator root of its own."""
    named = {(s.namespace, n) for s in subs for n in (s.installed_csv, s.current_csv) if n}
    return [c for c in csvs if (c.namespace, c.name) not in named]


def _revision_node(revision: Revision, findings: FindingsBySubject) -> XrayNode:
    """One revision (R-V1-24): number, lifecycle state and Progressing reason; its phases
    below, the one the conditions say it stands in marked, each with its objects."""
    number = f" #{revision.number}" if revision.number is not None else ""
    progressing = revision.condition("Progressing")
    reason = progressing.reason if progressing is not None and progressing.reason else None
    state = revision.lifecycle_state or ("Active" if revision.active else "-")
    label = f"{revision.kind} {revision.name}{number}: {state}" + (f", {reason}" if reason else "")
    current = revision.current_phase
    phases = [
        XrayNode(
            f"phase {p.name}" + (" (rolling out here)" if p.name == current else ""),
            children=tuple(XrayNode(o.label) for o in p.objects),
        )
        for p in revision.phases
    ]
    ref = ObjectRef(revision.kind, "", revision.name)
    healthy = reason == "Succeeded" or revision.lifecycle_state == "Archived"
    return _node(findings, ref, label, "Succeeded" if healthy else reason, phases)


def extension_tree(
    extension: ClusterExtension, revisions: ExtensionRevisions, findings: FindingsBySubject
) -> XrayNode:
    """ClusterExtension -> its revisions, newest first (R-V1-24)."""
    ref = ObjectRef(CLUSTER_EXTENSION, "", extension.name)
    label = f"ClusterExtension {extension.name} ({extension.package}): {extension.state.label}"
    if revisions.label:
        label += f", revisions {revisions.label}"
    children = [_revision_node(r, findings) for r in reversed(revisions.revisions)]
    return _node(findings, ref, label, extension.state.label, children)
