"""From the solver's selection to the report's operators and changes (R-RES-20).

OLM installs the selected bundles that do not come from ``@existing``; one is left without
steps when every Subscription it matches already has it as ``currentCSV`` and its CSV is in
the namespace. The report also lists the installed operators kept, and says why each one is
there: a Subscription, a dependency of another selected bundle, or because it is installed.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from olmtui.model.rules.resolution.constraints import Dependency
from olmtui.model.rules.resolution.result import ResolvedOperator
from olmtui.model.rules.resolution.variables import Draft, SubscriptionSpec


def _reason(
    draft: Draft,
    namespace: str,
    subscription_ids: Mapping[str, Sequence[str]],
    selected: Sequence[Draft],
) -> str:
    """R-RES-20: ``for`` of one operator; an installed one is there for its Subscription or
    because it is installed, even when it also satisfies a dependency."""
    for name, ids in subscription_ids.items():
        if draft.id in ids:
            return f"Subscription {namespace}/{name}"
    if draft.entry is not None and draft.entry.catalog.virtual:
        return "existing"
    for other in selected:
        for c in other.constraints:
            if isinstance(c, Dependency) and draft.id in c.ids and other.entry is not None:
                return f"dependency of {other.entry.name}"
    return "existing"


def _skipped(
    draft: Draft,
    subscriptions: Sequence[SubscriptionSpec],
    current_csvs: Mapping[str, str],
    csv_names: Collection[str],
) -> bool:
    """R-RES-20.2: nothing to do for an operator every matching Subscription already has as
    ``currentCSV``, with its CSV present."""
    entry = draft.entry
    assert entry is not None
    matching = [
        s
        for s in subscriptions
        if s.package == entry.package
        and s.channel in ("", entry.channel)
        and (
            (not s.source and not s.source_namespace)
            or (s.source, s.source_namespace) == (entry.catalog.name, entry.catalog.namespace)
        )
    ]
    return (
        bool(matching)
        and all(current_csvs.get(s.name) == entry.name for s in matching)
        and entry.name in csv_names
    )


def operators_of(
    selected: Sequence[Draft],
    namespace: str,
    subscriptions: Sequence[SubscriptionSpec],
    subscription_ids: Mapping[str, Sequence[str]],
    current_csvs: Mapping[str, str],
    csv_names: Collection[str],
) -> tuple[tuple[ResolvedOperator, ...], tuple[str, ...]]:
    """The report's ``operators`` (sorted by name) and ``changes`` (R-RES-20)."""
    operators: list[ResolvedOperator] = []
    changes: list[str] = []
    for draft in selected:
        entry = draft.entry
        assert entry is not None
        existing = entry.catalog.virtual
        operators.append(
            ResolvedOperator(
                name=entry.name,
                package=entry.package,
                channel=entry.channel,
                catalog=entry.catalog.label,
                replaces=(draft.replaces or entry.replaces or None) if not existing else None,
                reason=_reason(draft, namespace, subscription_ids, selected),
            )
        )
        if not existing and not _skipped(draft, subscriptions, current_csvs, csv_names):
            changes.append(entry.name)
    operators.sort(key=lambda o: (o.name, o.catalog, o.channel))
    return tuple(operators), tuple(sorted(changes))


_DEPENDENCY = "dependency of "


def brought_by(operators: Iterable[tuple[str, str]], subscription: str) -> set[str]:
    """The operators there for ``subscription`` (``"Subscription ns/name"``), from
    ``(name, reason)`` pairs as the resolver gives them (R-RES-20): the ones it selected,
    and their dependencies, and theirs."""
    operators = list(operators)
    kept = {name for name, reason in operators if reason == subscription}
    grew = True
    while grew:
        more = {
            name
            for name, reason in operators
            if name not in kept
            and reason.startswith(_DEPENDENCY)
            and reason.removeprefix(_DEPENDENCY) in kept
        }
        grew = bool(more)
        kept |= more
    return kept
