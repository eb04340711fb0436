"""Multitenancy limits: the same operator installed in several namespaces (R-DOC-2, R-DOC-1).

OLM will install one operator per namespace as often as asked, but CRDs are cluster-wide: all
instances share one definition of each CRD, and whichever install or upgrade ran last wrote
it. The docs therefore support several instances only when they are the same version (or ship
the exact same CRDs, or none), have no dependencies and ship no CRD conversion webhook
(R-DOC-2, R-DOC-1). None of this shows in any status field; this module finds it from
the non-copied CSVs, their Subscriptions and the CRDs, cluster-wide but in one linear pass; the
screens keep the same findings per package and per CRD (``olmtui.model.incremental.cluster_index``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from olmtui.frozen import frozen
from olmtui.kinds import CRD, CSV
from olmtui.model.primitives.bundle_properties import PROPERTIES_ANNOTATION, package_property
from olmtui.model.primitives.version import parse_version
from olmtui.model.records.types import Finding, ObjectRef, Severity
from olmtui.model.rules.apis.reconcile import api_surface
from olmtui.objects import Obj, is_copied_csv, meta, spec, status

SEED_MULTITENANCY = "R-DOC-2"  # docs/rules.md: one operator in several groups
SEED_CRD_LIMITS = "R-DOC-1"  # docs/rules.md: CRDs are cluster-wide
GENERATED_BY = "olm.generated-by"
#: Where a CSV carries its bundle properties: the current annotation, then the older one.
PROPERTIES_ANNOTATIONS = (PROPERTIES_ANNOTATION, "olm.properties")
COMPONENT_LABEL_PREFIX = "operators.coreos.com/"
#: A CSV name is ``<package>.v<version>`` by convention; the package is what comes before.
_NAME_VERSION = re.compile(r"^(.+?)\.v?\d")
#: CSV phases of a link that is on its way out of a replacement chain (R-CSV-R, R-CSV-D).
_LEAVING = frozenset({"Replacing", "Deleting"})
#: How many other instances a finding names.
_SHOWN = 5


@frozen
class Instance:
    """One installed operator: the current non-copied CSV of a package in a namespace."""

    package: str
    namespace: str
    csv: str
    version: str | None
    owned_crds: frozenset[tuple[str, str]]
    required_apis: frozenset[str]
    conversion_webhook: bool
    #: ``olm.generated-by`` of its Subscription: OLM created it as a dependency (R-SUB-12).
    generated_by: str | None

    @property
    def object_ref(self) -> ObjectRef:
        return ObjectRef(CSV, self.namespace, self.csv)

    @property
    def label(self) -> str:
        return f"{self.namespace}/{self.csv} ({self.version or 'no version'})"


def _package_from_properties(annotations: Mapping[str, Any]) -> str | None:
    for key in PROPERTIES_ANNOTATIONS:
        name, _ = package_property(annotations.get(key))
        if name:
            return str(name)
    return None


def package_of(csv: Obj, subs_by_csv: Mapping[tuple[str, str], Obj]) -> str:
    """The package a CSV belongs to: its Subscription's ``spec.name``; else the component
    label ``operators.coreos.com/<package>.<namespace>`` OLM puts on it; else the
    ``olm.package`` bundle property; else the CSV name up to its version."""
    csv_meta = meta(csv)
    ns, name = csv_meta.get("namespace") or "", csv_meta.get("name") or ""
    sub = subs_by_csv.get((ns, name))
    if sub is not None and spec(sub).get("name"):
        return str(sub["spec"]["name"])
    suffix = f".{ns}"
    for label in csv_meta.get("labels") or {}:
        if label.startswith(COMPONENT_LABEL_PREFIX) and label.endswith(suffix):
            package = label[len(COMPONENT_LABEL_PREFIX) : -len(suffix)]
            if package:
                return str(package)
    from_properties = _package_from_properties(csv_meta.get("annotations") or {})
    if from_properties:
        return from_properties
    match = _NAME_VERSION.match(name)
    return match.group(1) if match else name


def _subs_by_csv(subs: Iterable[Obj]) -> dict[tuple[str, str], Obj]:
    out: dict[tuple[str, str], Obj] = {}
    for sub in subs:
        ns = meta(sub).get("namespace") or ""
        sub_status = status(sub)
        for key in ("currentCSV", "installedCSV"):
            if sub_status.get(key):
                out[(ns, sub_status[key])] = sub
    return out


def installed_instances(csvs: Iterable[Obj], subs: Iterable[Obj]) -> list[Instance]:
    """One :class:`Instance` per package and namespace, sorted by (package, namespace): the
    non-copied CSV (R-COPY-1) that is not being replaced (a CSV named by another one's
    ``spec.replaces`` is the older link, R-CSV-R2). An instance reads only its own
    namespace's CSVs and Subscriptions, so one namespace's instances can be rebuilt alone."""
    subs_by_csv = _subs_by_csv(subs)
    candidates: dict[tuple[str, str], list[Obj]] = {}
    for csv in csvs:
        if is_copied_csv(csv) or status(csv).get("phase") in _LEAVING:
            continue
        ns = meta(csv).get("namespace") or ""
        candidates.setdefault((package_of(csv, subs_by_csv), ns), []).append(csv)
    return [
        _instance(package, ns, group, subs_by_csv)
        for (package, ns), group in sorted(candidates.items())
    ]


def _instance(
    package: str, ns: str, group: list[Obj], subs_by_csv: Mapping[tuple[str, str], Obj]
) -> Instance:
    replaced = {spec(c).get("replaces") for c in group}
    current = [c for c in group if meta(c).get("name") not in replaced]
    csv = min(current or group, key=lambda c: meta(c).get("name") or "")
    name = meta(csv).get("name") or ""
    csv_spec = spec(csv)
    owned = (csv_spec.get("customresourcedefinitions") or {}).get("owned") or ()
    sub_meta = meta(subs_by_csv.get((ns, name)) or {})
    return Instance(
        package=package,
        namespace=ns,
        csv=name,
        version=csv_spec.get("version") or None,
        owned_crds=frozenset((e.get("name") or "", e.get("version") or "") for e in owned),
        required_apis=api_surface(dict(csv)).required,
        conversion_webhook=any(
            w.get("type") == "ConversionWebhook" for w in csv_spec.get("webhookdefinitions") or ()
        ),
        generated_by=(sub_meta.get("annotations") or {}).get(GENERATED_BY) or None,
    )


def _newest(instances: list[Instance]) -> Instance | None:
    """The instance with the highest semver version, or ``None`` when a version is missing
    or not semver (then no instance can be called older)."""
    keyed = []
    for inst in instances:
        version = parse_version(inst.version or "")
        if version is None:
            return None
        keyed.append((version.key, inst.namespace, inst))
    return max(keyed, key=lambda k: k[:2])[2]


def _listing(items: list[str]) -> str:
    """At most :data:`_SHOWN` items, then a count: a package may run in hundreds of tenant
    namespaces, and a finding per instance must not carry all of them."""
    shown = "; ".join(items[:_SHOWN])
    return shown + (f"; and {len(items) - _SHOWN} more" if len(items) > _SHOWN else "")


def _others(group: list[Instance], inst: Instance) -> tuple[ObjectRef, ...]:
    """Related objects of an instance's finding: the first other instances (capped)."""
    return tuple(o.object_ref for o in group[: _SHOWN + 1] if o is not inst)[:_SHOWN]


