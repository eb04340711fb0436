"""``olmtui graph --format json``: one channel's upgrade graph as data, for scripts and the
MCP server's ``upgrade_graph`` tool; the same view the Mermaid and text drawings show
(``model/viewmodels/graph_render.py``), so the three never disagree."""

from __future__ import annotations

from typing import Any

from olmtui.model.records.types import UpgradeEdge
from olmtui.model.viewmodels.graph_render import ChannelView

#: The version of this JSON, as the check report's ``format``.
FORMAT = 1


def _edge(edge: UpgradeEdge) -> dict[str, str]:
    return {"from": edge.source, "to": edge.target, "via": edge.via}


def graph_json(view: ChannelView, catalog: str | None) -> dict[str, Any]:
    """The channel ``view`` read from ``catalog`` (``"ns/name"``, a ClusterCatalog's name, or
    ``None`` for content given for every catalog): its entries in display order (head
    first), every edge from the older bundle to the one that upgrades it, and the errors
    OLM's resolver (R-UPG-1) and ``opm validate`` (R-UPG-7) find in it."""
    return {
        "format": FORMAT,
        "catalog": catalog,
        "package": view.package,
        "channel": view.channel,
        "head": view.head,
        "entries": [
            {
                "name": entry.name,
                "version": view.versions.get(entry.name),
                "skipped": entry.name in view.skipped,
            }
            for entry in view.entries
        ],
        "edges": [_edge(e) for e in view.edges],
        # edges from bundles that are not entries of the channel
        "outside": [_edge(e) for e in view.outside],
        "errors": list(view.errors),
        "installed": view.installed,
        "competingHeads": list(view.competing_heads),
        # from a PackageManifest: only the head and its skipRange are known (R-UPG-9)
        "partial": view.partial,
        "next": view.next,
        "nextBecause": view.next_because,
    }
