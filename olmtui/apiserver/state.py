"""The loopback server's object store: objects, resourceVersions and the watch history.

Like etcd behind a real apiserver, every change gets the next resourceVersion (a
monotonic integer, sent as a string), and the last ``history`` changes are kept so that a
watch can resume from an older resourceVersion. A resume from before that window (or from
before :meth:`ClusterState.compact`) is refused with :class:`ResourceVersionTooOld`, which
the server turns into the 410 ``Expired`` answer clients must relist on.

Objects are plain JSON dicts. They are copied on the way in and never mutated afterwards,
so lists, continue snapshots and watch events can share them without copying.
"""

from __future__ import annotations

import builtins
import datetime as dt
import json
import threading
import uuid
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, Literal

from olmtui.apiserver.resources import Resource, by_kind, lookup
from olmtui.frozen import frozen

Obj = dict[str, Any]
EventType = Literal["ADDED", "MODIFIED", "DELETED"]

#: Top-level fields whose change does not bump ``metadata.generation``.
_NON_SPEC_FIELDS = frozenset({"apiVersion", "kind", "metadata", "status"})


class ResourceVersionTooOld(Exception):
    """The requested resourceVersion is older than the kept history (410 Expired)."""

    def __init__(self, requested: int, oldest: int) -> None:
        super().__init__(f"too old resource version: {requested} ({oldest})")
        self.requested = requested
        self.oldest = oldest


class ResourceVersionTooLarge(Exception):
    """The requested resourceVersion is newer than the store (504, a client bug or a
    resourceVersion remembered from another server)."""

    def __init__(self, requested: int, current: int) -> None:
        super().__init__(f"Too large resource version: {requested}, current: {current}")
        self.requested = requested
        self.current = current


class ObjectNotFound(KeyError):
    """update/delete of an object that does not exist."""


class ObjectExists(KeyError):
    """create of an object that already exists."""


@frozen
class StoredEvent:
    """One change, as the watch history keeps it.

    ``obj`` is what a watch event carries (for DELETED: the last state, stamped with the
    deletion's resourceVersion); ``old`` is the previous state, which a selective watch
    needs to tell "stopped matching" from "never matched".
    """

    rv: int
    type: EventType
    resource: Resource
    obj: Obj
    old: Obj | None


Listener = Callable[[StoredEvent], None]


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _json_default(value: Any) -> str:
    """YAML loaders turn unquoted timestamps into datetimes; the API speaks RFC 3339."""
    if isinstance(value, dt.datetime):
        moment: dt.datetime = value if value.tzinfo is None else value.astimezone(dt.UTC)
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(value, dt.date):
        return value.isoformat()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def _copy(obj: Obj) -> Obj:
    copied: Obj = json.loads(json.dumps(obj, default=_json_default))
    return copied


def stamp_rv(obj: Obj, rv: int) -> Obj:
    """``obj`` carrying resourceVersion ``rv`` (a new dict; the stored one is shared)."""
    return {**obj, "metadata": {**obj["metadata"], "resourceVersion": str(rv)}}


def _spec_of(obj: Obj) -> dict[str, Any]:
    return {k: v for k, v in obj.items() if k not in _NON_SPEC_FIELDS}


def _without_rv(obj: Obj) -> Obj:
    meta = {k: v for k, v in obj["metadata"].items() if k != "resourceVersion"}
    return {**obj, "metadata": meta}