def _crd_list(crds: frozenset[tuple[str, str]]) -> str:
    return ", ".join(f"{n} {v}" for n, v in sorted(crds)) or "none"


def _skew_findings(package: str, group: list[Instance]) -> list[Finding]:
    """Instances at other versions, or with other owned CRDs, than the newest (R-DOC-2:
    all instances must be the same version; R-DOC-1: only the exact same CRDs, or none, are
    supported)."""
    newest = _newest(group)
    versions = {i.version for i in group}
    crd_sets = {i.owned_crds for i in group}
    if len(versions) < 2 and len(crd_sets) < 2:
        return []
    everyone = _listing([i.label for i in group])
    findings = []
    for inst in group:
        if inst is newest:
            continue
        others = _others(group, inst)
        reference = newest or next(o for o in group if o is not inst)
        if inst.owned_crds != reference.owned_crds:
            findings.append(
                Finding(
                    "warning",
                    "MultiInstanceCRDMismatch",
                    CSV,
                    inst.namespace,
                    inst.csv,
                    f"Package {package} is installed in {len(group)} namespaces ({everyone}) and "
                    f"the instances ship different CRDs: this one owns {_crd_list(inst.owned_crds)}"
                    f", {reference.label} owns {_crd_list(reference.owned_crds)}. CRDs are "
                    "cluster-wide, so only one definition of each exists and the last install or "
                    "upgrade wrote it; OLM supports several instances only when they ship the "
                    "exact same CRDs, or none (R-DOC-1). Move every instance to the same version.",
                    SEED_CRD_LIMITS,
                    others,
                )
            )
        elif inst.version != reference.version:
            no_crds = not any(i.owned_crds for i in group)
            findings.append(
                Finding(
                    "info" if no_crds else "warning",
                    "MultiInstanceVersionSkew",
                    CSV,
                    inst.namespace,
                    inst.csv,
                    f"Package {package} is installed in {len(group)} namespaces at different "
                    f"versions ({everyone}). "
                    + (
                        "None of them owns a CRD, which the docs support (R-DOC-1), but "
                        if no_crds
                        else "They own the same CRD list, yet CRDs are cluster-wide: the newest "
                        "instance's CRD definition wins and OLM blocks installing an instance "
                        "whose CRD lacks versions already in use. "
                    )
                    + "OLM documents that all instances of an operator must be the same version "
                    "(R-DOC-2): upgrade them together, to one channel and version.",
                    SEED_MULTITENANCY,
                    others,
                )
            )
    return findings


