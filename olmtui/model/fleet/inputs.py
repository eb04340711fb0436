"""The fields of a report the roll-up reads (R-FLT-3..5), and nothing else: a fleet keeps
each target's report until every target is read, so of its long lists (CSVs, Subscriptions,
catalogs, migration entries) only these fields are kept; the findings and incidents the
fleet's output prints are kept whole."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: List field of the report -> the fields of each entry the roll-up reads.
READ_FIELDS: dict[str, tuple[str, ...]] = {
    "csvs": ("namespace", "name", "version"),
    "subscriptions": ("namespace", "name", "package", "channel", "installedCSV"),
    "clusterExtensions": ("name", "package", "channels", "installed"),
    "catalogSources": ("namespace", "name", "image"),
    "clusterCatalogs": ("name", "resolvedRef"),
    "migration": ("state",),
}


def rollup_input(report: Mapping[str, Any]) -> dict[str, Any]:
    """``report`` with its :data:`READ_FIELDS` lists cut down to what the roll-up reads;
    every other field as it is."""
    kept = dict(report)
    for field, names in READ_FIELDS.items():
        entries = report.get(field)
        if isinstance(entries, list):
            kept[field] = [
                {n: e.get(n) for n in names} if isinstance(e, Mapping) else e for e in entries
            ]
    return kept
