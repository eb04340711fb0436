"""A hand-built model (every record kind, with findings) and store that the report tests
render, so a report field can be checked against what was put in; and the one way a test
validates a report against format 1's schema (:func:`validate_report`) and runs ``check``
in-process on objects (:func:`checked_report`)."""

from __future__ import annotations

import contextlib
import functools
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from olmtui.cli import main
from olmtui.model.records.types import (
    ChannelState,
    Conflict,
    CopiedCSVState,
    CSVState,
    Finding,
    InstallPlanRef,
    Intersection,
    MissingCopy,
    ObjectRef,
    OperatorGroupState,
    StaleCopy,
    SubscriptionState,
    UpgradeEdge,
    UpgradeInfo,
    Verdict,
)
from olmtui.report import load_schema, report_json
from olmtui.store import Store

ETCD_APIS = (
    "EtcdBackup.v1beta2.etcd.database.coreos.com",
    "EtcdCluster.v1beta2.etcd.database.coreos.com",
    "EtcdRestore.v1beta2.etcd.database.coreos.com",
)


NAMESPACES = ["cfe-test-namespace", "default", "openshift-operators", "team-a", "team-b"]


@dataclass
class FakeModel:
    """Hand-built records standing in for ``olmtui.model.incremental.engine.Model``."""

    groups: list[OperatorGroupState]
    csv_states: list[CSVState]
    copies: CopiedCSVState
    subs: list[SubscriptionState]
    model_findings: list[Finding]
    namespace_names: list[str] = field(default_factory=lambda: list(NAMESPACES))

    def operator_groups(self) -> list[OperatorGroupState]:
        return self.groups

    def csvs(self) -> list[CSVState]:
        return self.csv_states

    def copied_csvs(self) -> CopiedCSVState:
        return self.copies

    def subscriptions(self) -> list[SubscriptionState]:
        return self.subs

    def findings(self) -> list[Finding]:
        return self.model_findings

    def namespaces(self) -> list[str]:
        return self.namespace_names


@dataclass
class FakeLoad:
    """Stands in for ``olmtui.sources.snapshots.snapshot.LoadResult``."""

    paths: list[str]
    objects: int
    skipped: int
    findings: list[Finding]


def operator_groups() -> list[OperatorGroupState]:
    return [
        OperatorGroupState(
            namespace="team-b",
            name="team-b-og",
            mode="OwnNamespace",
            target_namespaces=("team-b",),
            status_namespaces=("team-b",),
            effective_namespaces=("team-b",),
            static=False,
            provided_apis=(),
            expected_provided_apis=(),
            members=("keycloak-operator.v15.0.2",),
            intersecting=(Intersection("openshift-operators/global-operators", ("team-b",)),),
        ),
        OperatorGroupState(
            namespace="team-a",
            name="team-a-og",
            mode="OwnNamespace",
            target_namespaces=("team-a",),
            status_namespaces=("team-a",),
            effective_namespaces=("team-a",),
            static=False,
            provided_apis=(),
            expected_provided_apis=(),
            members=("etcdoperator.v0.9.4",),
            intersecting=(Intersection("openshift-operators/global-operators", ("team-a",)),),
        ),
        OperatorGroupState(
            namespace="openshift-operators",
            name="global-operators",
            mode="AllNamespaces",
            target_namespaces=("",),
            status_namespaces=None,
            effective_namespaces=(),
            static=False,
            provided_apis=tuple(reversed(ETCD_APIS)),
            expected_provided_apis=ETCD_APIS,
            members=("etcdoperator.v0.9.4-clusterwide",),
            intersecting=(
                Intersection("team-b/team-b-og", ("team-b",)),
                Intersection("team-a/team-a-og", ("team-a",)),
            ),
        ),
    ]


