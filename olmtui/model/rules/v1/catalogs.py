"""A ClusterCatalog as the dashboard and the resolver read it (R-V1-6, R-V1-7)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from olmtui.frozen import frozen
from olmtui.model.rules.v1.catalog_selector import NAME_LABEL
from olmtui.model.rules.v1.extensions import Condition, conditions_by_type
from olmtui.objects import Obj, labels, meta, spec, status, text_of

AVAILABLE = "Available"
UNAVAILABLE = "Unavailable"


@frozen
class ClusterCatalog:
    """One ClusterCatalog (R-V1-6). ``serving`` is True/False from the ``Serving`` condition
    and None when it has none (R-V1-7); ``labels`` include the implicit name label."""

    name: str
    priority: int
    availability_mode: str
    serving: bool | None
    ref: str | None
    resolved_ref: str | None
    last_unpacked: str | None
    base_url: str | None
    labels: Mapping[str, str]
    conditions: Mapping[str, Condition]

    @property
    def user_unavailable(self) -> bool:
        """``availabilityMode: Unavailable``: resolution treats the catalog as absent (R-V1-9)."""
        return self.availability_mode == UNAVAILABLE


def priority_of(value: Any) -> int:
    """``spec.priority``: an int32, 0 when unset (R-V1-6)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _time(value: Any) -> str | None:
    """``status.lastUnpacked`` as written (YAML loaders may give a datetime)."""
    if hasattr(value, "isoformat"):
        return str(value.isoformat()).replace("+00:00", "Z")
    return text_of(value)


def serving_of(conditions: Mapping[str, Condition]) -> bool | None:
    """R-V1-7: True when ``Serving`` is True, False for any other status, None without one."""
    serving = conditions.get("Serving")
    return None if serving is None else serving.status == "True"


def decode_catalog(obj: Obj) -> ClusterCatalog:
    """The record of one ClusterCatalog object (R-V1-6, R-V1-7)."""
    name = str(meta(obj).get("name") or "")
    catalog_spec = spec(obj)
    catalog_status = status(obj)
    image = (catalog_spec.get("source") or {}).get("image") or {}
    resolved = (catalog_status.get("resolvedSource") or {}).get("image") or {}
    conditions = conditions_by_type(obj)
    return ClusterCatalog(
        name=name,
        priority=priority_of(catalog_spec.get("priority")),
        availability_mode=text_of(catalog_spec.get("availabilityMode")) or AVAILABLE,
        serving=serving_of(conditions),
        ref=text_of(image.get("ref")),
        resolved_ref=text_of(resolved.get("ref")),
        last_unpacked=_time(catalog_status.get("lastUnpacked")),
        base_url=text_of((catalog_status.get("urls") or {}).get("base")),
        labels={**labels(obj), NAME_LABEL: name},
        conditions=conditions,
    )
