"""A minimal unsatisfiable set, told the way an admin can act on it (R-RES-18).

Each constraint keeps OLM's own wording (so it can be found in the Subscription's
``ResolutionFailed`` condition), names the Kubernetes objects and bundles it involves, and
carries one fix that works in the state it describes. Only the variable ids and the constraint
texts are read; ``ExplainFacts`` (filled by the builder) lets a fix name versions and
catalogs, and a fix never guesses when the facts are missing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import field

from olmtui.frozen import frozen
from olmtui.model.rules.catalog.suggestions import closest_first
from olmtui.model.rules.resolution.catalog_namespaces import EXCLUDE_GLOBAL
from olmtui.model.rules.resolution.constraints import (
    AppliedConstraint,
    AtMost,
    Conflict,
    Dependency,
    Mandatory,
    Prohibited,
)
from olmtui.model.rules.resolution.entries import EXISTING
from olmtui.model.rules.resolution.result import ExplainedConstraint
from olmtui.model.rules.resolution.solver import NotSatisfiable


@frozen
class Offer:
    """One entry the resolver saw (R-RES-6, R-RES-7): ``catalog`` is ``"ns/name"`` or
    ``"@existing"``; ``version`` as written, ``None`` when absent."""

    name: str
    package: str
    version: str | None
    channel: str
    catalog: str


@frozen
class ExplainFacts:
    """What the builder knows beyond the constraints: ``packages`` maps a package name to
    every entry of it in the visible catalogs and ``@existing``, in the builder's order."""

    packages: Mapping[str, Sequence[Offer]]
    #: Subscription name -> the catalog it names (``ns/name``), for what exists there when
    #: it lacks the package or channel asked for (R-UPG-6).
    sources: Mapping[str, str] = field(default_factory=dict)
    #: The namespace's OperatorGroup when it carries the exclusion annotation (R-RES-3).
    excluding_group: str | None = None


def explain(
    nots: NotSatisfiable, namespace: str, facts: ExplainFacts | None = None
) -> tuple[ExplainedConstraint, ...]:
    """One ``ExplainedConstraint`` per constraint of ``nots``, in its order (causes first)."""
    return tuple(
        ExplainedConstraint(
            constraint=a.constraint.text,
            objects=objects_of(a, namespace),
            fix=fix_of(a, namespace, facts),
        )
        for a in nots.constraints
    )


def object_of(id: str, namespace: str) -> str | None:
    """The object a variable id stands for (R-RES-8): a Subscription, an installed CSV or a
    catalog bundle; invariants stand for no object."""
    if id.startswith("subscription:"):
        return f"Subscription {namespace}/{id.removeprefix('subscription:')}"
    parts = id.split("/")
    if len(parts) < 4:
        return None
    if parts[0] == EXISTING:
        return f"ClusterServiceVersion {parts[1]}/{parts[-1]}"
    return f"bundle {parts[-1]} (catalog {parts[1]}/{parts[0]})"


def objects_of(applied: AppliedConstraint, namespace: str) -> tuple[str, ...]:
    """The variable the constraint sits on, then the ids it names, each once."""
    c = applied.constraint
    ids: tuple[str, ...] = ()
    if isinstance(c, Dependency | AtMost):
        ids = c.ids
    elif isinstance(c, Conflict):
        ids = (c.id,)
    found = (object_of(i, namespace) for i in (applied.variable, *ids))
    return tuple(dict.fromkeys(o for o in found if o is not None))


_NO_CATALOG = re.compile(
    r"no operators found from catalog (.*) in namespace (.*) referenced by subscription (.*)"
)
_NO_PACKAGE = re.compile(
    r"no operators found in package (.*) in the catalog referenced by subscription (.*)"
)
_NO_CHANNEL = re.compile(
    r"no operators found in channel (.*) of package (.*) in the catalog referenced by "
    r"subscription (.*)"
)
_NO_NAME = re.compile(
    r"no operators found with name (.*) in channel (.*) of package (.*) in the catalog "
    r"referenced by subscription (.*)"
)
_GVK = re.compile(r"providing an API with group: (.*), version: (.*), kind: (.*)")
_RANGE = re.compile(r"with package: (.*) and with version in range: (.*)")
_REQUIRES = re.compile(r"bundle (.*?) requires an operator (.*)")


