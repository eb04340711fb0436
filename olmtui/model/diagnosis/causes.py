"""Which finding causes which: one table of link rules (R-DIAG-1 .. R-DIAG-7, R-DIAG-10 ..
R-DIAG-12, R-DIAG-20 .. R-DIAG-29, R-DIAG-32 .. R-DIAG-37).

A link rule says: a finding with one of the ``effects`` codes follows from a finding with
one of the ``causes`` codes on an object that ``locate`` finds from the effect and the
objects' relations (the catalog a Subscription resolves against, the InstallPlan its status
references, the namespace's one OperatorGroup, the original of a copy). A finding is linked
only when the state names that object and a cause finding stands on it: never by code alone.

The links cannot form a cycle (R-DIAG-8): over codes the table has none (a catalog or group
finding is never an effect, a CSV's group verdict is caused only by group findings), except
``InstallPlanFailed`` linked to itself, whose link goes only to a Subscription that sorts
first; :func:`cause_links` still drops any link that would close a cycle (hostile input).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from olmtui.frozen import frozen
from olmtui.kinds import (
    CATALOG_SOURCE,
    CLUSTER_CATALOG,
    CLUSTER_EXTENSION,
    CRD,
    CSV,
    INSTALL_PLAN,
    NAMESPACE,
    REVISION_KINDS,
    SUBSCRIPTION,
)
from olmtui.model.diagnosis.relations import Relations
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.rules.cluster_readiness.extension_caps import BLOCKS, INVALID
from olmtui.model.rules.cluster_readiness.olm_condition import (
    NAMED_BLOCKING,
    NAMED_FAILING,
    OLM_V1_CLUSTER_OPERATOR,
)
from olmtui.model.rules.documented.olm_cluster_operators import DEGRADED, NOT_UPGRADEABLE
from olmtui.model.rules.evidence.catalog_pods import CATALOG_POD_CODES
from olmtui.model.rules.evidence.crd_owners import STORED_VERSION_NOT_SERVED
from olmtui.model.rules.evidence.install_pods import INSTALL_POD_CODES
from olmtui.model.rules.evidence.platform_orphans import ORPHANED
from olmtui.model.rules.evidence.terminating_namespaces import FINALIZER_HOLDS, NAMESPACE_HELD
from olmtui.model.rules.lifecycle.findings import (
    INCOMPATIBLE,
    INCOMPATIBLE_NEXT,
    OUT_OF_SUPPORT,
)
from olmtui.model.rules.nextcatalog.findings import (
    CHANNEL_MISSING,
    NO_UPGRADE_EDGE,
    PACKAGE_MISSING,
)
from olmtui.model.rules.v1.revision_findings import (
    COLLISION_CODE,
    DEADLINE_CODE,
    PROBE_FAILURE_CODE,
)

#: The findings of a CatalogSource that cannot serve (R-SUB-8).
BROKEN_CATALOG = frozenset(
    {"SpecInvalidError", "ConfigMapError", "RegistryServerError", "CatalogSourceNotReady"}
)
#: A CSV's Failed verdicts from the group and API rules (R-MEM-*, R-API-5, R-CSV-O).
GROUP_VERDICTS = frozenset(
    {
        "NoOperatorGroup",
        "TooManyOperatorGroups",
        "NoTargetNamespaces",
        "InvalidInstallModes",
        "UnsupportedOperatorGroup",
        "InterOperatorGroupOwnerConflict",
        "CannotModifyStaticOperatorGroupProvidedAPIs",
        "OwnerConflict",
    }
)
#: The findings of a CSV that waits on its Deployments (R-CSV-P, R-CSV-IR, R-CSV-I, R-CSV-F).
_WAITING_CSV = frozenset({"CSVPending", "CSVInstallReady", "CSVInstalling", "CSVFailed"})
#: A CSV's own findings that OLM's ClusterOperators report in their messages (R-DIAG-26):
#: its phase verdicts (R-CSV-*) and a cap on the OpenShift version (R-DOC-16).
CSV_REPORTED = frozenset(
    {
        "CSVFailed",
        "CSVPending",
        "CSVInstallReady",
        "CSVInstalling",
        "CSVNoPhase",
        "MaxOpenShiftVersion",
        "MaxOpenShiftVersionInvalid",
    }
)
#: The phases of a CSV that an InstallPlan which failed before creating its objects leaves.
_LEFT_BY_PLAN = frozenset({"CSVPending", "CSVFailed", "CSVNoPhase", "CSVInstallReady"})
#: R-RES-5: OLM's words for a source that stopped resolution (namespace/name).
_SOURCE_ERROR = re.compile(r"catalogsource ([^\s/:]+)/([^\s/:,\]]+)")
#: R-V1-9: operator-controller's words for a selected ClusterCatalog it cannot read.
_NOT_SERVED = re.compile(r'catalog \\?"([^"\\]+)\\?" is not being served')

Locate = Callable[[Finding, Relations], Iterable[ObjectRef]]


@frozen
class LinkRule:
    """A finding coded one of ``effects`` follows from one coded one of ``causes`` on an
    object ``locate`` names, by the rules ``because`` cites."""

    rule: str
    effects: frozenset[str]
    causes: frozenset[str]
    locate: Locate
    because: str


def _catalogs_named(finding: Finding, relations: Relations) -> list[ObjectRef]:
    """R-DIAG-1: the catalogs the Subscription's condition names unhealthy, its own first;
    when it names none, the catalogs its namespace resolves against (R-RES-3)."""
    own = relations.own_catalog(finding.namespace, finding.name)
    named = [r for r in finding.related if r.kind == CATALOG_SOURCE]
    if not named:
        named = relations.visible_catalogs(finding.namespace)
    return sorted(named, key=lambda r: r != own)


def _catalogs_in_error(finding: Finding, _: Relations) -> list[ObjectRef]:
    """R-DIAG-2: the catalogs OLM's resolution error names (``catalogsource NS/NAME``)."""
    return [
        ObjectRef(CATALOG_SOURCE, ns, name) for ns, name in _SOURCE_ERROR.findall(finding.message)
    ]


