"""Catalog entries as OLM's resolver sees them: one per bundle and channel membership (R-RES-6).

The registry serves one bundle record per channel a bundle belongs to, and the resolver keys
its variables on (catalog, channel, name), so a bundle in three channels is three entries. The
installed CSVs of a namespace become entries of the virtual ``@existing`` catalog
(``existing``, R-RES-7) with the same shape.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import field
from typing import Any

from olmtui.frozen import frozen
from olmtui.model.primitives import json_text
from olmtui.model.primitives.semver_range import Range, RangeError, parse_range
from olmtui.model.primitives.version import Version, parse_version
from olmtui.model.records.catalog import Catalog

#: The name of the virtual catalog of installed CSVs (R-RES-7).
EXISTING = "@existing"

#: (group, version, kind) of an ``olm.gvk`` property.
GvkKey = tuple[str, str, str]


@frozen
class CatalogKey:
    """A source of entries: a CatalogSource ``(name, namespace)`` or ``@existing`` of a
    namespace. OLM prints it as name first in ids (R-RES-8), namespace first in errors."""

    name: str
    namespace: str

    @property
    def virtual(self) -> bool:
        return self.name == EXISTING

    @property
    def ref(self) -> str:
        """``namespace/name``, as error texts and ``Catalog.ref`` write it."""
        return f"{self.namespace}/{self.name}"

    @property
    def label(self) -> str:
        """``@existing`` or ``namespace/name``: how reports and explanations name a catalog."""
        return EXISTING if self.virtual else self.ref


@frozen
class Entry:
    """One resolver entry (R-RES-6, R-RES-7.3)."""

    name: str
    package: str
    channel: str
    catalog: CatalogKey
    default_channel: bool = False
    replaces: str = ""
    skips: tuple[str, ...] = ()
    skip_range: Range | None = None
    version: Version | None = None
    #: ``(type, compact JSON value text)`` in file order.
    properties: tuple[tuple[str, str], ...] = ()
    #: The same properties decoded (``None`` where the text does not parse).
    values: tuple[tuple[str, Any], ...] = field(default=(), compare=False)
    #: ``@existing`` only: whether a Subscription's ``status.installedCSV`` names it.
    referenced: bool = False

    @property
    def id(self) -> str:
        """The solver identifier (R-RES-8): catalog name first, then namespace."""
        return f"{self.catalog.name}/{self.catalog.namespace}/{self.channel}/{self.name}"


def props_of(entry: Entry, kind: str) -> list[dict[str, Any]]:
    """The decoded values of ``entry``'s properties of type ``kind`` that are objects: OLM
    decodes each into a struct, so any other value provides nothing."""
    return [v for k, v in entry.values if k == kind and isinstance(v, dict)]


def gvks_of(entry: Entry) -> list[GvkKey]:
    """The ``olm.gvk`` values of an entry as OLM decodes them (absent fields are ``""``)."""
    return [
        (str(v.get("group") or ""), str(v.get("version") or ""), str(v.get("kind") or ""))
        for v in props_of(entry, "olm.gvk")
    ]


def packages_of(entry: Entry) -> list[str]:
    """The ``packageName`` of each ``olm.package`` property of an entry."""
    return [str(v.get("packageName") or "") for v in props_of(entry, "olm.package")]


def decode(properties: tuple[tuple[str, str], ...]) -> tuple[tuple[str, Any], ...]:
    """The property values parsed from their JSON text; unparsable ones become ``None``."""
    out: list[tuple[str, Any]] = []
    for kind, text in properties:
        try:
            out.append((kind, json_text.loads(text)))
        except ValueError:
            out.append((kind, None))
    return tuple(out)


def parse_tolerant(text: str | None) -> Version | None:
    """blang's ``ParseTolerant`` (R-RES-6): trims, drops a leading ``v``, strips leading zeros
    and pads ``1.2`` to ``1.2.0``; ``None`` when it still does not parse."""
    if text is None:
        return None
    text = text.strip().removeprefix("v")
    parts = text.split(".", 2)
    for i, part in enumerate(parts):
        if len(part) > 1:
            part = part.lstrip("0")
            if not part or part[0] not in "0123456789":
                part = "0" + part
            parts[i] = part
    if len(parts) < 3:
        if any(c in parts[-1] for c in "+-"):
            return None
        parts += ["0"] * (3 - len(parts))
    return parse_version(".".join(parts))


def _skip_range(text: str | None) -> Range | None:
    if not text:
        return None
    try:
        return parse_range(text)
    except RangeError:
        return None  # R-RES-6: an unparsable skipRange is no skipRange


#: One encoder for :func:`compact`: ``json.dumps`` with any option builds a new encoder per
#: call, which costs more than encoding a small property value (catalogd bench).
_COMPACT = json.JSONEncoder(separators=(",", ":"), sort_keys=False)


def compact(value: Any) -> str:
    """JSON text as the catalog loader stores property values."""
    return _COMPACT.encode(value)


def ensure_package_property(
    properties: tuple[tuple[str, str], ...], package: str, version: str | None
) -> tuple[tuple[str, str], ...]:
    """``EnsurePackageProperty`` (R-RES-6): append ``olm.package`` when none is listed."""
    if any(kind == "olm.package" for kind, _ in properties):
        return properties
    value = compact({"packageName": package, "version": version or ""})
    return (*properties, ("olm.package", value))


def catalog_entries(catalog: Catalog, key: CatalogKey) -> Iterator[Entry]:
    """R-RES-6: one entry per channel entry whose bundle is in the catalog, in file order
    (packages, then channels, then entries)."""
    for package in catalog.packages.values():
        for channel in package.channels.values():
            for item in channel.entries:
                bundle = package.bundles.get(item.name)
                if bundle is None:
                    continue  # R-RES-6: entries without a bundle are ignored
                properties = ensure_package_property(
                    bundle.properties, package.name, bundle.version
                )
                yield Entry(
                    name=item.name,
                    package=package.name,
                    channel=channel.name,
                    catalog=key,
                    default_channel=channel.name == package.default_channel,
                    replaces=item.replaces or "",
                    skips=item.skips,
                    skip_range=_skip_range(item.skip_range),
                    version=parse_tolerant(bundle.version),
                    properties=properties,
                    values=decode(properties),
                )
