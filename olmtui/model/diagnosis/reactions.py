"""OLM's next reactions to a change, as olmtui models them: pure functions over plain objects.

A change a person makes (delete an InstallPlan, approve one, patch a Subscription, create
one) is followed by what OLM's controllers do next. This module says which of those olmtui
models, as further changes to apply (a Subscription's status, a new InstallPlan, the CSVs an
approved plan creates), the namespaces OLM resolves again (the pipeline runs the resolver,
``model/rules/resolution``), and in plain words what it did not model. What the group, API
and copy rules derive from the changed objects is not here: the incremental model
re-derives it from the changed state.

Modelled (rule ids of ``docs/rules.md``): the Subscription state machine when its
InstallPlan goes (R-SUB-2, R-SUB-6; fail-forward R-OG-9, R-UPG-8, R-RES-21), approval
(R-IP-2, R-IP-3: the plan's CSVs are created, their install is not modelled), a resolution's
result written back (R-SUB-3, R-SUB-4, R-SUB-5, R-SUB-7, R-RES-20), and a new, changed or
deleted Subscription (R-RES-1: its namespace is resolved again; R-DOC-14: a CSV a deleted
Subscription leaves stays), a deleted Namespace taking its objects along. Not modelled, and
named in ``missing`` when a change rests on it: an InstallPlan's steps running (whether the
new CSV succeeds), a CSV installing again after its spec changed, a CatalogSource's registry
pod, a Deployment's rollout (``spec.config``), catalogd, bundle unpacking. A ClusterExtension's
change is OLM v1's: ``v1_reactions.py`` models operator-controller's reconcile of it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from olmtui.kinds import (
    CATALOG_SOURCE,
    CLUSTER_CATALOG,
    CLUSTER_EXTENSION,
    CSV,
    DEPLOYMENT,
    INSTALL_PLAN,
    NAMESPACE,
    OPERATOR_GROUP,
    SUBSCRIPTION,
)
from olmtui.model.records.diagnosis import Change
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.operatorgroups.targets import FAIL_FORWARD, upgrade_strategy
from olmtui.model.rules.resolution.result import NamespaceResolution
from olmtui.model.rules.subscriptions.state import install_plan_name
from olmtui.store import CLUSTER_SCOPED, KINDS, key_of

Obj = dict[str, Any]
#: The InstallPlan conditions a Subscription carries, one at a time (R-SUB-5, R-SUB-6).
_PLAN_CONDITIONS = ("InstallPlanPending", "InstallPlanFailed", "InstallPlanMissing")


class StateReader(Protocol):
    """What the reactions read of the changed state (a ``Store`` is one)."""

    def get(self, kind: str, namespace: str, name: str) -> Obj | None: ...

    def list(self, kind: str, namespace: str | None = None) -> Iterator[Obj]: ...


@dataclass(slots=True)
class Reaction:
    """What OLM does next: ``changes`` to apply, ``resolve`` the namespaces it resolves
    again, ``lines`` what it does in words, ``missing`` what olmtui could not model."""

    changes: list[Change] = field(default_factory=list)
    resolve: set[str] = field(default_factory=set)
    lines: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    def add(self, other: Reaction) -> None:
        self.changes += other.changes
        self.resolve |= other.resolve
        self.lines += other.lines
        self.missing += other.missing


def _meta(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    value = obj.get("metadata")
    return value if isinstance(value, Mapping) else {}


def _status(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    value = obj.get("status")
    return value if isinstance(value, Mapping) else {}


def _spec(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    value = obj.get("spec")
    return value if isinstance(value, Mapping) else {}


def _name(obj: Mapping[str, Any]) -> str:
    return str(_meta(obj).get("name") or "")


def _ref(obj: Mapping[str, Any]) -> ObjectRef:
    return ObjectRef(str(obj.get("kind") or ""), str(_meta(obj).get("namespace") or ""), _name(obj))


def _with_status(obj: Mapping[str, Any], **fields: Any) -> Obj:
    """A copy of ``obj`` whose status has ``fields`` set (``None`` removes one)."""
    new_status = dict(_status(obj))
    for key, value in fields.items():
        if value is None:
            new_status.pop(key, None)
        else:
            new_status[key] = value
    return {**obj, "status": new_status}


def _conditions(obj: Mapping[str, Any], drop: Iterable[str], *add: Obj) -> list[Obj]:
    """The object's status conditions without the ``drop`` types, with ``add``."""
    dropped = set(drop) | {str(c.get("type")) for c in add}
    kept: list[Obj] = [
        dict(c)
        for c in _status(obj).get("conditions") or ()
        if isinstance(c, Mapping) and c.get("type") not in dropped
    ]
    return [*kept, *add]


