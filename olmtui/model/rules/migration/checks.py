"""The migration tool's eligibility rules C1..C10 and C1a (R-MIG-1..R-MIG-11), one pure read each.

Each rule takes the objects of one OLM v0 operator (:class:`OperatorInputs`) and says whether
the operator passes it. A rule the input cannot decide (the object it reads was not in the
input, or its kind could not be read) is ``known=False`` and never passes: the operator is
then not shown eligible, and the detail says what was missing. ``soft`` names the tool's
``--acknowledge-*`` flag that overrides a failure; a hard rule has none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from olmtui.frozen import frozen
from olmtui.kinds import CATALOG_SOURCE, CLUSTER_CATALOG, OPERATOR_CONDITION, OPERATOR_GROUP
from olmtui.model.records.catalog import Catalog, Package
from olmtui.model.rules.installmodes.supported_modes import install_mode_set
from olmtui.model.rules.v1.catalogs import ClusterCatalog
from olmtui.model.rules.v1.eligibility import declared_properties
from olmtui.objects import (
    Obj,
    annotations_of,
    mapping_of,
    name_of,
    namespace_of,
    spec,
    status,
    text_of,
)

#: Subscription annotation OLM v0 writes on a Subscription it generated for a dependency (C9).
GENERATED_BY = "olm.generated-by"
#: The OLM v0 resources whose RBAC marks an operator as a user of OLM v0's API (C5);
#: ``operatorconditions`` is left out: OLM v0 grants it to every operator.
V0_API_RESOURCES = frozenset(
    {"subscriptions", "installplans", "clusterserviceversions", "catalogsources"}
)
V0_GROUP = "operators.coreos.com"
V1_GROUP = "olm.operatorframework.io"
#: Subscription states the tool takes as steady (C8).
STEADY_STATES = ("AtLatestKnown", "UpgradePending")
#: Bundle properties that ask for dependency resolution, which OLM v1 does not do (C2).
DEPENDENCY_PROPERTIES = ("olm.package.required", "olm.gvk.required")


@frozen
class RuleResult:
    """One rule for one operator: ``id`` as the tool names it (``C1``..``C10``, ``C1a``)."""

    id: str
    ok: bool
    detail: str
    #: False: the input does not show the answer (``ok`` is then False).
    known: bool = True
    #: The tool's flag that overrides a failure; None for a hard rule.
    soft: str | None = None


@frozen
class OperatorInputs:
    """What the rules read of one operator: its Subscription and the objects beside it."""

    subscription: Obj
    #: The OperatorGroups of the Subscription's namespace.
    groups: Sequence[Obj] = ()
    #: The CSV ``status.installedCSV`` names, in the Subscription's namespace.
    csv: Obj | None = None
    #: The OperatorCondition named after that CSV.
    condition: Obj | None = None
    #: Every CatalogSource read, by ``(namespace, name)``.
    catalog_sources: Mapping[tuple[str, str], Obj] | None = None
    #: The InstallPlan ``status.installPlanRef`` names.
    install_plan: Obj | None = None
    #: Every ClusterCatalog read, and the content bound to each by name.
    cluster_catalogs: Sequence[ClusterCatalog] = ()
    content: Mapping[str, Catalog] | None = None
    #: Kinds the input could not read (no access): what rests on them is unknown.
    unreadable: frozenset[str] = frozenset()
    #: The namespaces read (``--namespace``); None: all of them.
    read_namespaces: frozenset[str] | None = None
    #: Whether the input holds OperatorConditions at all: OLM v0 makes one for every CSV,
    #: so an input without any did not collect them (C4 is then unknown, not passed).
    conditions_read: bool = True

    @property
    def namespace(self) -> str:
        return namespace_of(self.subscription)

    @property
    def package(self) -> str:
        return text_of(spec(self.subscription).get("name")) or ""

    @property
    def channel(self) -> str | None:
        return text_of(spec(self.subscription).get("channel")) or None

    @property
    def installed_csv(self) -> str | None:
        return text_of(status(self.subscription).get("installedCSV")) or None

    @property
    def installed_version(self) -> str | None:
        return None if self.csv is None else text_of(spec(self.csv).get("version"))


def _listed(value: Any) -> list[Any]:
    """A list field as OLM writes it; anything else (a wrong-typed field) is an empty one."""
    return value if isinstance(value, list) else []


def _names(value: Any) -> list[str]:
    """The strings of a list field (``apiGroups``, ``resources``, ``targetNamespaces``)."""
    return [v for v in _listed(value) if isinstance(v, str)]


def _unknown(rule: str, why: str, soft: str | None = None) -> RuleResult:
    return RuleResult(rule, False, f"unknown: {why}", known=False, soft=soft)


def _csv_missing(rule: str, inputs: OperatorInputs, soft: str | None = None) -> RuleResult:
    if inputs.installed_csv is None:
        return _unknown(rule, "the Subscription names no installed CSV", soft)
    return _unknown(rule, f"CSV {inputs.installed_csv} is not in the input", soft)


def _one_group(inputs: OperatorInputs, rule: str, soft: str) -> Obj | RuleResult:
    """The namespace's one OperatorGroup, or the result that says why there is none."""
    if not inputs.groups:
        if OPERATOR_GROUP in inputs.unreadable:
            return _unknown(rule, "OperatorGroups could not be read", soft)
        return RuleResult(
            rule, False, f"no OperatorGroup in namespace {inputs.namespace}", soft=soft
        )
    if len(inputs.groups) > 1:
        names = ", ".join(sorted(name_of(g) for g in inputs.groups))
        return RuleResult(
            rule, False, f"{len(inputs.groups)} OperatorGroups in namespace ({names})", soft=soft
        )
    return inputs.groups[0]


