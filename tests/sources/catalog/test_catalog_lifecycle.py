"""R-LCY-1: the catalog readers keep ``io.openshift.operators.lifecycles.v1alpha1`` documents
per package (FBC YAML and JSON, and catalogd's stream), and refuse a malformed one with its
file and line while the rest of the catalog loads. Upstream examples in tests/data/lifecycle
(see SOURCES.md)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from data_paths import DATA

from olmtui.model.records.catalog import Catalog
from olmtui.model.records.lifecycle import LIFECYCLE_SCHEMA
from olmtui.sources.catalog.catalogs import load_catalog
from olmtui.sources.catalog.fbc import FBCIndexer, load_fbc

LIFECYCLE = DATA / "lifecycle"
EFS = LIFECYCLE / "aws-efs-csi-driver-operator.lifecycle.yaml"


def _package_docs(name: str) -> list[dict[str, Any]]:
    return [
        {"schema": "olm.package", "name": name, "defaultChannel": "stable"},
        {
            "schema": "olm.channel",
            "package": name,
            "name": "stable",
            "entries": [{"name": f"{name}.v1.0.0"}],
        },
        {
            "schema": "olm.bundle",
            "package": name,
            "name": f"{name}.v1.0.0",
            "properties": [
                {"type": "olm.package", "value": {"packageName": name, "version": "1.0.0"}}
            ],
        },
    ]


def test_the_enhancement_example_is_kept_on_its_package() -> None:
    catalog = load_catalog(str(EFS))
    assert catalog.findings == []
    (doc,) = catalog.packages["aws-efs-csi-driver-operator"].lifecycles
    assert [v.name for v in doc.versions] == ["4.12", "4.17"]
    v412 = doc.versions[0]
    assert v412.minor == (4, 12)
    assert v412.openshift == ("4.12",)
    assert [p.name for p in v412.phases] == [
        "Full support",
        "Maintenance support",
        "Extended update support",
        "Extended update support Term 2",
        "Extended update support Term 3",
    ]
    assert (v412.phases[0].start, v412.phases[-1].end) == (
        dt.date(2023, 1, 17),
        dt.date(2027, 1, 17),
    )
    assert doc.where == f"{EFS}:1"


def test_json_and_yaml_read_alike_and_sit_beside_the_packages_documents(tmp_path: Path) -> None:
    raw = yaml.safe_load(EFS.read_text())
    stream = tmp_path / "catalog.json"
    stream.write_text(
        "\n".join(json.dumps(d) for d in [*_package_docs("aws-efs-csi-driver-operator"), raw])
    )
    from_json = load_catalog(str(stream))
    package = from_json.packages["aws-efs-csi-driver-operator"]
    assert from_json.findings == []
    assert package.lifecycles == load_catalog(str(EFS)).packages[package.name].lifecycles
    assert set(package.bundles) == {"aws-efs-csi-driver-operator.v1.0.0"}


def test_catalogd_stream_keeps_them_as_the_file_reader_does() -> None:
    catalog = Catalog(None, "catalogd")
    indexer = FBCIndexer(catalog, Path("all"))
    indexer.add(yaml.safe_load(EFS.read_text()))
    indexer.finish()
    assert catalog.packages["aws-efs-csi-driver-operator"].lifecycles == (
        load_catalog(str(EFS)).packages["aws-efs-csi-driver-operator"].lifecycles
    )


def test_the_console_fixtures_phases_read_and_its_empty_phases_are_refused() -> None:
    ok = load_catalog(str(LIFECYCLE / "test-operator.lifecycle.json"))
    (doc,) = ok.packages["test-operator"].lifecycles
    assert [p.name for p in doc.versions[0].phases] == [
        "Maintenance support",
        "Extended life cycle support",
    ]
    refused = Catalog(None, "console")
    load_fbc([LIFECYCLE / "test-operator-compatibility.lifecycle.json"], refused)
    assert "test-operator" not in refused.packages
    (finding,) = refused.findings
    assert finding.code == "UnreadableCatalogFile"
    assert "line 1:" in finding.message
    assert "versions[0].phases is not a non-empty list" in finding.message


def _doc(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "schema": LIFECYCLE_SCHEMA,
        "package": "pkg",
        "versions": [
            {
                "name": "1.2",
                "phases": [
                    {"name": "Full support", "startDate": "2025-01-01", "endDate": "2025-12-31"}
                ],
            }
        ],
    }
    doc.update(changes)
    return doc


def _phase(**changes: Any) -> dict[str, Any]:
    phase = {"name": "Full support", "startDate": "2025-01-01", "endDate": "2025-12-31"}
    phase.update(changes)
    return phase


BROKEN = {
    "no package": (_doc(package=None), "package is not a non-empty string"),
    "no versions": (_doc(versions=[]), "versions is not a non-empty list"),
    "a version that is a string": (_doc(versions=["1.2"]), "versions[0] is not a mapping"),
    "a version without a name": (
        _doc(versions=[{"phases": [_phase()]}]),
        "versions[0].name is not a non-empty string",
    ),
    "a date that is no date": (
        _doc(versions=[{"name": "1.2", "phases": [_phase(endDate="2025-02-30")]}]),
        "versions[0].phases[0].endDate '2025-02-30' is not a date",
    ),
    "a date in another format": (
        _doc(versions=[{"name": "1.2", "phases": [_phase(startDate="01/01/2025")]}]),
        "is not a YYYY-MM-DD date",
    ),
    "an end before its start": (
        _doc(versions=[{"name": "1.2", "phases": [_phase(endDate="2024-12-31")]}]),
        "ends on or before it starts",
    ),
    "compatibility that is a mapping": (
        _doc(versions=[{"name": "1.2", "phases": [_phase()], "platformCompatibility": {}}]),
        "platformCompatibility is not a list",
    ),
    "a platform without versions": (
        _doc(
            versions=[
                {
                    "name": "1.2",
                    "phases": [_phase()],
                    "platformCompatibility": [{"name": "openshift"}],
                }
            ]
        ),
        "platformCompatibility[0] is not a non-empty list",
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_malformed_document_is_reported_with_file_and_line_and_skipped(
    tmp_path: Path, case: str
) -> None:
    doc, why = BROKEN[case]
    path = tmp_path / "catalog.yaml"
    path.write_text(yaml.safe_dump_all([*_package_docs("pkg"), doc], sort_keys=False))
    catalog = load_catalog(str(path))
    package = catalog.packages["pkg"]
    assert package.lifecycles == []
    assert set(package.bundles) == {"pkg.v1.0.0"}, "the rest of the catalog loads"
    (finding,) = catalog.findings
    # a document is placed at its ``---`` line
    lines = path.read_text().splitlines()
    line = max(n for n, text in enumerate(lines, 1) if text == "---")
    assert f"{path}: line {line}: {LIFECYCLE_SCHEMA} document is malformed" in finding.message
    assert why in finding.message


def test_unknown_fields_are_ignored_and_equal_documents_are_one(tmp_path: Path) -> None:
    doc = _doc(note="not in the schema")
    path = tmp_path / "catalog.yaml"
    path.write_text(yaml.safe_dump_all([doc, _doc()]))
    catalog = load_catalog(str(path))
    assert catalog.findings == []
    assert len(catalog.packages["pkg"].lifecycles) == 1


def test_unquoted_yaml_dates_read_as_opm_reads_them(tmp_path: Path) -> None:
    text = EFS.read_text().replace('"2023-01-17"', "2023-01-17")
    assert "startDate: 2023-01-17\n" in text
    path = tmp_path / "unquoted.yaml"
    path.write_text(text)
    catalog = load_catalog(str(path))
    assert catalog.findings == []
    assert catalog.packages["aws-efs-csi-driver-operator"].lifecycles == (
        load_catalog(str(EFS)).packages["aws-efs-csi-driver-operator"].lifecycles
    )


def test_two_different_documents_are_both_kept_for_the_rules_to_refuse(tmp_path: Path) -> None:
    other = _doc(versions=[{"name": "1.3", "phases": [_phase()]}])
    path = tmp_path / "catalog.yaml"
    path.write_text(yaml.safe_dump_all([_doc(), other]))
    assert len(load_catalog(str(path)).packages["pkg"].lifecycles) == 2