def _condition(kind: str, reason: str, message: str | None = None) -> Obj:
    found: Obj = {"type": kind, "status": "True", "reason": reason}
    if message:
        found["message"] = message
    return found


def _replace(obj: Obj) -> Change:
    """The change that puts ``obj`` (a modified copy of a cached object) in place: a patch
    whose ``body`` is the whole new object."""
    return Change("patch", _ref(obj), body=obj)


def _fail_forward(state: StateReader, namespace: str) -> bool:
    """Whether the namespace's one OperatorGroup turns on fail-forward (R-OG-9)."""
    groups = list(state.list(OPERATOR_GROUP, namespace))
    return len(groups) == 1 and upgrade_strategy(groups[0]) == FAIL_FORWARD


def _subscriptions_of_plan(state: StateReader, namespace: str, plan: str) -> list[Obj]:
    return [
        sub
        for sub in state.list(SUBSCRIPTION, namespace)
        if install_plan_name(sub) == (namespace, plan)
    ]


# -- the changes a person makes ---------------------------------------------------------------


def plan_deleted(state: StateReader, namespace: str, plan: str, old: Obj | None) -> Reaction:
    """An InstallPlan is gone: each Subscription referencing it follows R-SUB-6. When its
    current CSV does not exist (``UpgradePending``; ``UpgradeFailed`` turns back into it as
    the failed plan is gone, R-SUB-2) OLM clears the reference and resolves again; when the
    CSV exists, OLM writes ``InstallPlanMissing``, and only fail-forward (R-RES-21) lets a
    resolution move on from a Failed CSV."""
    reaction = Reaction()
    for sub in _subscriptions_of_plan(state, namespace, plan):
        current = str(_status(sub).get("currentCSV") or "")
        sub_name = _name(sub)
        if not current or state.get(CSV, namespace, current) is None:
            new = _with_status(
                sub,
                installPlanRef=None,
                installplan=None,
                currentCSV=None,
                state="",
                conditions=_conditions(sub, _PLAN_CONDITIONS),
            )
            reaction.changes.append(_replace(new))
            reaction.resolve.add(namespace)
            reaction.lines.append(
                f"Subscription {namespace}/{sub_name} loses InstallPlan {plan} while its CSV "
                "is not installed: OLM clears the reference and resolves again (R-SUB-6)"
            )
            continue
        missing = _condition("InstallPlanMissing", "ReferencedInstallPlanNotFound")
        new = _with_status(
            sub,
            state="AtLatestKnown",
            installedCSV=current,
            conditions=_conditions(sub, _PLAN_CONDITIONS, missing),
        )
        reaction.changes.append(_replace(new))
        if _fail_forward(state, namespace):
            reaction.resolve.add(namespace)
            reaction.lines.append(
                f"Subscription {namespace}/{sub_name} reports InstallPlanMissing (R-SUB-6); "
                f"with fail-forward OLM resolves again from {current} (R-UPG-8, R-RES-21)"
            )
        else:
            reaction.lines.append(
                f"Subscription {namespace}/{sub_name} only reports InstallPlanMissing: its CSV "
                f"{current} exists, and without fail-forward no resolution moves on from it "
                "(R-SUB-6, R-OG-9, R-RES-21)"
            )
    if old is not None and not reaction.lines:
        reaction.lines.append(f"no Subscription references InstallPlan {namespace}/{plan}")
    return reaction


