"""Accept-header negotiation: full objects, server-side Tables, or metadata only.

Clients list the representations they want in order, comma-separated, e.g. kubectl's
``application/json;as=Table;v=v1;g=meta.k8s.io,application/json`` or the metadata-only
informer's ``application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1``. The first
entry this server can produce wins; protobuf, YAML and aggregated discovery are skipped so
the client falls back to the next entry. As on kube-apiserver, ``PartialObjectMetadataList``
is only for lists and ``PartialObjectMetadata`` only for single objects and watch events.
"""

from __future__ import annotations

from enum import Enum

from olmtui.frozen import frozen

JSON = "application/json"
JSON_TYPES = frozenset({"application/json", "application/*", "*/*"})
_META_VERSIONS = frozenset({"v1", "v1beta1"})


class Shape(Enum):
    OBJECT = "object"
    TABLE = "table"
    METADATA = "metadata"


@frozen
class Representation:
    """What to send, and the Content-Type to label it with."""

    shape: Shape
    content_type: str = JSON
    meta_version: str = "v1"

    @property
    def meta_api_version(self) -> str:
        return f"meta.k8s.io/{self.meta_version}"


OBJECT = Representation(Shape.OBJECT)


def parse_accept_entry(entry: str) -> tuple[str, dict[str, str]]:
    """One Accept entry: the lower-cased media type and its parameters."""
    media, *params = (p.strip() for p in entry.split(";"))
    parsed: dict[str, str] = {}
    for param in params:
        key, _, value = param.partition("=")
        parsed[key.strip()] = value.strip()
    return media.lower(), parsed


def negotiate(accept: str | None, *, listing: bool) -> Representation | None:
    """The representation for a response, or None when nothing asked for can be served.

    ``listing`` is True for list responses; single objects and watch events are not.
    """
    if not accept or not accept.strip():
        return OBJECT
    for entry in accept.split(","):
        media, params = parse_accept_entry(entry)
        if media not in JSON_TYPES:
            continue
        as_kind = params.get("as")
        if as_kind is None:
            return OBJECT
        if params.get("g") != "meta.k8s.io" or params.get("v") not in _META_VERSIONS:
            continue
        version = params["v"]
        content_type = f"{JSON};as={as_kind};g=meta.k8s.io;v={version}"
        if as_kind == "Table":
            return Representation(Shape.TABLE, content_type, version)
        if as_kind == ("PartialObjectMetadataList" if listing else "PartialObjectMetadata"):
            return Representation(Shape.METADATA, content_type, version)
    return None
