"""The report's context: the ``source`` block's when/which/how-complete fields, what each
CatalogSource is (``catalogSources[]``) and each InstallPlan's state (``installPlans[]``).

A field the input does not fill is ``null`` (or ``[]``), never guessed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from olmtui.model.records.source_context import SourceContext
from olmtui.model.rules.installplans.summaries import summarize_install_plan
from olmtui.model.viewmodels.catalog_identity import CatalogIdentity
from olmtui.objects import Obj


def rfc3339(moment: dt.datetime | None) -> str | None:
    """A time as Kubernetes writes one (``2026-05-02T14:03:00Z``), or ``None``."""
    if moment is None:
        return None
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def context_fields(context: SourceContext | None) -> dict[str, Any]:
    """The ``source`` fields of the context; all ``null`` (and complete) without one."""
    context = context or SourceContext()
    return {
        "gatheredAt": rfc3339(context.gathered_at),
        "newestObjectTime": rfc3339(context.newest_object_time),
        "openshiftVersion": context.openshift_version,
        "olmVersion": context.olm_version,
        "complete": context.complete,
        "incompleteBecause": list(context.incomplete_because),
    }


def catalog_source_json(catalog: CatalogIdentity) -> dict[str, Any]:
    """One ``catalogSources[]`` entry."""
    return {
        "namespace": catalog.namespace,
        "name": catalog.name,
        "sourceType": catalog.source_type,
        "kind": catalog.kind,
        "image": catalog.image,
        "address": catalog.address,
        "configMap": catalog.configmap,
        "priority": catalog.priority,
        "publisher": catalog.publisher,
        "pollingInterval": catalog.polling,
        "state": catalog.state,
        "testCatalog": catalog.test_catalog,
        "pods": [
            {
                "name": p.name,
                "phase": p.phase,
                "ready": p.ready,
                "restarts": p.restarts,
                "waiting": p.waiting,
            }
            for p in catalog.pods
        ],
    }


def install_plan_json(plan: Obj) -> dict[str, Any]:
    """One ``installPlans[]`` entry: what the plan is for, where it stands (R-IP-1..4)."""
    summary = summarize_install_plan(plan)
    steps = [s for s in (plan.get("status") or {}).get("plan") or () if isinstance(s, dict)]
    created = sum(1 for s in steps if s.get("status") in ("Created", "Present"))
    failed = len(summary.failed_steps)
    return {
        "namespace": summary.namespace,
        "name": summary.name,
        "phase": summary.phase,
        "approval": summary.approval,
        "approved": summary.approved,
        "csvNames": sorted(summary.csv_names),
        "subscriptions": sorted(summary.owners),
        "steps": {
            "total": len(steps),
            "created": created,
            "failed": failed,
            "unknown": len(steps) - created - failed,
        },
        "bundleLookups": [
            {
                "identifier": b.identifier,
                "path": b.path,
                "catalog": b.catalog,
                "replaces": b.replaces,
                "conditions": {c.type: c.status for c in b.conditions},
            }
            for b in summary.bundle_lookups
        ],
        "message": summary.message,
    }


def install_plans_json(plans: Iterable[Obj]) -> list[dict[str, Any]]:
    """``installPlans[]``, sorted by namespace and name."""
    return sorted((install_plan_json(p) for p in plans), key=lambda p: (p["namespace"], p["name"]))