def _plan_subscriptions(finding: Finding, relations: Relations) -> list[ObjectRef]:
    """R-DIAG-3: the Subscriptions whose InstallPlan installs this CSV: the plans the
    finding names, and those whose ``spec.clusterServiceVersionNames`` list it."""
    plans = [r.name for r in finding.related if r.kind == INSTALL_PLAN]
    plans += relations.plans_installing(finding.namespace, finding.name)
    return relations.subscriptions_referencing(finding.namespace, dict.fromkeys(plans))


def _same_plan(finding: Finding, relations: Relations) -> list[ObjectRef]:
    """R-DIAG-4: the Subscription itself (its state follows from its plan), then the other
    Subscriptions of the namespace that reference the same InstallPlan (R-DOC-6)."""
    own = ObjectRef(SUBSCRIPTION, finding.namespace, finding.name)
    plan = relations.plan_of(finding.namespace, finding.name)
    shared = [] if plan is None else relations.subscriptions_referencing(finding.namespace, [plan])
    return [own, *(r for r in shared if r != own)]


def _namespace(finding: Finding, _: Relations) -> list[ObjectRef]:
    """R-DIAG-5: the finding's namespace, where the several-groups finding stands."""
    return [ObjectRef(NAMESPACE, "", finding.namespace)] if finding.namespace else []


def _group(finding: Finding, relations: Relations) -> list[ObjectRef]:
    """R-DIAG-6: the one OperatorGroup of the CSV's namespace."""
    group = relations.single_group(finding.namespace)
    return [] if group is None else [group]


def _itself(finding: Finding, _: Relations) -> list[ObjectRef]:
    """R-DIAG-10: the finding's own object (a ClusterCatalog's unpack and its serving)."""
    return [ObjectRef(finding.kind, finding.namespace, finding.name)]


def _catalogs_not_served(finding: Finding, _: Relations) -> list[ObjectRef]:
    """R-DIAG-12: the ClusterCatalogs operator-controller's resolution error says are not
    being served (``catalog "NAME" is not being served``, R-V1-9)."""
    return [ObjectRef(CLUSTER_CATALOG, "", name) for name in _NOT_SERVED.findall(finding.message)]


