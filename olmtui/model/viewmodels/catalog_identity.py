"""What each CatalogSource *is*: how it serves (an image OLM runs, an address someone else
runs, a ConfigMap, or the test catalog ``operator-sdk run bundle`` makes), from where, at
which priority, how often its image is polled, and its pods' health, for the ``:catsrc``
view and the report's ``catalogSources[]``.

``operator-sdk run bundle`` makes a grpc CatalogSource over an index image it builds, and
marks it with the ``operators.operatorframework.io/index-image`` annotation: a catalog
made to try one bundle, not a source of production operators.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from olmtui.frozen import frozen
from olmtui.kinds import CATALOG_SOURCE, POD
from olmtui.model.rules.catalog.health import health_of
from olmtui.objects import Obj, annotations_of, meta, spec, status
from olmtui.store import Store

#: The annotation ``operator-sdk run bundle`` puts on the catalog it makes.
RUN_BUNDLE_ANNOTATION = "operators.operatorframework.io/index-image"
#: The label OLM puts on a catalog's registry pods: the CatalogSource's name.
CATALOG_POD_LABEL = "olm.catalogSource"


@frozen
class CatalogPod:
    """One registry pod of a catalog, as read: phase, readiness, restarts, and why a
    container waits (``CrashLoopBackOff``, ``ImagePullBackOff``), if one does."""

    name: str
    phase: str | None
    ready: bool
    restarts: int
    waiting: str | None


@frozen
class CatalogIdentity:
    """One CatalogSource: ``kind`` says how it serves, in words (``grpc image``, ``grpc
    address``, ``configmap``, ``run bundle test catalog``, or its ``sourceType`` as written);
    ``polling`` is ``spec.updateStrategy.registryPoll.interval`` (``None``: not polled)."""

    namespace: str
    name: str
    source_type: str | None
    kind: str
    image: str | None
    address: str | None
    configmap: str | None
    priority: int
    publisher: str | None
    polling: str | None
    state: str | None
    test_catalog: bool
    pods: tuple[CatalogPod, ...]


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _kind(source_type: str | None, image: str | None, address: str | None, test: bool) -> str:
    if test:
        return "run bundle test catalog"
    if source_type == "configmap" or source_type == "internal":
        return "configmap"
    if source_type == "grpc":
        # OLM runs the image when one is given; an address alone is a registry run elsewhere
        return "grpc image" if image else "grpc address" if address else "grpc"
    return source_type or "unknown"


def _pod(pod: Obj) -> CatalogPod:
    pod_status = status(pod)
    containers = [c for c in pod_status.get("containerStatuses") or () if isinstance(c, Mapping)]
    waiting = None
    for container in containers:
        state = container.get("state")
        reason = state.get("waiting", {}).get("reason") if isinstance(state, Mapping) else None
        if isinstance(reason, str) and reason:
            waiting = reason
            break
    restarts = sum(c["restartCount"] for c in containers if isinstance(c.get("restartCount"), int))
    ready = bool(containers) and all(c.get("ready") is True for c in containers)
    return CatalogPod(
        meta(pod).get("name") or "", _text(pod_status.get("phase")), ready, restarts, waiting
    )


def catalog_pods(pods: Iterable[Obj], namespace: str, name: str) -> tuple[CatalogPod, ...]:
    """The registry pods of the catalog ``namespace/name`` (label ``olm.catalogSource``),
    sorted by name; none until pods are read."""
    found = [
        _pod(p)
        for p in pods
        if meta(p).get("namespace") == namespace
        and (meta(p).get("labels") or {}).get(CATALOG_POD_LABEL) == name
    ]
    return tuple(sorted(found, key=lambda p: p.name))


def catalog_identity(catalog_source: Obj, pods: Iterable[Obj] = ()) -> CatalogIdentity:
    """What one CatalogSource is (see the module docstring); ``pods``: the pods read, of
    which its own are picked."""
    source_spec = spec(catalog_source)
    health = health_of(catalog_source)
    image, address = _text(source_spec.get("image")), _text(source_spec.get("address"))
    test = RUN_BUNDLE_ANNOTATION in annotations_of(catalog_source)
    strategy = source_spec.get("updateStrategy")
    poll = strategy.get("registryPoll") if isinstance(strategy, Mapping) else None
    priority = source_spec.get("priority")
    return CatalogIdentity(
        namespace=health.namespace,
        name=health.name,
        source_type=health.source_type,
        kind=_kind(health.source_type, image, address, test),
        image=image,
        address=address,
        configmap=_text(source_spec.get("configMap")),
        # a catalog without spec.priority has priority 0 (R-RES-4)
        priority=priority if isinstance(priority, int) else 0,
        publisher=_text(source_spec.get("publisher")),
        polling=_text(poll.get("interval")) if isinstance(poll, Mapping) else None,
        state=health.state,
        test_catalog=test,
        pods=catalog_pods(pods, health.namespace, health.name),
    )


def catalog_identities(store: Store) -> list[CatalogIdentity]:
    """Every CatalogSource cached, sorted by namespace and name, with its registry pods
    when the cache keeps pods (none are read yet: each ``pods`` is empty until then)."""
    pods = list(store.list(POD))
    found = (catalog_identity(c, pods) for c in store.list(CATALOG_SOURCE))
    return sorted(found, key=lambda c: (c.namespace, c.name))
