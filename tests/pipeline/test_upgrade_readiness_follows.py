"""The analysis's upgrade readiness (R-CUP-6, the ``:upgrade`` view) follows the objects it
reads: live, the ClusterVersion moves on after an upgrade and a capped CSV arrives later."""

from __future__ import annotations

import json
from pathlib import Path

from model_builders import clusterversion as cv
from model_builders import csv, namespace, operator_group
from simulation_support import session_of


def test_the_readiness_follows_the_cluster_version_and_new_csvs(tmp_path: Path) -> None:
    objects = [namespace("ops"), operator_group("ops", "ops"), cv(("Completed", "4.17.9"))]
    session = session_of(objects, tmp_path)
    analysis = session.analysis
    first = analysis.upgrade_readiness()
    assert (first.current_version, first.next_minor, first.blockers) == ("4.17.9", "4.18", ())
    assert analysis.upgrade_readiness() is first  # kept while nothing it reads moved
    props = {"properties": [{"type": "olm.maxOpenShiftVersion", "value": "4.18"}]}
    capped = csv(
        "ops", "foo.v1", annotations={"operatorframework.io/properties": json.dumps(props)}
    )
    session.store.apply("ADDED", capped)
    assert analysis.upgrade_readiness().blockers == ()  # 4.18 allows the move to 4.18
    session.store.apply("MODIFIED", cv(("Completed", "4.18.1"), ("Completed", "4.17.9")))
    moved = analysis.upgrade_readiness()
    assert moved.next_minor == "4.19"
    assert [(b.source, b.object.name, b.max_openshift_version) for b in moved.blockers] == [
        ("v0", "foo.v1", "4.18")
    ]
