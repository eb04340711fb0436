"""CRDs and the CSVs that own them (R-EVD-4, R-EVD-5).

OLM labels what an operator installs, its CRDs included, with
``operators.coreos.com/<package>.<namespace>`` (its Operator view of the package), and the
objects it creates itself with ``olm.managed: "true"``. A CSV owns a CRD by naming it in
``spec.customresourcedefinitions.owned[]``. Uninstalling an operator deletes its CSV and
leaves its CRDs, so the CRs stay (by design: deleting a CRD deletes every object of it):

* R-EVD-4: a CRD carrying OLM's label that no CSV of the input owns any more. It rests on the
  absence of CSVs, so it is withheld while CSVs are read only in part (R-SRC-1).
* R-EVD-5: a CRD whose ``status.storedVersions`` still lists a version the CRD no longer
  serves and its owning CSV no longer names: OLM refuses the CRD update of a later bundle that
  drops that version from the CRD ("risk of data loss"), so the upgrade fails until the stored
  objects are migrated and the version is removed from ``storedVersions``. Claimed only when
  the input shows the CRD and its owning CSV both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from olmtui.kinds import CRD, CSV
from olmtui.model.records.types import Evidence, FieldEvidence, Finding, ObjectRef
from olmtui.objects import Obj, is_copied_csv, labels, name_of, namespace_of, spec, status

#: The prefix of the label OLM's Operator view puts on what a package installed.
OPERATOR_LABEL_PREFIX = "operators.coreos.com/"
#: The label OLM puts on the objects it creates.
MANAGED_LABEL = "olm.managed"
CRD_OWNER_GONE = "CRDOwnerGone"
STORED_VERSION_NOT_SERVED = "CRDStoredVersionNotServed"


def olm_label(crd: Obj) -> tuple[str, str] | None:
    """The (label, value) that says OLM installed this CRD: an
    ``operators.coreos.com/<package>.<namespace>`` label, else ``olm.managed: "true"``."""
    crd_labels = labels(crd)
    for key, value in sorted(crd_labels.items()):
        if key.startswith(OPERATOR_LABEL_PREFIX) and "." in key[len(OPERATOR_LABEL_PREFIX) :]:
            return key, str(value)
    if crd_labels.get(MANAGED_LABEL) == "true":
        return MANAGED_LABEL, "true"
    return None


def _package_and_namespace(label: str) -> tuple[str, str] | None:
    """``(package, namespace)`` of an ``operators.coreos.com/<package>.<namespace>`` label (a
    namespace has no dots, a package may)."""
    if not label.startswith(OPERATOR_LABEL_PREFIX):
        return None
    package, _, namespace = label[len(OPERATOR_LABEL_PREFIX) :].rpartition(".")
    return (package, namespace) if package and namespace else None


def owned_crds(csv: Obj) -> dict[str, list[str]]:
    """The CRDs a CSV owns, by name, with the versions its owned[] entries name."""
    found: dict[str, list[str]] = {}
    definitions = spec(csv).get("customresourcedefinitions") or {}
    for entry in definitions.get("owned") or () if isinstance(definitions, dict) else ():
        if isinstance(entry, dict) and entry.get("name"):
            versions = found.setdefault(str(entry["name"]), [])
            if entry.get("version") and entry["version"] not in versions:
                versions.append(str(entry["version"]))
    return found


def owners_by_crd(csvs: Iterable[Obj]) -> dict[str, list[Obj]]:
    """The non-copied CSVs (R-COPY-1) that own each CRD, by the CRD's name."""
    found: dict[str, list[Obj]] = {}
    for csv in csvs:
        if is_copied_csv(csv):
            continue
        for crd_name in owned_crds(csv):
            found.setdefault(crd_name, []).append(csv)
    return found


