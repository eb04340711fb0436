"""The kind a snapshot file holds, told from its path the must-gather way: a resource's
plural as a folder (``namespaces/NS/operators.coreos.com/operatorgroups/NAME.yaml``) or as
the file's name (``core/services.yaml``). What an unreadable document lost is then of that
kind only (R-SRC-1); a path that says nothing may have lost any kind."""

from __future__ import annotations

from olmtui.sources.cluster.live_resources import STREAMS

#: Kinds by the plural a must-gather folder (and the API) names them by.
_KINDS_BY_PLURAL: dict[str, str] = {spec.resource.plural: spec.resource.kind for spec in STREAMS}
#: The plurals of kinds olmtui keeps from snapshots that no live stream watches.
_KINDS_BY_PLURAL.update({"deployments": "Deployment", "services": "Service"})


def kind_of_file(name: str) -> str | None:
    """The kind the file ``name`` holds, or ``None`` when its path does not say."""
    parts = name.replace("\\", "/").split("/")
    # the file's own name, then its folder: only these name its kind (every namespaced
    # file sits under ``namespaces/``, which says nothing of what the file holds)
    named = _KINDS_BY_PLURAL.get(parts[-1].rsplit(".", 1)[0])
    if named is not None or len(parts) < 2:
        return named
    return _KINDS_BY_PLURAL.get(parts[-2])