def _selector_set(selector: Any) -> bool:
    if not isinstance(selector, Mapping):
        return False
    return bool(selector.get("matchLabels")) or bool(selector.get("matchExpressions"))


def watch_scope(inputs: OperatorInputs) -> RuleResult:
    """R-MIG-1 (C1): the OperatorGroup must watch all namespaces: no ``targetNamespaces``, no
    non-empty ``selector``, and ``status.namespaces`` not one named namespace."""
    soft = "--acknowledge-watch-scope-change"
    group = _one_group(inputs, "C1", soft)
    if isinstance(group, RuleResult):
        return group
    group_spec = spec(group)
    targets = _names(group_spec.get("targetNamespaces"))
    name = name_of(group)
    if targets:
        listed = ", ".join(targets)
        return RuleResult(
            "C1",
            False,
            f"OperatorGroup {name} targets namespaces {listed}; OLM v1 installs for all namespaces",
            soft=soft,
        )
    if _selector_set(group_spec.get("selector")):
        return RuleResult(
            "C1",
            False,
            f"OperatorGroup {name} selects namespaces by label; OLM v1 installs for all namespaces",
            soft=soft,
        )
    watched = status(group).get("namespaces")
    if isinstance(watched, list) and len(watched) == 1 and watched[0] not in ("", None):
        return RuleResult(
            "C1",
            False,
            f"OperatorGroup {name} watches namespace {watched[0]} only; OLM v1 "
            "installs for all namespaces",
            soft=soft,
        )
    return RuleResult("C1", True, f"OperatorGroup {name} watches all namespaces", soft=soft)


def all_namespaces_support(inputs: OperatorInputs) -> RuleResult:
    """R-MIG-2 (C1a, hard): the installed CSV supports the AllNamespaces install mode."""
    if inputs.csv is None:
        return _csv_missing("C1a", inputs)
    supported = install_mode_set(spec(inputs.csv).get("installModes")).supported
    if "AllNamespaces" in supported:
        return RuleResult("C1a", True, f"{name_of(inputs.csv)} supports AllNamespaces")
    return RuleResult(
        "C1a", False, f"{name_of(inputs.csv)} does not declare AllNamespaces supported"
    )


