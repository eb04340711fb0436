"""OLM v1 as the screens read it: the ClusterExtension and ClusterCatalog records, the content
bound to each ClusterCatalog and what each extension would resolve to, derived from the v1
objects and the catalog content (the Analysis builds it again only when one of them changed,
not per model version: churning copies move that on every refresh); a cluster without OLM
v1 costs two empty lists.

The resolution comes from ``model.v1.outcome.extension_resolution``, the one place that
decides "not computed"; the screens only say it (:func:`resolution_words`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from olmtui.frozen import frozen
from olmtui.model.records.catalog import Catalog
from olmtui.model.rules.v1.catalogs import ClusterCatalog, decode_catalog
from olmtui.model.rules.v1.extensions import ClusterExtension, decode_extension
from olmtui.model.rules.v1.findings import selected_catalogs
from olmtui.model.rules.v1.outcome import extension_resolution
from olmtui.model.rules.v1.resolve import V1Resolution, content_by_catalog
from olmtui.model.rules.v1.revisions import ExtensionRevisions, revisions_by_extension
from olmtui.objects import name_of

Obj = dict[str, Any]


@frozen
class V1State:
    """Every v1 record of the source, by name, with the content bound per catalog and the
    resolution per extension (None: the resolver is not there to say)."""

    extensions: Mapping[str, ClusterExtension]
    catalogs: Mapping[str, ClusterCatalog]
    content: Mapping[str, Catalog]
    resolutions: Mapping[str, V1Resolution]
    #: Each extension's revisions (R-V1-24), by extension name.
    revisions: Mapping[str, ExtensionRevisions]

    def selected(self, extension: ClusterExtension) -> list[ClusterCatalog]:
        """The ClusterCatalogs the extension's selector takes (R-V1-9)."""
        return selected_catalogs(extension, self.catalogs.values())

    def users(self, catalog: str) -> list[str]:
        """The extensions whose selector takes ``catalog``, by name."""
        record = self.catalogs.get(catalog)
        if record is None:
            return []
        return sorted(e.name for e in self.extensions.values() if selected_catalogs(e, [record]))


def v1_state(
    extension_objs: Sequence[Obj],
    catalog_objs: Sequence[Obj],
    catalogs: Sequence[Catalog],
    revision_objs: Sequence[Obj] = (),
) -> V1State:
    """The records of the ClusterExtension and ClusterCatalog objects, with the content of
    ``catalogs`` bound to each ClusterCatalog, each extension's resolution and its revisions
    among ``revision_objs`` (R-V1-24)."""
    extension_objs = sorted(extension_objs, key=name_of)
    catalog_objs = sorted(catalog_objs, key=name_of)
    content = content_by_catalog(catalogs, catalog_objs) if catalog_objs else {}
    return V1State(
        extensions={name_of(o): decode_extension(o) for o in extension_objs},
        catalogs={name_of(o): decode_catalog(o) for o in catalog_objs},
        content=content,
        resolutions={
            name_of(o): extension_resolution(o, catalog_objs, content) for o in extension_objs
        },
        revisions=revisions_by_extension(extension_objs, revision_objs),
    )


def resolution_words(resolution: V1Resolution | None) -> tuple[str, str]:
    """``(short, long)``: the cell and the detail line of what the extension would resolve
    to: the bundle (its version in the cell, which fits beside the installed one),
    operator-controller's error, or why olmtui did not compute it."""
    if resolution is None:  # an extension that appeared after the last derivation
        return "not computed", "not computed yet"
    if resolution.unknown is not None:
        return "not computed", f"not computed: {resolution.unknown}"
    if resolution.error is not None:
        return "error", f"would fail: {resolution.error}"
    if resolution.bundle is None:
        return "-", "nothing to resolve"
    where = f" from ClusterCatalog {resolution.catalog}" if resolution.catalog else ""
    version = f" ({resolution.version})" if resolution.version else ""
    return resolution.version or resolution.bundle, f"{resolution.bundle}{version}{where}"