class ClusterState:
    """Objects by resource, namespace and name, with resourceVersions and a change history.

    All methods are safe to call from any thread; listeners are called synchronously, in
    resourceVersion order, while the change is being made (the server's listener only
    hands the event over to its event loop).
    """

    def __init__(self, *, history: int = 10000) -> None:
        self._lock = threading.RLock()
        self._objects: dict[Resource, dict[tuple[str, str], Obj]] = {}
        self._rv = 1
        self._history: deque[StoredEvent] = deque(maxlen=max(1, history))
        self._compacted = 0  # every event with rv <= this is gone from the history
        self._listeners: list[Listener] = []

    # -- reading -------------------------------------------------------------------------
    @property
    def resource_version(self) -> str:
        """The current resourceVersion of the whole store, as lists report it."""
        return str(self._rv)

    @property
    def current_rv(self) -> int:
        return self._rv

    def get(self, kind: str, namespace: str | None, name: str) -> Obj | None:
        """A copy of one object (``kind`` is any name kubectl accepts), or None."""
        obj = self.stored(lookup(kind), namespace, name)
        return None if obj is None else _copy(obj)

    def stored(self, resource: Resource, namespace: str | None, name: str) -> Obj | None:
        """The stored object itself (shared, never mutate it), or None."""
        with self._lock:
            return self._bucket(resource).get(self._slot(resource, namespace, name))

    def list(self, kind: str, namespace: str | None = None) -> list[Obj]:
        """Copies of the objects of one kind, in (namespace, name) order. (Below this method
        the class body's ``list`` is the method, so annotations say ``builtins.list``.)"""
        return [_copy(o) for o in self.snapshot(lookup(kind), namespace)]

    def snapshot(self, resource: Resource, namespace: str | None = None) -> builtins.list[Obj]:
        """The stored objects (shared, never mutate them) in etcd key order."""
        with self._lock:
            bucket = self._bucket(resource)
            slots = (
                sorted(bucket)
                if namespace is None
                else sorted(s for s in bucket if s[0] == namespace)
            )
            return [bucket[s] for s in slots]

    def snapshot_with_rv(
        self,
        resource: Resource,
        namespace: str | None = None,
    ) -> tuple[builtins.list[Obj], int]:
        """Objects and the resourceVersion they are current at, taken atomically."""
        with self._lock:
            return self.snapshot(resource, namespace), self._rv

    def events_since(self, rv: int, resource: Resource) -> builtins.list[StoredEvent]:
        """The changes to ``resource`` after ``rv``; raises ResourceVersionTooOld, or
        ResourceVersionTooLarge for an ``rv`` the store has not reached."""
        with self._lock:
            self.check_reached(rv)
            if rv < self._compacted:
                raise ResourceVersionTooOld(rv, self._compacted + 1)
            return [e for e in self._history if e.rv > rv and e.resource is resource]

    def check_reached(self, rv: int) -> None:
        """Raise ResourceVersionTooLarge unless the store has reached ``rv``."""
        if rv > self._rv:
            raise ResourceVersionTooLarge(rv, self._rv)

    # -- change feed ---------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.remove(listener)

    def compact(self) -> None:
        """Forget the history, as an etcd compaction does: older RVs now give 410."""
        with self._lock:
            self._history.clear()
            self._compacted = self._rv

    # -- writing -------------------------------------------------------------------------
    def create(self, obj: Obj) -> Obj:
        """Store a new object; assigns resourceVersion, and uid, creationTimestamp and
        generation when the object has none (real objects keep theirs)."""
        with self._lock:
            return _copy(self._create(*self._prepare(obj)))

    def update(self, obj: Obj) -> Obj:
        """Replace an existing object; a change outside metadata and status bumps
        ``generation``. An update that changes nothing is a no-op, as on a real server."""
        with self._lock:
            return _copy(self._update(*self._prepare(obj)))

    def apply(self, obj: Obj) -> Obj:
        """Create the object, or update it if it exists."""
        with self._lock:
            return _copy(self._apply(*self._prepare(obj)))

    def delete(self, kind: str, namespace: str | None, name: str) -> Obj:
        """Remove an object; the DELETED event carries its last state with a new RV."""
        resource = lookup(kind)
        with self._lock:
            slot = self._slot(resource, namespace, name)
            old = self._bucket(resource).pop(slot, None)
            if old is None:
                raise ObjectNotFound(f"{resource.qualified_plural} {name!r} not found")
            self._rv += 1
            event = StoredEvent(self._rv, "DELETED", resource, stamp_rv(old, self._rv), old)
            self._record(event)
            return _copy(event.obj)

    def load(self, objs: Iterable[Obj], *, skip_unknown: bool = False) -> int:
        """Apply many objects (``kind: List`` documents are expanded); returns how many
        were applied. Unknown kinds raise KeyError unless ``skip_unknown``."""
        count = 0
        for obj in objs:
            if not obj:
                continue
            if obj.get("kind", "").endswith("List") and isinstance(obj.get("items"), list):
                count += self.load(obj["items"], skip_unknown=skip_unknown)
                continue
            try:
                by_kind(obj.get("kind", ""))
            except KeyError:
                if skip_unknown:
                    continue
                raise
            with self._lock:
                self._apply(*self._prepare(obj))
            count += 1
        return count

    # -- internals -----------------------------------------------------------------------
    def _bucket(self, resource: Resource) -> dict[tuple[str, str], Obj]:
        return self._objects.setdefault(resource, {})

    @staticmethod
    def _slot(resource: Resource, namespace: str | None, name: str) -> tuple[str, str]:
        return ((namespace or "") if resource.namespaced else "", name)

    def _slot_of(self, resource: Resource, obj: Obj) -> tuple[str, str]:
        return self._slot(resource, obj["metadata"].get("namespace"), obj["metadata"]["name"])

    @staticmethod
    def _prepare(obj: Obj) -> tuple[Resource, Obj]:
        resource = by_kind(obj.get("kind", ""))
        stored = _copy(obj)
        meta = stored.get("metadata")
        if not isinstance(meta, dict) or not meta.get("name"):
            raise ValueError(f"{resource.kind} without metadata.name")
        if resource.namespaced and not meta.get("namespace"):
            raise ValueError(f"{resource.kind} {meta['name']!r} without metadata.namespace")
        if not resource.namespaced:
            meta.pop("namespace", None)
        stored["apiVersion"] = resource.api_version
        return resource, stored

    def _apply(self, resource: Resource, stored: Obj) -> Obj:
        if self._slot_of(resource, stored) in self._bucket(resource):
            return self._update(resource, stored)
        return self._create(resource, stored)

    def _create(self, resource: Resource, stored: Obj) -> Obj:
        slot = self._slot_of(resource, stored)
        if slot in self._bucket(resource):
            raise ObjectExists(f"{resource.qualified_plural} {slot[1]!r} already exists")
        meta = stored["metadata"]
        meta.setdefault("uid", str(uuid.uuid4()))
        meta.setdefault("creationTimestamp", _now())
        meta.setdefault("generation", 1)
        return self._commit("ADDED", resource, slot, stored, None)

    def _update(self, resource: Resource, stored: Obj) -> Obj:
        slot = self._slot_of(resource, stored)
        old = self._bucket(resource).get(slot)
        if old is None:
            raise ObjectNotFound(f"{resource.qualified_plural} {slot[1]!r} not found")
        meta = stored["metadata"]
        for field in ("uid", "creationTimestamp"):
            if field in old["metadata"]:
                meta.setdefault(field, old["metadata"][field])
        generation = old["metadata"].get("generation", 1)
        if _spec_of(stored) != _spec_of(old):
            generation += 1
        meta["generation"] = generation
        if _without_rv(stored) == _without_rv(old):
            return old
        return self._commit("MODIFIED", resource, slot, stored, old)

    def _commit(
        self,
        kind: EventType,
        resource: Resource,
        slot: tuple[str, str],
        stored: Obj,
        old: Obj | None,
    ) -> Obj:
        self._rv += 1
        stored["metadata"]["resourceVersion"] = str(self._rv)
        self._bucket(resource)[slot] = stored
        self._record(StoredEvent(self._rv, kind, resource, stored, old))
        return stored

    def _record(self, event: StoredEvent) -> None:
        if len(self._history) == self._history.maxlen:
            self._compacted = self._history[0].rv
        self._history.append(event)
        for listener in list(self._listeners):
            listener(event)
