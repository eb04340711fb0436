"""CatalogSource health, and Subscriptions whose catalog is missing or unhealthy (R-SUB-8).

OLM resolves a namespace against every CatalogSource there plus the global catalog namespace,
so one broken catalog can stall installs and upgrades that do not even come from it. A
CatalogSource tells its health in ``status`` (R-SUB-8): the gRPC connection state
(``connectionState.lastObservedState``), an error reason (``SpecInvalidError``,
``ConfigMapError``, ``RegistryServerError``, ``InvalidIntervalError``), a message and the time
of the last image poll. This module turns those into one record per catalog and findings.
"""

from __future__ import annotations

from collections.abc import Iterable

from olmtui.frozen import frozen
from olmtui.kinds import CATALOG_SOURCE, SUBSCRIPTION
from olmtui.model.records.catalog import Catalog
from olmtui.model.records.types import Finding, ObjectRef, Severity, ref
from olmtui.objects import Obj, meta, name_of, namespace_of, spec, status

#: The gRPC connection state of a serving catalog.
READY = "READY"
#: ``status.reason`` values that mean the catalog cannot serve (R-SUB-8: SpecInvalidError makes
#: it unhealthy; the other two mean the registry server could not be built).
_BROKEN_REASONS = frozenset({"SpecInvalidError", "ConfigMapError", "RegistryServerError"})
#: The catalog serves, but its update polling is off (``spec.updateStrategy`` is invalid).
_POLL_REASON = "InvalidIntervalError"
_STATE_SEVERITY: dict[str, Severity] = {
    "TRANSIENT_FAILURE": "error",
    "SHUTDOWN": "error",
    "CONNECTING": "warning",
    "IDLE": "warning",
}


@frozen
class CatalogHealth:
    """One CatalogSource as the resolver sees it."""

    namespace: str
    name: str
    source_type: str | None
    #: ``status.connectionState.lastObservedState`` (``READY``, ``CONNECTING``,
    #: ``TRANSIENT_FAILURE``, ``IDLE``, ``SHUTDOWN``), ``None`` when never reported.
    state: str | None
    reason: str | None
    message: str | None
    #: ``status.latestImageRegistryPoll``.
    last_poll: str | None
    healthy: bool
    #: ``serviceNamespace/serviceName:port`` of ``status.registryService``.
    registry_service: str | None

    @property
    def ref(self) -> str:
        return ref(self.namespace, self.name)

    @property
    def object_ref(self) -> ObjectRef:
        return ObjectRef(CATALOG_SOURCE, self.namespace, self.name)


def _registry_service(status: Obj) -> str | None:
    svc = status.get("registryService") or {}
    if not svc.get("serviceName"):
        return None
    port = f":{svc['port']}" if svc.get("port") else ""
    return f"{ref(svc.get('serviceNamespace') or '', svc['serviceName'])}{port}"


def health_of(catalog_source: Obj) -> CatalogHealth:
    """The health record of one CatalogSource. Healthy means no error reason and a READY
    connection: the resolver can read it now (R-SUB-8)."""
    source_meta = meta(catalog_source)
    source_spec = spec(catalog_source)
    source_status = status(catalog_source)
    state = (source_status.get("connectionState") or {}).get("lastObservedState") or None
    reason = source_status.get("reason") or None
    return CatalogHealth(
        namespace=source_meta.get("namespace") or "",
        name=source_meta.get("name") or "",
        source_type=source_spec.get("sourceType") or None,
        state=state,
        reason=reason,
        message=source_status.get("message") or None,
        last_poll=source_status.get("latestImageRegistryPoll") or None,
        healthy=reason not in _BROKEN_REASONS and state == READY,
        registry_service=_registry_service(source_status),
    )


def catalog_health(catalog_sources: Iterable[Obj]) -> list[CatalogHealth]:
    """One record per CatalogSource, sorted by namespace and name."""
    return sorted((health_of(c) for c in catalog_sources), key=lambda h: (h.namespace, h.name))


def catalog_source_findings(catalog_source: Obj) -> list[Finding]:
    """The findings of one CatalogSource's own health (R-SUB-8): they read nothing else."""
    return catalog_health_findings([health_of(catalog_source)])


