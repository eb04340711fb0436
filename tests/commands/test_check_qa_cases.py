"""QA's reproduction cases, checked end to end as ``olmtui check`` reports
them: the JSON report and its text rendering, from the snapshots in tests/data/model/qa."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from data_paths import DATA
from model_builders import MODEL_DATA, load_yaml

from olmtui.cli import build_parser
from olmtui.commands.check import check
from olmtui.report import render_text

QA = MODEL_DATA / "qa"


def report_for(*argv: str) -> dict[str, Any]:
    return check(build_parser().parse_args(["check", *argv])).report


def csv_entry(report: dict[str, Any], namespace: str, name: str) -> dict[str, Any]:
    return next(c for c in report["csvs"] if (c["namespace"], c["name"]) == (namespace, name))


def test_r_api_6_remove_apis_verdict_is_null_and_the_text_tells_the_pending_strip() -> None:
    report = report_for(str(QA / "remove-apis.yaml"))
    bar = csv_entry(report, "ops3", "bar.v1.0.0")
    assert (bar["apiReconciliation"], bar["verdict"]) == ("RemoveAPIs", None)
    text = " ".join(render_text(report).split())
    assert (
        "bar.v1.0.0 1.0.0 Succeeded/InstallSucceeded -> next sync strips its APIs from the "
        "group (RemoveAPIs)"
    ) in text
    assert "next sync: Failed/InterOperatorGroupOwnerConflict" not in text


def test_r_og_1_text_names_a_group_that_selects_nothing_in_words() -> None:
    text = render_text(report_for(str(QA / "selector-matches-nothing.yaml")))
    assert "  sel/og-sel  no targets (selects no namespace)\n" in text
    assert "None" not in text


KEYCLOAK = str(DATA / "catalogs/community-operators-prod/operators/keycloak-operator")


def test_r_sub_9_upgrade_in_a_stalled_namespace_says_it_will_not_happen() -> None:
    """QA case: the sample's team-b has two OperatorGroups, so OLM resolves nothing there;
    the UpgradeAvailable finding must not say "OLM picks X next" as if it would."""
    from importlib.resources import as_file, files

    from olmtui.model.incremental.health import _csvs_by_namespace
    from olmtui.model.rules.upgrades.graph import upgrade_findings
    from olmtui.sources.catalog.catalogs import load_catalog
    from olmtui.sources.snapshots.snapshot import load_snapshot
    from olmtui.store import Store

    store = Store()
    with as_file(files("olmtui").joinpath("samples", "cluster.yaml")) as sample:
        load_snapshot([str(sample)], store)
    groups: dict[str, int] = {}
    for og in store.list("OperatorGroup"):
        namespace = og["metadata"]["namespace"]
        groups[namespace] = groups.get(namespace, 0) + 1
    found = upgrade_findings(
        [load_catalog(KEYCLOAK)],
        list(store.list("Subscription")),
        _csvs_by_namespace(store),
        groups,
    )
    team_b = next(f for f in found if f.code == "UpgradeAvailable" and f.namespace == "team-b")
    assert "OLM picks" not in team_b.message and "OLM would pick" in team_b.message
    assert "team-b has 2 OperatorGroups" in team_b.message and "R-SUB-9" in team_b.message
    elsewhere = [f for f in found if f.code == "UpgradeAvailable" and f.namespace != "team-b"]
    assert all("R-SUB-9" not in f.message for f in elsewhere)


MARKETPLACE = next(
    (DATA / "must-gather/must-gather-clean/must-gather-azure").glob(
        "*/namespaces/openshift-marketplace/operators.coreos.com/catalogsources"
    )
)


def test_r_sub_8_catalog_content_for_a_catalog_source_that_does_not_exist() -> None:
    """QA case: ``--catalog openshift-marketplace/nope=PATH`` on the azure must-gather, whose
    openshift-marketplace holds the four default CatalogSources (real objects)."""
    from olmtui.model.rules.catalog.catalog_health import catalog_content_without_source
    from olmtui.sources.catalog.catalogs import load_catalog

    sources = [load_yaml(p) for p in sorted(MARKETPLACE.glob("*.yaml"))]
    nope = load_catalog(f"openshift-marketplace/nope={KEYCLOAK}")
    known = load_catalog(f"openshift-marketplace/community-operators={KEYCLOAK}")
    anywhere = load_catalog(KEYCLOAK)
    found = catalog_content_without_source([nope, known, anywhere], sources)
    assert [(f.severity, f.code, f.kind, f.namespace, f.name) for f in found] == [
        ("warning", "CatalogSourceNotFound", "CatalogSource", "openshift-marketplace", "nope")
    ]
    assert "no Subscription can use this content" in found[0].message


def test_r_v1_22_content_bound_to_a_cluster_catalog_is_not_for_a_catalog_source() -> None:
    """``--catalog NAME=PATH`` (no ``/``) is OLM v1 content: never reported as content for a
    missing CatalogSource, whatever CatalogSources exist."""
    from olmtui.model.rules.catalog.catalog_health import catalog_content_without_source
    from olmtui.sources.catalog.catalogs import load_catalog

    sources = [load_yaml(p) for p in sorted(MARKETPLACE.glob("*.yaml"))]
    bound = load_catalog(f"community-operators={KEYCLOAK}")
    assert bound.ref == "community-operators"
    assert catalog_content_without_source([bound], sources) == []


AWS = DATA / "must-gather/must-gather-clean/must-gather-aws"


def test_truncated_archive_is_an_error_and_the_header_says_the_snapshot_is_incomplete(
    tmp_path: Path,
) -> None:
    """QA case: half of a real must-gather archive. An archive that ends early loses every
    file after the break, so the report must not look clean (exit 1)."""
    import tarfile

    from olmtui.report import has_errors

    whole = tmp_path / "must-gather.tgz"
    with tarfile.open(whole, "w:gz") as tar:
        tar.add(AWS, arcname="must-gather-aws")
    truncated = tmp_path / "trunc.tgz"
    data = whole.read_bytes()
    truncated.write_bytes(data[: len(data) // 2])

    report = report_for(str(truncated))
    unreadable = [f for f in report["findings"] if f["code"] == "UnreadableDocument"]
    assert [f["severity"] for f in unreadable] == ["error"]
    assert "archive ends early" in unreadable[0]["message"]
    assert report["source"]["skipped"] == 1 and has_errors(report)
    first, _, third = render_text(report).splitlines()[:3]
    assert first.endswith(
        " — input incomplete: the archive ends early: the files after the break are missing"
    )
    assert third == (
        "1 document could not be read — the snapshot is incomplete, findings "
        "may be missing or wrong"
    )
    complete = render_text(report_for(str(whole)))
    assert "could not be read" not in complete


def test_an_unparsable_document_in_a_file_stays_a_warning(tmp_path: Path) -> None:
    snapshot = tmp_path / "snapshot.yaml"
    snapshot.write_text((QA / "orphan-copy.yaml").read_text() + "---\nkind: [unclosed\n")
    report = report_for(str(snapshot))
    unreadable = [f for f in report["findings"] if f["code"] == "UnreadableDocument"]
    assert [f["severity"] for f in unreadable] == ["warning"]
    assert "could not be read — the snapshot is incomplete" in render_text(report)


def test_r_sub_9_check_never_says_olm_picks_an_upgrade_next_to_subscription_stalled() -> None:
    report = report_for("--sample", "--catalog", KEYCLOAK)
    stalled = {
        (f["namespace"], f["name"])
        for f in report["findings"]
        if f["code"] == "SubscriptionStalled"
    }
    assert ("team-b", "keycloak-operator") in stalled
    for finding in report["findings"]:
        if (
            finding["code"] == "UpgradeAvailable"
            and (finding["namespace"], finding["name"]) in stalled
        ):
            assert "OLM picks" not in finding["message"]
            assert "resolves nothing there" in finding["message"]


def test_r_sub_8_check_reports_catalog_content_for_a_missing_catalog_source() -> None:
    report = report_for(str(AWS), "--catalog", f"openshift-marketplace/nope={KEYCLOAK}")
    found = [
        (f["severity"], f["kind"], f["namespace"], f["name"])
        for f in report["findings"]
        if f["code"] == "CatalogSourceNotFound"
    ]
    assert found == [("warning", "CatalogSource", "openshift-marketplace", "nope")]