def _instance_limit_findings(package: str, group: list[Instance]) -> list[Finding]:
    """R-DOC-2: a multi-instance operator may not have dependencies nor ship a conversion
    webhook."""
    findings = []
    where = _listing([i.namespace for i in group])
    for inst in group:
        others = _others(group, inst)
        reasons = []
        if inst.required_apis:
            reasons.append(f"its CSV requires {', '.join(sorted(inst.required_apis))}")
        if inst.generated_by:
            reasons.append(
                f"OLM installed it as a dependency (its Subscription was "
                f"generated by InstallPlan {inst.generated_by}, R-SUB-12)"
            )
        if reasons:
            findings.append(
                Finding(
                    "warning",
                    "MultiInstanceWithDependencies",
                    CSV,
                    inst.namespace,
                    inst.csv,
                    f"Package {package} is installed in several namespaces ({where}) and has "
                    f"dependencies: {'; '.join(reasons)}. OLM resolves dependencies per "
                    "namespace, so each instance pulls in its own copy of every dependency, "
                    "which then runs at several versions over the same cluster-wide CRDs; the "
                    "docs rule this out for multi-instance operators (R-DOC-2). Install "
                    "dependencies once, cluster-wide, or use a single global instance.",
                    SEED_MULTITENANCY,
                    others,
                )
            )
        if inst.conversion_webhook:
            findings.append(
                Finding(
                    "warning",
                    "MultiInstanceConversionWebhook",
                    CSV,
                    inst.namespace,
                    inst.csv,
                    f"Package {package} is installed in several namespaces ({where}) and ships a "
                    "CRD conversion webhook. A CRD names one conversion service, so each instance "
                    "points the shared CRD at its own namespace when it installs, and removing or "
                    "downgrading that instance breaks conversion for all; the docs rule this out "
                    "(R-DOC-2). Keep a single, global instance of this operator.",
                    SEED_MULTITENANCY,
                    others,
                )
            )
    return findings


