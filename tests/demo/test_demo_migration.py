"""The demo's migration to OLM v1 (R-MIG-12): OLM's OperatorCondition beside every original
CSV (``olmtui.demo.operator_conditions``), none in use, so the three operators of the global
group are eligible with the content catalogd serves, and each tenant's operator fails the rules
its setup breaks."""

from __future__ import annotations

from pathlib import Path

import yaml

from olmtui.demo import v1
from olmtui.demo.scenario import build_scenario
from olmtui.pipeline.build import snapshot_session


def test_one_empty_operator_condition_per_original_csv() -> None:
    objects = build_scenario().objects
    originals = {
        (o["metadata"]["namespace"], o["metadata"]["name"])
        for o in objects
        if o["kind"] == "ClusterServiceVersion"
        and "olm.copiedFrom" not in (o["metadata"].get("labels") or {})
    }
    conditions = [o for o in objects if o["kind"] == "OperatorCondition"]
    assert {(c["metadata"]["namespace"], c["metadata"]["name"]) for c in conditions} == originals
    assert all(c["status"] == {} for c in conditions)


def test_the_migration_states_of_the_demo(tmp_path: Path) -> None:
    snapshot = tmp_path / "cluster.yaml"
    snapshot.write_text(yaml.safe_dump_all(build_scenario().objects))
    served = tmp_path / "all.json"
    served.write_bytes(v1.catalogd_content())
    session = snapshot_session([str(snapshot)], [f"{v1.COMMUNITY}={served}"])
    rows = {f"{r.object.namespace}/{r.object.name}": r for r in session.analysis.migration()}
    states = {key: (row.state, row.reason) for key, row in rows.items()}
    assert states == {
        "data-pipeline/rabbitmq-messaging-topology-operator": (
            "Ineligible",
            "fails C1, C2, C6, C8",
        ),
        "team-a-operators/keycloak-operator": ("Ineligible", "fails C1, C1a"),
        "team-a-operators/rabbitmq-messaging-topology-operator": ("Ineligible", "fails C1, C2"),
        "team-b-operators/etcd": ("Ineligible", "fails C1, C1a, C8"),
        "team-b-operators/keycloak-operator": ("Ineligible", "fails C1"),
        "openshift-operators/cert-manager": ("Eligible", "every rule passes"),
        "openshift-operators/etcd": ("Eligible", "every rule passes"),
        "openshift-operators/node-healthcheck-operator": ("Eligible", "every rule passes"),
    }
    # OLM v1 already holds cert-manager and node-healthcheck-operator: said beside the state
    assert rows["openshift-operators/cert-manager"].notes == (
        "ClusterExtension cert-manager already installs package cert-manager",
    )
    preview = yaml.safe_load(rows["openshift-operators/etcd"].preview or "")
    assert preview["spec"]["source"]["catalog"]["selector"] == {
        "matchLabels": {"olm.operatorframework.io/metadata.name": v1.COMMUNITY}
    }
