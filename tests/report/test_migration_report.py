"""``migration[]`` (R-MIG-12): present in every report, valid against the shipped schema, one
entry per operator with its rules and the ClusterExtension YAML of an eligible one; and the
"Migration to OLM v1" section of the text and Markdown reports when OLM v1 is there."""

from __future__ import annotations

from typing import Any

import jsonschema
import yaml
from migration_support import CLUSTER_CATALOG, CSV_NAME, NS, content, healthy_subscription
from model_builders import catalog_source, csv, operator_condition, operator_group, subscription
from v1_objects import catalog, extension

from olmtui.model.incremental.engine import Model
from olmtui.model.records.catalog import Catalog
from olmtui.model.rules.migration.states import MIGRATED_FROM
from olmtui.report import load_schema, report_json
from olmtui.report.markdown_report import render_markdown
from olmtui.report.text_report import render_text
from olmtui.store import Store


def report_of(objects: list[dict[str, Any]], catalogs: list[Catalog]) -> dict[str, Any]:
    store = Store()
    store.apply_many(objects)
    report = report_json("snapshot", Model(store), store, catalogs=catalogs)
    jsonschema.validate(report, load_schema())
    return report


def cluster() -> list[dict[str, Any]]:
    """The eligible operator, a scoped one beside it, and a half-done conversion."""
    return [
        operator_group(NS, "og", status=[""]),
        csv(NS, CSV_NAME),
        operator_condition(CSV_NAME, None, ns=NS),
        healthy_subscription(),
        operator_group("team", "og", targets=["team"]),
        csv("team", CSV_NAME),
        subscription("team", "pkg", installed=CSV_NAME, state="AtLatestKnown"),
        subscription("half", "done", package="half"),
        extension(
            "done", package="half", namespace="half", annotations={MIGRATED_FROM: "half/done"}
        ),
        catalog_source("openshift-marketplace", "cat"),
        catalog(CLUSTER_CATALOG),
    ]


def test_every_operator_has_an_entry_in_the_tools_order() -> None:
    report = report_of(cluster(), [content()])
    assert [(e["object"], e["state"]) for e in report["migration"]] == [
        ({"kind": "Subscription", "namespace": "half", "name": "done"}, "Conflict"),
        ({"kind": "Subscription", "namespace": "team", "name": "pkg"}, "Ineligible"),
        ({"kind": "Subscription", "namespace": NS, "name": "pkg"}, "Eligible"),
    ]
    conflict, scoped, eligible = report["migration"]
    assert conflict["rules"] == [] and conflict["clusterExtension"] is None
    assert scoped["reason"] == "fails C1"
    assert scoped["rules"][0] == {
        "id": "C1",
        "ok": False,
        "detail": "OperatorGroup og targets namespaces team; OLM v1 installs for all namespaces",
        "known": True,
    }
    assert [r["id"] for r in eligible["rules"]] == [
        "C1", "C1a", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "C10"
    ]  # fmt: skip
    preview = yaml.safe_load(eligible["clusterExtension"])
    assert preview["kind"] == "ClusterExtension"
    assert preview["metadata"]["annotations"] == {MIGRATED_FROM: f"{NS}/pkg"}


def test_without_catalog_content_no_operator_is_shown_eligible() -> None:
    report = report_of(cluster(), [])
    states = {
        (e["object"]["namespace"], e["object"]["name"]): (e["state"], e["reason"])
        for e in report["migration"]
    }
    assert states[NS, "pkg"] == ("Ineligible", "not shown: C7")


def test_an_empty_cluster_has_an_empty_list_and_no_section() -> None:
    report = report_of([], [])
    assert report["migration"] == []
    assert "MIGRATION" not in render_text(report)


def test_without_olm_v1_the_reports_leave_the_section_out() -> None:
    objects = [o for o in cluster() if o["kind"] not in ("ClusterCatalog", "ClusterExtension")]
    report = report_of(objects, [content()])
    assert report["migration"]  # the JSON always has it
    assert "MIGRATION TO OLM V1" not in render_text(report)
    assert "Migration to OLM v1" not in render_markdown(report, label="x", when=None)


def test_the_text_and_markdown_sections() -> None:
    report = report_of(cluster(), [content()])
    text = render_text(report)
    section = text[text.index("MIGRATION TO OLM V1") :]
    assert "1 Conflict, 1 Ineligible, 1 Eligible" in section
    assert "Subscription team/pkg (pkg)  Ineligible: fails C1" in section
    assert "C1: OperatorGroup og targets namespaces team" in section
    assert "      kind: ClusterExtension" in section
    markdown = render_markdown(report, label="x", when=None)
    part = markdown[markdown.index("## Migration to OLM v1") :]
    assert "- Subscription half/done (half): **Conflict**" in part
    assert "  ```yaml\n  # The ClusterExtension a conversion of Subscription" in part
