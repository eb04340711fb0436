"""A Subscription whose installed CSV is a copy (R-EVD-7).

OLM copies an operator's CSV into every namespace its OperatorGroup targets (R-COPY-*): a
copy carries ``status.reason: Copied`` and the label ``olm.copiedFrom``, and runs nothing.
A Subscription created in one of those namespaces for the same package can end with
``status.installedCSV`` naming the copy: OLM accepts it as installed and deploys nothing
(operator-lifecycle-manager#3866). The operator runs in the namespace the copy came from, and
this Subscription installs and upgrades nothing of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from olmtui.kinds import CSV, SUBSCRIPTION
from olmtui.model.records.types import FieldEvidence, Finding, ObjectRef
from olmtui.model.rules.copies.placement import copy_source
from olmtui.objects import (
    COPIED_FROM_LABEL,
    Obj,
    is_copied_csv,
    labels,
    name_of,
    namespace_of,
    status,
)

INSTALLED_IS_COPY = "InstalledCSVIsCopy"


#: One CSV by (namespace, name), ``None`` when the input holds none.
CSVLookup = Callable[[str, str], Obj | None]


def csv_lookup(csvs: Iterable[Obj]) -> CSVLookup:
    """A :data:`CSVLookup` over a list of CSVs."""
    by_key = {(namespace_of(c), name_of(c)): c for c in csvs}
    return lambda namespace, name: by_key.get((namespace, name))


def copied_installed_findings(subscriptions: Iterable[Obj], get_csv: CSVLookup) -> list[Finding]:
    """R-EVD-7: Subscriptions whose ``status.installedCSV`` is a copied CSV of their own
    namespace."""
    found: list[Finding] = []
    for sub in subscriptions:
        namespace, name = namespace_of(sub), name_of(sub)
        installed = status(sub).get("installedCSV") or ""
        csv = get_csv(namespace, installed) if installed else None
        if csv is None or not is_copied_csv(csv):
            continue
        source = copy_source(csv)[0]
        origin = f" from namespace {source}" if source else ""
        why = (
            f"metadata.labels[{COPIED_FROM_LABEL}]"
            if labels(csv).get(COPIED_FROM_LABEL) is not None
            else "status.reason"
        )
        value = labels(csv).get(COPIED_FROM_LABEL) or status(csv).get("reason") or "Copied"
        related = [ObjectRef(CSV, namespace, installed)]
        if source:
            related.append(ObjectRef(CSV, source, installed))
        found.append(
            Finding(
                "warning",
                INSTALLED_IS_COPY,
                SUBSCRIPTION,
                namespace,
                name,
                f"Subscription {name} says CSV {installed} is installed, but {installed} in "
                f"namespace {namespace} is a copy{origin} (R-COPY-1): OLM accepts the copy as "
                "installed and deploys nothing here (operator-lifecycle-manager#3866). The "
                f"operator runs in {source or 'the namespace the copy came from'} and already "
                "serves this namespace through its OperatorGroup; this Subscription installs "
                "and upgrades nothing. Delete it: the copy and the operator stay.",
                rule="R-EVD-7",
                related=tuple(related),
                evidence=(
                    FieldEvidence(SUBSCRIPTION, namespace, name, "status.installedCSV", installed),
                    FieldEvidence(CSV, namespace, installed, why, str(value)),
                ),
            )
        )
    return found