def csv_states() -> list[CSVState]:
    return [
        CSVState(
            namespace="team-a",
            name="etcdoperator.v0.9.4",
            version="0.9.4",
            phase="Failed",
            reason="InterOperatorGroupOwnerConflict",
            message="intersecting operatorgroups provide the same apis",
            operator_group="team-a/team-a-og",
            provided_apis=tuple(reversed(ETCD_APIS)),
            required_apis=(),
            verdict=Verdict(
                "Failed",
                "InterOperatorGroupOwnerConflict",
                "intersecting operatorgroups provide the same apis",
                "R-API-6",
            ),
            api_reconciliation="APIConflict",
            conflicts=(
                Conflict(
                    "openshift-operators/global-operators", tuple(reversed(ETCD_APIS)), ("team-a",)
                ),
            ),
            expected_copies=(),
        ),
        CSVState(
            namespace="openshift-operators",
            name="etcdoperator.v0.9.4-clusterwide",
            version="0.9.4-clusterwide",
            phase="Succeeded",
            reason="InstallSucceeded",
            message="install strategy completed with no errors",
            operator_group="openshift-operators/global-operators",
            provided_apis=ETCD_APIS,
            required_apis=(),
            verdict=None,
            api_reconciliation="NoAPIConflict",
            conflicts=(),
            expected_copies=("team-b", "team-a", "default", "cfe-test-namespace"),
        ),
        CSVState(
            namespace="default",
            name="broken.v0.0.1",
            version=None,
            phase=None,
            reason=None,
            message=None,
            operator_group=None,
            provided_apis=(),
            required_apis=(),
            verdict=None,
            api_reconciliation=None,
            conflicts=(),
            expected_copies=(),
        ),
    ]


def copied() -> CopiedCSVState:
    return CopiedCSVState(
        present=3,
        missing=(
            MissingCopy("openshift-operators/etcdoperator.v0.9.4-clusterwide", "team-b"),
            MissingCopy("openshift-operators/etcdoperator.v0.9.4-clusterwide", "default"),
        ),
        stale=(
            StaleCopy("team-b", "old.v1", "gone", "parent gone"),
            StaleCopy("default", "old.v1", "gone", "parent gone"),
        ),
    )


def subscriptions() -> list[SubscriptionState]:
    return [
        SubscriptionState(
            namespace="cfe-test-namespace",
            name="projectrequestlimits-v0-0-1-sub",
            package="projectrequestlimits",
            channel="alpha",
            source="projectrequestlimits-catalog",
            source_namespace="cfe-test-namespace",
            approval="Automatic",
            effective_approval="Manual",
            state="AtLatestKnown",
            installed_csv="projectrequestlimits.v0.0.1",
            current_csv="projectrequestlimits.v0.0.1",
            install_plan=InstallPlanRef("install-p2fmw", "Complete", True),
        ),
        SubscriptionState(
            namespace="cfe-test-namespace",
            name="image-caching-operator-v0-0-1-sub",
            package="image-caching-operator",
            channel=None,
            source="image-caching-operator-catalog",
            source_namespace="cfe-test-namespace",
            approval="Manual",
            effective_approval="Manual",
            state=None,
            installed_csv=None,
            current_csv=None,
            install_plan=None,
            upgrade=UpgradeInfo(
                graph="catalog",
                head="etcdoperator.v0.9.4",
                next="etcdoperator.v0.9.2",
                path=("etcdoperator.v0.9.2", "etcdoperator.v0.9.4"),
                edges=(
                    UpgradeEdge("etcdoperator.v0.9.0", "etcdoperator.v0.9.2", "replaces"),
                    UpgradeEdge("etcdoperator.v0.9.2", "etcdoperator.v0.9.4", "replaces"),
                ),
            ),
        ),
    ]