def owner_gone_findings(crds: Iterable[Obj], owners: Mapping[str, list[Obj]]) -> list[Finding]:
    """R-EVD-4: CRDs OLM installed that no CSV of the input owns any more."""
    found: list[Finding] = []
    for crd in crds:
        name = name_of(crd)
        label = olm_label(crd)
        if label is None or owners.get(name):
            continue
        which = _package_and_namespace(label[0])
        of = f" for package {which[0]} in namespace {which[1]}" if which else ""
        stored = [str(v) for v in status(crd).get("storedVersions") or ()]
        evidence: list[Evidence] = [
            FieldEvidence(CRD, "", name, f"metadata.labels[{label[0]}]", label[1])
        ]
        if stored:
            evidence.append(
                FieldEvidence(CRD, "", name, "status.storedVersions", ", ".join(stored))
            )
        found.append(
            Finding(
                "info",
                CRD_OWNER_GONE,
                CRD,
                "",
                name,
                f"CRD {name} was installed by OLM{of} (label {label[0]}), but no CSV in the "
                "input owns it any more: the operator was removed and its CRD left behind, as "
                "OLM does by design, so its custom resources may remain. If the operator is "
                "gone for good, back up and delete its custom resources, then the CRD "
                "(deleting a CRD deletes every object of it); if it will be installed again, "
                "leave it.",
                rule="R-EVD-4",
                evidence=tuple(evidence),
            )
        )
    return found


def _served(crd: Obj) -> dict[str, bool]:
    """Each version the CRD defines and whether it is served."""
    return {
        str(v.get("name")): v.get("served") is True
        for v in spec(crd).get("versions") or ()
        if isinstance(v, dict) and v.get("name")
    }


def stored_version_findings(crds: Iterable[Obj], owners: Mapping[str, list[Obj]]) -> list[Finding]:
    """R-EVD-5: a CRD whose ``status.storedVersions`` lists a version the CRD no longer
    serves and none of its owning CSVs names."""
    found: list[Finding] = []
    for crd in crds:
        name = name_of(crd)
        csvs = owners.get(name) or []
        defined = _served(crd)
        if not csvs or not defined:
            continue
        named = {v for csv in csvs for v in owned_crds(csv).get(name, ())}
        stale = [
            str(v)
            for v in status(crd).get("storedVersions") or ()
            if not defined.get(str(v), False) and str(v) not in named
        ]
        if not stale or not named:
            continue
        csv = csvs[0]
        listed = ", ".join(stale)
        evidence: list[Evidence] = [
            FieldEvidence(
                CRD,
                "",
                name,
                "status.storedVersions",
                ", ".join(str(v) for v in status(crd).get("storedVersions") or ()),
            )
        ]
        evidence += [
            FieldEvidence(
                CRD,
                "",
                name,
                f"spec.versions[{v}].served",
                "absent" if v not in defined else "false",
            )
            for v in stale
        ]
        evidence.append(
            FieldEvidence(
                CSV,
                namespace_of(csv),
                name_of(csv),
                f"spec.customresourcedefinitions.owned[{name}].version",
                ", ".join(sorted(named)),
            )
        )
        found.append(
            Finding(
                "warning",
                STORED_VERSION_NOT_SERVED,
                CRD,
                "",
                name,
                f"CRD {name} still lists {listed} in status.storedVersions, but no longer "
                f"serves {'it' if len(stale) == 1 else 'them'} and its owner CSV "
                f"{namespace_of(csv)}/{name_of(csv)} names only {', '.join(sorted(named))}: "
                "objects may still be stored in the old version. OLM refuses a CRD update that "
                "drops a version listed in storedVersions (risk of data loss), so the upgrade "
                "that removes it from the CRD will fail. Migrate the stored objects (read and "
                "write each back), then remove the old version from the CRD's "
                "status.storedVersions before upgrading.",
                rule="R-EVD-5",
                related=(ObjectRef(CSV, namespace_of(csv), name_of(csv)),),
                evidence=tuple(evidence),
            )
        )
    return found


def crd_findings(crds: Iterable[Obj], csvs: Iterable[Obj]) -> list[Finding]:
    """R-EVD-4 and R-EVD-5 over the CRDs and CSVs read."""
    crds = list(crds)
    owners = owners_by_crd(csvs)
    return owner_gone_findings(crds, owners) + stored_version_findings(crds, owners)
