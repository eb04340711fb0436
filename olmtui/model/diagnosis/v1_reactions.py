"""OLM v1's next reactions to a changed ClusterExtension, as olmtui models them: pure
functions over plain objects and the catalog content given.

operator-controller reconciles a ClusterExtension whose spec changed: it resolves it from the
ClusterCatalogs' content (R-V1-8..R-V1-19), installs the bundle picked (``status.install``,
R-V1-3) and resolves again, one direct successor per resolution (R-V1-15), until the pick is
what is installed; a resolution error is written to ``Progressing=True/Retrying`` (R-V1-5).
cluster-olm-operator then reads the installed bundles' caps again and writes its verdict on the
``olm`` ClusterOperator (R-CUP-2): the extensions whose cap still holds the next minor, or
``Upgradeable=True`` once none does. Not modelled, and named in ``missing`` when a change rests
on it: a resolution olmtui cannot compute (a ClusterCatalog without content given), the rollout
of the new bundle's objects (revisions, probes), and cluster-olm-operator's word while it
cannot read an extension's properties.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from olmtui.kinds import CLUSTER_CATALOG, CLUSTER_EXTENSION, CLUSTER_OPERATOR, CLUSTER_VERSION
from olmtui.model.diagnosis.reactions import Reaction, StateReader
from olmtui.model.records.catalog import Catalog
from olmtui.model.records.diagnosis import Change
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.cluster_readiness.extension_caps import extension_caps
from olmtui.model.rules.cluster_readiness.extension_way_out import upgrades, with_installed
from olmtui.model.rules.cluster_readiness.olm_condition import (
    CONDITION_TYPE,
    INCOMPATIBLE,
    OLM_V1_CLUSTER_OPERATOR,
    installed_operators_upgradeable,
)
from olmtui.model.rules.documented.cluster_upgrade import (
    blocks_next_minor,
    cluster_version,
    next_minor,
    shown_minor,
)
from olmtui.model.rules.v1.resolve import V1Resolution, content_by_catalog
from olmtui.objects import Obj, name_of, spec, status

_PREFIX = "InstalledOLMOperators_"


def _install(obj: Obj | None) -> Any:
    return status(obj).get("install") if obj is not None else None


def extension_changed(
    state: StateReader,
    change: Change,
    old: Obj | None,
    new: Obj | None,
    catalogs: Sequence[Catalog],
) -> Reaction:
    """What follows a change of one ClusterExtension: a new or changed spec is reconciled
    (:func:`extension_reconciled`); a bundle installed or removed moves cluster-olm-operator's
    verdict (:func:`olm_verdict`)."""
    if new is not None and (old is None or spec(old) != spec(new)):
        return extension_reconciled(state, new, catalogs)
    if _install(old) != _install(new):
        return olm_verdict(state, catalogs)
    return Reaction()


def _condition(kind: str, status_: str, reason: str, message: str) -> Obj:
    return {"type": kind, "status": status_, "reason": reason, "message": message}


def _with_conditions(obj: Obj, *conditions: Obj) -> Obj:
    """``obj`` whose status conditions of those types are ``conditions`` (others kept)."""
    types = {c["type"] for c in conditions}
    kept = [
        c
        for c in status(obj).get("conditions") or ()
        if isinstance(c, Mapping) and c.get("type") not in types
    ]
    return {**obj, "status": {**status(obj), "conditions": [*kept, *conditions]}}


def _route(moves: Sequence[V1Resolution]) -> str:
    if len(moves) == 1:
        return f"{moves[0].bundle} ({moves[0].via})"
    return ", then ".join(str(m.bundle) for m in moves)


def extension_reconciled(
    state: StateReader, extension: Obj, catalogs: Sequence[Catalog]
) -> Reaction:
    """operator-controller's reconciles of ``extension`` (its new spec) until it settles."""
    reaction = Reaction()
    name = name_of(extension)
    cluster_catalogs = list(state.list(CLUSTER_CATALOG))
    moves, last = upgrades(
        extension, cluster_catalogs, content_by_catalog(catalogs, cluster_catalogs)
    )
    if last.unknown is not None:
        reaction.missing.append(f"OLM v1's reconcile of ClusterExtension {name}: {last.unknown}")
        return reaction
    new = with_installed(extension, moves[-1]) if moves else extension
    if last.error is not None:
        retrying = _condition("Progressing", "True", "Retrying", last.error)
        reaction.changes.append(
            Change(
                "patch",
                ObjectRef(CLUSTER_EXTENSION, "", name),
                body=_with_conditions(new, retrying),
            )
        )
        reaction.lines.append(
            f"operator-controller cannot resolve ClusterExtension {name}"
            + (f" past {moves[-1].bundle}" if moves else "")
            + f": {last.error} (Progressing=True/Retrying, R-V1-5, R-V1-18)"
        )
        return reaction
    if not moves:
        reaction.lines.append(
            f"operator-controller resolves ClusterExtension {name} to the bundle installed: "
            "nothing changes (R-V1-15)"
        )
        return reaction
    bundle = moves[-1].bundle
    settled = _with_conditions(
        new,
        _condition("Installed", "True", "Succeeded", f"Installed bundle {bundle} successfully"),
        _condition("Progressing", "True", "Succeeded", "Desired state reached"),
    )
    reaction.changes.append(Change("patch", ObjectRef(CLUSTER_EXTENSION, "", name), body=settled))
    reaction.lines.append(
        f"operator-controller resolves ClusterExtension {name} and installs {_route(moves)} "
        "(R-V1-15); the rollout of its objects is not modelled"
    )
    return reaction


