"""The one place the findings and the report ask what a ClusterExtension would resolve to
(R-V1-20): one entry point, which tests replace with a stand-in resolver."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from olmtui.model.records.catalog import Catalog
from olmtui.model.rules.v1 import resolve as v1_resolve
from olmtui.model.rules.v1.resolve import V1Resolution
from olmtui.objects import Obj


def extension_resolution(
    extension: Obj, cluster_catalogs: Sequence[Obj], content: Mapping[str, Catalog]
) -> V1Resolution:
    """What operator-controller would resolve ``extension`` to from ``content`` (R-V1-8..19);
    ``V1Resolution.unknown`` says when olmtui cannot compute it offline."""
    return v1_resolve.resolve_extension(extension, cluster_catalogs, content)
