"""Dependency health (R-DOC-4, R-DOC-5): required APIs nobody provides, upgrades that drop an API
others require, and CRD upgrades that remove served or stored versions."""

from __future__ import annotations

import copy
from typing import Any

import yaml
from data_paths import TESTS
from model_builders import crd, csv

from olmtui.model.records.catalog import Bundle
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.dependencies.required_apis import crd_served_apis, dependency_findings

DATA = TESTS / "data" / "health"
RABBIT_API = "RabbitmqCluster.v1beta1.rabbitmq.com"
ETCD_CRD = "etcdclusters.etcd.database.coreos.com"


def load(name: str) -> Any:
    return list(yaml.load_all((DATA / name).read_bytes(), Loader=yaml.CSafeLoader))


TOPOLOGY = next(d for d in load("rabbitmq-topology-csvs.yaml") if d["spec"]["version"] == "1.17.4")


def place(csv: dict[str, Any], ns: str, **extra: Any) -> dict[str, Any]:
    placed = copy.deepcopy(csv)
    placed["metadata"]["namespace"] = ns
    placed["metadata"].update(extra)
    placed.setdefault("status", {"phase": "Succeeded"})
    return placed


def provider(name: str = "rabbitmq-cluster-operator.v2.0.0") -> dict[str, Any]:
    return csv(
        None,
        name,
        bare=True,
        version="2.0.0",
        owned=(("RabbitmqCluster", "v1beta1", "rabbitmqclusters.rabbitmq.com"),),
        phase=None,
        reason=None,
    )


def rabbit_crd(served: bool = True) -> dict[str, Any]:
    return crd(
        "rabbitmqclusters.rabbitmq.com",
        kind="RabbitmqCluster",
        versions=[{"name": "v1beta1", "served": served, "storage": True}],
    )


def etcd_crd(versions: list[tuple[str, bool, bool]], stored: list[str]) -> dict[str, Any]:
    """The real etcd CRD with the given ``(name, served, storage)`` versions and status."""
    crd = copy.deepcopy(load("etcdclusters-crd.yaml")[0])
    crd["spec"]["versions"] = [{"name": n, "served": s, "storage": st} for n, s, st in versions]
    crd["status"] = {"storedVersions": stored}
    return crd


ETCD_CSV = {
    "kind": "ClusterServiceVersion",
    "metadata": {"name": "etcdoperator.v0.9.4", "namespace": "etcd"},
    "spec": {
        "version": "0.9.4",
        "customresourcedefinitions": {
            "owned": [{"name": ETCD_CRD, "version": "v1beta2", "kind": "EtcdCluster"}]
        },
    },
}


def codes(findings: list[Any]) -> list[tuple[str, str, str]]:
    return [(f.severity, f.code, f.name) for f in findings]


# -- required APIs ----------------------------------------------------------------------------


def test_seed_001_required_api_nobody_provides_without_crds_is_a_warning() -> None:
    findings = dependency_findings([place(TOPOLOGY, "tenant")], [])
    assert codes(findings) == [
        ("warning", "RequiredAPIMissing", "rabbitmq-messaging-topology-operator.v1.17.4")
    ]
    assert RABBIT_API in findings[0].message
    assert "the snapshot holds no CRDs" in findings[0].message
    assert findings[0].rule == "R-DOC-4"


def test_seed_001_required_api_nobody_provides_with_crds_is_an_error() -> None:
    findings = dependency_findings([place(TOPOLOGY, "tenant")], load("etcdclusters-crd.yaml"))
    assert codes(findings) == [
        ("error", "RequiredAPIMissing", "rabbitmq-messaging-topology-operator.v1.17.4")
    ]


def test_seed_001_required_api_provided_by_a_csv_in_another_namespace() -> None:
    csvs = [place(TOPOLOGY, "tenant"), place(provider(), "rabbit-system")]
    assert dependency_findings(csvs, []) == []


def test_r_copy_1_a_copied_csv_provides_nothing() -> None:
    copied = place(provider(), "tenant", labels={"olm.copiedFrom": "rabbit-system"})
    findings = dependency_findings([place(TOPOLOGY, "tenant"), copied], [])
    assert [f.code for f in findings] == ["RequiredAPIMissing"]


def test_seed_001_required_api_served_by_a_crd_in_the_snapshot() -> None:
    assert crd_served_apis(rabbit_crd()) == {RABBIT_API}
    assert dependency_findings([place(TOPOLOGY, "tenant")], [rabbit_crd()]) == []
    unserved = dependency_findings([place(TOPOLOGY, "tenant")], [rabbit_crd(served=False)])
    assert [f.code for f in unserved] == ["RequiredAPIMissing"]


def test_seed_001_requirement_status_present_counts_as_provided() -> None:
    csv = place(TOPOLOGY, "tenant")
    csv["status"]["requirementStatus"] = [
        {
            "group": "apiextensions.k8s.io",
            "kind": "CustomResourceDefinition",
            "name": "rabbitmqclusters.rabbitmq.com",
            "status": "Present",
            "version": "v1",
        }
    ]
    assert dependency_findings([csv], []) == []


# -- upgrades that drop an API ----------------------------------------------------------------


