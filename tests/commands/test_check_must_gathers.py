"""``olmtui check`` on the four real must-gathers in tests/data: the report validates and counts
what is there.

Expected counts come from the table in tests/data/must-gather/SOURCES.md (its CSV
column counts copies too: non-copied CSVs = CSV - copied) plus the namespaces the loader
infers because the dump holds objects in them but no Namespace object.
"""

from __future__ import annotations

import pytest
from check_runs import MUST_GATHERS, check_json

# dump: (CSV incl. copies, copied, Sub, IP, OG, CatSrc, Namespace objects)
TABLE = {
    "aws": (1, 0, 0, 0, 3, 4, 56),
    "azure": (131, 128, 2, 2, 4, 6, 56),
    "metal": (135, 132, 2, 2, 4, 6, 58),
    "vsphere": (131, 128, 2, 2, 4, 6, 56),
}


@pytest.mark.parametrize("dump", sorted(TABLE))
def test_must_gather_report_validates_and_has_the_expected_counts(dump: str) -> None:
    csvs, copied, subs, plans, groups, catalogs, namespace_objects = TABLE[dump]
    status, report = check_json(MUST_GATHERS / f"must-gather-{dump}")
    inferred = [f for f in report["findings"] if f["code"] == "NamespacesInferred"]
    inferred_count = len(inferred[0]["related"]) if inferred else 0
    summary = report["summary"]
    heads = ("subscriptionsBehindHead", "subscriptionsHeadUnknown")
    # No catalog content in a must-gather: no head is known, so none is "behind".
    assert summary["subscriptionsBehindHead"] == 0
    assert summary["subscriptionsHeadUnknown"] == sum(
        1 for s in report["subscriptions"] if s["installedCSV"]
    )
    assert {
        k: v for k, v in summary.items() if k not in ("findings", "incidents", "metrics", *heads)
    } == {
        "namespaces": namespace_objects + inferred_count,
        "operatorGroups": groups,
        "csvs": csvs - copied,
        "copiedCSVs": copied,
        "subscriptions": subs,
        "installPlans": plans,
        "catalogSources": catalogs,
    }
    assert status == (1 if summary["findings"]["error"] else 0)
    assert report["source"]["skipped"] == 0


@pytest.mark.parametrize("dump", ["azure", "metal", "vsphere"])
def test_r_diag_3_the_failed_installplan_and_the_csv_it_left_are_one_incident(dump: str) -> None:
    _, report = check_json(MUST_GATHERS / f"must-gather-{dump}")
    assert report["summary"]["findings"]["error"] == 2
    assert report["summary"]["incidents"]["error"] == 1
    (incident,) = [i for i in report["incidents"] if i["severity"] == "error"]
    sub, csv = "image-caching-operator-v0-0-1-sub", "image-caching-operator.v0.0.1"
    namespace = "cfe-test-namespace"
    assert incident["root"] == {
        "code": "InstallPlanFailed",
        "kind": "Subscription",
        "namespace": namespace,
        "name": sub,
    }
    assert incident["consequences"] == [
        {"code": "CSVPending", "kind": "ClusterServiceVersion", "namespace": namespace, "name": csv}
    ]
    # the plan that failed is named in the blast radius (its name differs per dump)
    assert [a["kind"] for a in incident["affected"]].count("InstallPlan") == 1


@pytest.mark.parametrize("dump", ["azure", "metal", "vsphere"])
def test_r_copy_3_every_copy_of_the_global_operators_is_present(dump: str) -> None:
    _, report = check_json(MUST_GATHERS / f"must-gather-{dump}")
    assert report["copiedCSVs"]["missing"] == [] and report["copiedCSVs"]["stale"] == []
    sources = [c for c in report["csvs"] if c["namespace"] == "cfe-test-namespace"]
    assert [c["name"] for c in sources] == [
        "image-caching-operator.v0.0.1",
        "projectrequestlimits.v0.0.1",
    ]
    # A global group copies into every namespace but its own (R-COPY-3).
    for source in sources:
        assert len(source["expectedCopies"]) == report["summary"]["namespaces"] - 1
    assert report["summary"]["copiedCSVs"] == 2 * (report["summary"]["namespaces"] - 1)


def test_r_og_1_monitoring_group_selects_by_label_and_is_static() -> None:
    _, report = check_json(MUST_GATHERS / "must-gather-azure")
    (monitoring,) = [
        o for o in report["operatorGroups"] if o["name"] == "openshift-cluster-monitoring"
    ]
    assert monitoring["static"] is True
    assert len(monitoring["providedAPIs"]) == 8
    assert monitoring["targetNamespaces"] == sorted(monitoring["targetNamespaces"])
    assert "openshift-monitoring" in monitoring["targetNamespaces"]
