"""``clusterExtensions[]`` and ``clusterCatalogs[]`` (R-V1-20): always
present, sorted by name, valid against the shipped schema; the OLM v1 sections of the text and
Markdown reports only when there are v1 objects; and must-gather paths of the v1 kinds load."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml
from report_records import validate_report
from v1_objects import CATALOG_DIGEST, catalog, condition, extension

from olmtui.cli import main
from olmtui.model.incremental.engine import Model
from olmtui.model.records.catalog import Catalog
from olmtui.model.rules.v1 import resolve as v1_resolve
from olmtui.model.rules.v1.resolve import V1Resolution
from olmtui.report import report_json
from olmtui.report.markdown_report import render_markdown
from olmtui.report.text_report import render_text
from olmtui.sources.snapshots.snapshot import load_snapshot
from olmtui.store import Store

V1_GROUP = "olm.operatorframework.io"


def report_of(objects: list[dict[str, Any]]) -> dict[str, Any]:
    store = Store()
    store.apply_many(objects)
    report = report_json("snapshot", Model(store), store)
    validate_report(report)
    return report


def test_lists_are_present_and_empty_without_olm_v1() -> None:
    report = report_of([])
    assert report["clusterExtensions"] == []
    assert report["clusterCatalogs"] == []
    assert "OLM V1" not in render_text(report)
    assert "OLM v1" not in render_markdown(report, label="x", when=None)


def test_cluster_extension_entry_as_the_contract_says() -> None:
    second = extension(
        "a-first",
        version=">=1.0.0",
        channels=["stable"],
        service_account="installer",
        installed=None,
        conditions=[condition("Progressing", "True", "Retrying", "no bundles found")],
    )
    report = report_of([extension(), second])
    assert [e["name"] for e in report["clusterExtensions"]] == ["a-first", "argocd"]
    first, argocd = report["clusterExtensions"]
    assert argocd == {
        "name": "argocd",
        "namespace": "argocd",
        "serviceAccount": None,
        "package": "argocd-operator",
        "versionRange": None,
        "channels": [],
        "upgradeConstraintPolicy": "CatalogProvided",
        "installed": {"bundle": "argocd-operator.v0.6.0", "version": "0.6.0"},
        "conditions": argocd["conditions"],
        # No catalog content given: the resolution is not computed (R-V1-9).
        "resolved": None,
        "error": None,
        # No spec.progressDeadlineMinutes, no revisions read (R-V1-24).
        "progressDeadlineMinutes": None,
        "revisions": [],
        # No lifecycle document in the (absent) catalog content (R-LCY-2).
        "lifecycle": None,
    }
    assert argocd["conditions"]["Progressing"] == {
        "status": "True",
        "reason": "Succeeded",
        "message": "Desired state reached",
    }
    assert (first["serviceAccount"], first["versionRange"], first["channels"]) == (
        "installer",
        ">=1.0.0",
        ["stable"],
    )
    assert first["installed"] is None
    assert first["conditions"] == {
        "Progressing": {"status": "True", "reason": "Retrying", "message": "no bundles found"}
    }


def test_cluster_catalog_entries_sorted_by_name() -> None:
    report = report_of(
        [catalog(), catalog("b-catalog", priority=-100, serving=None, unpacked=False)]
    )
    assert report["clusterCatalogs"] == [
        {
            "name": "b-catalog",
            "priority": -100,
            "serving": None,
            "ref": "quay.io/operatorhubio/catalog:latest",
            "resolvedRef": None,
            "lastUnpacked": None,
        },
        {
            "name": "operatorhubio",
            "priority": 0,
            "serving": True,
            "ref": "quay.io/operatorhubio/catalog:latest",
            "resolvedRef": CATALOG_DIGEST,
            "lastUnpacked": "2024-11-13T15:11:18Z",
        },
    ]


def stand_in(resolution: V1Resolution) -> Any:
    def resolve(
        ext: dict[str, Any], catalogs: Sequence[dict[str, Any]], content: Mapping[str, Catalog]
    ) -> V1Resolution:
        return resolution

    return resolve


def test_r_v1_20_resolved_and_error_come_from_the_resolver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    picked = V1Resolution("argocd-operator.v0.7.0", "0.7.0", "operatorhubio")
    monkeypatch.setattr(v1_resolve, "resolve_extension", stand_in(picked))
    (entry,) = report_of([extension(), catalog()])["clusterExtensions"]
    assert entry["resolved"] == {
        "bundle": "argocd-operator.v0.7.0",
        "version": "0.7.0",
        "catalog": "operatorhubio",
    }
    assert entry["error"] is None
    failed = V1Resolution(error='no bundles found for package "argocd-operator"')
    monkeypatch.setattr(v1_resolve, "resolve_extension", stand_in(failed))
    (entry,) = report_of([extension(), catalog()])["clusterExtensions"]
    assert (entry["resolved"], entry["error"]) == (None, failed.error)
    monkeypatch.setattr(v1_resolve, "resolve_extension", stand_in(V1Resolution(unknown="x")))
    (entry,) = report_of([extension(), catalog()])["clusterExtensions"]
    assert (entry["resolved"], entry["error"]) == (None, None)


def test_text_and_markdown_sections_with_v1_objects() -> None:
    report = report_of([extension(), catalog()])
    text = render_text(report)
    assert "OLM V1" in text
    assert "argocd  package argocd-operator into namespace argocd" in text
    assert "Installed" in text and "operatorhubio  priority 0, serving" in text
    with_account = render_text(report_of([extension(service_account="installer")]))
    assert "service account installer (deprecated, ignored)" in " ".join(with_account.split())
    note = render_markdown(report, label="x", when=None)
    assert "## OLM v1" in note
    assert "- ClusterCatalog operatorhubio: priority 0, serving" in note


def must_gather(root: Path) -> Path:
    """A must-gather holding only OLM v1 objects, where ``oc adm inspect`` puts them."""
    base = root / "quay-io-openshift-must-gather-sha256-abc" / "cluster-scoped-resources" / V1_GROUP
    for plural, obj in (("clusterextensions", extension()), ("clustercatalogs", catalog())):
        folder = base / plural
        folder.mkdir(parents=True)
        (folder / f"{obj['metadata']['name']}.yaml").write_text(yaml.safe_dump(obj))
    return root


def test_must_gather_paths_of_the_v1_kinds_load(tmp_path: Path) -> None:
    store = Store()
    result = load_snapshot([must_gather(tmp_path)], store)
    assert result.objects == 2
    assert store.get("ClusterExtension", "", "argocd") is not None
    assert store.get("ClusterCatalog", "", "operatorhubio") is not None
    assert result.ignored_kinds == {}


def test_check_of_a_v1_only_must_gather(tmp_path: Path) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["check", str(must_gather(tmp_path)), "--output", "json"])
    report = json.loads(out.getvalue())
    assert status == 0
    assert [e["name"] for e in report["clusterExtensions"]] == ["argocd"]
    assert [c["name"] for c in report["clusterCatalogs"]] == ["operatorhubio"]
    assert [f for f in report["findings"] if f["severity"] != "info"] == []
