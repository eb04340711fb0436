"""The OperatorGroups the model has seen, indexed by what a change needs to find the groups
it affects: which groups a namespace's labels may select (R-OG-1), which list a namespace by
name, whose status names it (R-OG-5, R-COPY-3), and whose effective namespaces reach it
(R-API-4, R-NS-3).
"""

from __future__ import annotations

from collections.abc import Callable

from olmtui.model.incremental.keys_by_name import KeysByName
from olmtui.model.incremental.stages import NSKey
from olmtui.model.primitives import nsset
from olmtui.model.rules.apis.reconcile import APISet, group_provided_apis
from olmtui.model.rules.operatorgroups.targets import (
    effective_namespaces,
    is_empty_selector,
    status_namespaces,
)
from olmtui.objects import Obj, spec

#: A group as the others see it: its effective namespaces and the APIs it claims.
Signature = tuple[nsset.NSSet, APISet]

#: Reads one group from where the groups are kept (the Store), by namespace and name.
GroupReader = Callable[[str, str], Obj | None]
_NO_NAMES: frozenset[str] = frozenset()


def status_set(og: Obj | None) -> set[str]:
    """Namespaces a non-global group's status names (R-OG-5 labels, copy targets)."""
    if og is None:
        return set()
    named = frozenset(status_namespaces(og) or ())
    return set() if nsset.is_all(named) else {n for n in named if n}


class GroupIndex:
    """OperatorGroups by namespace and name, and the reverse lookups a change needs. The
    groups themselves are read through ``read`` (the Store), never held: the Store keeps a
    bare group compact (``GroupTargets``), which a reference held here would defeat."""

    def __init__(self, read: GroupReader) -> None:
        self._read = read
        #: The names of each namespace's groups; a namespace's lone group as its name alone,
        #: without a set of one (400,000 namespaces of one group).
        self._by_namespace: dict[str, str | set[str]] = {}
        #: Groups that select namespaces by label: any label change may move their targets.
        self.selecting: set[NSKey] = set()
        self._listed_by = KeysByName()
        self._status_members = KeysByName()
        #: Each group's effective namespaces (R-NS-3) and claimed APIs (R-API-4).
        self.effective: dict[NSKey, nsset.NSSet] = {}
        self.apis: dict[NSKey, APISet] = {}
        self._reaching = KeysByName()
        #: Groups whose effective namespaces are all namespaces.
        self.global_groups: set[NSKey] = set()

    # -- reading ----------------------------------------------------------------------------
    def get(self, key: NSKey) -> Obj | None:
        return self._read(*key) if key[1] in self.names(key[0]) else None

    def names(self, namespace: str) -> frozenset[str] | set[str]:
        """The names of one namespace's groups (never to be changed by the caller)."""
        names = self._by_namespace.get(namespace, _NO_NAMES)
        return frozenset((names,)) if isinstance(names, str) else names

    def in_namespace(self, namespace: str) -> dict[str, Obj]:
        """Name -> group, of one namespace, read anew."""
        read = self._read
        return {n: og for n in self.names(namespace) if (og := read(namespace, n)) is not None}

    def listing(self, namespace: str) -> frozenset[NSKey] | set[NSKey]:
        """Groups whose ``spec.targetNamespaces`` names ``namespace``."""
        return self._listed_by.get(namespace)

    def naming_in_status(self, namespace: str) -> frozenset[NSKey] | set[NSKey]:
        """Non-global groups whose ``status.namespaces`` names ``namespace``."""
        return self._status_members.get(namespace)

    def signature(self, key: NSKey) -> Signature | None:
        if key not in self.effective:
            return None
        return self.effective[key], self.apis[key]

    def candidates(self, signature: Signature | None) -> set[NSKey]:
        """Groups whose effective set may meet ``signature``'s (R-API-4, R-NS-3)."""
        if signature is None or not signature[0]:
            return set()
        effective = signature[0]
        if nsset.is_all(effective):
            return {k for k, e in self.effective.items() if e}
        found = set(self.global_groups)
        for name in effective:
            found |= self._reaching.get(name)
        return found

    # -- the change feed --------------------------------------------------------------------
    def remove(self, key: NSKey, old: Obj | None) -> None:
        names = self._by_namespace.get(key[0])
        if isinstance(names, str):
            if names == key[1]:
                del self._by_namespace[key[0]]
        elif names is not None:
            names.discard(key[1])
            if not names:
                del self._by_namespace[key[0]]
        self.selecting.discard(key)
        if old is not None:
            for name in spec(old).get("targetNamespaces") or []:
                self._listed_by.discard(str(name), key)
            for name in status_set(old):
                self._status_members.discard(name, key)
        effective = self.effective.pop(key, None)
        self.apis.pop(key, None)
        self.global_groups.discard(key)
        if effective is not None and not nsset.is_all(effective):
            for name in effective:
                self._reaching.discard(name, key)

    def add(self, key: NSKey, og: Obj) -> None:
        names = self._by_namespace.get(key[0])
        if names is None or names == key[1]:
            self._by_namespace[key[0]] = key[1]
        elif isinstance(names, str):
            self._by_namespace[key[0]] = {names, key[1]}
        else:
            names.add(key[1])
        og_spec = spec(og)
        listed = og_spec.get("targetNamespaces") or []
        if isinstance(listed, list) and listed:
            for name in listed:
                self._listed_by.add(str(name), key)
        elif not is_empty_selector(og_spec.get("selector")):
            self.selecting.add(key)
        for name in status_set(og):
            self._status_members.add(name, key)
        effective = effective_namespaces(key[0], status_namespaces(og))
        self.effective[key] = effective
        self.apis[key] = group_provided_apis(og)[1]
        if nsset.is_all(effective):
            self.global_groups.add(key)
        else:
            for name in effective:
                self._reaching.add(name, key)
