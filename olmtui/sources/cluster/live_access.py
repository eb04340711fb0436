"""Which kinds the live source may not read, kept in ``Store.unreadable``.

A 403 is "no access", never "nothing there": the model must not derive findings from the
absence of objects it was not allowed to see, and the screens must say why a view is empty
(or that its rows are the last ones seen). A kind is unreadable while any of its streams is
"no access" (the real CSVs and their copies are two streams of one kind; ``--namespace``
sessions have one stream per namespace, and then name the namespaces), except that the
Namespace objects a ``--namespace`` session fetched one by one make up for a forbidden
Namespace list.
"""

from __future__ import annotations

import time

from olmtui.sources.cluster.live_status import LiveStatus
from olmtui.store import Store, Unreadable


class AccessTracker:
    """Registered on a :class:`LiveStatus`: turns stream states into ``Store.unreadable``."""

    def __init__(self, store: Store, recheck: float | None) -> None:
        self.store = store
        self.recheck = recheck
        #: stream name -> (kind, plural resource name, namespace or None for cluster-wide)
        self._streams: dict[str, tuple[str, str, str | None]] = {}
        #: stream name -> the stream whose "no access" it makes up for when live
        self._covers: dict[str, str] = {}

    def track(self, stream: str, kind: str, resource: str, namespace: str | None = None) -> None:
        """A stream reading objects of ``kind`` (``resource`` is its plural), in
        ``namespace`` or cluster-wide."""
        self._streams[stream] = (kind, resource, namespace)

    def untrack(self, stream: str) -> None:
        """A stream that stopped for good (R-EVD-12): its refusals no longer count."""
        self._streams.pop(stream, None)

    def cover(self, stream: str, target: str) -> None:
        """While ``stream`` is live, ``target``'s "no access" hides nothing."""
        self._covers[stream] = target

    def __call__(self, status: LiveStatus) -> None:
        forbidden: dict[str, list[str]] = {}
        resources: dict[str, str] = {}
        #: kind -> the namespaces it may not be read in; None once a cluster-wide stream is
        #: forbidden
        where: dict[str, set[str] | None] = {}
        covered = {
            target
            for name, target in self._covers.items()
            if name in status.streams and status.streams[name].state == "live"
        }
        for name, (kind, resource, namespace) in self._streams.items():
            stream = status.streams.get(name)
            if stream is None or stream.state != "no access" or name in covered:
                continue
            forbidden.setdefault(kind, []).append(f"{name}: {stream.last_error}")
            resources[kind] = resource
            namespaces = where.setdefault(kind, set())
            if namespace is None or namespaces is None:
                where[kind] = None
            else:
                namespaces.add(namespace)
        for kind in list(self.store.unreadable):
            if kind not in forbidden:
                self.store.set_unreadable(kind, None)
        for kind, reasons in forbidden.items():
            namespaces = where[kind]
            self.store.set_unreadable(
                kind,
                Unreadable(
                    resources[kind],
                    "; ".join(sorted(reasons)),
                    time.time(),
                    self.recheck,
                    None if namespaces is None else tuple(sorted(namespaces)),
                ),
            )
