"""The demo cluster carries the evidence a live cluster would (R-EVD-1): a registry pod per
CatalogSource (the failing catalog's crash-loops, R-EVD-2) and the Deployments OLM made for
the installed CSVs, so X-ray finds them in the cache."""

from __future__ import annotations

from olmtui.demo.scenario import BROKEN_CATALOG, build_scenario
from olmtui.model.rules.evidence.catalog_pods import catalog_pod_findings
from olmtui.sources.cluster.live_resources import read_live
from olmtui.store import Store


def test_demo_has_catalog_pods_and_the_deployments_of_its_installed_csvs() -> None:
    store = Store()
    store.apply_many(build_scenario().objects)
    catalogs = list(store.list("CatalogSource"))
    findings = catalog_pod_findings(catalogs, store.list("Pod"))
    assert [(f.code, f.name) for f in findings] == [
        ("CatalogPodCrashLoopBackOff", f"{BROKEN_CATALOG}-x7k2p")
    ]
    for obj in store.list("ClusterServiceVersion"):
        if obj["status"].get("phase") != "Succeeded" or "olm.copiedFrom" in obj["metadata"].get(
            "labels", {}
        ):
            continue
        namespace = obj["metadata"]["namespace"]
        for item in obj["spec"]["install"]["spec"]["deployments"]:
            found = store.get("Deployment", namespace, item["name"])
            assert found is not None, (namespace, item["name"])
            assert read_live(found)  # the live streams select what the demo serves
