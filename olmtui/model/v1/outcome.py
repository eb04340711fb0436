"""The one place the findings and the report ask what a ClusterExtension would resolve to
(R-V1-20), so that "not computed" is decided once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from olmtui.model.catalog import Catalog
from olmtui.model.v1 import resolve as v1_resolve
from olmtui.model.v1.resolve import V1Resolution
from olmtui.objects import Obj


def extension_resolution(
    extension: Obj, cluster_catalogs: Sequence[Obj], content: Mapping[str, Catalog]
) -> V1Resolution | None:
    """What operator-controller would resolve ``extension`` to from ``content`` (R-V1-8..19),
    or None when the resolver is not there to say (the report then writes null/null)."""
    try:
        return v1_resolve.resolve_extension(extension, cluster_catalogs, content)
    except NotImplementedError:
        # TEMPORARY until v1-resolve lands: resolve_extension is a stub that raises; treat
        # it as "not computed". Remove this except when the resolver is written.
        return None
