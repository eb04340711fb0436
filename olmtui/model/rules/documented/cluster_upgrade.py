"""Cluster upgrade readiness: installed operators that cap the OpenShift version (R-DOC-16).

An operator bundle may declare the newest OpenShift minor it supports with the
``olm.maxOpenShiftVersion`` property; OLM copies the bundle's properties into the CSV's
``operatorframework.io/properties`` annotation. On OpenShift, OLM's ClusterOperator
(``operator-lifecycle-manager``) then reports ``Upgradeable=False`` with reason
``IncompatibleOperatorsInstalled`` while a non-copied CSV's maximum is below the next minor
(OLM's ``incompatibleOperators``: ``max < current.minor + 1``, 4.23 being the same release as
5.0), and also when the property cannot be read (two of them, empty, not ``<major>.<minor>``).
The cluster-version operator refuses a minor upgrade while that condition holds.

The cluster version is read from the ``ClusterVersion`` named ``version``: the newest
Completed entry of its history, else ``status.desired.version``. Without it in the source,
nothing is claimed about the cluster's version: a cap is only an info finding.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from olmtui.kinds import CLUSTER_OPERATOR, CSV
from olmtui.model.primitives import json_text
from olmtui.model.primitives.bundle_properties import PROPERTIES_ANNOTATION
from olmtui.model.primitives.digits import UINT64_MAX, bounded
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.objects import Obj, annotations_of, meta

MAX_OCP_PROPERTY = "olm.maxOpenShiftVersion"
OLM_CLUSTER_OPERATOR = "operator-lifecycle-manager"
CLUSTER_VERSION_NAME = "version"
RULE = "R-DOC-16"

Minor = tuple[int, int]
_VERSION = re.compile(r"^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:[-+].*)?$")
#: ``namespace/name`` as OLM writes them in the Upgradeable message.
_NAMED_CSV = re.compile(r"(?<![\w./-])([a-z0-9][-a-z0-9]*)/([a-z0-9](?:[-a-z0-9.]*[a-z0-9])?)")


def _normalized(version: Minor) -> Minor:
    """OLM's ``normalizeOCPVersion``: 4.23 and 5.0 are one release."""
    return (5, 0) if version == (4, 23) else version


def _next_minor(version: Minor) -> Minor:
    major, minor = _normalized(version)
    return (major, minor + 1)


def next_minor(version: Minor) -> Minor:
    """The minor a cluster at ``version`` upgrades to next: 4.23 and 5.0 both go to 5.1."""
    return _next_minor(version)


def blocks_next_minor(maximum: Minor, current: Minor) -> bool:
    """Whether a cap of ``maximum`` holds a cluster at ``current`` from its next minor: OLM
    v0's ``incompatibleOperators`` (``max < next minor``, 4.23 being 5.0), which is
    cluster-olm-operator's ``max > current`` for OLM v1 (R-DOC-16, R-CUP-3)."""
    return _normalized(maximum) < _next_minor(current)


def _shown(version: Minor) -> str:
    return f"{version[0]}.{version[1]}"


def shown_minor(version: Minor) -> str:
    """``major.minor`` as OpenShift writes a release."""
    return _shown(version)


def _minor_of(match: re.Match[str]) -> Minor | None:
    """``(major, minor)`` of a version ``_VERSION`` matched; ``None`` when a number is beyond
    uint64, where Go's semver parsing fails (and Python's ``int()`` refuses over 4,300
    digits)."""
    major, minor = bounded(match.group(1), UINT64_MAX), bounded(match.group(2) or "0", UINT64_MAX)
    return None if major is None or minor is None else (major, minor)


def _quoted(value: str) -> str:
    """``value`` quoted for a message, its middle left out when it is long."""
    return repr(value if len(value) <= 64 else f"{value[:30]}...{value[-30:]}")


