"""The ``olm`` ClusterOperator's word on OLM v1's installed operators (R-CUP-2).

cluster-olm-operator sets ``InstalledOLMOperatorsUpgradeable`` on its operator status from the
installed ClusterExtensions' bundle properties; the ClusterOperator's ``Upgradeable`` is the
union of the status's ``*Upgradeable`` conditions (library-go), so a False one reads
``reason: InstalledOLMOperators_IncompatibleOperatorsInstalled`` and
``message: InstalledOLMOperatorsUpgradeable: Found ClusterExtensions that require upgrades
prior to upgrading cluster to version 4.19: bundle "b" for ClusterExtension "e".``; with
``FailureGettingExtensionMetadata`` the message names ``cluster extension NAME`` instead.
A condition typed ``InstalledOLMOperatorsUpgradeable`` itself is read as well.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from olmtui.frozen import frozen
from olmtui.objects import Obj, name_of, status

OLM_V1_CLUSTER_OPERATOR = "olm"
CONDITION_TYPE = "InstalledOLMOperatorsUpgradeable"
_PREFIX = "InstalledOLMOperators_"
INCOMPATIBLE = "IncompatibleOperatorsInstalled"
FAILURE = "FailureGettingExtensionMetadata"
#: cluster-olm-operator's words for a blocking extension, and for one it could not read.
NAMED_BLOCKING = re.compile(r'for ClusterExtension \\?"([^"\\]+)\\?"')
NAMED_FAILING = re.compile(r"with cluster extension ([a-z0-9](?:[-a-z0-9.]*[a-z0-9])?)")


@frozen
class InstalledOperatorsUpgradeable:
    """What the ``olm`` ClusterOperator says of the installed ClusterExtensions: ``status``
    ``True`` (none blocks) or ``False``, cluster-olm-operator's reason and message, and the
    extensions the message names as blocking and as unreadable."""

    status: str
    reason: str
    message: str
    blocking: tuple[str, ...]
    failing: tuple[str, ...]


def _conditions(cluster_operator: Obj) -> list[Obj]:
    return [c for c in status(cluster_operator).get("conditions") or () if isinstance(c, dict)]


def _said(status_: str, reason: str, message: str) -> InstalledOperatorsUpgradeable:
    return InstalledOperatorsUpgradeable(
        status_,
        reason,
        " ".join(message.split()),
        tuple(dict.fromkeys(NAMED_BLOCKING.findall(message))),
        tuple(dict.fromkeys(NAMED_FAILING.findall(message))),
    )


def installed_operators_upgradeable(
    cluster_operators: Iterable[Obj],
) -> InstalledOperatorsUpgradeable | None:
    """R-CUP-2: the ``olm`` ClusterOperator's verdict on the installed extensions; ``None``
    when it is not in the source or says nothing about them (no ``Upgradeable``)."""
    for co in cluster_operators:
        if name_of(co) != OLM_V1_CLUSTER_OPERATOR:
            continue
        conditions = _conditions(co)
        for cond in conditions:
            if cond.get("type") == CONDITION_TYPE:
                return _said(
                    str(cond.get("status") or ""),
                    str(cond.get("reason") or ""),
                    str(cond.get("message") or ""),
                )
        for cond in conditions:
            if cond.get("type") != "Upgradeable":
                continue
            reasons = str(cond.get("reason") or "").split("::")
            ours = [r[len(_PREFIX) :] for r in reasons if r.startswith(_PREFIX)]
            if cond.get("status") != "False" or not ours:
                # the union lists only the False conditions: ours is not among them
                return _said("True", "", "") if cond.get("status") in ("True", "False") else None
            lines = str(cond.get("message") or "").split("\n")
            mine = [
                line[len(CONDITION_TYPE) + 2 :]
                for line in lines
                if line.startswith(f"{CONDITION_TYPE}: ")
            ]
            return _said("False", ours[0], "\n".join(mine) or str(cond.get("message") or ""))
        return None
    return None