def model_findings() -> list[Finding]:
    return [
        Finding(
            "info",
            "InferredNamespace",
            "Namespace",
            "",
            "openshift-operators",
            "no Namespace object in the snapshot; taken to exist",
            "report-format",
        ),
        Finding(
            "warning",
            "MissingCopiedCSV",
            "ClusterServiceVersion",
            "team-b",
            "etcdoperator.v0.9.4-clusterwide",
            "copy missing",
            "R-COPY-3",
        ),
        Finding(
            "error",
            "TooManyOperatorGroups",
            "ClusterServiceVersion",
            "team-b",
            "keycloak-operator.v15.0.2",
            "two groups",
            "R-MEM-2",
            (
                ObjectRef("OperatorGroup", "team-b", "team-b-og"),
                ObjectRef("OperatorGroup", "team-b", "team-b-og-2"),
            ),
        ),
        Finding(
            "error",
            "InterOperatorGroupOwnerConflict",
            "ClusterServiceVersion",
            "team-a",
            "etcdoperator.v0.9.4",
            "conflict",
            "R-API-5",
        ),
        Finding(
            "warning",
            "MissingCopiedCSV",
            "ClusterServiceVersion",
            "default",
            "etcdoperator.v0.9.4-clusterwide",
            "copy missing",
            "R-COPY-3",
        ),
    ]


def loader_findings() -> list[Finding]:
    return [
        Finding(
            "warning",
            "UnreadableDocument",
            "",
            "",
            "broken.yaml:12",
            "could not parse the document at line 12",
        )
    ]


def channels() -> list[ChannelState]:
    return [
        ChannelState(
            "openshift-marketplace/community-operators",
            "etcd",
            "singlenamespace-alpha",
            "etcdoperator.v0.9.4",
            ("etcdoperator.v0.9.4", "etcdoperator.v0.9.2"),
            (),
        ),
        ChannelState(None, "etcd", "alpha", "etcdoperator.v0.9.4", (), ()),
        ChannelState(
            "openshift-marketplace/community-operators",
            "etcd",
            "clusterwide-alpha",
            None,
            (),
            ("no channel head found in graph",),
        ),
    ]


def cluster_store() -> Store:
    store = Store()
    for name in ("install-p2fmw", "install-bfnbn"):
        store.apply(
            "ADDED",
            {
                "apiVersion": "operators.coreos.com/v1alpha1",
                "kind": "InstallPlan",
                "metadata": {"name": name, "namespace": "cfe-test-namespace"},
            },
        )
    store.apply(
        "ADDED",
        {
            "apiVersion": "operators.coreos.com/v1alpha1",
            "kind": "CatalogSource",
            "metadata": {"name": "community-operators", "namespace": "openshift-marketplace"},
        },
    )
    return store


def build_model(findings: list[Finding] | None = None) -> FakeModel:
    return FakeModel(
        operator_groups(),
        csv_states(),
        copied(),
        subscriptions(),
        model_findings() if findings is None else findings,
    )


def build_report(model: FakeModel | None = None) -> dict:
    """The report of the hand-made records, validated against the schema on the way out."""
    load = FakeLoad(["snapshots/cluster.yaml", "more/"], 42, 1, loader_findings())
    report = report_json("snapshot", model or build_model(), cluster_store(), load, channels())
    validate_report(report)
    return report


@functools.cache
def _report_validator() -> Any:
    """The schema's validator, made once a worker: ``jsonschema.validate`` checks the schema
    itself again on every call (~85 ms of a ~105 ms call; ``test_report_json`` checks it)."""
    schema = load_schema()
    return jsonschema.validators.validator_for(schema)(schema)


def validate_report(report: Any) -> None:
    """Raise ``jsonschema.ValidationError`` unless ``report`` is a report of format 1."""
    _report_validator().validate(report)


def checked_report(tmp_path: Path, objects: list[dict[str, Any]]) -> dict[str, Any]:
    """``olmtui check --output json`` in-process on ``objects`` written as a snapshot: exit 0
    or 1, its report valid."""
    path = tmp_path / "state.yaml"
    path.write_text(yaml.dump_all(objects, Dumper=yaml.CSafeDumper))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["check", str(path), "--output", "json"])
    assert status in (0, 1)
    report: dict[str, Any] = json.loads(out.getvalue())
    validate_report(report)
    return report
