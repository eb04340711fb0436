"""What to do before the cluster upgrade, in words (R-NXT-5): what the next catalog lacks,
then the way out (switch channel first, to which, by which edge), or plainly that no path
exists."""

from __future__ import annotations

from dataclasses import replace

from olmtui.kinds import CLUSTER_EXTENSION, SUBSCRIPTION
from olmtui.model.records.next_catalog import NextCatalogEntry, WayOut


def channel_words(entry: NextCatalogEntry) -> str:
    return f"channel {entry.channel}" if entry.channel else "the default channel"


def lack(entry: NextCatalogEntry) -> str:
    """What the next catalog lacks for the operator (R-NXT-1 .. R-NXT-4)."""
    if not entry.package_in_next:
        return f"the next catalog ({entry.origin}) does not offer package {entry.package}"
    if not entry.channel_in_next:
        return f"{channel_words(entry)} of package {entry.package} is not in the next catalog"
    if not entry.installable:
        return (
            f"{channel_words(entry)} of package {entry.package} in the next catalog offers "
            "no installable bundle"
        )
    return (
        f"{channel_words(entry)} of package {entry.package} in the next catalog has no "
        f"upgrade edge from the installed {entry.installed}"
    )


def way_out_words(way: WayOut, kind: str) -> str:
    what = CLUSTER_EXTENSION if kind == CLUSTER_EXTENSION else SUBSCRIPTION
    if way.switch:
        start = f"Before the cluster upgrade, switch the {what} to channel {way.channel}"
        if way.now_edge is None:
            start += f" (it holds {way.position})"
        else:
            start += f" and let it upgrade to {way.position} ({way.now_edge})"
    else:
        start = (
            f"Before the cluster upgrade, upgrade it within channel {way.channel} to "
            f"{way.position} ({way.now_edge})"
        )
    return (
        f"{start}; after it, channel {way.channel} of the next catalog goes on from "
        f"{way.position}: {way.next_edge}."
    )


def advice_parts(entry: NextCatalogEntry) -> tuple[str, str] | None:
    """R-NXT-5 in two parts: what the next catalog lacks (with operator-controller's error),
    and what to do; None when nothing is missing."""
    if entry.ok:
        return None
    said = lack(entry)
    said = said[0].upper() + said[1:] + "."
    if entry.error:
        said += f" operator-controller would say: {entry.error}."
    if entry.way_out is not None:
        return said, way_out_words(entry.way_out, entry.object.kind)
    if not entry.package_in_next:
        return said, (
            f"Nothing in it replaces {entry.installed}: no path exists. Uninstall it before "
            "the upgrade, or find where the package moved (another catalog or name)."
        )
    unknown = (
        ""
        if entry.current_known
        else " The current catalog's content was not given (--catalog), so only edges from "
        "the installed version itself were looked for."
    )
    # R-NXT-5 looks at the channels OLM can follow now: a channel only the next catalog has
    # may go on from the installed version, but nothing leads there before the upgrade
    return said, (
        f"Neither {entry.installed} nor a version OLM reaches from it now is one the next "
        "catalog upgrades from, on its own channel or on one both catalogs hold: no path "
        "exists before the upgrade, and OLM will not upgrade it after it. Plan to uninstall "
        f"it and install it again from the next catalog.{unknown}"
    )


def advice_for(entry: NextCatalogEntry) -> str | None:
    """R-NXT-5: None when nothing is missing; else what is, and what to do."""
    parts = advice_parts(entry)
    return None if parts is None else " ".join(parts)


def advised(entry: NextCatalogEntry) -> NextCatalogEntry:
    return replace(entry, advice=advice_for(entry))
