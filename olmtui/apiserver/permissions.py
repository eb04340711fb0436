"""Per-resource RBAC denials, for testing how clients cope with 403 Forbidden.

RBAC is additive on a real cluster; here everything is allowed unless a test forbids it:
a verb on a resource either everywhere (``namespace=None``, which includes the cluster
scope), at the cluster scope only (``namespace=""``: a user who may not list across
namespaces but may read their own), or in one namespace only.
"""

from __future__ import annotations

from collections.abc import Iterable

from olmtui.apiserver.resources import READ_VERBS, Resource


class Permissions:
    def __init__(self) -> None:
        self._denied: set[tuple[str, str | None, str]] = set()

    def forbid(
        self, resource: Resource, namespace: str | None = None, verbs: Iterable[str] = READ_VERBS
    ) -> None:
        self._denied.update((resource.plural, namespace, verb) for verb in verbs)

    def allow(
        self, resource: Resource, namespace: str | None = None, verbs: Iterable[str] = READ_VERBS
    ) -> None:
        """Undo :meth:`forbid`; with ``namespace=None`` every denial of the verbs goes."""
        verbs = set(verbs)
        self._denied = {
            (plural, ns, verb)
            for plural, ns, verb in self._denied
            if not (
                plural == resource.plural
                and verb in verbs
                and (namespace is None or ns == namespace)
            )
        }

    def allowed(self, resource: Resource, verb: str, namespace: str | None) -> bool:
        """Whether ``verb`` is allowed at the cluster scope (None) or in ``namespace``."""
        if (resource.plural, None, verb) in self._denied:
            return False
        if namespace is None:
            return (resource.plural, "", verb) not in self._denied
        return (resource.plural, namespace, verb) not in self._denied