def max_openshift_version(csv: Obj) -> tuple[Minor | None, str | None]:
    """``(major, minor)`` of the CSV's ``olm.maxOpenShiftVersion``, or ``(None, None)`` when it
    has none; ``(None, why)`` when OLM cannot read it (OLM's ``maxOpenShiftVersion``: it then
    blocks the upgrade too)."""
    text = annotations_of(csv).get(PROPERTIES_ANNOTATION)
    if text is None:
        return None, None
    try:
        parsed: Any = json_text.loads(text)
    except ValueError:
        return None, "its properties annotation is not valid JSON"
    props = parsed.get("properties") if isinstance(parsed, dict) else parsed
    values = [
        p.get("value")
        for p in (props if isinstance(props, list) else ())
        if isinstance(p, dict) and p.get("type") == MAX_OCP_PROPERTY
    ]
    if not values:
        return None, None
    if len(values) > 1:
        return None, f'it defines more than one "{MAX_OCP_PROPERTY}" property'
    value = str(values[0] if values[0] is not None else "").strip('"')
    if not value:
        return None, 'its value is "" (an empty string)'
    match = _VERSION.match(value)
    minor = _minor_of(match) if match is not None else None
    if match is None or minor is None:
        return None, f"{_quoted(value)} is not a version"
    patch = match.group(3)
    if (patch is not None and patch.strip("0")) or "-" in value or "+" in value:
        return None, f"{_quoted(value)} must be only <major>.<minor>"
    return minor, None


def _version_candidates(cluster_versions: Iterable[Obj]) -> Iterator[str]:
    """The versions the ClusterVersion ``version`` says the cluster runs, best first: its
    newest Completed history entry (OpenShift writes the history newest first), then the
    desired version."""
    for cv in cluster_versions:
        if meta(cv).get("name") != CLUSTER_VERSION_NAME:
            continue
        status = cv.get("status") or {}
        history = status.get("history") or []
        completed = [h for h in history if isinstance(h, dict) and h.get("state") == "Completed"]
        for raw in (
            *(h.get("version") for h in completed[:1]),
            (status.get("desired") or {}).get("version"),
        ):
            if raw:
                yield str(raw)
        return


def openshift_version(cluster_versions: Iterable[Obj]) -> str | None:
    """The full version the cluster runs (e.g. ``4.14.12``), for the header; ``None`` when
    the ClusterVersion is not in the source or says none."""
    return next(_version_candidates(cluster_versions), None)


def cluster_version(cluster_versions: Iterable[Obj]) -> Minor | None:
    """The cluster's ``(major, minor)``: the first version :func:`_version_candidates`
    gives that parses; ``None`` when it is not in the source or says none."""
    for raw in _version_candidates(cluster_versions):
        match = _VERSION.match(raw)
        minor = _minor_of(match) if match is not None else None
        if minor is not None:
            return minor
    return None


def _csv_ref(csv: Obj) -> tuple[str, str]:
    csv_meta = meta(csv)
    return csv_meta.get("namespace") or "", csv_meta.get("name") or ""