def _original(finding: Finding, relations: Relations) -> list[ObjectRef]:
    """R-DIAG-7: the original CSV: the finding's own object, or the one it was copied from."""
    original = relations.original_of(finding.namespace, finding.name)
    return [original or ObjectRef(CSV, finding.namespace, finding.name)]


def _catalog_pods(finding: Finding, relations: Relations) -> list[ObjectRef]:
    """R-DIAG-20: the pods of the CatalogSource the finding stands on."""
    return relations.catalog_pods(finding.namespace, finding.name)


def _install_pods(finding: Finding, relations: Relations) -> list[ObjectRef]:
    """R-DIAG-27: the pods of the Deployments the CSV the finding stands on installs."""
    return relations.install_pods(finding.namespace, finding.name)


def _unpack_job(finding: Finding, relations: Relations) -> list[ObjectRef]:
    """R-DIAG-22: the one failed unpack Job of the Subscription's catalog namespace."""
    return relations.failed_unpack_job(finding.namespace, finding.name)


def _related(kind: str) -> Locate:
    """The objects of ``kind`` the finding relates to, in its order."""

    def locate(finding: Finding, _: Relations) -> list[ObjectRef]:
        return [r for r in finding.related if r.kind == kind]

    return locate


def _owning_extension(finding: Finding, _: Relations) -> list[ObjectRef]:
    """R-DIAG-28: the ClusterExtension a revision finding names as its owner."""
    return [r for r in finding.related if r.kind == CLUSTER_EXTENSION]


def _extension_revisions(finding: Finding, relations: Relations) -> list[ObjectRef]:
    """R-DIAG-29: the revisions of the ClusterExtension the finding stands on: those the
    finding names, else those the objects read say it owns (R-V1-24)."""
    named = [r for r in finding.related if r.kind in REVISION_KINDS]
    return named or relations.extension_revisions(finding.name)


def _extensions_named(pattern: re.Pattern[str]) -> Locate:
    """R-DIAG-32/33: the ClusterExtensions the ``olm`` ClusterOperator's message names in
    cluster-olm-operator's words (R-CUP-2)."""

    def locate(finding: Finding, _: Relations) -> list[ObjectRef]:
        if finding.name != OLM_V1_CLUSTER_OPERATOR:
            return []
        names = dict.fromkeys(pattern.findall(finding.message))
        return [ObjectRef(CLUSTER_EXTENSION, "", name) for name in names]

    return locate