def catalog_health_findings(healths: Iterable[CatalogHealth]) -> list[Finding]:
    """A finding per CatalogSource that the resolver cannot fully use."""
    findings = []
    for h in healths:
        detail = f": {h.message}" if h.message else ""
        if h.reason in _BROKEN_REASONS:
            findings.append(
                Finding(
                    "error",
                    h.reason,
                    CATALOG_SOURCE,
                    h.namespace,
                    h.name,
                    f"CatalogSource {h.ref} cannot serve ({h.reason}{detail}). OLM counts it as "
                    "unhealthy, and every Subscription of its namespace (every namespace, if it "
                    "is in the global catalog namespace) reports CatalogSourcesUnhealthy; "
                    "resolution may fail until it is fixed (R-SUB-8). Fix its spec (image, "
                    "address or ConfigMap) or delete it.",
                    "R-SUB-8",
                )
            )
        elif h.state != READY:
            severity = _STATE_SEVERITY.get(h.state or "", "warning")
            seen = (
                f"its connection is {h.state}"
                if h.state
                else "it has not reported a connection state"
            )
            findings.append(
                Finding(
                    severity,
                    "CatalogSourceNotReady",
                    CATALOG_SOURCE,
                    h.namespace,
                    h.name,
                    f"CatalogSource {h.ref} is not READY: {seen}{detail}. OLM cannot read its "
                    "content now, so installs and upgrades that need it wait or fail to resolve "
                    f"(R-SUB-8). Check the registry pod and service"
                    f"{' ' + h.registry_service if h.registry_service else ''}.",
                    "R-SUB-8",
                )
            )
        if h.reason == _POLL_REASON:
            findings.append(
                Finding(
                    "warning",
                    _POLL_REASON,
                    CATALOG_SOURCE,
                    h.namespace,
                    h.name,
                    f"CatalogSource {h.ref} has an invalid update interval{detail}. It still "
                    "serves, but OLM does not poll its image for new content, so new bundles "
                    "never show; fix spec.updateStrategy.registryPoll.interval.",
                    "R-SUB-8",
                )
            )
    return findings


def subscription_source_findings(
    subs: Iterable[Obj],
    healths: Iterable[CatalogHealth],
) -> list[Finding]:
    """Subscriptions whose own CatalogSource (``spec.source`` in ``spec.sourceNamespace``)
    is missing or unhealthy. OLM reports these as ``targeted catalogsource <ns>/<name>
    missing`` / ``unhealthy`` in CatalogSourcesUnhealthy (R-SUB-8); upgrades only ever come
    from that catalog (R-UPG-2), so the Subscription cannot move."""
    by_ref = {(h.namespace, h.name): h for h in healths}
    findings = []
    for sub in subs:
        sub_meta = meta(sub)
        sub_spec = spec(sub)
        ns, name = sub_meta.get("namespace") or "", sub_meta.get("name") or ""
        target = (sub_spec.get("sourceNamespace") or "", sub_spec.get("source") or "")
        health = by_ref.get(target)
        if health is None:
            findings.append(
                Finding(
                    "error",
                    "CatalogSourceMissing",
                    SUBSCRIPTION,
                    ns,
                    name,
                    f"Subscription {name} targets CatalogSource {ref(*target)}, which does not "
                    f"exist: OLM reports 'targeted catalogsource {ref(*target)} missing' "
                    "(R-SUB-8) and cannot install or upgrade it, since a Subscription's bundles "
                    "come only from its own catalog (R-UPG-2). Create that CatalogSource or point "
                    "spec.source/spec.sourceNamespace at one that exists.",
                    "R-SUB-8",
                    (ObjectRef(CATALOG_SOURCE, *target),),
                )
            )
        elif not health.healthy:
            findings.append(
                Finding(
                    "warning",
                    "TargetedCatalogSourceUnhealthy",
                    SUBSCRIPTION,
                    ns,
                    name,
                    f"Subscription {name} gets its bundles from CatalogSource {health.ref}, which "
                    f"is unhealthy (state {health.state or 'unknown'}"
                    f"{', reason ' + health.reason if health.reason else ''}); it cannot install "
                    "or upgrade until that catalog serves again (R-SUB-8, R-UPG-2).",
                    "R-SUB-8",
                    (health.object_ref,),
                )
            )
    return findings


def catalog_findings(catalog_sources: Iterable[Obj], subs: Iterable[Obj]) -> list[Finding]:
    """All catalog findings of the cluster, sorted: each unusable CatalogSource, and each
    Subscription whose own catalog is missing or unhealthy. Cheap: catalogs are few."""
    healths = catalog_health(catalog_sources)
    findings = catalog_health_findings(healths) + subscription_source_findings(subs, healths)
    return sorted(findings, key=lambda f: f.sort_key)


def catalog_content_without_source(
    catalogs: Iterable[Catalog], catalog_sources: Iterable[Obj]
) -> list[Finding]:
    """``--catalog NAMESPACE/NAME=PATH`` content attributed to a CatalogSource that is not
    among the objects read: OLM resolves only from CatalogSources that exist (R-SUB-8), so
    no Subscription can get bundles from it."""
    present = {ref(namespace_of(c), name_of(c)) for c in catalog_sources}
    findings = []
    for catalog in catalogs:
        if catalog.graph != "catalog" or catalog.ref is None or catalog.ref in present:
            continue
        if catalog.for_cluster_catalog:
            continue  # R-V1-22: ``--catalog NAME=PATH`` is for an OLM v1 ClusterCatalog
        namespace, _, name = catalog.ref.partition("/")
        findings.append(
            Finding(
                "warning",
                "CatalogSourceNotFound",
                CATALOG_SOURCE,
                namespace,
                name,
                f"--catalog gives content ({catalog.origin}) for CatalogSource {catalog.ref}, but "
                f"no CatalogSource {catalog.ref} is among the objects read. OLM resolves "
                "Subscriptions only from CatalogSources that exist (R-SUB-8), so no Subscription "
                "can use this content; its channels are shown for reference only. Check the "
                "NAMESPACE/NAME given to --catalog, or that the snapshot holds that CatalogSource.",
                "R-SUB-8",
            )
        )
    return sorted(findings, key=lambda f: f.sort_key)