def no_dependencies(inputs: OperatorInputs) -> RuleResult:
    """R-MIG-3 (C2, hard): no ``olm.package.required`` or ``olm.gvk.required`` property on the
    installed CSV, nor a required CRD or APIService (a catalog lists those as
    ``olm.gvk.required``)."""
    if inputs.csv is None:
        return _csv_missing("C2", inputs)
    found: list[str] = []
    for prop in declared_properties(inputs.csv) or ():
        kind = str(prop.get("type"))
        if kind in DEPENDENCY_PROPERTIES and kind not in found:
            found.append(kind)
    csv_spec = spec(inputs.csv)
    required = [
        *_listed(mapping_of(csv_spec.get("customresourcedefinitions")).get("required")),
        *_listed(mapping_of(csv_spec.get("apiservicedefinitions")).get("required")),
    ]
    if required:
        found.append(f"{len(required)} required API(s)")
    if found:
        return RuleResult(
            "C2",
            False,
            f"{name_of(inputs.csv)} declares dependencies ({', '.join(found)}); "
            "OLM v1 does not resolve dependencies",
        )
    return RuleResult("C2", True, "no dependency properties and no required APIs")


def no_api_services(inputs: OperatorInputs) -> RuleResult:
    """R-MIG-4 (C3, hard): no owned APIService definitions."""
    if inputs.csv is None:
        return _csv_missing("C3", inputs)
    owned = _listed(mapping_of(spec(inputs.csv).get("apiservicedefinitions")).get("owned"))
    if owned:
        return RuleResult(
            "C3",
            False,
            f"{name_of(inputs.csv)} owns {len(owned)} APIService definition(s); "
            "OLM v1 does not install APIService-based operators yet",
        )
    return RuleResult("C3", True, "owns no APIService definitions")


def no_operator_condition(inputs: OperatorInputs) -> RuleResult:
    """R-MIG-5 (C4): the operator's OperatorCondition holds no ``status.conditions`` (its RBAC
    alone, which OLM v0 grants every operator, is no use of it)."""
    soft = "--acknowledge-operator-condition"
    if inputs.condition is None:
        if inputs.csv is None:
            return _csv_missing("C4", inputs, soft)
        if OPERATOR_CONDITION in inputs.unreadable:
            return _unknown("C4", "OperatorConditions could not be read", soft)
        if not inputs.conditions_read:
            return _unknown("C4", "the input holds no OperatorCondition at all", soft)
        return RuleResult("C4", True, "no OperatorCondition", soft=soft)
    entries = _listed(status(inputs.condition).get("conditions"))
    if entries:
        types = ", ".join(sorted({str(c.get("type")) for c in entries if isinstance(c, Mapping)}))
        return RuleResult(
            "C4",
            False,
            f"OperatorCondition {name_of(inputs.condition)} has status "
            f"conditions ({types}); OLM v1 has no OperatorCondition API",
            soft=soft,
        )
    return RuleResult("C4", True, "OperatorCondition has no status conditions", soft=soft)


def _rules_of(csv: Obj) -> list[Mapping[str, Any]]:
    install = mapping_of(mapping_of(spec(csv).get("install")).get("spec"))
    out: list[Mapping[str, Any]] = []
    for field in ("clusterPermissions", "permissions"):
        for grant in _listed(install.get(field)):
            if isinstance(grant, Mapping):
                out += [r for r in _listed(grant.get("rules")) if isinstance(r, Mapping)]
    return out


def no_v0_api_access(inputs: OperatorInputs) -> RuleResult:
    """R-MIG-6 (C5): the CSV's RBAC grants no OLM v0 resource (subscriptions, installplans,
    clusterserviceversions, catalogsources; not operatorconditions) unless it also grants
    ``olm.operatorframework.io``, as operators updated for OLM v1 do."""
    soft = "--acknowledge-olmv0-api-access"
    if inputs.csv is None:
        return _csv_missing("C5", inputs, soft)
    v0: set[str] = set()
    v1 = False
    for rule in _rules_of(inputs.csv):
        groups = _names(rule.get("apiGroups"))
        if V1_GROUP in groups:
            v1 = True
        if V0_GROUP in groups:
            v0 |= {r for r in _names(rule.get("resources")) if r in V0_API_RESOURCES or r == "*"}
    if not v0:
        return RuleResult("C5", True, "its RBAC grants no OLM v0 API", soft=soft)
    listed = ", ".join(sorted(v0))
    if v1:
        return RuleResult(
            "C5", True, f"its RBAC grants OLM v0 ({listed}) and OLM v1 APIs", soft=soft
        )
    return RuleResult(
        "C5", False, f"its RBAC grants OLM v0 APIs ({listed}) and no OLM v1 API", soft=soft
    )


