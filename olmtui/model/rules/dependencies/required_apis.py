"""Dependency health: required APIs nobody provides, and upgrades that would break them.

OLM promises never to "install a set of Operators that require APIs that cannot be provided"
nor to "update an Operator in a way that breaks another that depends upon it" (R-DOC-4).
Its resolver enforces that, but the dashboard can tell before and after: which
installed CSV requires an API that no installed operator provides and no CRD serves, and,
given the next bundle of an upgrade, whether that bundle drops an API another CSV needs or
changes its CRDs in a way OLM's CRD upgrade rules refuse (R-DOC-5).

API keys are ``Kind.version.group`` as in R-API-1. Copied CSVs never count as providers
(R-COPY-1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import partial

from olmtui.kinds import CRD, CSV
from olmtui.model.records.catalog import Bundle
from olmtui.model.records.types import Finding, ObjectRef, ref
from olmtui.model.rules.apis.reconcile import APISurface, api_surface
from olmtui.objects import Obj, is_copied_csv, meta, spec, status

SEED_DEPENDENCIES = "R-DOC-4"  # docs/rules.md: dependencies must be met, and kept
SEED_CRD_UPGRADES = "R-DOC-5"  # docs/rules.md: CRD upgrades must not drop versions in use


def _surfaces(csvs: Iterable[Obj]) -> dict[tuple[str, str], APISurface]:
    """The API surface (R-API-1) of each non-copied CSV, by (namespace, name); copies never
    provide anything (R-COPY-1)."""
    return {csv_key(c): api_surface(dict(c)) for c in csvs if not is_copied_csv(c)}


def crd_served_apis(crd: Obj) -> set[str]:
    """The ``Kind.version.group`` keys (R-API-1) a CRD object serves now (``served: true`` versions;
    a v1beta1 CRD's single ``spec.version`` counts as served)."""
    crd_spec = spec(crd)
    kind = (crd_spec.get("names") or {}).get("kind") or ""
    group = crd_spec.get("group") or ""
    versions = [v.get("name") for v in crd_spec.get("versions") or () if v.get("served")]
    if not crd_spec.get("versions") and crd_spec.get("version"):
        versions = [crd_spec["version"]]
    return {f"{kind}.{v}.{group}" for v in versions if v}


def _present_requirements(csv: Obj) -> set[str]:
    """CRD names the CSV's own ``status.requirementStatus`` (R-CSV-P) reports Present: the
    cluster had them when OLM last checked, whoever installed them."""
    return {
        r.get("name") or ""
        for r in status(csv).get("requirementStatus") or ()
        if r.get("kind") == CRD and r.get("status") == "Present"
    }


def csv_key(csv: Obj) -> tuple[str, str]:
    csv_meta = meta(csv)
    return csv_meta.get("namespace") or "", csv_meta.get("name") or ""


def _required_crd_names(csv: Obj) -> dict[str, str]:
    """Required API key -> CRD name, for required CRDs (key as in R-API-1)."""
    csv_spec = spec(csv)
    return {
        f"{e.get('kind') or ''}.{e.get('version') or ''}.{e['name'].split('.', 1)[1]}": e["name"]
        for e in (csv_spec.get("customresourcedefinitions") or {}).get("required") or ()
        if "." in (e.get("name") or "")
    }


def missing_requirement_findings(csvs: Iterable[Obj], crds: Iterable[Obj]) -> list[Finding]:
    """CSVs requiring an API that no installed non-copied CSV provides and no CRD in the
    snapshot serves (R-DOC-4)."""
    csvs = [c for c in csvs if not is_copied_csv(c)]
    surfaces = _surfaces(csvs)
    crds = list(crds)
    served: set[str] = set()
    for crd in crds:
        served |= crd_served_apis(crd)
    providers: dict[str, set[tuple[str, str]]] = {}
    for csv_id, surface in surfaces.items():
        for api in surface.provided:
            providers.setdefault(api, set()).add(csv_id)
    findings = []
    for csv in csvs:
        me = csv_key(csv)
        available = partial(_available, me=me, served=served, providers=providers)
        found = missing_requirement_finding(csv, surfaces[me].required, available, bool(crds))
        if found is not None:
            findings.append(found)
    return findings


def _available(
    api: str, me: tuple[str, str], served: set[str], providers: Mapping[str, set[tuple[str, str]]]
) -> bool:
    return api in served or bool(providers.get(api, set()) - {me})


def missing_requirement_finding(
    csv: Obj, required: Iterable[str], available: Callable[[str], bool], have_crds: bool
) -> Finding | None:
    """The finding of one CSV whose required APIs (R-API-1) include one that is not
    ``available`` (served by a CRD or provided by another non-copied CSV) and that its own
    ``status.requirementStatus`` does not report Present either. When the snapshot holds no
    CRDs at all (``have_crds`` false: must-gathers leave them out), it is a warning: the API
    may come from outside OLM. It reads only these, so it can be kept per CSV."""
    if not required:
        return None
    ns, name = csv_key(csv)
    crd_names = _required_crd_names(csv)
    present = _present_requirements(csv)
    missing = [
        api
        for api in sorted(required)
        if not available(api) and (api not in crd_names or crd_names[api] not in present)
    ]
    if not missing:
        return None
    where = (
        "no CRD in the snapshot serves it"
        if have_crds
        else "the snapshot holds no CRDs to check against"
    )
    return Finding(
        "error" if have_crds else "warning",
        "RequiredAPIMissing",
        CSV,
        ns,
        name,
        f"CSV {name} requires {', '.join(missing)}, but no installed operator provides "
        f"{'it' if len(missing) == 1 else 'them'} and {where}. OLM never installs an "
        "operator whose required APIs cannot be provided (R-DOC-4); a CSV in this "
        "state stays Pending with RequirementsNotMet. Install the operator that owns "
        f"{'this API' if len(missing) == 1 else 'these APIs'} (a Subscription to its "
        "package), or create the CRD.",
        SEED_DEPENDENCIES,
    )


def _dropped_api_findings(
    csv_id: tuple[str, str],
    bundle: Bundle,
    surfaces: Mapping[tuple[str, str], APISurface],
) -> list[Finding]:
    old = surfaces[csv_id].provided
    # An empty provided list means the catalog did not say (e.g. a PackageManifest graph),
    # not that the bundle provides nothing.
    if not bundle.provided_apis or not old:
        return []
    ns, name = csv_id
    findings = []
    for api in sorted(old - set(bundle.provided_apis)):
        others = [(i, s) for i, s in surfaces.items() if i != csv_id]
        if any(api in s.provided for _, s in others):
            continue
        dependents = sorted(i for i, s in others if api in s.required)
        if not dependents:
            continue
        names = ", ".join(ref(*i) for i in dependents)
        findings.append(
            Finding(
                "error",
                "UpgradeDropsRequiredAPI",
                CSV,
                ns,
                name,
                f"The next bundle of CSV {name}, {bundle.name}, no longer provides {api}, which "
                f"{names} {'requires' if len(dependents) == 1 else 'require'}. OLM refuses an "
                "update that breaks an operator depending on it (R-DOC-4, deprecating "
                "dependent APIs), so this upgrade will not resolve while "
                f"{'it is' if len(dependents) == 1 else 'they are'} installed. Upgrade or remove "
                "the dependent operators first, or install another provider of the API.",
                SEED_DEPENDENCIES,
                tuple(ObjectRef(CSV, *i) for i in dependents),
            )
        )
    return findings


def _crd_version_findings(
    csv_id: tuple[str, str],
    bundle: Bundle,
    crds_by_name: Mapping[str, Obj],
) -> list[Finding]:
    ns, name = csv_id
    all_versions = dict(bundle.crd_versions)
    findings = []
    for crd_name, served, storage in bundle.crds:
        current = crds_by_name.get(crd_name)
        if current is None:
            continue
        crd_spec = spec(current)
        cluster_served = [v.get("name") for v in crd_spec.get("versions") or () if v.get("served")]
        stored = list(status(current).get("storedVersions") or ())
        known = all_versions.get(crd_name)
        defined = set(known) if known is not None else set(served) | ({storage} - {None})
        related = (ObjectRef(CRD, "", crd_name),)
        # R-DOC-5: a served version is first set to served: false, and removed
        # only in a later upgrade.
        removed = [v for v in cluster_served if v and v not in defined]
        if removed and known is not None:
            findings.append(
                Finding(
                    "warning",
                    "CRDServedVersionRemoved",
                    CSV,
                    ns,
                    name,
                    f"The next bundle of CSV {name}, {bundle.name}, removes "
                    f"{', '.join(removed)} from CRD {crd_name} while the cluster still serves "
                    f"{'it' if len(removed) == 1 else 'them'}. OLM's CRD upgrade procedure "
                    "removes a version only after an earlier upgrade set it to served: false "
                    "(R-DOC-5); clients and operators using it break at this upgrade. "
                    "Upgrade through a bundle that stops serving it first.",
                    SEED_CRD_UPGRADES,
                    related,
                )
            )
        # OLM refuses a CRD update that drops a version still listed in status.storedVersions
        # ("risk of data loss", pkg/lib/crd/storage.go); the InstallPlan fails.
        gone = [v for v in stored if v not in defined]
        if gone:
            certain = known is not None
            findings.append(
                Finding(
                    "error" if certain else "warning",
                    "CRDStoredVersionRemoved",
                    CSV,
                    ns,
                    name,
                    f"The next bundle of CSV {name}, {bundle.name}, "
                    + ("drops" if certain else "neither serves nor stores")
                    + f" {', '.join(gone)} of CRD {crd_name}, still listed in the CRD's "
                    "status.storedVersions. "
                    + ("" if certain else "If its CRD leaves the version out of spec.versions, ")
                    + "OLM refuses the CRD update as a risk of data loss and the InstallPlan "
                    "fails (R-DOC-5). Migrate the stored objects to the storage version "
                    "and remove the old version from status.storedVersions before upgrading.",
                    SEED_CRD_UPGRADES,
                    related,
                )
            )
    return findings


def upgrade_dependency_findings(
    csvs: Iterable[Obj],
    crds: Iterable[Obj],
    next_bundles: Mapping[str, Bundle],
) -> list[Finding]:
    """For each installed CSV (``"namespace/name"`` key of ``next_bundles``) and the bundle
    its Subscription would move to next: dropped APIs others require, and CRD changes OLM's
    upgrade rules refuse (R-DOC-5, R-DOC-4)."""
    if not next_bundles:
        return []
    surfaces = _surfaces(csvs)
    crds_by_name = {meta(c).get("name") or "": c for c in crds}
    by_ref = {ref(*i): i for i in surfaces}
    findings = []
    for csv_ref, bundle in sorted(next_bundles.items()):
        csv_id = by_ref.get(csv_ref)
        if csv_id is None:
            continue
        findings += _dropped_api_findings(csv_id, bundle, surfaces)
        findings += _crd_version_findings(csv_id, bundle, crds_by_name)
    return findings


def dependency_findings(
    csvs: Iterable[Obj],
    crds: Iterable[Obj],
    next_bundles: Mapping[str, Bundle] | None = None,
) -> list[Finding]:
    """All dependency findings, sorted (see the two functions above)."""
    csvs = list(csvs)
    crds = list(crds)
    findings = missing_requirement_findings(csvs, crds)
    findings += upgrade_dependency_findings(csvs, crds, next_bundles or {})
    return sorted(findings, key=lambda f: f.sort_key)