def _blocking_message(blocking: Sequence[tuple[str, str]], target: str) -> str:
    """cluster-olm-operator's words for the extensions that hold ``target`` (R-CUP-2)."""
    named = ", ".join(f'bundle "{b}" for ClusterExtension "{e}"' for e, b in blocking)
    return (
        "Found ClusterExtensions that require upgrades prior to upgrading cluster to version "
        f"{target}: {named}."
    )


def olm_verdict(state: StateReader, catalogs: Sequence[Catalog]) -> Reaction:
    """cluster-olm-operator's ``InstalledOLMOperatorsUpgradeable`` written again on the ``olm``
    ClusterOperator from the installed extensions' caps (R-CUP-2, R-CUP-3): an extension whose
    bundle is in no content given keeps the cluster's word on it."""
    reaction = Reaction()
    operator = state.get(CLUSTER_OPERATOR, "", OLM_V1_CLUSTER_OPERATOR)
    verdict = installed_operators_upgradeable([operator]) if operator is not None else None
    current = cluster_version(state.list(CLUSTER_VERSION))
    if operator is None or verdict is None or current is None:
        return reaction  # nothing the cluster said to move, or no minor to judge against
    cluster_catalogs = list(state.list(CLUSTER_CATALOG))
    blocking: list[tuple[str, str]] = []
    failing: list[str] = []
    for cap in extension_caps(state.list(CLUSTER_EXTENSION), cluster_catalogs, catalogs):
        if cap.catalog is None:
            if cap.extension in verdict.blocking:
                blocking.append((cap.extension, cap.bundle))
            elif cap.extension in verdict.failing:
                failing.append(cap.extension)
        elif cap.invalid is not None:
            failing.append(cap.extension)
        elif cap.maximum is not None and blocks_next_minor(cap.maximum, current):
            blocking.append((cap.extension, cap.bundle))
    if [e for e, _ in blocking] == list(verdict.blocking) and failing == list(verdict.failing):
        return reaction
    if failing:
        reaction.missing.append(
            f"cluster-olm-operator's verdict on the {OLM_V1_CLUSTER_OPERATOR} ClusterOperator "
            f"while it cannot read the properties of {', '.join(failing)} (R-CUP-4)"
        )
        return reaction
    target = shown_minor(next_minor(current))
    ours = _blocking_message(blocking, target) if blocking else ""
    new = _rewritten(operator, ours)
    reaction.changes.append(
        Change("patch", ObjectRef(CLUSTER_OPERATOR, "", OLM_V1_CLUSTER_OPERATOR), body=new)
    )
    reaction.lines.append(
        f"cluster-olm-operator writes the {OLM_V1_CLUSTER_OPERATOR} ClusterOperator's "
        + (
            f"Upgradeable=False for {', '.join(e for e, _ in blocking)}"
            if blocking
            else f"{CONDITION_TYPE}=True: no installed extension holds {target}"
        )
        + " (R-CUP-2)"
    )
    return reaction


def _rewritten(operator: Obj, ours: str) -> Obj:
    """The ``olm`` ClusterOperator with cluster-olm-operator's part of ``Upgradeable`` (and its
    own ``InstalledOLMOperatorsUpgradeable``, where the source shows it) set to ``ours``
    (``""``: nothing holds); the other ``*Upgradeable`` parts of the union stay."""
    conditions: list[Obj] = []
    for cond in status(operator).get("conditions") or ():
        if not isinstance(cond, Mapping):
            continue
        if cond.get("type") == CONDITION_TYPE:
            conditions.append(
                _condition(CONDITION_TYPE, "False", INCOMPATIBLE, ours)
                if ours
                else _condition(CONDITION_TYPE, "True", "AsExpected", "")
            )
            continue
        if cond.get("type") != "Upgradeable":
            conditions.append(dict(cond))
            continue
        reasons = [
            r for r in str(cond.get("reason") or "").split("::") if r and not r.startswith(_PREFIX)
        ]
        lines = [
            line
            for line in str(cond.get("message") or "").split("\n")
            if line and not line.startswith(f"{CONDITION_TYPE}: ")
        ]
        if ours:
            reasons.insert(0, _PREFIX + INCOMPATIBLE)
            lines.insert(0, f"{CONDITION_TYPE}: {ours}")
        if reasons:
            conditions.append(
                {**cond, **_condition("Upgradeable", "False", "::".join(reasons), "\n".join(lines))}
            )
        else:
            conditions.append(
                {**cond, **_condition("Upgradeable", "True", "AsExpected", "All is well")}
            )
    return {**operator, "status": {**status(operator), "conditions": conditions}}
