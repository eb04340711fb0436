"""What does exist when OLM finds "no operators in package P" or "in channel C of package P"
(R-UPG-6): the packages of the Subscription's catalog, or the channels of its package, from
the catalog content given, the names closest to the one asked for first.

A typo (``etcd-operator`` for ``etcd``, ``stabel`` for ``stable``) is the usual cause; naming
what the catalog holds turns "check that the package exists" into the fix itself.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

from olmtui.model.records.catalog import Catalog

#: How many names a suggestion lists before "... (N in all)".
SHOWN = 8


def closest_first(wanted: str, names: Iterable[str], shown: int = SHOWN) -> tuple[list[str], int]:
    """``names`` with the close matches of ``wanted`` first (by similarity, then those that
    contain it or that it contains), then the others alphabetically; at most ``shown`` of
    them, and how many there are in all."""
    every = sorted(set(names))
    lowered = wanted.lower()
    close = difflib.get_close_matches(wanted, every, n=shown, cutoff=0.6)
    close += [n for n in every if n not in close and (lowered in n.lower() or n.lower() in lowered)]
    rest = [n for n in every if n not in close]
    return (close + rest)[:shown], len(every)


def _listed(wanted: str, names: Iterable[str]) -> str:
    shown, total = closest_first(wanted, names)
    more = f", ... ({total} in all)" if total > len(shown) else ""
    return ", ".join(shown) + more


def serving(catalogs: Sequence[Catalog], ref: str) -> Catalog | None:
    """The content that stands for CatalogSource ``ref`` (``ns/name``), as the upgrade rules
    choose it (R-UPG-2): content bound to it, else content for every source, edges first."""
    bound = [c for c in catalogs if c.ref == ref and c.packages]
    unbound = [c for c in catalogs if c.ref is None and c.packages]
    found = sorted(bound or unbound, key=lambda c: c.graph != "catalog")
    return found[0] if found else None


def package_suggestion(catalog: Catalog, package: str) -> str | None:
    """One sentence naming the packages ``catalog`` holds, close matches to ``package`` first;
    ``None`` when it holds ``package`` or nothing at all."""
    if package in catalog.packages or not catalog.packages:
        return None
    return (
        f"The catalog content given ({catalog.origin}) has no package {package}; it has "
        f"{_listed(package, catalog.packages)}: set the Subscription's spec.name to one of them"
    )


def channel_suggestion(catalog: Catalog, package: str, channel: str) -> str | None:
    """One sentence naming the channels of ``package`` in ``catalog``, close matches to
    ``channel`` first and the default channel said; ``None`` when the package is not there,
    has no channels or has ``channel``."""
    found = catalog.packages.get(package)
    if found is None or not found.channels or channel in found.channels:
        return None
    default = f" (default {found.default_channel})" if found.default_channel else ""
    return (
        f"Package {package} in the catalog content given ({catalog.origin}) has no channel "
        f"{channel}; its channels are {_listed(channel, found.channels)}{default}: set the "
        "Subscription's spec.channel to one of them"
    )
