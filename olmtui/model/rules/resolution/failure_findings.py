"""Findings on the objects OLM's resolution failure names, other than the Subscription that
carries it (R-SUB-7).

OLM writes the same ``constraints not satisfiable`` message on every Subscription of the
namespace; ``subscription_health`` reports it there. The clauses
(``olmtui.model.rules.resolution.clauses``) also name the objects in the way: an
installed CSV no Subscription references, a second provider of an API, a deprecated bundle, a
dependency no bundle satisfies, a CatalogSource that served nothing. Each object the source holds
gets one finding with the fix that works for that clause. Inputs: one namespace's Subscriptions and
non-copied CSVs, and which CatalogSources exist.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field

from olmtui.kinds import CATALOG_SOURCE, CSV, SUBSCRIPTION
from olmtui.model.records.types import Finding, ObjectRef, Severity
from olmtui.model.rules.resolution.catalog_view import Visibility, view_cause
from olmtui.model.rules.resolution.clauses import (
    Clause,
    catalog_of,
    describe_id,
    parse_id,
    parse_message,
)
from olmtui.objects import Obj, meta, spec, status

RULE = "R-SUB-7"


def resolution_messages(subs: Iterable[Obj]) -> list[str]:
    """The distinct NotSatisfiable messages on the Subscriptions (R-SUB-7)."""
    found = set()
    for sub in subs:
        for cond in status(sub).get("conditions") or ():
            message = str(cond.get("message") or "")
            if (
                cond.get("type") == "ResolutionFailed"
                and cond.get("status") == "True"
                and cond.get("reason") == "ConstraintsNotSatisfiable"
                and message
            ):
                found.add(message)
    return sorted(found)


def namespace_clauses(subs: Iterable[Obj]) -> list[Clause]:
    """Every distinct clause OLM wrote on the namespace's Subscriptions."""
    seen: dict[str, Clause] = {}
    for message in resolution_messages(subs):
        for clause in parse_message(message):
            seen.setdefault(clause.text, clause)
    return list(seen.values())


@dataclass
class _Reading:
    """What the clauses say, by object."""

    namespace: str
    requirers: dict[str, list[str]] = field(default_factory=dict)  # bundle name -> subs
    orphans: list[str] = field(default_factory=list)
    packages: dict[str, str] = field(default_factory=dict)  # installed CSV -> package
    apis: dict[str, list[tuple[str, list[str]]]] = field(
        default_factory=dict
    )  # id -> (api, others)
    deprecated: list[str] = field(default_factory=list)  # ids
    unmet: dict[str, list[str]] = field(default_factory=dict)  # bundle name -> predicates
    empty_catalogs: dict[tuple[str, str], list[str]] = field(default_factory=dict)

    def read(self, clause: Clause) -> None:
        if clause.kind == "subscription-requires":
            for bundle in clause.ids:
                parsed = parse_id(bundle)
                self.requirers.setdefault(parsed.name if parsed else bundle, []).append(
                    clause.subject
                )
        elif clause.kind == "orphan-csv":
            self.orphans.append(clause.subject)
        elif clause.kind == "same-package":
            for bundle in clause.ids:
                parsed = parse_id(bundle)
                if parsed and parsed.installed:
                    self.packages[parsed.name] = clause.detail
        elif clause.kind == "same-api":
            for bundle in clause.ids:
                others = [i for i in clause.ids if i != bundle]
                self.apis.setdefault(bundle, []).append((clause.detail, others))
        elif clause.kind == "deprecated":
            self.deprecated.append(clause.subject)
        elif clause.kind in ("bundle-requires", "no-candidates"):
            self.unmet.setdefault(_name(clause.subject), []).append(clause.detail)
        elif (where := catalog_of(clause)) is not None:
            self.empty_catalogs.setdefault(where, []).append(clause.subject)


def _name(bundle: str) -> str:
    parsed = parse_id(bundle)
    return parsed.name if parsed else bundle


def _after_deletion(name: str, package: str, blocked: list[str]) -> str:
    """What happens once the orphan is deleted, and how to keep its version: a Subscription
    never adopts an installed CSV by being created, since OLM counts a CSV as a
    Subscription's only through that Subscription's ``status.installedCSV``; a
    Subscription without one installs the ``startingCSV`` it names (R-DOC-14)."""
    if blocked:
        subs = ", ".join(blocked)
        return (
            f" Subscription {subs} then installs what it asks for; to stay on {name}, set "
            f"spec.startingCSV: {name} on it first (its channel must hold that bundle)."
        )
    what = f" of package {package}" if package else ""
    return (
        f" A Subscription created now does not adopt it (OLM takes a CSV as a Subscription's "
        f"only through that Subscription's status.installedCSV): to keep the operator managed, "
        f"delete the CSV and create a Subscription{what} with spec.startingCSV: {name}."
    )


