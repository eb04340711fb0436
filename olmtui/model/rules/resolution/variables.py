"""The solver variables of one namespace: installed CSVs, bundles and Subscriptions, with their
constraints in OLM's words (R-RES-9, R-RES-10, R-RES-12, R-RES-13).

Built as OLM's ``Resolver.Resolve`` builds them: first every ``@existing`` entry and what its
dependencies reach, then each Subscription's candidates and theirs. An entry becomes one
variable however often it is reached; later steps add constraints to it (an upgrade's
conflict with the CSV it replaces). Variables keep the order they were first made in, which
is the solver's tie-break (R-RES-17.4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from olmtui.frozen import frozen
from olmtui.model.primitives.version import ZERO
from olmtui.model.rules.resolution.constraints import (
    Conflict,
    Constraint,
    Dependency,
    Mandatory,
    Prohibited,
    Variable,
)
from olmtui.model.rules.resolution.entries import CatalogKey, Entry
from olmtui.model.rules.resolution.predicates import dependency_predicates
from olmtui.model.rules.resolution.sources import Sources, subscription_order
from olmtui.objects import name_of, spec, status


@dataclass(slots=True)
class Draft:
    """A variable under construction: ``entry`` for bundle variables, ``replaces`` the
    installed CSV a Subscription candidate would replace (R-RES-10.6)."""

    id: str
    constraints: list[Constraint] = field(default_factory=list)
    entry: Entry | None = None
    replaces: str = ""

    def frozen(self) -> Variable:
        return Variable(self.id, tuple(self.constraints))


@frozen
class SubscriptionSpec:
    """What resolution reads of one Subscription (R-RES-10, R-RES-22)."""

    name: str
    package: str
    channel: str
    source: str
    source_namespace: str
    starting_csv: str
    installed_csv: str

    @classmethod
    def of(cls, sub: Mapping[str, Any]) -> SubscriptionSpec:
        wanted = spec(sub)
        return cls(
            name=name_of(sub),
            package=str(wanted.get("name") or ""),
            channel=str(wanted.get("channel") or ""),
            source=str(wanted.get("source") or ""),
            source_namespace=str(wanted.get("sourceNamespace") or ""),
            starting_csv=str(wanted.get("startingCSV") or ""),
            installed_csv=str(status(sub).get("installedCSV") or ""),
        )


def _requires(name: str, ids: Sequence[str]) -> Dependency:
    """R-RES-10.7: the Subscription's dependency over its candidates, OLM's texts."""
    if not ids:
        return Dependency((), f"no operators found matching the criteria of subscription {name}")
    text = ids[0] if len(ids) == 1 else f"at least one of {', '.join(ids[:-1])} or {ids[-1]}"
    return Dependency(tuple(ids), f"subscription {name} requires {text}")


@dataclass(slots=True)
class Builder:
    """Makes the variables of one resolution over ``sources`` (R-RES-13)."""

    sources: Sources
    drafts: dict[str, Draft] = field(default_factory=dict)
    #: Subscription name -> the ids its dependency lists (candidates, then current).
    subscription_ids: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _visited: dict[int, Draft] = field(default_factory=dict)

    def existing(self) -> None:
        """R-RES-13.1: every installed CSV, and what their dependencies reach."""
        self.bundles([e for s in self.sources.catalog(self.sources.existing) for e in s.entries])

    def bundles(self, stack: list[Entry]) -> list[str]:
        """``getBundleVariables`` (R-RES-12): a variable per entry of ``stack`` and, depth
        first, per dependency candidate; the ids of ``stack``'s own entries, in its order."""
        initial = list(stack)
        while stack:
            entry = stack.pop()
            if id(entry) in self._visited:
                continue
            draft = self._draft(entry)
            self._visited[id(entry)] = draft
            for predicate in dependency_predicates(entry):
                found = self.sources.dependency_candidates(entry, predicate)
                for candidate in found:
                    self._draft(candidate)
                stack += found
                draft.constraints.append(
                    Dependency(
                        tuple(c.id for c in found),
                        f"bundle {entry.name} requires an operator {predicate}",  # R-RES-9.4
                    )
                )
        return [self._visited[id(e)].id for e in initial]

    def _draft(self, entry: Entry) -> Draft:
        """The variable of ``entry`` with the constraints it is born with (R-RES-9.1-2)."""
        existing = self.drafts.get(entry.id)
        if existing is not None and existing.entry is entry:
            return existing
        # A new id, or the same id from a duplicate entry: OLM keeps the last one made.
        draft = Draft(entry.id, entry=entry)
        if entry.catalog.virtual and entry.name not in self.sources.owners:
            draft.constraints.append(
                Mandatory(
                    f"clusterserviceversion {entry.name} exists and is not referenced "
                    "by a subscription"
                )
            )
        if any(kind == "olm.deprecated" for kind, _ in entry.properties):
            draft.constraints.append(Prohibited(f"bundle {entry.id} is deprecated"))
        self.drafts[entry.id] = draft
        return draft

    def subscription(self, sub: SubscriptionSpec) -> None:
        """``getSubscriptionVariables`` (R-RES-10)."""
        installed = (e for s in self.sources.catalog(self.sources.existing) for e in s.entries)
        current = next((e for e in installed if e.name == sub.installed_csv), None)
        found, invalid = self._filter(sub, current)
        if invalid is not None:
            self.drafts[f"subscription:{sub.name}"] = Draft(
                f"subscription:{sub.name}",
                [Mandatory(f"subscription {sub.name} exists"), Prohibited(invalid)],
            )
            return
        ordered = subscription_order(found)
        if current is not None:
            version = current.version or ZERO
            ordered = [  # R-RES-10.5: what can replace the installed CSV
                e
                for e in ordered
                if (e.skip_range is not None and e.skip_range.contains(version))
                or e.replaces == current.name
                or current.name in e.skips
            ]
        by_name: dict[str, list[Entry]] = {}
        for entry in found:
            by_name.setdefault(entry.name, []).append(entry)
        ids: list[str] = []
        for entry in ordered:
            for candidate_id in self.bundles(list(by_name[entry.name])):
                if candidate_id in ids:
                    continue
                ids.append(candidate_id)
                if current is not None:  # R-RES-10.6
                    candidate = self.drafts[candidate_id]
                    candidate.replaces = current.name
                    candidate.constraints.append(
                        Conflict(current.id, f"{candidate_id} conflicts with {current.id}")
                    )
        if current is not None:
            ids.append(current.id)
        self.subscription_ids[sub.name] = tuple(ids)
        self.drafts[f"subscription:{sub.name}"] = Draft(
            f"subscription:{sub.name}",
            [Mandatory(f"subscription {sub.name} exists"), _requires(sub.name, ids)],
        )

    def _filter(
        self, sub: SubscriptionSpec, current: Entry | None
    ) -> tuple[list[Entry], str | None]:
        """R-RES-10.3: the entries of the Subscription's catalog that pass its four counters,
        or OLM's text for the first counter left at zero."""
        counts = [0, 0, 0, 0]
        found: list[Entry] = []
        for snapshot in self.sources.catalog(CatalogKey(sub.source, sub.source_namespace)):
            counts[0] += len(snapshot.entries)
            # The package index holds exactly the entries OLM's package predicate accepts.
            for entry in snapshot.by_package.get(sub.package, ()):
                counts[1] += 1
                if sub.channel and entry.channel != sub.channel:
                    continue
                counts[2] += 1
                if current is None and sub.starting_csv and entry.name != sub.starting_csv:
                    continue
                counts[3] += 1
                found.append(entry)
        texts = (
            f"no operators found from catalog {sub.source} in namespace "
            f"{sub.source_namespace} referenced by subscription {sub.name}",
            f"no operators found in package {sub.package} in the catalog referenced by "
            f"subscription {sub.name}",
            f"no operators found in channel {sub.channel} of package {sub.package} in the "
            f"catalog referenced by subscription {sub.name}",
            f"no operators found with name {sub.starting_csv} in channel {sub.channel} of "
            f"package {sub.package} in the catalog referenced by subscription {sub.name}",
        )
        for count, text in zip(counts, texts, strict=True):
            if count == 0:
                return [], text
        return found, None
