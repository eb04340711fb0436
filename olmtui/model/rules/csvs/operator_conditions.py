"""An upgrade the operator itself holds: its OperatorCondition says ``Upgradeable=False``
(R-CSV-P step 1).

OLM keeps the new CSV ``Pending``/``OperatorConditionNotUpgradeable`` while the OperatorCondition
of the CSV it replaces (same name as that CSV, in its namespace) is not upgradeable: an
``Upgradeable`` entry in ``spec.overrides`` that is not True wins; else an ``Upgradeable``
entry in ``status.conditions`` that is False or older than the object's generation. This
module finds each held upgrade of one namespace and says it on the new CSV, the old one and
the Subscription, with the condition's reason and message.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from olmtui.kinds import CSV, OPERATOR_CONDITION, SUBSCRIPTION
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.objects import Obj, meta, spec, status

HELD_REASON = "OperatorConditionNotUpgradeable"


class Held(NamedTuple):
    """One held upgrade: ``new`` replaces ``old`` and waits."""

    new: str
    old: str
    reason: str
    message: str
    source: str


def _upgradeable(entries: Iterable[Any]) -> Mapping[str, Any] | None:
    return next((c for c in entries or () if (c or {}).get("type") == "Upgradeable"), None)


def not_upgradeable(condition: Obj | None) -> tuple[str, str, str] | None:
    """R-CSV-P 1: (reason, message, where it was read) when the OperatorCondition holds
    upgrades; ``None`` when it does not or is absent (no OperatorCondition: upgradeable)."""
    if condition is None:
        return None
    override = _upgradeable(spec(condition).get("overrides") or ())
    if override is not None:
        if override.get("status") == "True":
            return None
        return (override.get("reason") or "", override.get("message") or "", "spec.overrides")
    cond = _upgradeable(status(condition).get("conditions") or ())
    if cond is None:
        return None
    generation = meta(condition).get("generation")
    observed = cond.get("observedGeneration")
    stale = generation is not None and observed is not None and observed < generation
    if cond.get("status") == "False" or stale:
        where = "status.conditions" + (" (not yet observed for this generation)" if stale else "")
        return (cond.get("reason") or "", cond.get("message") or "", where)
    return None


def held_upgrades(csvs: Mapping[str, Obj], conditions: Mapping[str, Obj]) -> list[Held]:
    """Each CSV of ``csvs`` (one namespace, non-copied) that replaces an existing CSV whose
    OperatorCondition (``conditions``, by name) holds it, or that OLM already reports held."""
    held = []
    for name in sorted(csvs):
        old = spec(csvs[name]).get("replaces") or ""
        if status(csvs[name]).get("phase") not in (None, "", "Pending"):
            continue  # R-CSV-P 1 holds a Pending CSV only
        if not old or old == name or old not in csvs:
            continue  # R-CSV-R2: it replaces no existing CSV
        said = not_upgradeable(conditions.get(old))
        csv_status = status(csvs[name])
        if said is not None:
            held.append(Held(name, old, *said))
        elif csv_status.get("reason") == HELD_REASON:
            message = csv_status.get("message") or ""
            held.append(Held(name, old, "", message, f"CSV {name}'s status"))
    return held


def _said(h: Held) -> str:
    why = h.reason or "no reason"
    return f"{why}{': ' + h.message.rstrip('.') if h.message else ''}"


def held_findings(namespace: str, held: Iterable[Held], subs: Iterable[Obj]) -> list[Finding]:
    """R-CSV-P 1: a warning on the new CSV, the old one and each Subscription at either."""
    found = []
    subs = list(subs)
    for h in held:
        text = (
            f"The upgrade from {h.old} to {h.new} is held by the operator: the OperatorCondition "
            f"{h.old} says Upgradeable=False ({_said(h)}; read from {h.source}). OLM keeps "
            f"{h.new} Pending/{HELD_REASON} and {h.old} stays installed until the operator "
            "reports Upgradeable=True (R-CSV-P). Do what the message asks, or, only if you "
            "know the upgrade is safe, override it in the OperatorCondition's spec.overrides."
        )
        refs = (ObjectRef(OPERATOR_CONDITION, namespace, h.old),)
        found.append(
            Finding(
                "warning",
                "UpgradeHeld",
                CSV,
                namespace,
                h.new,
                text,
                "R-CSV-P",
                (ObjectRef(CSV, namespace, h.old), *refs),
            )
        )
        found.append(
            Finding(
                "info",
                "UpgradeHeld",
                CSV,
                namespace,
                h.old,
                text,
                "R-CSV-P",
                (ObjectRef(CSV, namespace, h.new), *refs),
            )
        )
        for sub in subs:
            sub_status = status(sub)
            if h.new in (sub_status.get("currentCSV"), sub_status.get("installedCSV")) or (
                sub_status.get("installedCSV") == h.old
            ):
                found.append(
                    Finding(
                        "warning",
                        "UpgradeHeld",
                        SUBSCRIPTION,
                        namespace,
                        meta(sub).get("name") or "",
                        text,
                        "R-CSV-P",
                        (ObjectRef(CSV, namespace, h.new), *refs),
                    )
                )
    return found
