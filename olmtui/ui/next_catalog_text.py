"""The detail panes' "next catalog" line (Subscriptions, ClusterExtensions): what the next
release's catalog (``--next-catalog``) holds for the operator, ok with its edge or the
advice (R-NXT-1 .. R-NXT-5); nothing when no next catalog covers it (R-NXT-6)."""

from __future__ import annotations

from rich.text import Text

from olmtui.model.records.next_catalog import NextCatalogEntry
from olmtui.ui import palette
from olmtui.ui.formatting import line


def next_catalog_lines(entry: NextCatalogEntry | None) -> list[Text]:
    if entry is None:
        return []
    if entry.ok:
        said = Text(f"ok: {entry.edge or 'the installed version is there'}", style=palette.OK)
    else:
        said = Text(entry.advice or "", style=palette.WARNING_STRONG)
    return [line("next catalog (R-NXT)", said)]