#: The link rules, as docs/rules.md ("Diagnosis") states them.
LINK_RULES: tuple[LinkRule, ...] = (
    LinkRule(
        "R-DIAG-1",
        frozenset({"CatalogSourcesUnhealthy", "TargetedCatalogSourceUnhealthy"}),
        BROKEN_CATALOG,
        _catalogs_named,
        "R-SUB-8, R-RES-3",
    ),
    LinkRule(
        "R-DIAG-2",
        frozenset({"ErrorPreventedResolution", "ResolutionWouldStop"}),
        BROKEN_CATALOG,
        _catalogs_in_error,
        "R-RES-5, R-SUB-7",
    ),
    LinkRule(
        "R-DIAG-3",
        _LEFT_BY_PLAN,
        frozenset({"InstallPlanFailed"}),
        _plan_subscriptions,
        "R-IP-3, R-SUB-5, R-CSV-P",
    ),
    LinkRule(
        "R-DIAG-4",
        frozenset({"InstallPlanFailed", "UpgradeFailed"}),
        frozenset({"InstallPlanFailed"}),
        _same_plan,
        "R-SUB-2, R-UPG-8, R-DOC-6",
    ),
    LinkRule(
        "R-DIAG-5",
        frozenset({"TooManyOperatorGroups", "SubscriptionStalled"}),
        frozenset({"MultipleOperatorGroupsFound"}),
        _namespace,
        "R-OG-6, R-MEM-2, R-SUB-9",
    ),
    LinkRule(
        "R-DIAG-6",
        frozenset({"NoTargetNamespaces", "CannotModifyStaticOperatorGroupProvidedAPIs"}),
        frozenset({"SelectorMatchesNothing", "InvalidSelector", "StaticProvidedAPIs"}),
        _group,
        "R-OG-1, R-MEM-3, R-API-6",
    ),
    LinkRule(
        "R-DIAG-7",
        frozenset({"StaleCopiedCSV", "MissingCopiedCSV"}),
        GROUP_VERDICTS,
        _original,
        "R-COPY-2, R-COPY-6",
    ),
    LinkRule(
        "R-DIAG-10",
        frozenset({"ClusterCatalogNotServing"}),
        frozenset({"ClusterCatalogRetrying", "ClusterCatalogBlocked"}),
        _itself,
        "R-V1-7, R-V1-9",
    ),
    LinkRule(
        "R-DIAG-11",
        _LEFT_BY_PLAN,
        frozenset({"InstallPlanForbidden"}),
        _plan_subscriptions,
        "R-OG-7, R-IP-3, R-SUB-5",
    ),
    LinkRule(
        "R-DIAG-12",
        frozenset(
            {
                "ClusterExtensionRetrying",
                "ClusterExtensionBlocked",
                "ClusterExtensionWouldNotResolve",
            }
        ),
        frozenset({"ClusterCatalogNotServing"}),
        _catalogs_not_served,
        "R-V1-9, R-V1-4, R-V1-5",
    ),
    LinkRule(
        "R-DIAG-20",
        BROKEN_CATALOG,
        CATALOG_POD_CODES,
        _catalog_pods,
        "R-SUB-8, R-EVD-2",
    ),
    LinkRule(
        "R-DIAG-21",
        frozenset({"BundleUnpackJobGone"}),
        frozenset({"BundleUnpackFailed"}),
        _itself,
        "R-SUB-11, R-EVD-3",
    ),
    LinkRule(
        "R-DIAG-22",
        frozenset({"BundleUnpackFailed"}),
        frozenset({"BundleUnpackJobFailed"}),
        _unpack_job,
        "R-SUB-11, R-EVD-3",
    ),
    LinkRule(
        "R-DIAG-27",
        _WAITING_CSV,
        INSTALL_POD_CODES,
        _install_pods,
        "R-CSV-I, R-EVD-9",
    ),
    LinkRule(
        "R-DIAG-23",
        frozenset({FINALIZER_HOLDS}),
        frozenset({NAMESPACE_HELD}),
        _namespace,
        "R-EVD-6",
    ),
    LinkRule(
        "R-DIAG-24",
        frozenset({"CRDStoredVersionRemoved"}),
        frozenset({STORED_VERSION_NOT_SERVED}),
        _related(CRD),
        "R-DOC-5, R-EVD-5",
    ),
    LinkRule(
        "R-DIAG-25",
        frozenset({"InstalledCSVGone"}),
        frozenset({ORPHANED}),
        _itself,
        "R-DOC-14, R-EVD-8",
    ),
    LinkRule(
        "R-DIAG-26",
        frozenset({DEGRADED, NOT_UPGRADEABLE, "ClusterUpgradeBlocked"}),
        CSV_REPORTED,
        _related(CSV),
        "R-DOC-16, R-DOC-18",
    ),
    LinkRule(
        "R-DIAG-28",
        frozenset({PROBE_FAILURE_CODE}),
        frozenset({DEADLINE_CODE}),
        _owning_extension,
        "R-V1-25, R-V1-26",
    ),
    LinkRule(
        "R-DIAG-29",
        frozenset({DEADLINE_CODE, "ClusterExtensionRetrying", "ClusterExtensionBlocked"}),
        frozenset({COLLISION_CODE}),
        _extension_revisions,
        "R-V1-25, R-V1-27, R-V1-5",
    ),
    LinkRule(
        "R-DIAG-32",
        frozenset({NOT_UPGRADEABLE}),
        frozenset({BLOCKS}),
        _extensions_named(NAMED_BLOCKING),
        "R-CUP-2, R-CUP-3, R-DOC-18",
    ),
    LinkRule(
        "R-DIAG-33",
        frozenset({NOT_UPGRADEABLE}),
        frozenset({INVALID}),
        _extensions_named(NAMED_FAILING),
        "R-CUP-2, R-CUP-4, R-DOC-18",
    ),
    LinkRule(
        "R-DIAG-34",
        frozenset({INCOMPATIBLE_NEXT}),
        frozenset({"MaxOpenShiftVersion"}),
        _itself,
        "R-DOC-16, R-LCY-5",
    ),
    LinkRule(
        "R-DIAG-35",
        frozenset({INCOMPATIBLE, INCOMPATIBLE_NEXT}),
        frozenset({OUT_OF_SUPPORT}),
        _itself,
        "R-LCY-3, R-LCY-5",
    ),
    LinkRule(
        "R-DIAG-36",
        frozenset({PACKAGE_MISSING, CHANNEL_MISSING}),
        frozenset({"PackageDeprecated", "ChannelDeprecated", "ClusterExtensionDeprecated"}),
        _itself,
        "R-NXT-1, R-NXT-2, R-SUB-10",
    ),
    LinkRule(
        "R-DIAG-37",
        frozenset({NO_UPGRADE_EDGE}),
        frozenset({"UpgradePending"}),
        _itself,
        "R-NXT-3, R-NXT-5, R-IP-2",
    ),
)


