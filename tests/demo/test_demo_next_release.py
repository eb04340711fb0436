"""``olmtui demo --next-catalog``: the demo's next release (``fixtures/next-release.catalog.yaml``)
given for its CatalogSource and its ClusterCatalog, so a user sees the next-catalog lines
without preparing files (R-NXT-1 .. R-NXT-6): etcd gone, rabbitmq's channel pruned past the
installed version, opendatahub-operator's ``fast-3`` merged into ``fast``, the rest going on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from olmtui.cli import build_parser
from olmtui.commands.demo import next_catalogs
from olmtui.demo import v1
from olmtui.demo.next_release import NEXT_RELEASE
from olmtui.demo.scenario import CATALOG_REF, build_scenario
from olmtui.pipeline.build import snapshot_session


def test_a_bare_flag_is_the_demo_s_next_release_for_both_catalogs() -> None:
    args = build_parser().parse_args(["demo", "--next-catalog", "--cycles", "1"])
    assert args.next_catalogs == [""]
    assert [c.ref for c in next_catalogs(args.next_catalogs)] == [CATALOG_REF, v1.COMMUNITY]
    given = next_catalogs([f"x/y={NEXT_RELEASE}"])
    assert [c.ref for c in given] == ["x/y"]
    assert build_parser().parse_args(["demo"]).next_catalogs == []


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The demo at rest, with the community catalog's content and its next release."""
    tmp = tmp_path_factory.mktemp("next-release")
    snapshot = tmp / "cluster.yaml"
    snapshot.write_text(yaml.safe_dump_all(build_scenario().objects))
    served = tmp / "all.json"
    served.write_bytes(v1.catalogd_content())
    session = snapshot_session([str(snapshot)], [f"{v1.COMMUNITY}={served}"])
    session.next_catalogs = next_catalogs([""])
    return session.analysis.report()


def _by_object(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {entry["object"]: entry for entry in report["nextCatalog"]}


def test_every_installed_operator_is_judged_against_the_next_release(
    report: dict[str, Any],
) -> None:
    entries = _by_object(report)
    broken = {o for o, e in entries.items() if e["advice"] is not None}
    assert broken == {
        "openshift-operators/etcd",
        "team-b-operators/etcd",
        "team-a-operators/rabbitmq-messaging-topology-operator",
        "data-pipeline/rabbitmq-messaging-topology-operator",
        "opendatahub-operator",
    }
    assert entries["legacy-metrics-operator"]["advice"] is None
    assert entries["openshift-operators/cert-manager"]["advice"] is None
    codes = sorted(f["code"] for f in report["findings"] if f["code"].startswith("NextCatalog"))
    assert codes == [
        "NextCatalogChannelMissing",
        "NextCatalogNoUpgradeEdge",
        "NextCatalogNoUpgradeEdge",
        "NextCatalogPackageMissing",
        "NextCatalogPackageMissing",
    ]


def test_the_no_path_advice_claims_only_what_r_nxt_5_looked_at(report: dict[str, Any]) -> None:
    """The next release's ``fast`` channel goes on from opendatahub-operator 3.5.0, but no
    channel it can follow now leads there: the advice says so, not that no channel of the
    next catalog has an edge."""
    advice = _by_object(report)["opendatahub-operator"]["advice"]
    assert "No channel of the next catalog" not in advice
    assert (
        "Neither opendatahub-operator.v3.5.0 nor a version OLM reaches from it now is one the "
        "next catalog upgrades from, on its own channel or on one both catalogs hold"
    ) in advice
    assert "no path exists before the upgrade" in advice
    finding = next(f for f in report["findings"] if f["code"] == "NextCatalogChannelMissing")
    assert (
        "checked against the next release's catalog. Channel fast-3 of package"
        in (finding["message"])
    )


def test_the_fixture_is_small_and_rendered_fbc() -> None:
    docs = [d for d in yaml.safe_load_all(Path(NEXT_RELEASE).read_text()) if d]
    assert {d["schema"] for d in docs} == {"olm.package", "olm.channel", "olm.bundle"}
    assert "etcd" not in {d["name"] for d in docs if d["schema"] == "olm.package"}
