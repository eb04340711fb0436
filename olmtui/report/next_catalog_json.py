"""``nextCatalog[]``: every installed operator against the next release's catalog
(``--next-catalog``, R-NXT-1 .. R-NXT-6), and its text and Markdown lines."""

from __future__ import annotations

from collections.abc import Iterable
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


def next_catalog_lines(entries: Iterable[NextCatalogEntry]) -> list[str]:
    """The text report's "Next catalog" lines: each operator, ok or what to do."""
    lines = []
    for entry in entries:
        head = f"{entry.object} ({entry.package}, {entry.channel or 'default channel'})"
        lines.append(f"{head}: ok" if entry.ok else f"{head}: {entry.advice}")
    return lines
