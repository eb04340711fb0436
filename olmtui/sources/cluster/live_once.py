"""Read the live cluster once, for the commands that print and exit (check, snapshot)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from olmtui.errors import ClusterTimedOut
from olmtui.model.records.catalog import Catalog
from olmtui.model.records.types import Finding
from olmtui.sources.cluster.live import LiveOptions, LiveSource
from olmtui.sources.cluster.live_resources import STREAMS
from olmtui.store import Store

OPTIONAL_STREAMS = frozenset(s.name for s in STREAMS if s.optional)


@dataclass
class LiveLoad:
    """What one live read did, in the shape the report's ``source`` block reads."""

    paths: list[str]
    objects: int
    skipped: int = 0
    findings: list[Finding] = field(default_factory=list)
    #: The serving ClusterCatalogs' content, fetched from catalogd (R-V1-21).
    catalogs: list[Catalog] = field(default_factory=list)


def read_cluster_once(
    options: LiveOptions,
    store: Store,
    *,
    catalog_content: bool = True,
    connect_timeout: float | None = None,
) -> LiveLoad:
    """Connect, list every kind once into ``store``, disconnect (UsageError on failure).
    ``catalog_content``: also fetch the ClusterCatalogs' content (whole FBCs, megabytes
    each), which only a report reads; a saved snapshot holds objects only.
    ``connect_timeout``: seconds connecting may take (``check --fleet``'s per-target bound,
    so that a dead cluster costs no more); at most ``request_timeout``, its default."""
    return asyncio.run(_read(options, store, catalog_content, connect_timeout))


async def _read(
    options: LiveOptions, store: Store, catalog_content: bool, connect_timeout: float | None
) -> LiveLoad:
    source = LiveSource(store, options)
    began = time.monotonic()
    connecting, flag = options.request_timeout, "--request-timeout"
    if connect_timeout is not None and connect_timeout < connecting:
        connecting, flag = connect_timeout, "--connect-timeout"
    try:
        await connect_within(source, connecting, flag)
        left = options.request_timeout - (time.monotonic() - began)
        await source.sync_once(catalog_content=catalog_content, within=max(left, 0.001))
    finally:
        await source.close()
    return LiveLoad(
        [source.label],
        len(store),
        findings=access_findings(source),
        catalogs=source.catalogd.catalogs(),
    )


async def connect_within(
    source: LiveSource, timeout: float, flag: str = "--request-timeout"
) -> None:
    """``source.connect()``, given up after ``timeout`` seconds (``--request-timeout``
    bounds the whole read, and the dashboard's start: a proxy that never answers, a server
    that accepts and says nothing, credentials that never come). Each request of discovery
    has a bound of its own, but they add up: without this one a server that accepts and
    says nothing held the dashboard's start for the probe's 15 s, whatever the option."""
    try:
        await asyncio.wait_for(source.connect(), timeout)
    except TimeoutError:
        if not source.server:  # still loading the kubeconfig's credentials
            which = f" of context {source.label!r}" if source.label else ""
            raise ClusterTimedOut(
                f"the credentials{which} (exec plugin or token refresh) did not come within "
                f"{timeout:g} s; {flag} sets the limit"
            ) from None
        raise ClusterTimedOut(
            f"the cluster at {source.server} did not answer within {timeout:g} s (connecting); "
            f"{flag} sets the limit"
        ) from None


def access_findings(source: LiveSource) -> list[Finding]:
    """Kinds the cluster does not serve (an older OLM, a component not installed). Kinds
    olmtui may not list are in ``Store.unreadable``, and the report's merge of findings
    says so (``olmtui.model.rules.input.access``)."""
    return [
        Finding(
            "info",
            "LiveKindUnavailable",
            stream.name,
            "",
            "",
            f"the cluster does not serve {stream.name} ({stream.last_error}); an older "
            "OLM, or a component not installed.",
            rule="R-SRC-3",
        )
        for stream in source.status.streams.values()
        if stream.state == "unavailable" and stream.name not in OPTIONAL_STREAMS
    ]