def _shared_crd_findings(instances: list[Instance], crds: Iterable[Obj]) -> list[Finding]:
    """CRDs owned from several namespaces by different packages or different versions."""
    on_cluster = {meta(c).get("name") or "": c for c in crds}
    owners: dict[str, list[Instance]] = {}
    for inst in instances:
        for crd_name in crd_names(inst):
            owners.setdefault(crd_name, []).append(inst)
    return [
        finding
        for crd_name, group in sorted(owners.items())
        if (finding := shared_crd_finding(crd_name, group, on_cluster.get(crd_name)))
    ]


def crd_names(inst: Instance) -> set[str]:
    """The names of the CRDs an instance owns (whatever versions)."""
    return {n for n, _ in inst.owned_crds}


def shared_crd_finding(crd_name: str, group: list[Instance], crd: Obj | None) -> Finding | None:
    """The finding of one CRD owned by ``group`` (in (package, namespace) order) when the
    owners sit in several namespaces with different packages or versions. OLM checks CRD
    owners only inside one namespace (R-CSV-O); across namespaces the owners take turns
    rewriting the one cluster-wide definition (R-DOC-1). ``crd`` is the CRD on the cluster,
    if any. It reads nothing else, so it can be kept per CRD."""
    if len({i.namespace for i in group}) < 2:
        return None
    packages = {i.package for i in group}
    if len(packages) < 2 and len({i.version for i in group}) < 2:
        return None
    # Different packages fight over the definition; one package at several versions is
    # already reported per instance, so here it is only context for the CRD.
    severity: Severity = "warning" if len(packages) > 1 else "info"
    what = "different packages" if len(packages) > 1 else "different versions"
    listing = _listing([f"{i.package} {i.label}" for i in group])
    served = ""
    if crd is not None:
        names = [v.get("name") for v in spec(crd).get("versions") or () if v.get("served")]
        served = f" The CRD on the cluster serves {', '.join(names) or 'no version'}."
    return Finding(
        severity,
        "SharedCRDOwners",
        CRD,
        "",
        crd_name,
        f"CRD {crd_name} is owned by CSVs of {what} in several namespaces ({listing})."
        f"{served} A CRD is cluster-wide: every install or upgrade of one owner rewrites "
        "the definition all of them use, the newest one wins, and an owner whose CRD "
        "lacks versions already in use is blocked (R-DOC-1). OLM checks owners only "
        "within a namespace (R-CSV-O). Keep one owner, or the same version everywhere.",
        SEED_CRD_LIMITS,
        tuple(i.object_ref for i in group[:_SHOWN]),
    )


def package_findings(package: str, group: list[Instance]) -> list[Finding]:
    """The findings of one package's instances (in namespace order): version or CRD skew
    and the multi-instance limits (R-DOC-2), when it runs in several namespaces. They read
    only the package's instances, so they can be kept per package."""
    if len({i.namespace for i in group}) < 2:
        return []
    return _skew_findings(package, group) + _instance_limit_findings(package, group)


def multitenancy_findings(
    csvs: Iterable[Obj],
    subs: Iterable[Obj],
    crds: Iterable[Obj] = (),
) -> list[Finding]:
    """All multitenancy-limit findings of the cluster, sorted."""
    instances = installed_instances(csvs, subs)
    by_package: dict[str, list[Instance]] = {}
    for inst in instances:
        by_package.setdefault(inst.package, []).append(inst)
    findings = []
    for package, group in sorted(by_package.items()):
        findings += package_findings(package, group)
    findings += _shared_crd_findings(instances, crds)
    return sorted(findings, key=lambda f: f.sort_key)
