"""``nextCatalog[]``: every installed operator against the next release's catalog
(``--next-catalog``, R-NXT-1 .. R-NXT-6), and its text and Markdown lines."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from olmtui.model.records.next_catalog import NextCatalogEntry
from olmtui.model.records.types import ObjectRef


def ref_text(ref: ObjectRef) -> str:
    """An object reference as the report writes it: ``namespace/name``, or ``name``."""
    return f"{ref.namespace}/{ref.name}" if ref.namespace else ref.name


def next_catalog_json(entry: NextCatalogEntry) -> dict[str, Any]:
    """One ``nextCatalog[]`` entry."""
    return {
        "object": ref_text(entry.object),
        "package": entry.package,
        "channel": entry.channel,
        "inNext": {
            "package": entry.package_in_next,
            "channel": entry.channel_in_next,
            "edgeFromInstalled": entry.edge_from_installed,
        },
        "advice": entry.advice,
    }


def next_catalog_lines(report: Mapping[str, Any]) -> list[str]:
    """The "next catalog" lines of the text and Markdown reports, from ``nextCatalog[]``:
    each operator judged, ``ok`` or the advice (R-NXT-5); none without ``--next-catalog``."""
    lines = []
    for entry in report.get("nextCatalog") or []:
        channel = entry["channel"] or "default channel"
        head = f"{entry['object']} ({entry['package']}, {channel})"
        lines.append(f"{head}: {entry['advice'] or 'ok'}")
    return lines
