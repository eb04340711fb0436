"""Live (GET only, against the loopback API server): the leftovers' inputs are read and
trimmed as from a snapshot: a Terminating namespace and OLM's finalizer on its CSV, a CRD
without its schema, OLM's Degraded ClusterOperator; and a finding leaves when the object
holding it goes."""

from __future__ import annotations

from pathlib import Path

from conftest import wait_for
from live_support import fast_options, start_server, started_source, stop_source
from model_builders import clusteroperator, crd, csv, namespace, operator_group

from olmtui.model.incremental.health import health_findings
from olmtui.store import Store

CLEANUP = "operators.coreos.com/csv-cleanup"
CRD_NAME = "etcdclusters.etcd.io"


def objects() -> list[dict]:
    schema = crd(CRD_NAME, labels={"operators.coreos.com/etcd.gone": ""}, stored=["v1"])
    schema["spec"]["versions"] = [
        {"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": {}}}
    ]
    return [
        namespace("team-a", deleted="2026-11-20T09:00:00Z"),
        operator_group("team-a", "og", targets=["team-a"]),
        csv("team-a", "x.v1", finalizers=[CLEANUP]),
        schema,
        clusteroperator(
            "True",
            None,
            "",
            name="operator-lifecycle-manager-catalog",
            conditions=(("Degraded", "True", "CatalogOperatorFailing", "cannot sync"),),
        ),
    ]


async def test_live_reads_the_leftovers_and_drops_a_finding_when_its_object_goes(
    tmp_path: Path,
) -> None:
    server, kubeconfig = await start_server(tmp_path, objects())
    store = Store()
    source, task = await started_source(store, fast_options(kubeconfig))
    wanted = {"NamespaceHeldByOLM", "OLMFinalizerHoldsNamespace", "CRDOwnerGone"}
    wanted.add("OLMClusterOperatorDegraded")

    def codes() -> set[str]:
        return {f.code for f in health_findings(store)}

    try:
        await wait_for(lambda: wanted <= codes(), what="the leftover findings", timeout=30)
        kept = store.get("CustomResourceDefinition", "", CRD_NAME)
        assert kept is not None and "schema" not in kept["spec"]["versions"][0]
        server.state.delete("ClusterServiceVersion", "team-a", "x.v1")
        await wait_for(
            lambda: "OLMFinalizerHoldsNamespace" not in codes(), what="the holder gone", timeout=30
        )
        assert {r.method for r in server.requests} == {"GET"}
    finally:
        await stop_source(source, task)
        await server.stop()
