"""``clusterUpgrade`` of the report (R-CUP-6): the version the cluster runs, its next minor and
every blocker of it, v0, v1 or one of OLM's ClusterOperators."""

from __future__ import annotations

from typing import Any

from olmtui.model.rules.cluster_readiness.readiness import Blocker, UpgradeReadiness
from olmtui.report.diagnosis_json import object_json


def blocker_json(blocker: Blocker) -> dict[str, Any]:
    return {
        "source": blocker.source,
        "object": object_json(blocker.object),
        "maxOpenShiftVersion": blocker.max_openshift_version,
        "message": blocker.message,
    }


def cluster_upgrade_json(readiness: UpgradeReadiness) -> dict[str, Any]:
    return {
        "currentVersion": readiness.current_version,
        "nextMinor": readiness.next_minor,
        "blockers": [blocker_json(b) for b in readiness.blockers],
    }
