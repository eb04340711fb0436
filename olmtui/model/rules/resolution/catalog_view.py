"""Which catalog namespaces a namespace resolves from (R-RES-3), and why a catalog outside
them is the namespace's view's fault, never the catalog's: shared by the findings on OLM's
resolution failures and on the Subscriptions that carry them."""

from __future__ import annotations

from olmtui.frozen import frozen
from olmtui.kinds import CATALOG_SOURCE, OPERATOR_GROUP
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.resolution.catalog_namespaces import (
    EXCLUDE_GLOBAL,
    OPENSHIFT_GLOBAL,
    UPSTREAM_GLOBAL,
)
from olmtui.objects import Obj, meta


@frozen
class Visibility:
    """Which catalog namespaces a namespace resolves from (R-RES-3): its own and, unless its
    one OperatorGroup (``group``) carries the exclusion annotation, the global one (the
    catalog operator's ``-namespace``, which olmtui cannot read: either well-known one)."""

    group: Obj | None = None

    @property
    def excluded(self) -> bool:
        annotations = meta(self.group or {}).get("annotations") or {}
        return annotations.get(EXCLUDE_GLOBAL) == "true"  # as the resolver reads it

    def sees(self, namespace: str, catalog_namespace: str) -> bool:
        """Whether the namespace may resolve from catalogs in ``catalog_namespace``: only
        ``False`` when that is certain. Without the annotation, either well-known global
        namespace may be the global one (a partial read may not show which)."""
        if catalog_namespace == namespace:
            return True
        if self.excluded:
            return False
        return catalog_namespace in (OPENSHIFT_GLOBAL, UPSTREAM_GLOBAL)


def view_cause(
    namespace: str, where: tuple[str, str], visibility: Visibility
) -> tuple[str, str, tuple[ObjectRef, ...]]:
    """R-RES-3: why ``namespace`` does not resolve from the catalog at ``where``, the fix, and
    the objects involved (the catalog and the namespace's OperatorGroup)."""
    catalog_ns, catalog = where
    group = visibility.group
    group_name = meta(group or {}).get("name") or "?"
    related = (
        ObjectRef(CATALOG_SOURCE, catalog_ns, catalog),
        *((ObjectRef(OPERATOR_GROUP, namespace, group_name),) if group is not None else ()),
    )
    if visibility.excluded:
        why = (
            f'its OperatorGroup {group_name} carries {EXCLUDE_GLOBAL}: "true", so '
            f"{namespace} resolves only from catalogs in its own namespace, not from {catalog_ns}"
        )
        fix = (
            f"Remove that annotation from OperatorGroup {namespace}/{group_name}, or create "
            f"the CatalogSource in {namespace} and point spec.sourceNamespace there"
        )
    else:
        why = (
            f"{namespace} resolves only from its own namespace and the global catalog "
            f"namespace ({OPENSHIFT_GLOBAL} on OpenShift, {UPSTREAM_GLOBAL} upstream, unless "
            f"OLM's catalog operator runs with another -namespace), and {catalog_ns} is neither"
        )
        fix = (
            f"Create the CatalogSource in {namespace} or the global catalog namespace and "
            "point spec.source/spec.sourceNamespace at it"
        )
    return why, fix, related
