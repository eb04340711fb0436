"""The Catalogs view: which packages a CatalogSource serves, from ``--catalog`` content."""

from __future__ import annotations

from data_paths import DATA

from olmtui.pipeline.build import snapshot_session

MUST_GATHER = DATA / "must-gather/must-gather-clean/must-gather-azure"
KEYCLOAK = DATA / "catalogs/community-operators-prod/operators/keycloak-operator"


def test_catalog_without_a_source_serves_every_catalogsource() -> None:
    session = snapshot_session([str(MUST_GATHER)], [str(KEYCLOAK)])
    for source in ("community-operators", "redhat-operators"):
        assert session.analysis.packages_of_catalog("openshift-marketplace", source) == [
            "keycloak-operator"
        ]


def test_catalog_for_one_source_serves_only_that_one() -> None:
    spec = f"openshift-marketplace/community-operators={KEYCLOAK}"
    session = snapshot_session([str(MUST_GATHER)], [spec])
    assert session.analysis.packages_of_catalog("openshift-marketplace", "community-operators") == [
        "keycloak-operator"
    ]
    assert session.analysis.packages_of_catalog("openshift-marketplace", "redhat-operators") == []