def fix_of(applied: AppliedConstraint, namespace: str, facts: ExplainFacts | None) -> str:
    """The one-line fix for one constraint (R-RES-18's table, made concrete)."""
    c = applied.constraint
    if isinstance(c, Mandatory):
        return _mandatory_fix(applied.variable, namespace, facts)
    if isinstance(c, Prohibited):
        excluded = _excluded_fix(applied.variable, c.text, namespace, facts)
        if excluded is not None:
            return excluded
        return _prohibited_fix(applied.variable, c.text, namespace) + _existing_names(
            applied.variable, c.text, facts
        )
    if isinstance(c, Dependency):
        return _dependency_fix(applied.variable, c, namespace, facts)
    if isinstance(c, Conflict):
        new, old = object_of(applied.variable, namespace), object_of(c.id, namespace)
        return (
            f"{new} replaces {old}: both cannot be selected, and the other constraints here "
            "rule out keeping only one of them"
        )
    return _at_most_fix(c, namespace)


def _csv_name(id: str) -> str:
    return id.split("/")[-1]


def _mandatory_fix(variable: str, namespace: str, facts: ExplainFacts | None) -> str:
    """An orphan's fix is deleting it: a CSV is a Subscription's only through
    ``status.installedCSV`` (R-RES-7.2), which no new Subscription will point at it."""
    if variable.startswith("subscription:"):
        return (
            f"{object_of(variable, namespace)} asks for this; fix the other constraints listed, "
            "or delete the Subscription if its operator is no longer wanted"
        )
    if variable.startswith(f"{EXISTING}/"):
        name = _csv_name(variable)
        where = _offered_as(name, facts)
        keep = f" from catalog {where}" if where else ""
        return (
            f"delete the orphaned ClusterServiceVersion {namespace}/{name} (its operands stay); "
            f"to keep this version, subscribe again with startingCSV: {name}{keep}"
        )
    return "OLM's own rule (R-RES-14): act on the providers listed with it"


def _offered_as(name: str, facts: ExplainFacts | None) -> str | None:
    """``catalog, channel C`` of the first catalog entry named ``name``, if the facts have one."""
    if facts is None:
        return None
    for offers in facts.packages.values():
        for offer in offers:
            if offer.name == name and offer.catalog != EXISTING:
                return f"{offer.catalog}, channel {offer.channel}"
    return None


def _prohibited_fix(variable: str, text: str, namespace: str) -> str:
    """R-RES-10.3's four invalid-subscription texts, and a deprecated bundle (R-RES-9.2)."""
    sub = object_of(variable, namespace)
    if m := _NO_CATALOG.fullmatch(text):
        return (
            f"no CatalogSource {m[2]}/{m[1]} is visible from namespace {namespace}: fix "
            f"spec.source/spec.sourceNamespace of {sub}"
        )
    if m := _NO_PACKAGE.fullmatch(text):
        return f"its catalog has no package {m[1]}: fix spec.name or spec.source of {sub}"
    if m := _NO_CHANNEL.fullmatch(text):
        return f"package {m[2]} has no channel {m[1]} in its catalog: fix spec.channel of {sub}"
    if m := _NO_NAME.fullmatch(text):
        return (
            f"channel {m[2]} of package {m[3]} has no bundle {m[1]}: fix spec.startingCSV of {sub}"
        )
    if text.startswith("bundle ") and text.endswith(" is deprecated"):
        return (
            f"{object_of(variable, namespace)} is deprecated: pick a non-deprecated bundle "
            "(spec.startingCSV) or a different channel"
        )
    if sub is None or not variable.startswith("subscription:"):
        return f"{sub or variable} may not be installed here: pick another bundle"
    return f"fix spec.source/sourceNamespace/name/channel/startingCSV of {sub}"