def _manifests(plan: Mapping[str, Any]) -> dict[str, Obj]:
    """The CSV manifests an InstallPlan's steps carry (``status.plan[].resource``), by name."""
    found: dict[str, Obj] = {}
    for step in _status(plan).get("plan") or ():
        resource = step.get("resource") if isinstance(step, Mapping) else None
        if not isinstance(resource, Mapping) or resource.get("kind") != CSV:
            continue
        manifest = resource.get("manifest")
        try:
            body = json.loads(manifest) if isinstance(manifest, str) else None
        except ValueError:
            body = None
        if isinstance(body, dict) and body.get("kind") == CSV:
            found[str(resource.get("name") or _name(body))] = body
    return found


def plan_approved(state: StateReader, namespace: str, plan: str, old: Obj | None) -> Reaction:
    """A plan waiting for approval moves on (R-IP-2): ``Installing``, and its CSVs are
    created (R-IP-3) from the manifests its steps carry; each Subscription whose current CSV
    then exists is ``AtLatestKnown`` (R-SUB-1, R-SUB-2). How the CSVs' install ends is not
    modelled."""
    reaction = Reaction()
    obj = state.get(INSTALL_PLAN, namespace, plan)
    if obj is None:
        return reaction
    phase = str(_status(obj).get("phase") or "")
    if old is not None and _spec(old).get("approved") is True:
        reaction.lines.append(f"InstallPlan {namespace}/{plan} was approved already")
        return reaction
    if phase != "RequiresApproval":
        reaction.lines.append(
            f"InstallPlan {namespace}/{plan} is {phase or 'without a phase'}, not waiting for "
            "approval: approving it changes nothing OLM does (R-IP-2)"
        )
        return reaction
    reaction.changes.append(_replace(_with_status(obj, phase="Installing")))
    names = [str(n) for n in _spec(obj).get("clusterServiceVersionNames") or () if n]
    manifests = _manifests(obj)
    created = []
    for name in names:
        if state.get(CSV, namespace, name) is not None:
            continue
        body = manifests.get(name)
        if body is None:
            reaction.missing.append(
                f"the manifest of CSV {name} (InstallPlan {namespace}/{plan} has no step "
                "carrying it)"
            )
            continue
        meta = {**_meta(body), "name": name, "namespace": namespace}
        csv = {k: v for k, v in body.items() if k != "status"}
        csv["metadata"] = meta
        reaction.changes.append(Change("create", ObjectRef(CSV, namespace, name), body=csv))
        created.append(name)
    for sub in _subscriptions_of_plan(state, namespace, plan):
        current = str(_status(sub).get("currentCSV") or "")
        if current in created:
            pending = _condition("InstallPlanPending", "Installing")
            new = _with_status(
                sub,
                state="AtLatestKnown",
                installedCSV=current,
                conditions=_conditions(sub, _PLAN_CONDITIONS, pending),
            )
            reaction.changes.append(_replace(new))
    reaction.lines.append(
        f"InstallPlan {namespace}/{plan} is approved and installs"
        + (f" {', '.join(created)}" if created else "")
        + " (R-IP-2, R-IP-3); whether the install succeeds is not modelled"
    )
    return reaction


def subscription_changed(
    state: StateReader, namespace: str, name: str, old: Obj | None, new: Obj | None
) -> Reaction:
    """A Subscription created, deleted or its spec changed: OLM resolves its namespace again
    when a Subscription remains there (R-RES-1); a deleted Subscription leaves its CSV
    running (R-DOC-14)."""
    reaction = Reaction()
    if new is None and old is not None:
        installed = str(_status(old).get("installedCSV") or "")
        if installed and state.get(CSV, namespace, installed) is not None:
            reaction.lines.append(
                f"Subscription {namespace}/{name} is deleted; its CSV {installed} stays, "
                "referenced by no Subscription (R-DOC-14)"
            )
        else:
            reaction.lines.append(f"Subscription {namespace}/{name} is deleted")
    # its status as OLM's own reactions write it leaves what the resolver reads alone
    asked = old is None or new is None or _spec(old) != _spec(new)
    if asked and any(True for _ in state.list(SUBSCRIPTION, namespace)):
        reaction.resolve.add(namespace)
    return reaction


