"""What the Resolution view needs beyond the resolver: its inputs gathered on the UI thread
(the cache is only read there), one catalog content per catalog list, and which parts of a
namespace's resolution concern one Subscription.

Resolving reads the namespace's objects and the catalog content; the content's snapshots
are the slow part (a large catalog takes most of a second), so one
:class:`CatalogContent` is kept per list of catalogs the session hands out (the list is
replaced when the catalogs change) and every resolution reuses the entries it built.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from olmtui.model.resolution.operators import brought_by
from olmtui.model.resolution.resolve import (
    CatalogContent,
    NamespaceObjects,
    cluster_objects,
    global_catalog_namespace,
    resolve_namespace,
)
from olmtui.model.resolution.result import ExplainedConstraint, NamespaceResolution
from olmtui.model.types import ObjectRef
from olmtui.pipeline.session import Session

#: Where the content is kept in ``session.derived_cache``.
_CONTENT = "resolution-content"
#: Findings whose subject is a namespace's resolution: Enter on them opens this view.
RESOLUTION_CODES = frozenset(
    {"ResolutionWouldFail", "ResolutionWouldStop", "ResolutionNotEvaluated"}
)
#: ``Kind ns/name`` as the explanation names objects; a bundle names its catalog.
_OBJECT = re.compile(r"^(Subscription|ClusterServiceVersion|CatalogSource) ([^/\s]+)/(\S+)$")
_BUNDLE = re.compile(r"^bundle (\S+) \(catalog ([^/\s]+)/([^)\s]+)\)$")


def catalog_content(session: Session) -> CatalogContent:
    """The content for the session's catalogs now, made once per catalog list (the
    session replaces the list when its catalogs change, e.g. PackageManifests moved)."""
    catalogs = session.catalogs()
    hit = session.derived_cache.get(_CONTENT)
    if hit is not None and hit[1][0] is catalogs:
        content: CatalogContent = hit[1][1]
        return content
    content = CatalogContent(catalogs)
    # the list itself is kept: its id cannot be reused while the cache holds it
    session.derived_cache[_CONTENT] = (id(catalogs), (catalogs, content))
    return content


@dataclass(frozen=True, slots=True)
class ResolutionInputs:
    """Everything one namespace's resolution reads, taken from the cache at one moment, so
    that a worker thread can resolve it while the cache moves on."""

    objects: NamespaceObjects
    content: CatalogContent
    global_namespace: str
    has_content: bool

    def same_as(self, other: ResolutionInputs | None) -> bool:
        """Whether ``other`` holds the very same objects (the cache replaces an object
        when it changes, so identity says nothing moved) and content."""
        if other is None or other.content is not self.content:
            return False
        if other.global_namespace != self.global_namespace:
            return False
        a, b = self.objects, other.objects
        return (
            a.catalog_sources_read == b.catalog_sources_read
            and same_objects(a.operator_groups, b.operator_groups)
            and same_objects(a.subscriptions, b.subscriptions)
            and same_objects(a.csvs, b.csvs)
            and a.catalog_sources.keys() == b.catalog_sources.keys()
            and all(same_objects(v, b.catalog_sources[k]) for k, v in a.catalog_sources.items())
        )

    def resolve(self) -> NamespaceResolution:
        """Slow with a large catalog: call it off the UI thread."""
        return resolve_namespace(self.objects, self.content, self.global_namespace)


def same_objects(a: Iterable[object], b: Iterable[object]) -> bool:
    """Whether ``a`` and ``b`` hold the very same objects in the same order (identity: the
    cache and the catalog set replace what changes, never edit it in place)."""
    left, right = list(a), list(b)
    return len(left) == len(right) and all(x is y for x, y in zip(left, right, strict=True))


def inputs(session: Session, namespace: str) -> ResolutionInputs:
    """The inputs of ``namespace``'s resolution now (on the UI thread: it reads the cache).
    The global catalog namespace is the session's when given, else OLM's default (R-RES-3)."""
    store = session.store
    given = session.global_namespace
    content = catalog_content(session)
    return ResolutionInputs(
        cluster_objects(store, [namespace])[0],
        content,
        given or global_catalog_namespace(store),
        any(c.graph == "catalog" for c in session.catalogs()),
    )


def object_ref(text: str) -> ObjectRef | None:
    """The object an explanation names (``Subscription ns/S``, ``ClusterServiceVersion
    ns/X``), or the CatalogSource of a bundle it names; ``None`` for anything else."""
    found = _OBJECT.match(text)
    if found:
        return ObjectRef(found.group(1), found.group(2), found.group(3))
    found = _BUNDLE.match(text)
    if found:
        return ObjectRef("CatalogSource", found.group(2), found.group(3))
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