def no_scoped_service_account(inputs: OperatorInputs) -> RuleResult:
    """R-MIG-7 (C6): the OperatorGroup names no ``serviceAccountName``."""
    soft = "--acknowledge-scoped-serviceaccount"
    group = _one_group(inputs, "C6", soft)
    if isinstance(group, RuleResult):
        return group
    account = text_of(spec(group).get("serviceAccountName"))
    if account:
        return RuleResult(
            "C6",
            False,
            f"OperatorGroup {name_of(group)} installs as ServiceAccount {account}; "
            "OLM v1 installs with its own",
            soft=soft,
        )
    return RuleResult("C6", True, "no scoped ServiceAccount", soft=soft)


@frozen
class CatalogMatch:
    """Which serving ClusterCatalog serves the package (C7): the one of highest priority."""

    catalog: str | None
    #: The package's default channel there, for a Subscription without a channel.
    default_channel: str | None
    result: RuleResult


def _package_serves(package: Package, version: str, channel: str | None) -> bool:
    has_version = any(b.version == version for b in package.bundles.values())
    return has_version and (channel is None or channel in package.channels)


def catalog_match(inputs: OperatorInputs) -> CatalogMatch:
    """R-MIG-8 (C7, hard): a serving ClusterCatalog (``Serving=True``, not ``Unavailable``)
    serves the package, at the installed version, in the Subscription's channel when it
    names one; of several, the one of highest priority."""
    version, channel, package = inputs.installed_version, inputs.channel, inputs.package
    if version is None:
        return CatalogMatch(None, None, _csv_missing("C7", inputs))
    content = inputs.content or {}
    found: list[tuple[ClusterCatalog, Package]] = []
    unread: list[str] = []
    for catalog in inputs.cluster_catalogs:
        if catalog.user_unavailable or catalog.serving is False:
            continue
        held = content.get(catalog.name)
        if catalog.serving is None or held is None:
            unread.append(catalog.name)
            continue
        served = held.packages.get(package)
        if served is not None and _package_serves(served, version, channel):
            found.append((catalog, served))
    what = f"{package} {version}" + (f" in channel {channel}" if channel else "")
    if found:
        best, served = max(found, key=lambda f: f[0].priority)  # first of equal priority
        ok = RuleResult("C7", True, f"ClusterCatalog {best.name} serves {what}")
        return CatalogMatch(best.name, served.default_channel, ok)
    if CLUSTER_CATALOG in inputs.unreadable:
        return CatalogMatch(None, None, _unknown("C7", "ClusterCatalogs could not be read"))
    if unread:
        why = f"content of ClusterCatalog {', '.join(unread)} not read (give it with --catalog)"
        return CatalogMatch(None, None, _unknown("C7", why))
    return CatalogMatch(
        None,
        None,
        RuleResult(
            "C7",
            False,
            f"no serving ClusterCatalog serves {what}; migrate its "
            "catalog first (migrate-catalogs-v0-to-v1)",
        ),
    )


