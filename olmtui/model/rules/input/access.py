"""What the model may not conclude about kinds the source could not read (RBAC said 403).

Many findings say that something is missing: a claim no CSV backs (R-API-8), a copy no
CSV expects (R-COPY-6), a namespace without a group (R-MEM-1). Read from a cache that
holds no objects of a kind because listing it was forbidden, those findings are invented.
So for every unreadable kind, the findings that rest on the absence of its objects are
dropped, and one warning says what cannot be seen instead. Findings that rest on objects
present stay: what was read is still true.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from olmtui.kinds import (
    CATALOG_SOURCE,
    CRD,
    CSV,
    INSTALL_PLAN,
    JOB,
    NAMESPACE,
    OLM_CONFIG,
    OPERATOR_GROUP,
    PACKAGE_MANIFEST,
    SUBSCRIPTION,
)
from olmtui.model.records.types import Finding
from olmtui.store import Unreadable

#: The code of the warning that replaces the findings an unreadable kind makes unreliable.
NO_ACCESS = "LiveNoAccess"

_COPIES = ("MissingCopiedCSV", "StaleCopiedCSV")

#: By kind: the finding codes derived from the absence of objects of that kind.
ABSENCE_CODES: dict[str, frozenset[str]] = {
    CSV: frozenset(
        {
            "StaleProvidedAPIs",  # R-API-8: claims no CSV of the namespace provides
            "StaticProvidedAPIs",  # R-API-6: reserved APIs no CSV of the namespace provides
            *_COPIES,  # R-COPY-3/R-COPY-6: copies counted against CSVs
            "CopiedCSVsConditionStale",  # R-COPY-8: the condition against the copies present
            "RequiredAPIMissing",  # R-DOC-4: no installed operator provides it
            "InstalledCSVGone",  # R-DOC-14: the Subscription's installed CSV not found
            "CRDOwnerGone",  # R-EVD-4: no CSV owns the CRD any more
            "SubscriptionOrphanedByPlatform",  # R-EVD-8: no CSV of the package is left
        }
    ),
    SUBSCRIPTION: frozenset({"UnreferencedCSV"}),  # R-DOC-14: no Subscription names it
    OPERATOR_GROUP: frozenset(
        {
            "NoOperatorGroup",  # R-MEM-1
            "SubscriptionStalled",  # R-SUB-9 with no group
            *_COPIES,  # R-COPY-2: copies follow the groups' targets
            "NamespaceLabelDrift",  # R-OG-5: labels no group accounts for
        }
    ),
    NAMESPACE: frozenset(
        {
            "SelectorMatchesNothing",  # R-OG-1: the selector matched no namespace read
            "TargetNamespaceMissing",  # R-OG-1: listed namespaces not among those read
            "NoTargetNamespaces",  # R-MEM-3: the group selected no namespace read
            *_COPIES,  # R-COPY-3: copies only into existing namespaces
        }
    ),
    OLM_CONFIG: frozenset(_COPIES),  # R-COPY-7: copies may be disabled
    INSTALL_PLAN: frozenset({"InstallPlanMissing"}),  # R-SUB-6: the referenced plan not found
    CATALOG_SOURCE: frozenset({"CatalogSourceMissing", "CatalogSourceNotFound"}),  # R-SUB-8
    PACKAGE_MANIFEST: frozenset({"NoOperatorsFound"}),  # R-UPG-6: package not served
    CRD: frozenset({"RequiredAPIMissing"}),  # R-DOC-4
    JOB: frozenset({"BundleUnpackJobGone"}),  # R-EVD-3: no unpack Job read (R-EVD-1)
}

#: Codes OLM writes into a Subscription condition itself: they are observed, not derived
#: from absence, and stay whatever olmtui may read (the error form of InstallPlanMissing).
OBSERVED_SEVERITY = {"InstallPlanMissing": "error"}


#: Codes resting only on the absence of objects in the finding's own namespace: the group
#: of a namespace (R-MEM-1, R-SUB-9), the CSVs backing its group's claims (R-API-6/8), the
#: plan its Subscription names (R-SUB-6). A kind unreadable in some namespaces only (a
#: ``--namespace`` session) leaves them standing elsewhere; the other codes rest on objects
#: of other namespaces too (copies, catalogs, every installed operator) and fall everywhere.
LOCAL_CODES = frozenset(
    {
        "NoOperatorGroup",
        "SubscriptionStalled",
        "StaleProvidedAPIs",
        "StaticProvidedAPIs",
        "InstallPlanMissing",
        "InstalledCSVGone",
        "UnreferencedCSV",
    }
)


def is_unreliable(code: str, namespace: str, unreadable: Mapping[str, Unreadable]) -> bool:
    """Whether a finding (or verdict) ``code`` about ``namespace`` rests on the absence of
    objects the source may not read."""
    for kind, why in unreadable.items():
        if code in ABSENCE_CODES.get(kind, ()) and (
            why.namespaces is None or code not in LOCAL_CODES or namespace in why.namespaces
        ):
            return True
    return False


def readable_findings(
    findings: Iterable[Finding], unreadable: Mapping[str, Unreadable]
) -> list[Finding]:
    """``findings`` without those that rest on the absence of an unreadable kind."""
    if not unreadable:
        return list(findings)
    return [
        f
        for f in findings
        if not is_unreliable(f.code, f.namespace, unreadable)
        or OBSERVED_SEVERITY.get(f.code) == f.severity
    ]


def no_access_findings(unreadable: Mapping[str, Unreadable]) -> list[Finding]:
    """One warning per unreadable kind: what cannot be seen, and what was left out."""
    out = []
    for kind, why in sorted(unreadable.items()):
        recheck = (
            f" olmtui asks again every {minutes(why.recheck)}." if why.recheck is not None else ""
        )
        there, advice = "", "or pass --namespace for the namespaces you may read."
        if why.namespaces is not None:
            names = ", ".join(why.namespaces)
            there, advice = f" in {names}", f"or leave {names} out of --namespace."
        left_out = sorted(ABSENCE_CODES.get(kind, ()))
        dropped = (
            f" Findings that would rest on their absence ({', '.join(left_out)}) are left out."
            if left_out
            else ""
        )
        out.append(
            Finding(
                "warning",
                NO_ACCESS,
                kind,
                "",
                why.scope,
                f"no access to {why.scope} (RBAC): {why.reason}. Any {kind} objects shown{there} "
                f"are the last ones seen, and none shown does not mean none exist."
                f"{dropped}{recheck} "
                f"Ask for list/watch access, {advice}",
                rule="R-SRC-3",
            )
        )
    return out


def minutes(seconds: float) -> str:
    """A re-check period as people say it: ``5 min``, ``1 min``, ``30 s``."""
    if seconds >= 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds:.0f} s" if seconds >= 1 else f"{seconds:.1f} s"
