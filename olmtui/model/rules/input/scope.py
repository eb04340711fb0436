"""What the model may not conclude outside the namespaces a ``--namespace`` session read.

A user who may not list cluster-wide reads namespaced kinds in the namespaces given only
(``Store.read_namespaces``). An object that would live elsewhere — the CatalogSource in
openshift-marketplace a Subscription names, the parent of a copied CSV, the group that owns
a namespace's uid label, an operator that provides a required API — is unknown there, not
absent. The engine already leaves such absences out where it computes them (expected copies,
label drift); the findings below rest on one named object, so they are judged one by one:
each is held back when the object it says is missing would be in a namespace not read. One
info finding says what was read and what was therefore not judged (R-DOC-10). The scope is
fixed for a session, so this is a per-finding test, the same for the incremental list and a
list computed from scratch.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from olmtui.kinds import NAMESPACE
from olmtui.model.records.types import Finding

#: The code of the info finding that says which namespaces were read.
NOT_READ = "NamespacesNotRead"

#: Findings resting on the absence of objects anywhere in the cluster: held back whenever
#: the session read only some namespaces. Namespaces themselves count: a user who may not
#: list them gets the given ones fetched by name (``live_namespaces``), so a target
#: namespace not among them may well exist.
_CLUSTER_WIDE = frozenset(
    {
        "CopiedCSVsConditionStale",  # R-COPY-8: the condition against every copy present
        "TargetNamespaceMissing",  # R-OG-1: listed namespaces not among those read
        "SelectorMatchesNothing",  # R-OG-1: the selector matched no namespace read
        "NoTargetNamespaces",  # R-MEM-3: the group selected no namespace read
        "CRDOwnerGone",  # R-EVD-4: the CRD's owner may be a CSV of a namespace not read
    }
)


def _absent_in(finding: Finding) -> str | None:
    """The namespace of the object ``finding`` says does not exist, when it names one."""
    if finding.code == "CatalogSourceMissing" and finding.related:  # R-SUB-8
        return finding.related[0].namespace
    if finding.code == "CatalogSourceNotFound":  # R-SUB-8: --catalog content without source
        return finding.namespace
    if finding.code == "StaleCopiedCSV" and finding.related:  # R-COPY-6: the parent CSV
        return finding.related[0].namespace
    return None


def out_of_scope(finding: Finding, read: Collection[str] | None) -> bool:
    """Whether ``finding`` rests on the absence of objects in namespaces not read (R-DOC-10)."""
    if read is None:
        return False
    if finding.code in _CLUSTER_WIDE:
        return True
    if finding.code == "RequiredAPIMissing":
        # R-DOC-4: its error rests on the CRDs (cluster-scoped, read) serving none of
        # the APIs; without CRDs it rests on no installed operator, anywhere, providing them.
        return finding.severity != "error"
    namespace = _absent_in(finding)
    return namespace is not None and namespace not in read


def scoped_findings(findings: Iterable[Finding], read: Collection[str] | None) -> list[Finding]:
    """``findings`` without those :func:`out_of_scope` holds back."""
    if read is None:
        return list(findings)
    return [f for f in findings if not out_of_scope(f, read)]


def scope_findings(read: Collection[str] | None) -> list[Finding]:
    """The one info finding of a ``--namespace`` session: what was read, and what could
    therefore not be judged (R-DOC-10)."""
    if read is None:
        return []
    names = ", ".join(sorted(read))
    return [
        Finding(
            "info",
            NOT_READ,
            NAMESPACE,
            "",
            names,
            f"read: namespaces {names} only (--namespace). Objects in other namespaces are "
            "unknown, not absent: a CatalogSource, a copied CSV's parent, an OperatorGroup, a "
            "target namespace or an operator that would live elsewhere is not reported missing, "
            "and copies expected elsewhere are not counted. Run without --namespace, with "
            "cluster-wide read access, to check those too.",
            rule="R-DOC-10",
        )
    ]