def _csv_finding(csv: Obj, current: Minor | None, unknown: str) -> Finding | None:
    """The finding of one installed CSV's cap, if any; ``unknown`` says why ``current`` is
    ``None``."""
    maximum, invalid = max_openshift_version(csv)
    namespace, name = _csv_ref(csv)
    if invalid is not None:
        # R-DOC-16: OLM fails closed on a value it cannot read.
        return Finding(
            "warning" if current is not None else "info",
            "MaxOpenShiftVersionInvalid",
            CSV,
            namespace,
            name,
            f"This CSV's {MAX_OCP_PROPERTY} property cannot be read ({invalid}). OLM treats "
            "that as incompatible and reports its ClusterOperator Upgradeable=False, which "
            "holds every OpenShift minor upgrade until the operator is upgraded to a bundle "
            "with a valid value (<major>.<minor>) or uninstalled.",
            RULE,
        )
    if maximum is None:
        return None
    if current is None:
        return Finding(
            "info",
            "MaxOpenShiftVersion",
            CSV,
            namespace,
            name,
            f"This operator caps the cluster at OpenShift {_shown(maximum)} "
            f"({MAX_OCP_PROPERTY}): OLM holds cluster upgrades past {_shown(maximum)} while "
            f"it is installed. {unknown}, so whether it holds one now is not known.",
            RULE,
        )
    target = _next_minor(current)
    if not blocks_next_minor(maximum, current):
        return None  # R-DOC-16: OLM's incompatibleOperators lets it pass
    beyond = _normalized(maximum) < _normalized(current)
    where = (
        f"The cluster already runs {_shown(current)}, beyond that maximum, so the operator "
        "runs on a version its authors do not support. "
        if beyond
        else ""
    )
    return Finding(
        "warning",
        "MaxOpenShiftVersion",
        CSV,
        namespace,
        name,
        f"This operator blocks the cluster upgrade to {_shown(target)}: its "
        f"{MAX_OCP_PROPERTY} is {_shown(maximum)} and the cluster runs {_shown(current)}. "
        f"{where}OLM reports its ClusterOperator Upgradeable=False "
        "(IncompatibleOperatorsInstalled) until the operator is upgraded to a version that "
        "supports the next minor, or uninstalled (its CRs and operands stay).",
        RULE,
    )


def max_version_findings(
    installed: Iterable[Obj], cluster_versions: Iterable[Obj]
) -> list[Finding]:
    """R-DOC-16 per installed (non-copied, R-COPY-1) CSV: a cap that holds the next minor
    upgrade of the cluster version in the source (warning), or, without one, an info that
    it caps the cluster. Inputs: those CSVs' properties annotations and the ClusterVersion."""
    cluster_versions = list(cluster_versions)
    current = cluster_version(cluster_versions)
    shown = openshift_version(cluster_versions)
    unknown = (
        "The cluster version is not in the source"
        if shown is None
        else f"The ClusterVersion's version {_quoted(shown)} cannot be read as a version"
    )
    found = [_csv_finding(csv, current, unknown) for csv in installed]
    return [f for f in found if f is not None]


def _condition(obj: Obj, kind: str) -> dict[str, Any] | None:
    for cond in (obj.get("status") or {}).get("conditions") or ():
        if isinstance(cond, dict) and cond.get("type") == kind:
            return cond
    return None


def named_csvs(message: str) -> tuple[ObjectRef, ...]:
    """The CSVs OLM names in its Upgradeable message (``ns/name``), in order, once each."""
    seen: dict[tuple[str, str], None] = {}
    for match in _NAMED_CSV.finditer(message):
        seen.setdefault((match.group(1), match.group(2)), None)
    return tuple(ObjectRef(CSV, ns, name) for ns, name in seen)


def cluster_operator_findings(cluster_operators: Iterable[Obj]) -> list[Finding]:
    """R-DOC-16: OLM's ClusterOperator saying ``Upgradeable=False``, with its reason and
    message, related to the CSVs the message names. It reads only that ClusterOperator."""
    found: list[Finding] = []
    for co in cluster_operators:
        if meta(co).get("name") != OLM_CLUSTER_OPERATOR:
            continue
        cond = _condition(co, "Upgradeable")
        if cond is None or cond.get("status") != "False":
            continue
        reason = str(cond.get("reason") or "")
        message = " ".join(str(cond.get("message") or "").split())
        if reason == "IncompatibleOperatorsInstalled":
            advice = (
                "Upgrade or uninstall the operators it names; the cluster cannot move to the "
                "next OpenShift minor until then."
            )
        else:
            advice = "The cluster cannot move to the next OpenShift minor while it holds."
        found.append(
            Finding(
                "warning",
                "ClusterUpgradeBlocked",
                CLUSTER_OPERATOR,
                "",
                OLM_CLUSTER_OPERATOR,
                f"OLM reports Upgradeable=False ({reason or 'no reason'}): "
                f"{message or 'no message'}. {advice}",
                RULE,
                related=named_csvs(str(cond.get("message") or "")),
            )
        )
    return found