def namespace_deleted(state: StateReader, namespace: str) -> Reaction:
    """A Namespace deleted takes every object in it along (Kubernetes' namespace
    finalizer): its Subscriptions, CSVs, InstallPlans, groups and catalogs go too."""
    reaction = Reaction()
    for kind in KINDS:
        if kind in CLUSTER_SCOPED:
            continue
        for obj in state.list(kind, namespace):
            key = key_of(obj)  # a PackageManifest's name is CATALOG/PACKAGE there
            reaction.changes.append(Change("delete", ObjectRef(key.kind, key.namespace, key.name)))
    if reaction.changes:
        reaction.lines.append(
            f"deleting Namespace {namespace} deletes the {len(reaction.changes)} objects in it"
        )
    return reaction


def react(
    state: StateReader, change: Change, old: Obj | None, new: Obj | None, *, made: bool = True
) -> Reaction:
    """OLM's next reactions to one applied change (``old`` and ``new``: the target before
    and after); other kinds need none beyond what the model re-derives. ``made``: a person
    made the change (not OLM in a reaction), so what olmtui does not model after it is
    named in ``missing``."""
    target = change.target
    if target.kind == NAMESPACE and change.action == "delete":
        return namespace_deleted(state, target.name)
    if target.kind == INSTALL_PLAN and change.action == "delete":
        return plan_deleted(state, target.namespace, target.name, old)
    if target.kind == INSTALL_PLAN and (
        change.action == "approve"
        or (
            new is not None
            and _spec(new).get("approved") is True
            and old is not None
            and _spec(old).get("approved") is not True
        )
    ):
        return plan_approved(state, target.namespace, target.name, old)
    if target.kind == SUBSCRIPTION:
        reaction = subscription_changed(state, target.namespace, target.name, old, new)
    else:
        reaction = Reaction()
    unmodelled = _not_modelled(change, old, new) if made else None
    if unmodelled:
        reaction.missing.append(unmodelled)
    return reaction


def _changed_spec(change: Change, old: Obj | None, new: Obj | None) -> bool:
    """Whether the change created an object or moved its ``spec`` (or a field under it)."""
    if old is None:
        return new is not None
    if new is None:
        return False
    return old.get("spec") != new.get("spec")


def _not_modelled(change: Change, old: Obj | None, new: Obj | None) -> str | None:
    """What OLM (or Kubernetes) does next that olmtui does not model, in words, for a change
    whose effect rests on it; ``None`` when the model covers what follows."""
    target = change.target
    what = f"{target.kind} {target.namespace + '/' if target.namespace else ''}{target.name}"
    if not _changed_spec(change, old, new):
        return None
    if target.kind == CATALOG_SOURCE:
        return f"the state of {what} once OLM rolls its registry pod (R-SUB-8)"
    if target.kind == CSV:
        return f"how {what} installs again after its spec changed (R-CSV-*)"
    moved_config = old is not None and _spec(old).get("config") != _spec(new or {}).get("config")
    if target.kind == SUBSCRIPTION and moved_config:
        return f"the operator's Deployment rolled out with the new spec.config of {what}"
    if target.kind in (CLUSTER_EXTENSION, CLUSTER_CATALOG):
        # a ClusterExtension's reconcile is modelled with the catalog content, where the
        # simulation holds it (``v1_reactions``); a ClusterCatalog's (catalogd's) never
        return f"OLM v1's reconcile of {what} (R-V1-*)"
    if target.kind == DEPLOYMENT:
        return f"the rollout of {what}"
    return None


# -- what a resolution writes back ----------------------------------------------------------------


