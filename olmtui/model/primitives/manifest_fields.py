"""Reading fields of parsed YAML/JSON manifests (CSVs, PackageManifests, FBC documents).

Catalog files and PackageManifests hand over whatever their authors wrote: a version as a
number, a mapping where a list belongs. These readers turn a field into what the catalog
records hold, or into nothing, never into an exception. They sit in the model because the
PackageManifest derivation (pure, ``olmtui.model.rules.catalog.packagemanifest_catalog``) and the
catalog file loaders (``olmtui.sources``) both read manifests with them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SKIP_RANGE_ANNOTATION = "olm.skipRange"


def trimmed_text(value: Any) -> str | None:
    """A scalar of a CSV as trimmed text (YAML may hand a version such as ``1.0`` over as a
    number)."""
    if value is None or isinstance(value, (dict, list)):
        return None
    text = str(value).strip()
    return text or None


def scalar_text(value: Any) -> str | None:
    """A scalar exactly as written, for names read from catalogs and PackageManifests:
    ``None`` for null, an empty string, a mapping or a list."""
    if value is None or isinstance(value, (dict, list)):
        return None
    return str(value) or None


def mapping(value: Any) -> Mapping[str, Any]:
    """A parsed YAML/JSON value as a mapping; anything else reads as an empty one."""
    return value if isinstance(value, Mapping) else {}


def supported_install_modes(modes: Any) -> tuple[str, ...]:
    """Types marked ``supported: true``, in CSV order. Unknown types (the real typo
    ``OwnNamespacejl``) are kept as written: OLM's InstallModeSet simply never asks for them."""
    if not isinstance(modes, list):
        return ()
    supported = []
    for mode in modes:
        mode = mapping(mode)
        kind = trimmed_text(mode.get("type"))
        if kind and mode.get("supported") is True and kind not in supported:
            supported.append(kind)
    return tuple(supported)