class _Out:
    def __init__(self, namespace: str) -> None:
        self.namespace = namespace
        self.findings: list[Finding] = []

    def add(self, severity: Severity, code: str, kind: str, name: str, message: str) -> None:
        self.findings.append(Finding(severity, code, kind, self.namespace, name, message, RULE))


def _orphans(r: _Reading, out: _Out, csvs: Mapping[str, Obj], subs: list[Obj]) -> None:
    # R-SUB-7: "clusterserviceversion X exists and is not referenced by a subscription" makes
    # X mandatory; with "... originate from package P" it keeps P from being installed.
    adopted = {status(s).get("installedCSV") for s in subs}
    for name in sorted(set(r.orphans)):
        if name not in csvs or name in adopted:
            continue  # not in the source, or a Subscription took it since (the message lags)
        package = r.packages.get(name, "")
        blocks = sorted(
            str(meta(s).get("name")) for s in subs if package and spec(s).get("name") == package
        )
        what = f"package {package}" if package else "the resolution of this namespace"
        if blocks:
            what += f" for Subscription {', '.join(blocks)}"
        out.add(
            "error" if package or name in _installed_api_ids(r) else "warning",
            "ResolutionOrphanedCSV",
            CSV,
            name,
            f"CSV {name} is installed but no Subscription references it, so OLM must keep it "
            f"and it blocks {what} (OLM: clusterserviceversion {name} exists and is not "
            f"referenced by a subscription). Delete ClusterServiceVersion {out.namespace}/"
            f"{name} (its custom resources and CRDs stay).{_after_deletion(name, package, blocks)}",
        )


def _installed_api_ids(r: _Reading) -> set[str]:
    return {p.name for i in r.apis if (p := parse_id(i)) and p.installed}


def _on_bundle(
    r: _Reading, out: _Out, csvs: Mapping[str, Obj], bundle: str, code: str, text: str
) -> None:
    """A clause about a bundle: on the installed CSV it is, else on the Subscriptions whose
    candidates it is."""
    name = _name(bundle)
    parsed = parse_id(bundle)
    installed = parsed.installed if parsed else name in csvs
    if installed and name in csvs:
        out.add("warning", code, CSV, name, f"CSV {name}: {text}")
        return
    for sub in sorted(set(r.requirers.get(name, ()))):
        out.add("warning", code, SUBSCRIPTION, sub, f"Subscription {sub} (bundle {name}): {text}")


def _apis(r: _Reading, out: _Out, csvs: Mapping[str, Obj]) -> None:
    # R-SUB-7: "X and Y provide Kind (group/version)": one provider per API in a namespace.
    for bundle, entries in sorted(r.apis.items()):
        if _name(bundle) in r.orphans:
            continue  # its orphan finding says it
        for api, others in entries:
            also = ", ".join(map(describe_id, others))
            _on_bundle(
                r,
                out,
                csvs,
                bundle,
                "ResolutionAPIConflict",
                f"provides {api}, and so does {also}; OLM allows one provider of an API per "
                f"namespace. Remove the other provider of {api} from namespace "
                f"{out.namespace}, or install this operator in another namespace.",
            )


def _deprecated(r: _Reading, out: _Out, csvs: Mapping[str, Obj]) -> None:
    # R-SUB-7: "bundle X is deprecated" (the legacy olm.deprecated property prohibits it).
    for bundle in sorted(set(r.deprecated)):
        _on_bundle(
            r,
            out,
            csvs,
            bundle,
            "ResolutionDeprecatedBundle",
            "the catalog marks this bundle deprecated, so OLM will not install it. Pick a "
            "non-deprecated bundle (spec.startingCSV) or a different channel.",
        )


def _unmet(r: _Reading, out: _Out, csvs: Mapping[str, Obj]) -> None:
    # R-SUB-7: "bundle X requires an operator ..." / "X has a dependency without any
    # candidates to satisfy it".
    for bundle, predicates in sorted(r.unmet.items()):
        needs = "; ".join(sorted({p for p in predicates if p})) or "a dependency"
        _on_bundle(
            r,
            out,
            csvs,
            bundle,
            "ResolutionDependencyUnmet",
            f"it requires an operator {needs}, and OLM found no bundle it can install with "
            "the rest to satisfy it. Install an operator providing it, or add a catalog "
            "that has one.",
        )