def plan_name(namespace: str, bundles: Iterable[str]) -> str:
    """A stable name for the InstallPlan a simulated resolution makes (OLM's are random)."""
    digest = hashlib.sha1("\n".join([namespace, *sorted(bundles)]).encode()).hexdigest()
    return f"install-whatif-{digest[:5]}"


def _manual(state: StateReader, namespace: str) -> bool:
    """R-SUB-4: one Manual Subscription makes the namespace's plans Manual."""
    return any(
        _spec(s).get("installPlanApproval") == "Manual" for s in state.list(SUBSCRIPTION, namespace)
    )


def resolved(state: StateReader, resolution: NamespaceResolution) -> Reaction:
    """What OLM writes after resolving a namespace (R-SUB-3, R-SUB-4, R-SUB-5, R-SUB-7,
    R-RES-20): a failure on every Subscription; a solution that changes bundles as one new
    InstallPlan, each Subscription moving to its bundle (``UpgradePending``)."""
    reaction = Reaction()
    namespace = resolution.namespace
    subs = list(state.list(SUBSCRIPTION, namespace))
    if resolution.status == "not-evaluated":
        reaction.missing.append(
            f"the resolution of {namespace}: {resolution.reason or 'an input is missing'}"
        )
        return reaction
    if resolution.status in ("unsatisfiable", "failed"):
        reason = (
            "ConstraintsNotSatisfiable"
            if resolution.status == "unsatisfiable"
            else "ErrorPreventedResolution"
        )
        why = resolution.reason or "; ".join(c.constraint for c in resolution.explanation)
        failed = _condition("ResolutionFailed", reason, why or None)
        for sub in subs:
            new = _with_status(sub, conditions=_conditions(sub, (), failed))
            reaction.changes.append(_replace(new))
        reaction.lines.append(f"the resolution of {namespace} fails: {why or reason} (R-SUB-7)")
        return reaction
    changes = set(resolution.changes)
    moved: dict[str, str] = {}
    for operator in resolution.operators:
        if operator.name in changes and operator.reason.startswith("Subscription "):
            moved[operator.reason.removeprefix("Subscription ").partition("/")[2]] = operator.name
    if not changes:
        reaction.lines.append(f"the resolution of {namespace} changes nothing")
        return reaction
    plan = plan_name(namespace, changes)
    manual = _manual(state, namespace)
    phase = "RequiresApproval" if manual else "Installing"
    plan_obj: Obj = {
        "apiVersion": "operators.coreos.com/v1alpha1",
        "kind": INSTALL_PLAN,
        "metadata": {"name": plan, "namespace": namespace},
        "spec": {
            "approval": "Manual" if manual else "Automatic",
            "approved": not manual,
            "clusterServiceVersionNames": sorted(changes),
        },
        "status": {"phase": phase},
    }
    reaction.changes.append(
        Change("create", ObjectRef(INSTALL_PLAN, namespace, plan), body=plan_obj)
    )
    reference = {
        "apiVersion": plan_obj["apiVersion"],
        "kind": INSTALL_PLAN,
        "name": plan,
        "namespace": namespace,
    }
    pending = _condition("InstallPlanPending", phase)
    for sub in subs:
        bundle = moved.get(_name(sub))
        if bundle is None:
            continue
        new = _with_status(
            sub,
            currentCSV=bundle,
            state="UpgradePending",
            installPlanRef=reference,
            installplan={"apiVersion": plan_obj["apiVersion"], "kind": INSTALL_PLAN, "name": plan},
            conditions=_conditions(sub, ("ResolutionFailed", *_PLAN_CONDITIONS), pending),
        )
        reaction.changes.append(_replace(new))
    targets = ", ".join(f"{namespace}/{s} to {b}" for s, b in sorted(moved.items()))
    extra = sorted(changes - set(moved.values()))
    reaction.lines.append(
        f"OLM resolves {targets or namespace}"
        + (f" (with {', '.join(extra)})" if extra else "")
        + f" and makes InstallPlan {plan}, "
        + ("waiting for approval (R-SUB-4)" if manual else "installing (R-SUB-3)")
    )
    return reaction
