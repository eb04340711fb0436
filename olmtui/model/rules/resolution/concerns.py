"""Which parts of a namespace's resolution concern one Subscription, and which object a
line of the explanation names: what the Resolution view marks and lets one open (R-RES-20).
Pure reads of a :class:`NamespaceResolution`."""

from __future__ import annotations

import re

from olmtui.kinds import CATALOG_SOURCE
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.resolution.operators import brought_by
from olmtui.model.rules.resolution.result import ExplainedConstraint, NamespaceResolution

#: Findings whose subject is a namespace's resolution: Enter on them opens the Resolution view.
RESOLUTION_CODES = frozenset(
    {"ResolutionWouldFail", "ResolutionWouldStop", "ResolutionNotEvaluated"}
)
#: ``Kind ns/name`` as the explanation names objects; a bundle names its catalog.
_OBJECT = re.compile(r"^(Subscription|ClusterServiceVersion|CatalogSource) ([^/\s]+)/(\S+)$")
_BUNDLE = re.compile(r"^bundle (\S+) \(catalog ([^/\s]+)/([^)\s]+)\)$")


def object_ref(text: str) -> ObjectRef | None:
    """The object an explanation names (``Subscription ns/S``, ``ClusterServiceVersion
    ns/X``), or the CatalogSource of a bundle it names; ``None`` for anything else."""
    found = _OBJECT.match(text)
    if found:
        return ObjectRef(found.group(1), found.group(2), found.group(3))
    found = _BUNDLE.match(text)
    if found:
        return ObjectRef(CATALOG_SOURCE, found.group(2), found.group(3))
    return None


def subscription_operators(resolution: NamespaceResolution, sub: str) -> set[str]:
    """The operators there for Subscription ``ns/name``: its own, and their dependencies
    (and theirs), by the reasons the resolver gives (R-RES-20)."""
    return brought_by(((o.name, o.reason) for o in resolution.operators), f"Subscription {sub}")


def subscription_constraints(resolution: NamespaceResolution, sub: str) -> set[ExplainedConstraint]:
    """The constraints of the explanation that concern Subscription ``ns/name``: those
    naming it, and those naming a bundle one of these names (its candidates)."""
    own = f"Subscription {sub}"
    naming = {c for c in resolution.explanation if own in c.objects}
    bundles = {o for c in naming for o in c.objects if o.startswith("bundle ")}
    return naming | {c for c in resolution.explanation if bundles & set(c.objects)}
