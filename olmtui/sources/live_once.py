"""Read the live cluster once, for the commands that print and exit (check, snapshot)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from olmtui.model.catalog import Catalog
from olmtui.model.types import Finding
from olmtui.sources.live import LiveOptions, LiveSource
from olmtui.sources.live_resources import STREAMS
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
    options: LiveOptions, store: Store, *, catalog_content: bool = True
) -> LiveLoad:
    """Connect, list every kind once into ``store``, disconnect (UsageError on failure).
    ``catalog_content``: also fetch the ClusterCatalogs' content (whole FBCs, megabytes
    each), which only a report reads; a saved snapshot holds objects only."""
    return asyncio.run(_read(options, store, catalog_content))


async def _read(options: LiveOptions, store: Store, catalog_content: bool) -> LiveLoad:
    source = LiveSource(store, options)
    await source.connect()
    try:
        await source.sync_once(catalog_content=catalog_content)
    finally:
        await source.close()
    return LiveLoad(
        [source.label],
        len(store),
        findings=access_findings(source),
        catalogs=source.catalogd.catalogs(),
    )


def access_findings(source: LiveSource) -> list[Finding]:
    """Kinds the cluster does not serve (an older OLM, a component not installed). Kinds
    olmtui may not list are in ``Store.unreadable``, and the report's merge of findings
    says so (``olmtui.model.access``)."""
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
