"""The demo's OLM v1 (``olmtui.demo.v1``): ClusterCatalogs and ClusterExtensions as catalogd and
operator-controller write them, the content fetched from the demo's catalogd through the
service proxy like a live session's (R-V1-21), and what ``olmtui check`` says of them: the
settled extension (R-V1-5), the upgrade (R-V1-15, R-V1-20) and the exact resolution error
(R-V1-18)."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import yaml
from conftest import wait_for
from data_paths import DATA

from olmtui.demo import cluster_upgrade, v1
from olmtui.demo.cluster import DemoCluster
from olmtui.demo.scenario import build_scenario
from olmtui.model.rules.v1.catalogs import decode_catalog
from olmtui.pipeline.build import demo_session, snapshot_session
from olmtui.report import render_text
from olmtui.sources.catalog.catalogd import service_of

Obj = dict[str, Any]
V420 = DATA / "catalogs/community-operators-prod/catalogs/v4.20"
#: The demo's script waits this long before its first change: never, within a test.
NO_CHANGES = 3600.0
RESOLVED = {
    "infinispan": {
        "bundle": "infinispan-operator.v2.5.14",
        "version": "2.5.14",
        "catalog": v1.COMMUNITY,
    },
    "keycloak-operator": None,
    "opendatahub-operator": {
        "bundle": "opendatahub-operator.v3.5.0",
        "version": "3.5.0",
        "catalog": v1.COMMUNITY,
    },
}
# R-V1-24: the two extensions whose upgrades run as ClusterObjectSets (v1_revisions).
RESOLVED.update(
    {
        name: {"bundle": f"{name}.v{version}", "version": version, "catalog": v1.COMMUNITY}
        for name, version in (("cert-manager", "1.16.5"), ("node-healthcheck-operator", "0.12.0"))
    }
)
# R-CUP-3: the extension pinned at a bundle capped at OpenShift 4.18 (cluster_upgrade).
RESOLVED[cluster_upgrade.PACKAGE] = {
    "bundle": cluster_upgrade.INSTALLED,
    "version": "1.2.0",
    "catalog": v1.COMMUNITY,
}
ERRORS = {
    "infinispan": None,
    "keycloak-operator": v1.KEYCLOAK_ERROR,
    "opendatahub-operator": None,
    "cert-manager": None,
    "node-healthcheck-operator": None,
    cluster_upgrade.PACKAGE: None,
}


def by_kind(kind: str) -> dict[str, Obj]:
    return {o["metadata"]["name"]: o for o in build_scenario().objects if o["kind"] == kind}


def conditions(obj: Obj) -> dict[str, tuple[str, str, str]]:
    found = obj["status"]["conditions"]
    return {c["type"]: (c["status"], c["reason"], c["message"]) for c in found}


def test_the_fixture_catalogs_are_the_published_fbc() -> None:
    """Copied byte for byte from community-operators-prod (fixtures/README.md)."""
    for package in ("infinispan", "opendatahub-operator"):
        shipped = v1.CONTENT_FILES[0].parent / f"{package}.catalog.yaml"
        assert shipped.read_bytes() == (V420 / package / "catalog.yaml").read_bytes()


def test_cluster_catalogs_one_serving_one_not() -> None:
    """R-V1-6, R-V1-7: the serving catalog says where catalogd serves it and which digest;
    the other has none of that (catalogd's updateStatusNotServing) and retries its pull."""
    catalogs = by_kind("ClusterCatalog")
    assert sorted(catalogs) == [v1.CERTIFIED, v1.COMMUNITY]
    community, certified = catalogs[v1.COMMUNITY], catalogs[v1.CERTIFIED]
    served, unserved = decode_catalog(community), decode_catalog(certified)
    assert served.serving is True and unserved.serving is not True
    assert served.resolved_ref == v1.content_digest()
    service = service_of(community["status"]["urls"]["base"])
    assert service is not None and service.proxy_path() == (
        "/api/v1/namespaces/olmv1-system/services/https:catalogd-service:443/proxy"
        f"/catalogs/{v1.COMMUNITY}/api/v1/all"
    )
    assert community["status"]["lastUnpacked"]
    assert set(certified["status"]) == {"conditions"}
    status, reason, message = conditions(certified)["Progressing"]
    assert (status, reason) == ("True", "Retrying")
    assert message.startswith("source catalog content: ")


def test_cluster_extensions_as_operator_controller_writes_them() -> None:
    """R-V1-3..5: installed and settled (Progressing=True/Succeeded is the done state), and
    a resolution failure with nothing installed (Progressing=True/Retrying, the error)."""
    extensions = by_kind("ClusterExtension")
    assert sorted(extensions) == sorted(RESOLVED)
    for name in ("infinispan", "opendatahub-operator"):
        found = conditions(extensions[name])
        assert found["Progressing"] == ("True", "Succeeded", "Desired state reached")
        assert found["Installed"][:2] == ("True", "Succeeded")
        assert extensions[name]["status"]["install"]["bundle"]["name"]
    keycloak = extensions["keycloak-operator"]
    found = conditions(keycloak)
    assert found["Progressing"] == ("True", "Retrying", v1.KEYCLOAK_ERROR)
    assert found["Installed"] == ("False", "Failed", "No bundle installed")
    assert "install" not in keycloak["status"]
    # they select the serving catalog only, so the one not serving fails none of them
    for extension in extensions.values():
        selector = extension["spec"]["source"]["catalog"]["selector"]
        assert selector == {"matchLabels": {v1.NAME_LABEL: v1.COMMUNITY}}


def v1_part(report: Any) -> dict[str, Any]:
    extensions = {e["name"]: e for e in report["clusterExtensions"]}
    codes = {
        (f["kind"], f["name"], f["code"])
        for f in report["findings"]
        if f["kind"] in ("ClusterExtension", "ClusterCatalog")
    }
    return {
        "resolved": {name: e["resolved"] for name, e in extensions.items()},
        "errors": {name: e["error"] for name, e in extensions.items()},
        "catalogs": {c["name"]: c["serving"] for c in report["clusterCatalogs"]},
        "codes": codes,
    }


EXPECTED_CODES = {
    ("ClusterExtension", "opendatahub-operator", "ClusterExtensionAtLatest"),
    ("ClusterExtension", "infinispan", "ClusterExtensionUpgradeAvailable"),
    ("ClusterExtension", "keycloak-operator", "ClusterExtensionRetrying"),
    # R-V1-25: stuck past its deadline (rolling out, cert-manager is not a finding); both
    # resolve to the version they roll out to.
    ("ClusterExtension", "node-healthcheck-operator", "ClusterExtensionDeadlineExceeded"),
    ("ClusterExtension", "node-healthcheck-operator", "ClusterExtensionUpgradeAvailable"),
    ("ClusterExtension", "cert-manager", "ClusterExtensionUpgradeAvailable"),
    # R-CUP-3: pinned at its capped bundle, which holds the next OpenShift minor
    ("ClusterExtension", cluster_upgrade.PACKAGE, "ClusterExtensionAtLatest"),
    ("ClusterExtension", cluster_upgrade.PACKAGE, "ClusterExtensionBlocksUpgrade"),
    ("ClusterCatalog", v1.CERTIFIED, "ClusterCatalogNotServing"),
    ("ClusterCatalog", v1.CERTIFIED, "ClusterCatalogRetrying"),
}


def check_expected(report: Any) -> None:
    part = v1_part(report)
    assert part["resolved"] == RESOLVED
    assert part["errors"] == ERRORS
    assert part["catalogs"] == {v1.COMMUNITY: True, v1.CERTIFIED: False}
    # no "not computed", and the failure is said once: its Progressing message holds it
    assert part["codes"] == EXPECTED_CODES
    keycloak = next(f for f in report["findings"] if f["name"] == "keycloak-operator")
    assert v1.KEYCLOAK_ERROR in keycloak["message"] and keycloak["severity"] == "error"


def test_check_on_the_saved_demo_with_the_served_content(tmp_path: Path) -> None:
    """``olmtui check`` on the demo's objects, the ClusterCatalog's content given as
    catalogd serves it (``--catalog NAME=PATH``)."""
    snapshot = tmp_path / "cluster.yaml"
    snapshot.write_text(yaml.safe_dump_all(build_scenario().objects))
    served = tmp_path / "all.json"
    served.write_bytes(v1.catalogd_content())
    check_expected(
        snapshot_session([str(snapshot)], [f"{v1.COMMUNITY}={served}"]).analysis.report()
    )


async def test_the_demo_fetches_its_content_from_catalogd_and_reports_it() -> None:
    """The demo session fetches the serving ClusterCatalog's content through the service
    proxy (GET only) and its report carries the resolved bundles and the exact error; the
    catalog that is not serving is never asked for."""
    with DemoCluster(NO_CHANGES, cycles=1) as demo:
        session = demo_session(demo)
        running = asyncio.ensure_future(demo.run())
        try:
            await asyncio.wait_for(demo.synced.wait(), 30)
            await wait_for(
                lambda: v1_part(session.analysis.report())["resolved"] == RESOLVED,
                "the served content resolved",
                poll=0.05,
            )
            report = session.analysis.report()
        finally:
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running
        proxied = [r for r in demo.server.requests if "/proxy/" in r.path]
    check_expected(report)
    assert {r.method for r in proxied} == {"GET"}
    # R-V1-28: the demo's catalogd has no metas (the gate's default): asked once, then all
    assert {r.path.split("/catalogs/")[1] for r in proxied} == {
        f"{v1.COMMUNITY}/api/v1/metas",
        f"{v1.COMMUNITY}/api/v1/all",
    }
    text = render_text(report)
    assert "OLM V1" in text and v1.KEYCLOAK_ERROR in " ".join(text.split())  # lines wrap