def _out_of_view(
    out: _Out, subs: Iterable[Obj], visibility: Visibility, said: Collection[str]
) -> None:
    """R-RES-3 before OLM says it: under the exclusion annotation a Subscription naming a
    catalog outside its own namespace fails whatever that catalog holds (certain, as only
    the own namespace is seen). ``said``: the Subscriptions whose resolution failure OLM
    already wrote (their own finding names the cause)."""
    if not visibility.excluded:
        return  # which namespace is the global one is inferred: wait for OLM to say it
    for sub in subs:
        name = meta(sub).get("name") or ""
        wanted = spec(sub)
        where = (str(wanted.get("sourceNamespace") or ""), str(wanted.get("source") or ""))
        if name in said or not all(where) or visibility.sees(out.namespace, where[0]):
            continue
        why, fix, related = view_cause(out.namespace, where, visibility)
        out.findings.append(
            Finding(
                "error",
                "CatalogNotVisible",
                SUBSCRIPTION,
                out.namespace,
                name,
                f"Subscription {name} names CatalogSource {where[0]}/{where[1]}, but {why}: "
                "OLM finds no operators for it (ResolutionFailed), however healthy that "
                f"catalog is. {fix} (R-RES-3).",
                "R-RES-3",
                related,
            )
        )


def _catalogs(
    r: _Reading,
    out: _Out,
    catalog_sources: Collection[tuple[str, str]],
    visibility: Visibility | None,
) -> None:
    # R-SUB-7: "no operators found from catalog N in namespace M referenced by subscription S".
    for (namespace, name), subs in sorted(r.empty_catalogs.items()):
        if visibility is not None and not visibility.sees(out.namespace, namespace):
            # R-RES-3: the view is the cause, which the Subscription's own finding names;
            # the catalog, healthy or not, is not at fault
            continue
        if (namespace, name) not in catalog_sources:
            continue  # the Subscription's own finding says the CatalogSource is missing
        out.findings.append(
            Finding(
                "warning",
                "ResolutionCatalogEmpty",
                CATALOG_SOURCE,
                namespace,
                name,
                f"OLM found no operators in CatalogSource {namespace}/{name} for Subscription "
                f"{', '.join(sorted(set(subs)))} in {out.namespace}: the catalog is not "
                f"visible from {out.namespace} (only its own namespace and the global catalog "
                "namespace are), has not connected, or serves nothing. Fix the catalog, or "
                "the Subscription's spec.source/sourceNamespace.",
                RULE,
                tuple(ObjectRef(SUBSCRIPTION, out.namespace, s) for s in sorted(set(subs))),
            )
        )


def resolution_clause_findings(
    namespace: str,
    subs: Iterable[Obj],
    csvs: Mapping[str, Obj],
    catalog_sources: Collection[tuple[str, str]],
    visibility: Visibility | None = None,
) -> list[Finding]:
    """Findings on the CSVs, Subscriptions and CatalogSources the namespace's
    ``ConstraintsNotSatisfiable`` message names (R-SUB-7). ``visibility``: which catalog
    namespaces the namespace resolves from (R-RES-3), when its one OperatorGroup is known; a
    catalog outside them is the Subscription's problem, never the catalog's."""
    subs = list(subs)
    clauses = namespace_clauses(subs)
    if not clauses:
        out = _Out(namespace)
        if visibility is not None:
            _out_of_view(out, subs, visibility, ())
        return out.findings
    reading = _Reading(namespace)
    for clause in clauses:
        reading.read(clause)
    out = _Out(namespace)
    _orphans(reading, out, csvs, subs)
    _apis(reading, out, csvs)
    _deprecated(reading, out, csvs)
    _unmet(reading, out, csvs)
    _catalogs(reading, out, catalog_sources, visibility)
    if visibility is not None:
        said = {sub for named in reading.empty_catalogs.values() for sub in named}
        _out_of_view(out, subs, visibility, said)
    return out.findings


def orphans_named(subs: Iterable[Obj]) -> set[str]:
    """The CSVs OLM itself called unreferenced in the namespace's resolution failure."""
    return {c.subject for c in namespace_clauses(subs) if c.kind == "orphan-csv"}
