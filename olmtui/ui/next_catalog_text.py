"""The detail panes' "next catalog" line (Subscriptions, ClusterExtensions): what the next
release's catalog (``--next-catalog``) holds for the operator, ok with its edge or the
advice (R-NXT-1 .. R-NXT-5); nothing when no next catalog covers it (R-NXT-6)."""

from __future__ import annotations

from rich.text import Text

from olmtui.model.records.next_catalog import NextCatalogEntry
from olmtui.model.rules.nextcatalog.advice import advice_parts
from olmtui.ui import palette
from olmtui.ui.formatting import line


def next_catalog_lines(entry: NextCatalogEntry | None) -> list[Text]:
    """``ok`` with the edge, or what the next catalog lacks and, on a line of its own,
    the way out (R-NXT-5)."""
    if entry is None:
        return []
    parts = advice_parts(entry)
    if parts is None:
        said = Text(f"ok: {entry.edge or 'the installed version is there'}", style=palette.OK)
        return [line("next catalog (R-NXT)", said)]
    lacks, way = parts
    return [
        line("next catalog (R-NXT)", Text(lacks, style=palette.WARNING_STRONG)),
        line("  way out", Text(way)),
    ]