def test_seed_001_upgrade_dropping_an_api_another_csv_requires() -> None:
    csvs = [place(TOPOLOGY, "tenant"), place(provider(), "rabbit-system")]
    nxt = Bundle(
        "rabbitmq-cluster-operator.v3.0.0",
        "rabbitmq-cluster-operator",
        provided_apis=("RabbitmqCluster.v1.rabbitmq.com",),
    )
    findings = dependency_findings(
        csvs, [], {"rabbit-system/rabbitmq-cluster-operator.v2.0.0": nxt}
    )
    assert codes(findings) == [
        ("error", "UpgradeDropsRequiredAPI", "rabbitmq-cluster-operator.v2.0.0")
    ]
    assert RABBIT_API in findings[0].message
    assert findings[0].related == (
        ObjectRef(
            "ClusterServiceVersion", "tenant", "rabbitmq-messaging-topology-operator.v1.17.4"
        ),
    )


def test_seed_001_upgrade_keeping_the_api_or_with_another_provider_is_fine() -> None:
    csvs = [place(TOPOLOGY, "tenant"), place(provider(), "rabbit-system")]
    key = "rabbit-system/rabbitmq-cluster-operator.v2.0.0"
    keeps = Bundle(
        "rabbitmq-cluster-operator.v2.1.0", "rabbitmq-cluster-operator", provided_apis=(RABBIT_API,)
    )
    assert dependency_findings(csvs, [], {key: keeps}) == []
    drops = Bundle(
        "rabbitmq-cluster-operator.v3.0.0",
        "rabbitmq-cluster-operator",
        provided_apis=("RabbitmqCluster.v1.rabbitmq.com",),
    )
    second = place(provider("other-rabbit.v1.0.0"), "other")
    assert dependency_findings([*csvs, second], [], {key: drops}) == []


def test_seed_001_bundle_without_api_data_is_not_read_as_dropping_everything() -> None:
    csvs = [place(TOPOLOGY, "tenant"), place(provider(), "rabbit-system")]
    unknown = Bundle("rabbitmq-cluster-operator.v3.0.0", "rabbitmq-cluster-operator")
    assert (
        dependency_findings(csvs, [], {"rabbit-system/rabbitmq-cluster-operator.v2.0.0": unknown})
        == []
    )


# -- CRD upgrade safety -------------------------------------------------------------------------


def etcd_next(
    served: tuple[str, ...],
    storage: str,
    all_versions: tuple[str, ...] | None,
) -> dict[str, Bundle]:
    bundle = Bundle(
        "etcdoperator.v0.10.0",
        "etcd",
        crds=((ETCD_CRD, served, storage),),
        crd_versions=((ETCD_CRD, all_versions),) if all_versions is not None else (),
    )
    return {"etcd/etcdoperator.v0.9.4": bundle}


def test_seed_001_next_bundle_removes_a_served_and_stored_version() -> None:
    crd = etcd_crd([("v1beta2", True, True)], ["v1beta2"])
    findings = dependency_findings([ETCD_CSV], [crd], etcd_next(("v1",), "v1", ("v1",)))
    assert codes(findings) == [
        ("error", "CRDStoredVersionRemoved", "etcdoperator.v0.9.4"),
        ("warning", "CRDServedVersionRemoved", "etcdoperator.v0.9.4"),
    ]
    assert all(
        f.related == (ObjectRef("CustomResourceDefinition", "", ETCD_CRD),) for f in findings
    )
    assert "v1beta2" in findings[0].message and "status.storedVersions" in findings[0].message
    assert "served: false" in findings[1].message


def test_seed_001_marking_a_version_unserved_first_is_the_safe_step() -> None:
    crd = etcd_crd([("v1beta2", True, True)], ["v1beta2"])
    safe = etcd_next(("v1",), "v1", ("v1beta2", "v1"))
    assert dependency_findings([ETCD_CSV], [crd], safe) == []


def test_seed_001_removing_an_unserved_version_no_longer_stored_is_fine() -> None:
    crd = etcd_crd([("v1beta2", False, False), ("v1", True, True)], ["v1"])
    assert dependency_findings([ETCD_CSV], [crd], etcd_next(("v1",), "v1", ("v1",))) == []


def test_seed_001_removing_an_unserved_but_stored_version_is_refused() -> None:
    crd = etcd_crd([("v1beta2", False, False), ("v1", True, True)], ["v1beta2", "v1"])
    findings = dependency_findings([ETCD_CSV], [crd], etcd_next(("v1",), "v1", ("v1",)))
    assert codes(findings) == [("error", "CRDStoredVersionRemoved", "etcdoperator.v0.9.4")]


def test_seed_001_without_the_full_version_list_a_stored_version_is_only_a_warning() -> None:
    crd = etcd_crd([("v1beta2", True, True)], ["v1beta2"])
    findings = dependency_findings([ETCD_CSV], [crd], etcd_next(("v1",), "v1", None))
    assert codes(findings) == [("warning", "CRDStoredVersionRemoved", "etcdoperator.v0.9.4")]
    assert "neither serves nor stores" in findings[0].message


def test_seed_001_crd_checks_need_the_crd_on_the_cluster() -> None:
    assert dependency_findings([ETCD_CSV], [], etcd_next(("v1",), "v1", ("v1",))) == []
