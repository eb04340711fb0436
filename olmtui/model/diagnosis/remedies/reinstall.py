"""Creating a Subscription again, and what must go first so that it resolves (R-DOC-14).

A new Subscription never adopts a CSV already installed: OLM counts a CSV as a
Subscription's only through ``status.installedCSV``. Any CSV of the same package left in the
namespace (the older CSV of a failed upgrade, a CSV the failed plan created) makes the
resolver fail with "clusterserviceversion X exists and is not referenced by a
subscription". So the plan deletes every CSV of the package before it creates the
Subscription again, and when one of them was the version that ran, names it as
``spec.startingCSV`` so that OLM installs that version again. Deleting a CSV leaves the
operator's custom resources and CRDs in place.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from olmtui.kinds import CSV, SUBSCRIPTION
from olmtui.model.diagnosis.remedies.context import RemedyContext
from olmtui.model.diagnosis.remedies.steps import create, delete, wait
from olmtui.model.records.diagnosis import Step
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.documented.leftovers import csv_package
from olmtui.objects import Obj, is_copied_csv, meta, spec, status

#: Phases of a CSV that ran (or still runs) the operator: the version to go back to.
_RAN = ("Succeeded", "Replacing", "Failed")


def package_csvs(context: RemedyContext, namespace: str, package: str) -> list[Obj]:
    """The namespace's own (not copied) CSVs of ``package``, by name."""
    if not package:
        return []
    return sorted(
        (
            c
            for c in context.list(CSV, namespace)
            if not is_copied_csv(c) and csv_package(c) == package
        ),
        key=lambda c: meta(c).get("name") or "",
    )


def is_manual_namespace(context: RemedyContext, namespace: str) -> bool:
    """R-SUB-4: one Manual Subscription makes every InstallPlan of the namespace Manual."""
    return any(
        spec(s).get("installPlanApproval") == "Manual"
        for s in context.list(SUBSCRIPTION, namespace)
    )


def subscription_body(sub: Obj, starting: str | None) -> dict[str, Any]:
    """The Subscription to create again: its name, namespace, labels and spec as observed
    (no status, no uid), with ``spec.startingCSV`` set to ``starting`` when given."""
    sub_meta = meta(sub)
    body_meta: dict[str, Any] = {
        "name": sub_meta.get("name"),
        "namespace": sub_meta.get("namespace"),
    }
    if sub_meta.get("labels"):
        body_meta["labels"] = dict(sub_meta["labels"])
    body_spec = dict(spec(sub))
    if starting:
        body_spec["startingCSV"] = starting
    return {
        "apiVersion": sub.get("apiVersion") or "operators.coreos.com/v1alpha1",
        "kind": SUBSCRIPTION,
        "metadata": body_meta,
        "spec": body_spec,
    }


def _replaced(context: RemedyContext, namespace: str, csvs: list[Obj]) -> list[Obj]:
    """The namespace's CSVs the ones of ``csvs`` replace, down the ``spec.replaces`` chain
    (R-UPG-1): of the same package whatever their labels say (a CSV OLM was replacing stays
    ``Replacing`` beside the failed one), each once."""
    seen = {meta(c).get("name") or "" for c in csvs}
    found: list[Obj] = []
    pending = list(csvs)
    while pending:
        older = spec(pending.pop()).get("replaces")
        if not isinstance(older, str) or older in seen:
            continue
        seen.add(older)
        csv = context.get(CSV, namespace, older)
        if csv is not None and not is_copied_csv(csv):
            found.append(csv)
            pending.append(csv)
    return found


def _ran_before(csvs: list[Obj], new: set[str], sub: Obj) -> str | None:
    """The version that ran before: the CSV of the package outside what the failed plan made,
    the Subscription's installed one first."""
    older = [c for c in csvs if (meta(c).get("name") or "") not in new]
    installed = status(sub).get("installedCSV") or ""
    for csv in sorted(
        older, key=lambda c: (meta(c).get("name") != installed, meta(c).get("name") or "")
    ):
        if status(csv).get("phase") in _RAN:
            return str(meta(csv).get("name") or "") or None
    return None


def reinstall(context: RemedyContext, sub: Obj, made: Iterable[str] = ()) -> list[Step]:
    """Delete Subscription ``sub`` and every CSV of its package in the namespace (``made``:
    the CSVs the failed plan created, deleted whatever their package says), then create
    the Subscription again (R-DOC-14)."""
    namespace = meta(sub).get("namespace") or ""
    name = meta(sub).get("name") or ""
    made = set(made)
    csvs = package_csvs(context, namespace, str(spec(sub).get("name") or ""))
    # the CSVs the Subscription itself names are of its package whatever their labels say
    named = [
        c
        for n in (status(sub).get("installedCSV"), status(sub).get("currentCSV"))
        if n and (c := context.get(CSV, namespace, str(n))) is not None and c not in csvs
    ]
    csvs += named
    csvs += _replaced(context, namespace, csvs)
    names = sorted(made | {meta(c).get("name") or "" for c in csvs} - {""})
    present = [n for n in names if context.get(CSV, namespace, n) is not None]
    starting = _ran_before(csvs, made, sub)
    steps = [
        delete(
            ObjectRef(SUBSCRIPTION, namespace, name),
            f"Delete Subscription {name} (the operator's custom resources stay).",
        )
    ]
    for csv in present:
        why = (
            "the failed plan created it"
            if csv in made
            else "a new Subscription never adopts a CSV already installed, and while it "
            f'stays the resolver fails: "clusterserviceversion {csv} exists and is not '
            'referenced by a subscription"'
        )
        steps.append(
            delete(
                ObjectRef(CSV, namespace, csv),
                f"Delete CSV {csv} too: {why} (R-DOC-14). Its custom resources and CRDs stay.",
            )
        )
    keep = (
        f", with spec.startingCSV: {starting} so that OLM installs the version that ran "
        "before (R-DOC-14)"
        if starting
        else ""
    )
    steps.append(
        create(
            ObjectRef(SUBSCRIPTION, namespace, name),
            subscription_body(sub, starting),
            f"Create Subscription {name} again with the same spec{keep}.",
        )
    )
    if is_manual_namespace(context, namespace):
        steps.append(
            wait(
                "The new InstallPlan waits for approval: a Subscription of this namespace is "
                "Manual (R-SUB-4). Review it and approve it."
            )
        )
    return steps
