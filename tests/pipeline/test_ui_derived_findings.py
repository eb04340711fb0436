"""The findings by object, as the InstallPlans, X-ray and Subscriptions views read them: built
once per change of the findings, not once per screen refresh."""

from __future__ import annotations

import copy
from importlib.resources import files

from olmtui.pipeline.build import snapshot_session

SAMPLE = str(files("olmtui").joinpath("samples", "cluster.yaml"))


def test_findings_by_subject_is_kept_until_the_findings_move() -> None:
    session = snapshot_session([SAMPLE])
    first = session.analysis.findings_by_subject()
    assert session.analysis.findings_by_subject() is first
    csv = next(
        c
        for c in session.store.list("ClusterServiceVersion")
        if (c.get("status") or {}).get("phase") == "Succeeded"
    )
    key = ("ClusterServiceVersion", csv["metadata"]["namespace"], csv["metadata"]["name"])
    assert all(f.code != "CSVFailed" for f in first.get(key, ()))
    failed = copy.deepcopy(csv)
    failed["status"]["phase"] = "Failed"
    failed["status"]["reason"] = "InstallComponentFailed"
    session.store.apply("MODIFIED", failed)
    moved = session.analysis.findings_by_subject()
    assert moved is not first
    assert moved[key] == [
        f for f in session.analysis.all_findings() if (f.kind, f.namespace, f.name) == key
    ]
    assert moved[key]
