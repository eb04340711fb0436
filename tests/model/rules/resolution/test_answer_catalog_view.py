"""The cause one object away (R-RES-3): OLM found no operators in a catalog the
Subscription's namespace does not resolve from. The finding names the namespace's view (the
OperatorGroup's exclusion annotation, or the catalog's namespace), and the healthy
CatalogSource gets no warning. Built from OLM's e2e test ``catalog_exclusion_test.go``
("Global Catalog Exclusion": a Subscription to a global catalog under an OperatorGroup
annotated ``olm.operatorframework.io/exclude-global-namespace-resolution: "true"`` gets
ResolutionFailed with ``constraints not satisfiable: no operators found from catalog ...``)
and the resolver's ``TestResolver`` case of a catalog outside the visible namespaces."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from check_runs import run_check
from data_paths import DATA
from snapshot_files import yaml_documents

EXCLUDE = "olm.operatorframework.io/exclude-global-namespace-resolution"


def _cluster(catalog_ns: str, exclude: bool, condition: bool = True) -> list[dict[str, Any]]:
    group_meta: dict[str, Any] = {"name": "og", "namespace": "team", "uid": "team-og-uid"}
    if exclude:
        group_meta["annotations"] = {EXCLUDE: "true"}
    message = (
        f"constraints not satisfiable: no operators found from catalog company-catalog in "
        f"namespace {catalog_ns} referenced by subscription app, subscription app exists"
    )
    return [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "openshift-marketplace"}},
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": catalog_ns}},
        {
            "apiVersion": "operators.coreos.com/v1alpha1",
            "kind": "CatalogSource",
            "metadata": {"name": "company-catalog", "namespace": catalog_ns},
            "spec": {"sourceType": "grpc", "image": "quay.io/example/company-catalog:latest"},
            "status": {
                "connectionState": {
                    "address": f"company-catalog.{catalog_ns}.svc:50051",
                    "lastObservedState": "READY",
                    "lastConnect": "2026-11-20T09:58:12Z",
                }
            },
        },
        {
            "apiVersion": "v1",
            "kind": "Namespace",
            "metadata": {"name": "team", "labels": {"olm.operatorgroup.uid/team-og-uid": ""}},
        },
        {
            "apiVersion": "operators.coreos.com/v1",
            "kind": "OperatorGroup",
            "metadata": group_meta,
            "spec": {"targetNamespaces": ["team"]},
            "status": {"namespaces": ["team"], "lastUpdated": "2026-11-20T09:58:00Z"},
        },
        {
            "apiVersion": "operators.coreos.com/v1alpha1",
            "kind": "Subscription",
            "metadata": {"name": "app", "namespace": "team"},
            "spec": {
                "name": "app",
                "channel": "stable",
                "source": "company-catalog",
                "sourceNamespace": catalog_ns,
                "installPlanApproval": "Automatic",
            },
            "status": {
                "lastUpdated": "2026-11-20T10:01:00Z",
                "conditions": [
                    {
                        "type": "ResolutionFailed",
                        "status": "True",
                        "reason": "ConstraintsNotSatisfiable",
                        "message": message,
                        "lastTransitionTime": "2026-11-20T10:00:00Z",
                    }
                ]
                if condition
                else [],
            },
        },
    ]


#: (catalog namespace, exclusion annotation, the cause the Subscription's finding names or
#: None when the catalog is visible and the catalog's own warning stays)
CASES = [
    ("openshift-marketplace", True, f"carries {EXCLUDE}"),
    ("catalogs", False, "catalogs is neither"),
    ("catalogs", True, f"carries {EXCLUDE}"),
    ("openshift-marketplace", False, None),
]


@pytest.mark.parametrize(("catalog_ns", "exclude", "cause"), CASES)
def test_a_catalog_out_of_view_is_the_subscriptions_cause_not_the_catalogs(
    tmp_path: Path, catalog_ns: str, exclude: bool, cause: str | None
) -> None:
    path = tmp_path / "cluster.yaml"
    path.write_text(yaml_documents(_cluster(catalog_ns, exclude)))
    status, report = run_check([str(path)])
    on_catalog = [f for f in report["findings"] if f["kind"] == "CatalogSource"]
    (failed,) = [f for f in report["findings"] if f["code"] == "ConstraintsNotSatisfiable"]
    # one finding for one cause: OLM's own failure, which names it
    assert not any(f["code"] == "CatalogNotVisible" for f in report["findings"])
    if cause is None:
        # visible and still empty: the catalog's own warning is the right one
        assert [f["code"] for f in on_catalog] == ["ResolutionCatalogEmpty"]
        assert "namespace's view" not in failed["message"]
        return
    assert status == 1
    assert on_catalog == []
    assert not any("Fix the catalog" in f["message"] for f in report["findings"])
    assert (failed["severity"], failed["kind"], failed["namespace"], failed["name"]) == (
        "error",
        "Subscription",
        "team",
        "app",
    )
    message = failed["message"]
    assert "The cause is the namespace's view, not the catalog" in message
    assert cause in message and "(R-RES-3)" in message
    assert "check that the package, channel and startingCSV exist" not in message
    if exclude:
        assert "Remove that annotation from OperatorGroup team/og" in message


def test_the_resolvers_fix_names_the_annotation_with_catalog_content() -> None:
    """The same state resolved with the catalog's content (the resolution table's
    ``exclude-global-namespace`` case): the explanation's fix is the annotation."""
    case = DATA / "resolution" / "exclude-global-namespace"
    catalog = f"openshift-marketplace/company-catalog={case / 'catalog-company-catalog.yaml'}"
    _, report = run_check([str(case / "cluster.yaml"), "--catalog", catalog])
    (entry,) = [r for r in report["resolution"] if r["namespace"] == "team"]
    fix = entry["explanation"][0]["fix"]
    assert f"OperatorGroup team/og carries {EXCLUDE}" in fix and "remove the annotation" in fix
    assert not any(f["kind"] == "CatalogSource" for f in report["findings"])


def test_before_olm_says_it_only_the_exclusion_is_certain(tmp_path: Path) -> None:
    """A Subscription OLM has not yet failed: under the annotation its catalog in the global
    namespace is out of view for certain (an error now); without it, which namespace is the
    global one is inferred, so nothing is claimed."""
    for exclude, expected in ((True, ["error"]), (False, [])):
        path = tmp_path / f"cluster-{exclude}.yaml"
        path.write_text(yaml_documents(_cluster("catalogs", exclude, condition=False)))
        _, report = run_check([str(path)])
        found = [f for f in report["findings"] if f["code"] == "CatalogNotVisible"]
        assert [f["severity"] for f in found] == expected
        if exclude:
            assert "names CatalogSource catalogs/company-catalog" in found[0]["message"]
            assert not any(f["kind"] == "CatalogSource" for f in report["findings"])


def test_a_well_known_global_namespace_is_never_claimed_out_of_view(tmp_path: Path) -> None:
    """Without the annotation, a catalog in ``olm`` while the snapshot looks like OpenShift
    (or the other way round, as a partial read may show) may still be the global one: the
    catalog's own warning stays, nothing is blamed on the view."""
    path = tmp_path / "cluster.yaml"
    path.write_text(yaml_documents(_cluster("olm", False)))
    _, report = run_check([str(path)])
    assert not any(f["code"] == "CatalogNotVisible" for f in report["findings"])
    assert [f["code"] for f in report["findings"] if f["kind"] == "CatalogSource"] == [
        "ResolutionCatalogEmpty"
    ]
