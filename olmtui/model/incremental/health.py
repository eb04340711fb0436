"""The health findings from scratch, and the one merged list of every finding.

The engine keeps the group rules incrementally; the health rules (catalogs, Subscriptions,
InstallPlans, upgrades, multitenancy limits, dependencies, cluster upgrade readiness,
conversion webhooks, OLM v1, malformed objects) are declared once, per family, in
``olmtui.model.rules.health_rules``: :func:`health_findings` computes every family over all its
subjects, and ``olmtui.model.incremental.health_index`` keeps the same families per subject for the
screens. The ``check`` report and the screens both take their findings from
:func:`merged_findings`, so they always say the same thing; where a rule and the engine
report the same code on the same object, the engine's finding is kept.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from olmtui.kinds import (
    CSV,
    DEPLOYMENT,
    INSTALL_PLAN,
    OPERATOR_CONDITION,
    OPERATOR_GROUP,
    SERVICE,
    SUBSCRIPTION,
)
from olmtui.model.records.catalog import Catalog
from olmtui.model.records.types import SEVERITY_ORDER, Finding, SubscriptionState
from olmtui.model.rules.health_rules import FAMILIES
from olmtui.model.rules.input.access import no_access_findings, readable_findings
from olmtui.model.rules.input.partial import COMPLETE, PartialInput, complete_findings
from olmtui.model.rules.input.scope import scope_findings, scoped_findings
from olmtui.model.rules.rule_family import HealthInputs, scratch_findings
from olmtui.objects import Obj, meta
from olmtui.store import Store, Unreadable, is_copied_csv


def _by_namespace(objs: Iterable[Obj]) -> dict[str, list[Obj]]:
    """Objects grouped by namespace in one pass (``Store.list`` with a namespace scans the
    whole kind, once per namespace)."""
    by_ns: dict[str, list[Obj]] = {}
    for obj in objs:
        by_ns.setdefault(meta(obj).get("namespace") or "", []).append(obj)
    return by_ns


def _named_by_namespace(objs: Iterable[Obj]) -> dict[str, dict[str, Obj]]:
    """Objects by namespace and name."""
    return {
        ns: {meta(o).get("name") or "": o for o in held} for ns, held in _by_namespace(objs).items()
    }


def _csvs_by_namespace(store: Store) -> dict[str, dict[str, Obj]]:
    """Non-copied CSVs (R-COPY-1) by namespace and name: the installed ones."""
    by_ns: dict[str, dict[str, Obj]] = {}
    for csv in store.list(CSV):
        if not is_copied_csv(csv):
            csv_meta = meta(csv)
            by_ns.setdefault(csv_meta.get("namespace") or "", {})[csv_meta.get("name") or ""] = csv
    return by_ns


def services_by_namespace(services: Iterable[Obj]) -> dict[str, set[str]]:
    """Service names by namespace, for the namespaces whose Services are in the source: the
    conversion webhook rule (R-DOC-17) judges only those."""
    by_ns: dict[str, set[str]] = {}
    for service in services:
        service_meta = meta(service)
        by_ns.setdefault(service_meta.get("namespace") or "", set()).add(
            service_meta.get("name") or ""
        )
    return by_ns


def health_inputs(
    store: Store,
    catalogs: Sequence[Catalog] = (),
    subscriptions: Iterable[SubscriptionState] = (),
    *,
    now: dt.datetime | None = None,
) -> HealthInputs:
    """What the health rules read, gathered from the Store in one pass per kind."""
    states = list(subscriptions)
    return HealthInputs(
        store,
        subs=_named_by_namespace(store.list(SUBSCRIPTION)),
        plans=_named_by_namespace(store.list(INSTALL_PLAN)),
        installed=_csvs_by_namespace(store),
        deployments=_named_by_namespace(store.list(DEPLOYMENT)),
        conditions=_named_by_namespace(store.list(OPERATOR_CONDITION)),
        groups=Counter(meta(og).get("namespace") or "" for og in store.list(OPERATOR_GROUP)),
        services=services_by_namespace(store.list(SERVICE)),
        catalogs=catalogs,
        content=[c for c in catalogs if c.graph == "catalog"],
        now=now,
        subscription_states=lambda: states,
    )


def health_findings(
    store: Store,
    catalogs: Sequence[Catalog] = (),
    subscriptions: Iterable[SubscriptionState] = (),
    *,
    now: dt.datetime | None = None,
) -> list[Finding]:
    """Every health finding of the cached objects, computed from scratch (a report asked while
    a snapshot still loads; the same as ``health_index.HealthIndex.health_findings``):
    each family of ``olmtui.model.rules.health_rules.FAMILIES`` over all its subjects (the screens
    keep the same findings per subject in ``olmtui.model.incremental.health_index``).

    ``catalogs`` is the catalog content known (``--catalog`` and PackageManifests); its load
    problems are findings too. Upgrade rules need edges, so only catalog content (not
    PackageManifests) feeds them. ``subscriptions`` (the engine's records, with their next
    bundle) let the dependency rules look at what an upgrade would change. ``now`` is a live
    session's wall clock (CSV ages); snapshots have none.
    """
    inputs = health_inputs(store, catalogs, subscriptions, now=now)
    return scratch_findings(FAMILIES, inputs)


def finding_order(finding: Finding) -> tuple[Any, ...]:
    """The order findings are shown and reported in: worst first, then code, object and
    message (``Finding.sort_key``), then kind, rule and related objects, so that two
    findings equal in everything shown still have one order however they were gathered
    (the incremental list and a from-scratch one must agree). One flat tuple, the same
    order as ``(sort_key, kind, rule, related)``: a sort holds a key per finding at once."""
    return (
        SEVERITY_ORDER[finding.severity],
        finding.code,
        finding.namespace,
        finding.name,
        finding.message,
        finding.kind,
        finding.rule,
        tuple((r.kind, r.namespace, r.name) for r in finding.related),
    )


def _key(finding: Finding) -> tuple[str, str, str, str]:
    return (finding.code, finding.kind, finding.namespace, finding.name)


def without_model_duplicates(health: Iterable[Finding], model: Iterable[Finding]) -> list[Finding]:
    """The health findings the model has not already reported: when both speak of one code on
    one object, the model's wording stays (as on the screens). Only the health findings'
    keys are held: the model may have hundreds of thousands of findings."""
    health = list(health)
    if not health:
        return []
    asked = {_key(f) for f in health}
    known = {key for f in model if (key := _key(f)) in asked}
    return [f for f in health if _key(f) not in known]


def findings_read(
    findings: Iterable[Finding],
    unreadable: Mapping[str, Unreadable],
    read_namespaces: frozenset[str] | None,
) -> list[Finding]:
    """``findings`` without those resting on the absence of objects not read: of a kind
    olmtui may not read (``input/access.py``) or in a namespace outside the ones read
    (``input/scope.py``), as :func:`merged_findings` drops them."""
    return readable_findings(scoped_findings(findings, read_namespaces), unreadable)


def merged_findings(
    *groups: Iterable[Finding],
    model: Iterable[Finding] = (),
    health: Iterable[Finding] = (),
    unreadable: Mapping[str, Unreadable] | None = None,
    read_namespaces: frozenset[str] | None = None,
    partial: PartialInput = COMPLETE,
) -> list[Finding]:
    """Every finding once, worst first: ``groups`` (e.g. the loader's), the engine's, then
    the health rules' that the engine has not already reported. For each kind in
    ``unreadable`` (``Store.unreadable``), the findings resting on the absence of its
    objects are dropped and one warning says so instead (``olmtui.model.rules.input.access``); with
    ``read_namespaces`` (``Store.read_namespaces``), so are those resting on the absence of
    objects in namespaces not read, and one info says what was read
    (``olmtui.model.rules.input.scope``); with ``partial`` input (an archive cut short,
    unreadable documents), those resting on the absence of what it may have lost, and one
    warning says so (``olmtui.model.rules.input.partial``)."""
    model = list(model)
    merged = [f for group in groups for f in group]
    merged += model
    merged += without_model_duplicates(health, model)
    if unreadable:
        merged = readable_findings(merged, unreadable) + no_access_findings(unreadable)
    if read_namespaces is not None:
        merged = scoped_findings(merged, read_namespaces) + scope_findings(read_namespaces)
    merged = complete_findings(merged, partial)
    return sorted(merged, key=finding_order)