def steady_state(inputs: OperatorInputs) -> RuleResult:
    """R-MIG-9 (C8): the CSV is ``Succeeded`` and the Subscription ``AtLatestKnown`` or
    ``UpgradePending``."""
    soft = "--acknowledge-not-steady-state"
    state = text_of(status(inputs.subscription).get("state")) or "no state"
    if inputs.csv is None:
        if inputs.installed_csv is None:
            return RuleResult("C8", False, f"nothing installed (Subscription {state})", soft=soft)
        return _csv_missing("C8", inputs, soft)
    phase = text_of(status(inputs.csv).get("phase")) or "no phase"
    if phase == "Succeeded" and state in STEADY_STATES:
        return RuleResult("C8", True, f"CSV Succeeded, Subscription {state}", soft=soft)
    return RuleResult("C8", False, f"CSV {phase}, Subscription {state}", soft=soft)


def not_a_dependency(inputs: OperatorInputs) -> RuleResult:
    """R-MIG-10 (C9, hard): the Subscription carries no ``olm.generated-by`` annotation."""
    by = annotations_of(inputs.subscription).get(GENERATED_BY)
    if by:
        return RuleResult(
            "C9",
            False,
            f"OLM v0 created this Subscription as a dependency ({GENERATED_BY}: "
            f"{by}); migrate the operator that needs it as a whole, not this one",
        )
    return RuleResult("C9", True, "not a dependency OLM v0 installed")


def _image_backed(ref: tuple[str, str], inputs: OperatorInputs, role: str) -> tuple[str, bool]:
    """Why the CatalogSource ``ref`` is not image-backed (``""`` when it is), and whether
    that is only unknown (the input holds no CatalogSource of that namespace)."""
    where = f"{role} CatalogSource {ref[0]}/{ref[1]}"
    sources = inputs.catalog_sources
    source = None if sources is None else sources.get(ref)
    if source is None:
        read = inputs.read_namespaces
        unread = sources is None or (read is not None and ref[0] not in read)
        return f"{where} is not in the input", unread
    source_spec = spec(source)
    kind = text_of(source_spec.get("sourceType")) or "no sourceType"
    if kind != "grpc":
        return f"{where} is {kind}, not grpc", False
    if not text_of(source_spec.get("image")):
        return f"{where} has no spec.image (address only)", False
    return "", False


def image_backed_sources(inputs: OperatorInputs) -> RuleResult:
    """R-MIG-11 (C10, hard): the Subscription's CatalogSource, and every CatalogSource a
    bundle lookup of its current InstallPlan took, exist and are grpc with an image."""
    if CATALOG_SOURCE in inputs.unreadable:
        return _unknown("C10", "CatalogSources could not be read")
    sub_spec = spec(inputs.subscription)
    own = (text_of(sub_spec.get("sourceNamespace")) or "", text_of(sub_spec.get("source")) or "")
    refs = [("the Subscription's", own)]
    if inputs.install_plan is not None:
        for lookup in _listed(status(inputs.install_plan).get("bundleLookups")):
            ref = lookup.get("catalogSourceRef") if isinstance(lookup, Mapping) else None
            if isinstance(ref, Mapping):
                pair = (text_of(ref.get("namespace")) or "", text_of(ref.get("name")) or "")
                if pair not in [r for _, r in refs]:
                    refs.append(("a bundle lookup's", pair))
    judged = [_image_backed(ref, inputs, role) for role, ref in refs]
    failed = [why for why, unread in judged if why and not unread]
    if failed:
        return RuleResult("C10", False, "; ".join(failed))
    unknown = [why for why, unread in judged if why]
    if unknown:
        return _unknown("C10", "; ".join(unknown))
    named = ", ".join(f"{ns}/{name}" for _, (ns, name) in refs)
    return RuleResult("C10", True, f"image-backed: {named}")


def rule_results(inputs: OperatorInputs) -> tuple[tuple[RuleResult, ...], CatalogMatch]:
    """Every rule for one operator, in the tool's order, and the C7 match the preview uses."""
    match = catalog_match(inputs)
    results = (
        watch_scope(inputs),
        all_namespaces_support(inputs),
        no_dependencies(inputs),
        no_api_services(inputs),
        no_operator_condition(inputs),
        no_v0_api_access(inputs),
        no_scoped_service_account(inputs),
        match.result,
        steady_state(inputs),
        not_a_dependency(inputs),
        image_backed_sources(inputs),
    )
    return results, match
