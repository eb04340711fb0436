"""Each operator's migration state (R-MIG-12) and what else stands in a conversion's way (R-MIG-14).

The tool's four states: ``Conflict`` when a Subscription is still there and a ClusterExtension
already carries ``olm.operatorframework.io/migrated-from-subscription: NAMESPACE/NAME`` for it
(a conversion left half done; the tool never converts it), ``AlreadyMigrated`` when such a
ClusterExtension stands and its Subscription is gone (the row is the ClusterExtension),
``Eligible`` when every rule passes, ``Ineligible`` otherwise. A rule the input cannot decide
keeps an operator from being shown eligible; its detail says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Literal

from olmtui.frozen import frozen
from olmtui.kinds import CLUSTER_EXTENSION, SUBSCRIPTION
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.migration.checks import OperatorInputs, RuleResult, rule_results
from olmtui.model.rules.migration.preview import MIGRATED_FROM, cluster_extension, preview_yaml
from olmtui.objects import Obj, annotations_of, name_of, namespace_of, spec, text_of

State = Literal["Eligible", "Ineligible", "AlreadyMigrated", "Conflict"]
#: The tool's own order of its sections (``check --all``): the most urgent first.
STATE_ORDER: tuple[State, ...] = ("Conflict", "Ineligible", "AlreadyMigrated", "Eligible")


@frozen
class Migration:
    """One operator: the Subscription (or, once migrated, the ClusterExtension) it is."""

    object: ObjectRef
    state: State
    package: str
    #: One line: why this state.
    reason: str
    #: Every rule, in the tool's order (empty for AlreadyMigrated and Conflict rows, which
    #: the tool does not check).
    rules: tuple[RuleResult, ...] = ()
    #: The ClusterExtension a conversion would create, for an Eligible operator (R-MIG-13),
    #: and the same as YAML to copy.
    cluster_extension: Obj | None = None
    preview: str | None = None
    #: What else would stop a conversion that no rule of the tool reads (R-MIG-14).
    notes: tuple[str, ...] = ()

    @property
    def failing(self) -> tuple[RuleResult, ...]:
        return tuple(r for r in self.rules if not r.ok)


def migrated_from(extension: Obj) -> str | None:
    """``NAMESPACE/NAME`` of the Subscription a ClusterExtension was converted from."""
    value = annotations_of(extension).get(MIGRATED_FROM)
    return value if isinstance(value, str) and value else None


def _package_of(extension: Obj) -> str:
    source = spec(extension).get("source") or {}
    catalog = source.get("catalog") if isinstance(source, Mapping) else None
    return (text_of(catalog.get("packageName")) if isinstance(catalog, Mapping) else None) or ""


def _notes(sub: Obj, package: str, extensions: Sequence[Obj]) -> tuple[str, ...]:
    """R-MIG-14: a ClusterExtension not converted from this Subscription that already holds
    its package (OLM v1 installs a package once per cluster) or the name the conversion
    would give (the Subscription's)."""
    out: list[str] = []
    for extension in extensions:
        if migrated_from(extension) is not None:
            continue
        name = name_of(extension)
        if package and _package_of(extension) == package:
            out.append(f"ClusterExtension {name} already installs package {package}")
        elif name == name_of(sub):
            out.append(f"ClusterExtension {name} already has this Subscription's name")
    return tuple(out)


def _reason(results: Sequence[RuleResult]) -> str:
    failed = [r.id for r in results if not r.ok and r.known]
    unknown = [r.id for r in results if not r.known]
    if not failed and not unknown:
        return "every rule passes"
    parts = []
    if failed:
        parts.append("fails " + ", ".join(failed))
    if unknown:
        parts.append("not shown: " + ", ".join(unknown))
    return "; ".join(parts)


def migrations(
    subscriptions: Iterable[Obj],
    extensions: Iterable[Obj],
    inputs_of: Callable[[Obj], OperatorInputs],
) -> list[Migration]:
    """R-MIG-12: every Subscription and every converted ClusterExtension whose Subscription is
    gone, in the tool's section order, then by namespace and name. ``inputs_of`` gathers the
    objects the rules read for one Subscription."""
    extensions = sorted(extensions, key=name_of)
    converted: dict[str, list[Obj]] = {}
    for held in extensions:
        origin = migrated_from(held)
        if origin is not None:
            converted.setdefault(origin, []).append(held)
    out: list[Migration] = []
    seen: set[str] = set()
    for sub in subscriptions:
        key = f"{namespace_of(sub)}/{name_of(sub)}"
        seen.add(key)
        ref = ObjectRef(SUBSCRIPTION, namespace_of(sub), name_of(sub))
        package = text_of(spec(sub).get("name")) or ""
        if key in converted:
            names = ", ".join(name_of(e) for e in converted[key])
            reason = f"ClusterExtension {names} was converted from it and the Subscription remains"
            out.append(Migration(ref, "Conflict", package, reason))
            continue
        inputs = inputs_of(sub)
        results, match = rule_results(inputs)
        eligible = all(r.ok for r in results)
        extension = cluster_extension(inputs, match) if eligible else None
        out.append(
            Migration(
                ref,
                "Eligible" if eligible else "Ineligible",
                package,
                _reason(results),
                results,
                extension,
                None if extension is None else preview_yaml(extension, inputs),
                _notes(sub, package, extensions),
            )
        )
    for origin, found in sorted(converted.items()):
        if origin in seen:
            continue
        for held in found:
            ref = ObjectRef(CLUSTER_EXTENSION, "", name_of(held))
            reason = f"converted from Subscription {origin}, which is gone"
            out.append(Migration(ref, "AlreadyMigrated", _package_of(held), reason))
    rank = {state: i for i, state in enumerate(STATE_ORDER)}
    return sorted(out, key=lambda m: (rank[m.state], m.object.namespace, m.object.name))


def counts(rows: Iterable[Migration]) -> dict[str, int]:
    """How many operators are in each state, in the tool's order."""
    tally: dict[str, int] = dict.fromkeys(STATE_ORDER, 0)
    for row in rows:
        tally[row.state] += 1
    return tally
