"""OLM's own ClusterOperators (R-DOC-18).

On OpenShift, OLM reports its health through ClusterOperators: ``operator-lifecycle-manager``
(olm-operator), ``operator-lifecycle-manager-catalog`` (catalog-operator),
``operator-lifecycle-manager-packageserver`` and, for OLM v1, ``olm``. Their ``Degraded``,
``Progressing``, ``Available`` and ``Upgradeable`` conditions are the evidence; a finding
stands on one that is ``Degraded=True`` or ``Upgradeable=False``, related to the CSVs its
message names (``namespace/name``), through which R-DIAG-26 links it to their own findings.
``operator-lifecycle-manager``'s ``Upgradeable=False`` is R-DOC-16's finding
(``ClusterUpgradeBlocked``), which gains the same evidence here rather than a second finding.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from olmtui.kinds import CLUSTER_OPERATOR
from olmtui.model.records.types import FieldEvidence, Finding, Severity
from olmtui.model.rules.documented.cluster_upgrade import (
    OLM_CLUSTER_OPERATOR,
    cluster_operator_findings,
    named_csvs,
)
from olmtui.objects import Obj, name_of, status

#: The ClusterOperators OLM reports through.
OLM_CLUSTER_OPERATORS = frozenset(
    {
        OLM_CLUSTER_OPERATOR,
        "operator-lifecycle-manager-catalog",
        "operator-lifecycle-manager-packageserver",
        "olm",
    }
)
#: The conditions kept as evidence, in the order they are shown.
CONDITION_TYPES = ("Degraded", "Progressing", "Available", "Upgradeable")
DEGRADED = "OLMClusterOperatorDegraded"
NOT_UPGRADEABLE = "OLMClusterOperatorNotUpgradeable"


def _conditions(cluster_operator: Obj) -> dict[str, Obj]:
    return {
        str(c.get("type")): c
        for c in status(cluster_operator).get("conditions") or ()
        if isinstance(c, dict) and c.get("type") in CONDITION_TYPES
    }


def condition_evidence(cluster_operator: Obj) -> tuple[FieldEvidence, ...]:
    """The ClusterOperator's four conditions as evidence: ``status[: reason][: message]``."""
    conditions = _conditions(cluster_operator)
    out = []
    for kind in CONDITION_TYPES:
        cond = conditions.get(kind)
        if cond is None:
            continue
        said = [str(cond.get("status") or "?")]
        said += [str(cond[k]) for k in ("reason", "message") if cond.get(k)]
        out.append(
            FieldEvidence(
                CLUSTER_OPERATOR,
                "",
                name_of(cluster_operator),
                f"status.conditions[{kind}]",
                ": ".join(" ".join(s.split()) for s in said),
            )
        )
    return tuple(out)


def olm_cluster_operator_findings(cluster_operators: Iterable[Obj]) -> list[Finding]:
    """R-DOC-18: OLM's ClusterOperators that are Degraded, or not Upgradeable (other than
    ``operator-lifecycle-manager``'s, which R-DOC-16 reports)."""
    found: list[Finding] = []
    for co in cluster_operators:
        name = name_of(co)
        if name not in OLM_CLUSTER_OPERATORS:
            continue
        conditions = _conditions(co)
        evidence = condition_evidence(co)
        degraded = conditions.get("Degraded")
        upgradeable = conditions.get("Upgradeable")
        verdicts: list[tuple[Severity, str, Obj, str, str]] = []
        if degraded is not None and degraded.get("status") == "True":
            verdicts.append(
                (
                    "error",
                    DEGRADED,
                    degraded,
                    "Degraded",
                    "OLM cannot do part of its work until it recovers: read the message, the "
                    "objects it names and the log of the OLM pod behind this ClusterOperator.",
                )
            )
        if (
            name != OLM_CLUSTER_OPERATOR
            and upgradeable is not None
            and upgradeable.get("status") == "False"
        ):
            verdicts.append(
                (
                    "warning",
                    NOT_UPGRADEABLE,
                    upgradeable,
                    "Upgradeable=False",
                    "The cluster cannot move to the next OpenShift minor while it holds.",
                )
            )
        for severity, code, cond, said, advice in verdicts:
            reason = str(cond.get("reason") or "no reason")
            message = " ".join(str(cond.get("message") or "").split()) or "no message"
            # cluster-olm-operator's messages end with a period of their own
            ended = message if message.endswith((".", "!", "?")) else f"{message}."
            found.append(
                Finding(
                    severity,
                    code,
                    CLUSTER_OPERATOR,
                    "",
                    name,
                    f"OLM's ClusterOperator {name} reports {said} ({reason}): {ended} {advice}",
                    rule="R-DOC-18",
                    related=named_csvs(str(cond.get("message") or "")),
                    evidence=evidence,
                )
            )
    return found


def cluster_operator_health(cluster_operators: Iterable[Obj]) -> list[Finding]:
    """R-DOC-16's ``Upgradeable=False`` of ``operator-lifecycle-manager``, with its
    conditions as evidence, and R-DOC-18's findings on OLM's ClusterOperators."""
    operators = list(cluster_operators)
    by_name = {name_of(co): co for co in operators}
    blocked = [
        replace(f, evidence=condition_evidence(by_name[f.name])) if f.name in by_name else f
        for f in cluster_operator_findings(operators)
    ]
    return blocked + olm_cluster_operator_findings(operators)