def _excluded_fix(
    variable: str, text: str, namespace: str, facts: ExplainFacts | None
) -> str | None:
    """R-RES-3: a catalog outside the namespace that its group's exclusion annotation keeps
    out of view: the annotation is the cause, not the catalog or the Subscription's spec."""
    m = _NO_CATALOG.fullmatch(text)
    if m is None or facts is None or facts.excluding_group is None or m[2] == namespace:
        return None
    return (
        f"OperatorGroup {namespace}/{facts.excluding_group} carries {EXCLUDE_GLOBAL}: "
        f'"true", so {namespace} resolves only from catalogs in its own namespace: remove the '
        f"annotation, or create the CatalogSource in {namespace} and point spec.sourceNamespace "
        f"of {object_of(variable, namespace)} there"
    )


def _existing_names(variable: str, text: str, facts: ExplainFacts | None) -> str:
    """R-UPG-6: for "no operators found in package P" / "in channel C of package P", what the
    Subscription's catalog does hold, close matches first; ``""`` when unknown."""
    source = facts.sources.get(variable.removeprefix("subscription:")) if facts else None
    if facts is None or source is None:
        return ""
    if m := _NO_CHANNEL.fullmatch(text):
        offers = [o for o in facts.packages.get(m[2], ()) if o.catalog == source]
        channels = {o.channel for o in offers if o.channel}
        if not channels:
            return ""
        shown, total = closest_first(m[1], channels)
        more = f", ... ({total} in all)" if total > len(shown) else ""
        return f"; its channels in {source} are {', '.join(shown)}{more}"
    if m := _NO_PACKAGE.fullmatch(text):
        packages = {
            p for p, offers in facts.packages.items() if any(o.catalog == source for o in offers)
        }
        if not packages:
            return ""
        shown, total = closest_first(m[1], packages)
        more = f", ... ({total} in all)" if total > len(shown) else ""
        return f"; catalog {source} has {', '.join(shown)}{more}"
    return ""


def _dependency_fix(
    variable: str, c: Dependency, namespace: str, facts: ExplainFacts | None
) -> str:
    owner = object_of(variable, namespace) or variable
    if c.ids:
        return f"every candidate is ruled out by another constraint listed here ({owner})"
    m = _REQUIRES.fullmatch(c.text)
    if m is None:  # R-RES-10.7: the Subscription's channel left nothing to install
        return f"nothing in the channel of {owner} can be installed: fix its spec.channel"
    bundle, predicate = m[1], m[2]
    if g := _GVK.fullmatch(predicate):
        return (
            f"nothing installed or in a visible catalog provides Kind {g[3]} ({g[1]}/{g[2]}): "
            "install an operator that provides it or add a catalog that has one"
        )
    if r := _RANGE.fullmatch(predicate):
        return f"bundle {bundle} needs package {r[1]} in range {r[2]}; " + _versions(r[1], facts)
    return f"install an operator {predicate} or add a catalog that has one"


def _versions(package: str, facts: ExplainFacts | None) -> str:
    """What the visible catalogs and the namespace hold of ``package``."""
    if facts is None:
        return "add a catalog that has a version in that range"
    offers = facts.packages.get(package, ())
    if not offers:
        return "no visible catalog has that package"
    by_catalog: dict[str, dict[str, None]] = {}
    for offer in offers:
        by_catalog.setdefault(offer.catalog, {})[offer.version or "no version"] = None
    return "; ".join(
        f"{'installed' if cat == EXISTING else 'catalog ' + cat} has only {', '.join(versions)}"
        for cat, versions in by_catalog.items()
    )


def _at_most_fix(c: AtMost, namespace: str) -> str:
    """R-RES-14's two invariants: one provider per API, one operator per package."""
    installed = [
        f"ClusterServiceVersion {namespace}/{_csv_name(i)}"
        for i in c.ids
        if i.startswith(f"{EXISTING}/")
    ]
    if " originate from package " in c.text:
        package = c.text.rsplit(" originate from package ", 1)[1]
        fix = f"only one bundle of package {package} may be installed per namespace"
    else:
        api = c.text.rsplit(" provide ", 1)[-1]
        fix = f"remove the other provider of {api} from namespace {namespace}"
    if installed:
        fix += f" (installed: {', '.join(installed)}; deleting a CSV keeps its operands)"
    return fix