def _by_effect(rules: Sequence[LinkRule]) -> dict[str, tuple[LinkRule, ...]]:
    found: dict[str, tuple[LinkRule, ...]] = {}
    for rule in rules:
        for code in rule.effects:
            found[code] = (*found.get(code, ()), rule)
    return found


_BY_EFFECT = _by_effect(LINK_RULES)
_CAUSES = frozenset(code for rule in LINK_RULES for code in rule.causes)
_Key = tuple[str, str, str]


def _object(finding: Finding) -> _Key:
    return (finding.kind, finding.namespace, finding.name)


def cause_links(findings: Sequence[Finding], relations: Relations) -> dict[int, int]:
    """For each finding (by index) that follows from another, the index of its cause.

    Two passes: the findings whose code is an effect say which objects their cause would
    stand on; then only the findings on those objects are looked at. A finding no rule links
    costs one dictionary lookup and nothing kept."""
    wanted: list[tuple[int, LinkRule, tuple[ObjectRef, ...]]] = []
    needed: set[_Key] = set()
    for index, finding in enumerate(findings):
        for rule in _BY_EFFECT.get(finding.code, ()):
            refs = tuple(dict.fromkeys(rule.locate(finding, relations)))
            if refs:
                wanted.append((index, rule, refs))
                needed.update((r.kind, r.namespace, r.name) for r in refs)
    if not wanted:
        return {}
    standing: dict[_Key, list[int]] = {}
    for index, finding in enumerate(findings):
        if finding.code in _CAUSES and (key := _object(finding)) in needed:
            standing.setdefault(key, []).append(index)
    links: dict[int, int] = {}
    for index, rule, refs in wanted:
        if index not in links:
            found = _cause_on(findings, index, rule, refs, standing)
            if found is not None:
                links[index] = found
    return without_cycles(links)


def _cause_on(
    findings: Sequence[Finding],
    index: int,
    rule: LinkRule,
    refs: Iterable[ObjectRef],
    standing: Mapping[_Key, list[int]],
) -> int | None:
    """The first cause finding (worst first) on the first of ``refs`` that holds one. A cause
    with the effect's own code must be on an object that sorts first (no cycle, R-DIAG-8)."""
    effect = findings[index]
    for ref in refs:
        for other in standing.get((ref.kind, ref.namespace, ref.name), ()):
            cause = findings[other]
            if other == index or cause.code not in rule.causes:
                continue
            if cause.code == effect.code and _object(cause) >= _object(effect):
                continue
            return other
    return None


def without_cycles(links: Mapping[int, int]) -> dict[int, int]:
    """``links`` without the links that close a cycle (R-DIAG-8): following causes from any
    finding ends at a root. The table cannot make one; this holds whatever the input."""
    kept = dict(links)
    done: set[int] = set()
    for start in sorted(kept):
        path: list[int] = []
        on_path: set[int] = set()
        node: int | None = start
        while node is not None and node not in done:
            if node in on_path:
                # drop the link out of the largest index on the cycle: deterministic
                cycle = path[path.index(node) :]
                del kept[max(cycle)]
                break
            path.append(node)
            on_path.add(node)
            node = kept.get(node)
        done.update(path)
    return kept
