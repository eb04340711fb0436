"""Why the resolver's pick for a Subscription is not its first candidate (R-RES-17).

OLM's resolver tries a Subscription's candidates in channel order, head first (R-RES-10.4),
and takes the first one that keeps the whole problem satisfiable (R-RES-17). When it takes a
later one (an older bundle, or the installed CSV itself), every candidate ahead of the pick
was ruled out by something: a dependency no catalog provides, a deprecation, a conflict with
what is installed. To say which, the problem is solved once more with the Subscription
restricted to those candidates ahead of its pick: that problem is unsatisfiable, and its
minimal explanation (R-RES-18) names the constraint that rules them out, cause first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from olmtui.model.rules.resolution.constraints import Dependency, Mandatory, Variable
from olmtui.model.rules.resolution.explanation import ExplainFacts, explain
from olmtui.model.rules.resolution.result import HeldBack
from olmtui.model.rules.resolution.solver import NotSatisfiable, cause_rank, solve
from olmtui.model.rules.resolution.variables import Builder


def _bundle_name(builder: Builder, id: str) -> str:
    draft = builder.drafts.get(id)
    return draft.entry.name if draft is not None and draft.entry is not None else id


def _because(result: object, namespace: str, facts: ExplainFacts, sub: str) -> str:
    """One line from the explanation of the restricted problem: its first cause that is
    not the restriction itself (the Subscription's own Mandatory and Dependency)."""
    if not isinstance(result, NotSatisfiable):
        # R-RES-17: the choices made for Subscriptions resolved earlier (by name) left
        # no room for the newer bundles; no single constraint says it.
        return "the choices the resolver made first for other operators leave no room for them"
    own = f"subscription:{sub}"
    for explained, applied in zip(
        explain(result, namespace, facts), result.constraints, strict=True
    ):
        if applied.variable == own:
            continue
        # a cause (R-RES-18's rank 0) reads best as its fix; anything else in OLM's words
        return explained.fix if cause_rank(applied) == 0 and explained.fix else explained.constraint
    return "the resolver's constraints rule them out"


def held_back(
    builder: Builder,
    variables: Sequence[Variable],
    anchors: Sequence[str],
    selected: Sequence[str],
    namespace: str,
    facts: Callable[[], ExplainFacts],
) -> tuple[HeldBack, ...]:
    """Every Subscription whose pick in ``selected`` is not its first candidate, with the
    reason (one extra solve each; none when every Subscription gets its first choice)."""
    chosen = set(selected)
    out: list[HeldBack] = []
    ids_of: Mapping[str, tuple[str, ...]] = builder.subscription_ids
    for sub, ids in sorted(ids_of.items()):
        position = next((i for i, id in enumerate(ids) if id in chosen), None)
        if not position:  # the first candidate, or nothing chosen (not a solution of ours)
            continue
        ahead = ids[:position]
        own = f"subscription:{sub}"
        restricted = [
            Variable(
                own,
                (
                    Mandatory(f"subscription {sub} exists"),
                    Dependency(ahead, f"subscription {sub} requires a newer candidate"),
                ),
            )
            if v.id == own
            else v
            for v in variables
        ]
        picked_id = ids[position]
        draft = builder.drafts.get(picked_id)
        installed = draft is not None and draft.entry is not None and draft.entry.catalog.virtual
        out.append(
            HeldBack(
                sub,
                _bundle_name(builder, ahead[0]),
                None if installed else _bundle_name(builder, picked_id),
                _because(solve(restricted, anchors), namespace, facts(), sub),
            )
        )
    return tuple(out)
